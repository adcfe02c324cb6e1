// The object the search worker exposes (comlink): one layout search of an interchange
// document at a time (model/search-document.ts), progress handed to a callback at every
// step, and a cancel flag the search reads at each step (control.shouldStop), so a
// cancelled search ends with the part searched (stopped: true).

import { searchDocumentSteps, type SearchDocumentOutput } from '../model/search/index.ts';
import type { SearchOptions, SearchProgress } from '../model/search/index.ts';

/** Yields to the worker's event loop between steps, so a `cancel` message is handled. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function createSearchApi() {
  let cancelled = false;
  return {
    async search(
      document: unknown,
      options: SearchOptions,
      onProgress?: (progress: SearchProgress) => void,
    ): Promise<SearchDocumentOutput> {
      cancelled = false;
      const steps = searchDocumentSteps(document, options, { shouldStop: () => cancelled });
      for (;;) {
        const next = steps.next();
        if (next.done) return next.value;
        // Not awaited: the page's answer to a progress call must never hold up the search.
        void onProgress?.(next.value);
        await nextTask();
      }
    },
    /** Ends the running search at its next step; it returns what it found (stopped: true). */
    cancel(): void {
      cancelled = true;
    },
  };
}

export type SearchApi = ReturnType<typeof createSearchApi>;

// The page's side of the layout search: one worker per search (a one-shot session,
// session.ts), started when the search is asked for and terminated when it answers, so
// the page pays nothing until then.
// Cancel asks the worker to stop at its next step (it answers with the part searched,
// stopped: true); a worker that has not answered `graceMs` later is terminated. A
// worker that crashes gives an error value, never a hanging promise.

import { proxy, type Remote } from 'comlink';
import type { SearchDocumentOutput } from '../model/search/index.ts';
import type { SearchOptions, SearchProgress } from '../model/search/index.ts';
import type { SearchApi } from './search-api.ts';
import { createWorkerSession, type WorkerLike } from './session.ts';

export type SearchOutcome =
  | { readonly kind: 'done'; readonly output: SearchDocumentOutput }
  /** Cancelled: `output` holds the part searched, or is null when the worker had to be terminated first. */
  | { readonly kind: 'cancelled'; readonly output: SearchDocumentOutput | null }
  | { readonly kind: 'failed'; readonly error: string };

export interface SearchJob {
  readonly outcome: Promise<SearchOutcome>;
  cancel(): void;
}

/** A search steps every few thousand layouts (milliseconds), so a worker that does not stop within this is stuck. */
export const CANCEL_GRACE_MS = 2000;

export function startSearch(
  createWorker: () => WorkerLike,
  document: unknown,
  options: SearchOptions,
  onProgress: (progress: SearchProgress) => void,
  graceMs = CANCEL_GRACE_MS,
): SearchJob {
  const session = createWorkerSession<SearchApi>(createWorker, {
    policy: 'one-shot',
    crashMessage: 'the search worker stopped unexpectedly',
    rejectMessage: 'the search could not be run',
  });
  const abandon = new AbortController();
  let remote: Remote<SearchApi> | null = null;
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const outcome = session
    .call((r) => {
      remote = r;
      return r.search(document, options, proxy(onProgress));
    }, abandon.signal)
    .then((answer): SearchOutcome => {
      clearTimeout(timer);
      if (answer.ok) return answer.value.stopped ? { kind: 'cancelled', output: answer.value } : { kind: 'done', output: answer.value };
      // Terminated after the grace period, or the cancelled search's call failing: cancelled, with nothing to show.
      if (answer.failure === 'aborted' || (cancelled && answer.failure === 'rejected')) return { kind: 'cancelled', output: null };
      return { kind: 'failed', error: answer.message };
    });

  return {
    outcome,
    cancel() {
      if (cancelled) return;
      cancelled = true;
      remote?.cancel().catch(() => {});
      timer = setTimeout(() => abandon.abort(), graceMs);
    },
  };
}

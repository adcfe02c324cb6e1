// The page's side of the layout search: one worker per search, started when the search
// is asked for and terminated when it answers, so the page pays nothing until then.
// Cancel asks the worker to stop at its next step (it answers with the part searched,
// stopped: true); a worker that has not answered `graceMs` later is terminated. A
// worker that crashes gives an error value, never a hanging promise.

import { proxy } from 'comlink';
import type { SearchDocumentOutput } from '../model/search/index.ts';
import type { SearchOptions, SearchProgress } from '../model/search/index.ts';
import type { WorkerLike } from './client.ts';
import type { SearchApi } from './search-api.ts';
import { startOneShotWorker } from './one-shot.ts';

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
  const worker = startOneShotWorker<SearchApi>(createWorker, { crashMessage: 'the search worker stopped unexpectedly' });
  const remote = worker.remote;
  let cancelled = false;
  let settle: (outcome: SearchOutcome) => void = () => {};
  const settled = new Promise<SearchOutcome>((resolve) => { settle = resolve; });
  let timer: ReturnType<typeof setTimeout> | undefined;
  worker.failed.catch((error: Error) => settle({ kind: 'failed', error: error.message }));

  remote.search(document, options, proxy(onProgress)).then(
    (output) => settle(output.stopped ? { kind: 'cancelled', output } : { kind: 'done', output }),
    () => settle(cancelled ? { kind: 'cancelled', output: null } : { kind: 'failed', error: 'the search could not be run' }),
  );

  const outcome = settled.finally(() => {
    clearTimeout(timer);
    worker.dispose();
  });

  return {
    outcome,
    cancel() {
      if (cancelled) return;
      cancelled = true;
      remote.cancel().catch(() => {});
      timer = setTimeout(() => settle({ kind: 'cancelled', output: null }), graceMs);
    },
  };
}

// Starts the page's module workers, one function each, bundled by Vite from the URLs below
// (Vite finds a worker only where `new Worker(new URL('…', import.meta.url), { type })`
// stands written out, so each start keeps that call whole).

import type { WorkerLike } from './session.ts';

/** The estimator, the fit, the validation run and the trade-off curves. */
export function createEngineWorker(): WorkerLike {
  return new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'estimator' });
}

/** The fixes for a run that does not fit. */
export function createFixesWorker(): WorkerLike {
  return new Worker(new URL('./fixes.worker.ts', import.meta.url), { type: 'module', name: 'fixes' });
}

/** The training-log reader. */
export function createLogWorker(): WorkerLike {
  return new Worker(new URL('./log.worker.ts', import.meta.url), { type: 'module', name: 'training-log' });
}

/** The layout search. */
export function createSearchWorker(): WorkerLike {
  return new Worker(new URL('./search.worker.ts', import.meta.url), { type: 'module', name: 'layout-search' });
}

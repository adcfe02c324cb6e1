// Starts the layout-search worker (a module worker, bundled by Vite from the URL below).

import type { WorkerLike } from './session.ts';

export function createSearchWorker(): WorkerLike {
  return new Worker(new URL('./search.worker.ts', import.meta.url), { type: 'module', name: 'layout-search' });
}

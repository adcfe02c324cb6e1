// Starts the estimator worker (a module worker, bundled by Vite from the URL below).

import type { WorkerLike } from './session.ts';

export function createEngineWorker(): WorkerLike {
  return new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'estimator' });
}

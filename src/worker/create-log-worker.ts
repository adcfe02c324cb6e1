// Starts the training-log worker (a module worker, bundled by Vite from the URL below).

import type { WorkerLike } from './session.ts';

export function createLogWorker(): WorkerLike {
  return new Worker(new URL('./log.worker.ts', import.meta.url), { type: 'module', name: 'training-log' });
}

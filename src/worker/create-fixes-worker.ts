// Starts a fixes worker (a module worker, bundled by Vite from the URL below).

import type { WorkerLike } from './session.ts';

export function createFixesWorker(): WorkerLike {
  return new Worker(new URL('./fixes.worker.ts', import.meta.url), { type: 'module', name: 'fixes' });
}

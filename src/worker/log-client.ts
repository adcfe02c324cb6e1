// The page's side of "read my training log": one read in a worker of its own, started when
// asked and terminated when it answers, with progress through a comlink proxy. A worker that
// crashes or stops answering gives an error value, never a hanging promise.

import { proxy } from 'comlink';
import type { LogAnswer, LogApi } from './log-api.ts';
import type { WorkerLike } from './client.ts';
import { startOneShotWorker, WorkerFailure } from './one-shot.ts';

/** 50 MB reads in about a second; a log that takes a minute is stuck. */
export const LOG_TIMEOUT_MS = 60_000;

export async function readLogInWorker(
  createWorker: () => WorkerLike,
  source: Blob | string,
  document: unknown,
  onProgress: (fraction: number) => void,
  timeoutMs = LOG_TIMEOUT_MS,
): Promise<LogAnswer> {
  const worker = startOneShotWorker<LogApi>(createWorker, {
    crashMessage: 'the log reader stopped unexpectedly',
    timeoutMs,
    timeoutMessage: `the log was not read within ${timeoutMs / 1000} s`,
  });
  try {
    return await worker.race<LogAnswer>(worker.remote.read(source, document, proxy(onProgress)));
  } catch (error) {
    return { ok: false, errors: [error instanceof WorkerFailure ? error.message : 'the log could not be read'] };
  } finally {
    worker.dispose();
  }
}

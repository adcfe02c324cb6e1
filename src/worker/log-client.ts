// The page's side of "read my training log": one read in a worker of its own (a one-shot
// session, session.ts), started when asked and terminated when it answers, with progress
// through a comlink proxy. A worker that crashes or stops answering gives an error value,
// never a hanging promise.

import { proxy } from 'comlink';
import type { LogReport } from '../model/log/index.ts';
import type { CompareAnswer, LogAnswer, LogApi } from './log-api.ts';
import { createWorkerSession, type WorkerLike } from './session.ts';

/** 50 MB reads in about a second; a log that takes a minute is stuck. */
export const LOG_TIMEOUT_MS = 60_000;

function logSession(createWorker: () => WorkerLike, timeoutMs: number) {
  return createWorkerSession<LogApi>(createWorker, {
    policy: 'one-shot',
    crashMessage: 'the log reader stopped unexpectedly',
    timeoutMs,
    timeoutMessage: `the log was not read within ${timeoutMs / 1000} s`,
    rejectMessage: 'the log could not be read',
  });
}

/** A log already read, compared again with the page's (changed) document, in a one-shot worker. */
export async function compareLogInWorker(createWorker: () => WorkerLike, report: LogReport, document: unknown, timeoutMs = LOG_TIMEOUT_MS): Promise<CompareAnswer> {
  const answer = await logSession(createWorker, timeoutMs).call<CompareAnswer>((remote) => remote.compare(report, document));
  return answer.ok ? answer.value : { ok: false, errors: [answer.message] };
}

export async function readLogInWorker(
  createWorker: () => WorkerLike,
  source: Blob | string,
  document: unknown,
  onProgress: (fraction: number) => void,
  timeoutMs = LOG_TIMEOUT_MS,
): Promise<LogAnswer> {
  const answer = await logSession(createWorker, timeoutMs).call<LogAnswer>((remote) => remote.read(source, document, proxy(onProgress)));
  return answer.ok ? answer.value : { ok: false, errors: [answer.message] };
}

// The page's side of "read my training log": one read in a worker of its own (a one-shot
// session, session.ts), started when asked and terminated when it answers, with progress
// through a comlink proxy; and, when the page's configuration changes, the log already read
// compared again the same way. A worker that crashes or stops answering gives an error value,
// never a hanging promise.

import { proxy } from 'comlink';
import type { LogReport } from '../model/log/index.ts';
import type { CompareAnswer, LogAnswer, LogApi } from './log-api.ts';
import { oneShotClient } from './one-shot.ts';
import type { WorkerLike } from './session.ts';

/** 50 MB reads in about a second; a log that takes a minute is stuck. */
export const LOG_TIMEOUT_MS = 60_000;

const LOG_WORDS = { crash: 'the log reader stopped unexpectedly', late: 'the log was not read', rejected: 'the log could not be read' };

const askLogWorker = oneShotClient<LogApi>(LOG_WORDS, LOG_TIMEOUT_MS);

export function readLogInWorker(
  createWorker: () => WorkerLike,
  source: Blob | string,
  document: unknown,
  onProgress: (fraction: number) => void,
  timeoutMs?: number,
): Promise<LogAnswer> {
  return askLogWorker<LogAnswer>(createWorker, (remote) => remote.read(source, document, proxy(onProgress)), timeoutMs);
}

/** A log already read, compared again with the page's (changed) document, in a one-shot worker. */
export function compareLogInWorker(
  createWorker: () => WorkerLike,
  report: LogReport,
  document: unknown,
  timeoutMs?: number,
): Promise<CompareAnswer> {
  return askLogWorker<CompareAnswer>(createWorker, (remote) => Promise.resolve(remote.compare(report, document)), timeoutMs);
}

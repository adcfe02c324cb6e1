// One answer from a worker of its own: a one-shot session (session.ts), started when
// asked and terminated when it answers, so the estimator's queue never waits behind a
// long job (a fit, a log read). A worker that crashes, rejects or takes longer than
// `timeoutMs` gives the error value `{ ok: false, errors: [sentence] }`, never a
// hanging promise.

import type { Remote } from 'comlink';
import { createWorkerSession, type WorkerLike } from './session.ts';

export interface OneShotWords {
  /** "the fitting worker stopped unexpectedly" */
  readonly crash: string;
  /** "the fit did not finish" (the timeout in seconds is appended) */
  readonly late: string;
  /** "the fit could not be run" */
  readonly rejected: string;
}

export type OneShotFailure = { readonly ok: false; readonly errors: readonly string[] };

export async function askOnce<Api, Answer>(
  createWorker: () => WorkerLike,
  words: OneShotWords,
  timeoutMs: number,
  ask: (remote: Remote<Api>) => Promise<Answer>,
): Promise<Answer | OneShotFailure> {
  const session = createWorkerSession<Api>(createWorker, {
    policy: 'one-shot',
    crashMessage: words.crash,
    timeoutMs,
    timeoutMessage: `${words.late} within ${timeoutMs / 1000} s`,
    rejectMessage: words.rejected,
  });
  const answer = await session.call<Answer>(ask);
  return answer.ok ? answer.value : { ok: false, errors: [answer.message] };
}

/**
 * One kind of one-shot job (a fit, a log read): its words and its usual timeout fixed,
 * the worker's factory (a test's fake) and the question given per call.
 */
export function oneShotClient<Api>(words: OneShotWords, defaultTimeoutMs: number) {
  return <Answer>(createWorker: () => WorkerLike, ask: (remote: Remote<Api>) => Promise<Answer>, timeoutMs = defaultTimeoutMs) =>
    askOnce<Api, Answer>(createWorker, words, timeoutMs, ask);
}

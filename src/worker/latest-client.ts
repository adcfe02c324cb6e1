// A worker of its own for one kind of background answer (the fixes for a run that does
// not fit, the trade-off curves): a latest-wins session (session.ts), started on the
// first request and kept for the next, so the estimator's queue never waits behind the
// dozens of engine runs such an answer takes. Only the newest request's answer is handed
// back (older ones resolve to null); a worker that crashes or does not answer within
// `timeoutMs` is terminated and the answer is the error value `failure(reason)`, never a
// hanging promise. The next request starts afresh.

import type { Remote } from 'comlink';
import type { EngineApi } from './api.ts';
import { createWorkerSession, type WorkerLike } from './session.ts';

export interface LatestClient<Question, Answer> {
  /**
   * The answer to this question; null when a newer request superseded it, or when `signal`
   * aborted it (the worker is then terminated, so a long answer no one waits for stops at once).
   */
  request(question: Question, signal?: AbortSignal): Promise<Answer | null>;
  dispose(): void;
}

export interface LatestClientOptions<Question, Answer> {
  /** The worker call that answers one question. */
  readonly ask: (remote: Remote<EngineApi>, question: Question) => Promise<Answer>;
  /** The error value for a failed request, with a sentence for people. */
  readonly failure: (reason: string) => Answer;
  /** What is being computed, in words ("the fixes", "the trade-off curves"). */
  readonly what: string;
  readonly timeoutMs: number;
}

export function createLatestClient<Question, Answer>(
  createWorker: () => WorkerLike,
  options: LatestClientOptions<Question, Answer>,
): LatestClient<Question, Answer> {
  const session = createWorkerSession<EngineApi>(createWorker, {
    policy: 'latest-wins',
    crashMessage: `the worker that computes ${options.what} stopped unexpectedly`,
    timeoutMs: options.timeoutMs,
    timeoutMessage: `${options.what} were not computed within ${options.timeoutMs / 1000} s`,
    rejectMessage: `${options.what} could not be computed`,
  });
  return {
    async request(question, signal) {
      const answer = await session.call((remote) => options.ask(remote, question), signal);
      if (answer.ok) return answer.value;
      return answer.failure === 'superseded' || answer.failure === 'disposed' || answer.failure === 'aborted'
        ? null
        : options.failure(answer.message);
    },
    dispose: () => session.dispose(),
  };
}

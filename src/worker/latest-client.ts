// A worker of its own for one kind of background answer (the fixes for a run that does
// not fit, the trade-off curves): started on the first request and kept for the next, so
// the estimator's queue never waits behind the dozens of engine runs such an answer takes.
// Only the newest request's answer is handed back (older ones resolve to null); a worker
// that crashes or does not answer within `timeoutMs` is terminated and the answer is the
// error value `failure(reason)`, never a hanging promise. The next request starts afresh.

import { wrap, type Remote } from 'comlink';
import type { EngineApi } from './api.ts';
import type { WorkerLike } from './client.ts';

export interface LatestClient<Question, Answer> {
  /** The answer to this question; null when a newer request superseded it. */
  request(question: Question): Promise<Answer | null>;
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
  createWorker: () => WorkerLike, options: LatestClientOptions<Question, Answer>,
): LatestClient<Question, Answer> {
  let worker: WorkerLike | null = null;
  let remote: Remote<EngineApi> | null = null;
  let latest = 0;
  let fail: ((reason: string) => void) | null = null;

  const stop = () => {
    worker?.terminate();
    worker = null;
    remote = null;
  };
  const onError = () => fail?.(`the worker that computes ${options.what} stopped unexpectedly`);

  return {
    async request(question) {
      const id = ++latest;
      if (!worker || !remote) {
        worker = createWorker();
        worker.addEventListener('error', onError);
        worker.addEventListener('messageerror', onError);
        remote = wrap<EngineApi>(worker);
      }
      const call = remote;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const failed = new Promise<Answer>((resolve) => {
        const give = (reason: string) => {
          stop();
          resolve(options.failure(reason));
        };
        fail = give;
        timer = setTimeout(() => give(`${options.what} were not computed within ${options.timeoutMs / 1000} s`), options.timeoutMs);
      });
      try {
        const answer = await Promise.race([options.ask(call, question), failed]);
        return id === latest ? answer : null;
      } catch {
        return id === latest ? options.failure(`${options.what} could not be computed`) : null;
      } finally {
        clearTimeout(timer);
      }
    },
    dispose() {
      latest += 1;
      stop();
    },
  };
}

// The page's side of the estimator worker (a latest-wins session, session.ts). One
// request runs at a time and only the newest waiting one is sent next, so a dragged
// slider never queues stale work, and an answer to anything but the newest request is
// dropped. A worker that crashes or does not answer within `timeoutMs` is terminated
// and a fresh one started at once; a crash retries the newest request once.

import type { EstimateOutput } from '../model/input/index.ts';
import type { EngineApi } from './api.ts';
import { createWorkerSession, type WorkerLike } from './session.ts';

/** "A few seconds": the engine answers in milliseconds, a cold worker in well under one second. */
export const DEFAULT_TIMEOUT_MS = 4000;
/** Restarts in a row without one answer after which the client stops trying. */
export const MAX_RESTARTS_IN_A_ROW = 3;

export interface EstimatorOptions {
  readonly createWorker: () => WorkerLike;
  /** The answer to the newest request (never an older one). */
  readonly onResult: (output: EstimateOutput, document: unknown) => void;
  /** A sentence for people: the worker was restarted, or gave up. */
  readonly onRestart: (message: string) => void;
  readonly timeoutMs?: number;
}

export interface Estimator {
  /** Asks for an estimate; any earlier request that has not been answered yet is superseded. */
  request(document: unknown): void;
  dispose(): void;
}

interface Job {
  readonly id: number;
  readonly document: unknown;
  readonly retried: boolean;
}

export function createEstimator(options: EstimatorOptions): Estimator {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let latestId = 0;
  let pending: Job | null = null;
  let inFlight: Job | null = null;
  // Each generation is one worker of the session, replaced on a crash or a timeout; answers from an older one are dropped.
  let generation = 1;
  let restartsInARow = 0;
  let stopped = false;
  const session = createWorkerSession<EngineApi>(options.createWorker, {
    policy: 'latest-wins',
    crashMessage: 'crashed',
    timeoutMs,
    // A crash while idle restarts too, so the next request finds a live worker.
    onCrash: () => restart('crashed', generation),
  });

  function pump(): void {
    if (stopped || inFlight || !pending) return;
    const job = pending;
    const gen = generation;
    pending = null;
    inFlight = job;
    void session
      .call((remote) => remote.estimate(job.document))
      .then((answer) => {
        if (answer.ok) finish(gen, job, answer.value);
        // A call that throws counts as a crash: the worker is replaced and the request retried once.
        else restart(answer.failure === 'timeout' ? 'timeout' : 'crashed', gen);
      });
  }

  function finish(gen: number, job: Job, output: EstimateOutput): void {
    if (gen !== generation || stopped) return;
    inFlight = null;
    restartsInARow = 0;
    if (job.id === latestId) options.onResult(output, job.document);
    pump();
  }

  function restart(reason: 'crashed' | 'timeout', gen: number): void {
    if (gen !== generation || stopped) return;
    const failed = inFlight;
    inFlight = null;
    session.dispose();
    restartsInARow += 1;
    if (restartsInARow > MAX_RESTARTS_IN_A_ROW) {
      stopped = true;
      options.onRestart('The estimator failed several times in a row and was stopped; reload the page to try again.');
      return;
    }
    generation += 1;
    session.start();
    options.onRestart(
      reason === 'timeout'
        ? `The estimator did not answer within ${timeoutMs / 1000} s and was restarted; the figures shown are from the last configuration it answered.`
        : 'The estimator stopped unexpectedly and was restarted.',
    );
    // A crash may be bad luck, so the newest request runs once more; a timeout is not retried, as the same input would hang again.
    if (reason === 'crashed' && failed && !failed.retried && !pending && failed.id === latestId) pending = { ...failed, retried: true };
    pump();
  }

  session.start();
  return {
    request(document) {
      latestId += 1;
      pending = { id: latestId, document, retried: false };
      pump();
    },
    dispose() {
      if (stopped) return;
      stopped = true;
      session.dispose();
    },
  };
}

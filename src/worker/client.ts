// The page's side of the estimator worker. One request runs at a time and only the
// newest waiting one is sent next, so a dragged slider never queues stale work, and
// an answer to anything but the newest request is dropped. A worker that crashes or
// does not answer within `timeoutMs` is terminated and a fresh one started.

import type { Endpoint } from 'comlink';
import type { EstimateOutput } from '../model/input/index.ts';
import type { EngineApi } from './api.ts';
import { startOneShotWorker, type OneShotWorker } from './one-shot.ts';

export interface WorkerLike extends Endpoint {
  terminate(): void;
}

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

interface Job { readonly id: number; readonly document: unknown; readonly retried: boolean }

export function createEstimator(options: EstimatorOptions): Estimator {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let latestId = 0;
  let pending: Job | null = null;
  let inFlight: Job | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;
  let restartsInARow = 0;
  let stopped = false;
  let worker: OneShotWorker<EngineApi>;

  // Each generation is one worker, started as the one-shot workers are, and replaced on a crash or timeout.
  function start(): void {
    generation += 1;
    const gen = generation;
    worker = startOneShotWorker<EngineApi>(options.createWorker, { crashMessage: 'crashed' });
    worker.failed.catch(() => restart('crashed', gen));
  }

  function stop(): void {
    clearTimeout(timer);
    worker.dispose();
  }

  function pump(): void {
    if (stopped || inFlight || !pending) return;
    const job = pending;
    const gen = generation;
    pending = null;
    inFlight = job;
    timer = setTimeout(() => restart('timeout', gen), timeoutMs);
    worker.remote.estimate(job.document).then(
      (output) => finish(gen, job, output),
      () => restart('crashed', gen),
    );
  }

  function finish(gen: number, job: Job, output: EstimateOutput): void {
    if (gen !== generation || stopped) return;
    clearTimeout(timer);
    inFlight = null;
    restartsInARow = 0;
    if (job.id === latestId) options.onResult(output, job.document);
    pump();
  }

  function restart(reason: 'crashed' | 'timeout', gen: number): void {
    if (gen !== generation || stopped) return;
    const failed = inFlight;
    inFlight = null;
    stop();
    restartsInARow += 1;
    if (restartsInARow > MAX_RESTARTS_IN_A_ROW) {
      stopped = true;
      options.onRestart('The estimator failed several times in a row and was stopped; reload the page to try again.');
      return;
    }
    start();
    options.onRestart(reason === 'timeout'
      ? `The estimator did not answer within ${timeoutMs / 1000} s and was restarted; the figures shown are from the last configuration it answered.`
      : 'The estimator stopped unexpectedly and was restarted.');
    // A crash may be bad luck, so the newest request runs once more; a timeout is not retried, as the same input would hang again.
    if (reason === 'crashed' && failed && !failed.retried && !pending && failed.id === latestId) pending = { ...failed, retried: true };
    pump();
  }

  start();
  return {
    request(document) {
      latestId += 1;
      pending = { id: latestId, document, retried: false };
      pump();
    },
    dispose() {
      if (stopped) return;
      stopped = true;
      stop();
    },
  };
}

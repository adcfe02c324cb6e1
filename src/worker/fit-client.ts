// The page's side of "calibrate from your run": one fit (fit-run.ts) in a worker of
// its own (a one-shot session, session.ts), started when asked and terminated when it
// answers, so the estimator's queue never waits behind the ~40 engine runs of a
// bisection. A worker that crashes or takes longer than `timeoutMs` gives an error
// value, never a hanging promise.

import type { RunFitResult, RunMeasurement } from '../model/validation/index.ts';
import type { EngineApi } from './api.ts';
import { oneShotClient } from './one-shot.ts';
import type { WorkerLike } from './session.ts';

/** A fit runs the engine about 40 times per measurement: well under a second, except on a cold worker. */
export const FIT_TIMEOUT_MS = 20_000;

const FIT_WORDS = {
  crash: 'the fitting worker stopped unexpectedly',
  late: 'the fit did not finish',
  rejected: 'the fit could not be run',
};

const askFitWorker = oneShotClient<EngineApi>(FIT_WORDS, FIT_TIMEOUT_MS);

export function runFit(
  createWorker: () => WorkerLike,
  document: unknown,
  measurement: RunMeasurement,
  timeoutMs?: number,
): Promise<RunFitResult> {
  return askFitWorker<RunFitResult>(createWorker, (remote) => remote.fitRun(document, measurement), timeoutMs);
}

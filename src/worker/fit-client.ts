// The page's side of "calibrate from your run": one fit (fit-run.ts) in a worker of
// its own (a one-shot session, session.ts), started when asked and terminated when it
// answers, so the estimator's queue never waits behind the ~40 engine runs of a
// bisection. A worker that crashes or takes longer than `timeoutMs` gives an error
// value, never a hanging promise.

import type { RunFitResult, RunMeasurement } from '../model/validation/index.ts';
import type { EngineApi } from './api.ts';
import { createWorkerSession, type WorkerLike } from './session.ts';

/** A fit runs the engine about 40 times per measurement: well under a second, except on a cold worker. */
export const FIT_TIMEOUT_MS = 20_000;

export async function runFit(
  createWorker: () => WorkerLike,
  document: unknown,
  measurement: RunMeasurement,
  timeoutMs = FIT_TIMEOUT_MS,
): Promise<RunFitResult> {
  const session = createWorkerSession<EngineApi>(createWorker, {
    policy: 'one-shot',
    crashMessage: 'the fitting worker stopped unexpectedly',
    timeoutMs,
    timeoutMessage: `the fit did not finish within ${timeoutMs / 1000} s`,
    rejectMessage: 'the fit could not be run',
  });
  const answer = await session.call<RunFitResult>((remote) => remote.fitRun(document, measurement));
  return answer.ok ? answer.value : { ok: false, errors: [answer.message] };
}

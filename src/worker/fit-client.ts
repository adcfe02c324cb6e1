// The page's side of "calibrate from your run": one fit (fit-run.ts) in a worker of
// its own, started when asked and terminated when it answers, so the estimator's
// queue never waits behind the ~40 engine runs of a bisection. A worker that crashes
// or takes longer than `timeoutMs` gives an error value, never a hanging promise.

import { wrap } from 'comlink';
import type { RunFitResult, RunMeasurement } from '../model/validation/fit-run.ts';
import type { EngineApi } from './api.ts';
import type { WorkerLike } from './client.ts';

/** A fit runs the engine about 40 times per measurement: well under a second, except on a cold worker. */
export const FIT_TIMEOUT_MS = 20_000;

export async function runFit(
  createWorker: () => WorkerLike,
  document: unknown,
  measurement: RunMeasurement,
  timeoutMs = FIT_TIMEOUT_MS,
): Promise<RunFitResult> {
  const worker = createWorker();
  const remote = wrap<EngineApi>(worker);
  let fail: (reason: string) => void = () => {};
  const failed = new Promise<RunFitResult>((resolve) => { fail = (reason) => resolve({ ok: false, errors: [reason] }); });
  const onError = () => fail('the fitting worker stopped unexpectedly');
  const timer = setTimeout(() => fail(`the fit did not finish within ${timeoutMs / 1000} s`), timeoutMs);
  worker.addEventListener('error', onError);
  worker.addEventListener('messageerror', onError);
  try {
    return await Promise.race([remote.fitRun(document, measurement), failed]);
  } catch {
    return { ok: false, errors: ['the fit could not be run'] };
  } finally {
    clearTimeout(timer);
    worker.removeEventListener('error', onError);
    worker.removeEventListener('messageerror', onError);
    worker.terminate();
  }
}

// The page's side of the Validation page's computation: a second worker (a one-shot
// session, session.ts), started only when the page is opened, so the 400 cases never
// queue behind (or time out) the estimator's requests. It validates in batches so the
// page can show progress, and is terminated when done or abandoned.

import type { CaseResult } from '../model/validation/index.ts';
import type { EngineApi } from './api.ts';
import { createWorkerSession, type WorkerLike } from './session.ts';

export interface ValidationProgress {
  readonly done: number;
  readonly total: number;
}

/** Cases per request: small enough for steady progress, large enough that messaging costs nothing. */
export const VALIDATION_BATCH = 20;

/** The validated cases; rejects with a sentence for people when the worker crashes or `signal` aborts. */
export async function runValidation(
  createWorker: () => WorkerLike,
  onProgress: (progress: ValidationProgress) => void,
  signal?: AbortSignal,
): Promise<CaseResult[]> {
  const session = createWorkerSession<EngineApi>(createWorker, {
    policy: 'one-shot',
    crashMessage: 'the validation worker stopped unexpectedly',
    abortMessage: 'validation abandoned',
  });
  const answer = await session.call(async (remote) => {
    const results: CaseResult[] = [];
    let total = 1;
    for (let start = 0; start < total; start += VALIDATION_BATCH) {
      const batch = await remote.validate(start, VALIDATION_BATCH);
      total = batch.total;
      results.push(...batch.cases);
      onProgress({ done: Math.min(start + VALIDATION_BATCH, total), total });
    }
    return results;
  }, signal);
  if (!answer.ok) throw new Error(answer.message);
  return answer.value;
}

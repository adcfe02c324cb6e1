// Whole-number helpers every wing shares: the divisors a degree can take, and the
// micro-batches a step runs.

import { MAX_INTEGER_FIELD } from './fields.ts';
import type { ParallelConfig, TrainingConfig } from './types.ts';

/**
 * Whole-number divisors of n, ascending; none for n that is not a positive integer or is
 * above the engine's largest field value (a link with 10^18 would loop 10^9 times).
 */
export function divisors(n: number): number[] {
  if (!Number.isInteger(n) || n < 1 || n > MAX_INTEGER_FIELD) return [];
  const small: number[] = [];
  const large: number[] = [];
  for (let d = 1; d * d <= n; d++) {
    if (n % d !== 0) continue;
    small.push(d);
    if (d * d !== n) large.push(n / d);
  }
  return small.concat(large.reverse());
}

/**
 * Micro-batches each pipeline runs per optimizer step (gradient accumulation steps):
 * globalBatch / (microBatch · dp). The layout rules (consistency.ts) make it a whole
 * number; at least 1, so that no arithmetic downstream divides by a fraction of a batch.
 */
export function microBatchesPerStep(t: Pick<TrainingConfig, 'globalBatch' | 'microBatch'>, p: Pick<ParallelConfig, 'dp'>): number {
  return Math.max(1, t.globalBatch / (t.microBatch * p.dp));
}

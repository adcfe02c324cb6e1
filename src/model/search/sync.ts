// Gradient and weight synchronisation of the data-parallel groups, as the search needs it:
// comm.ts dataParallelSync's cases per ZeRO stage, written against the engine's exported
// collectives, and the affine fits the hot path uses (search-eval.test.ts checks them).

import { allGatherSeconds, allReduceSeconds, reduceScatterSeconds, type Link } from '../time/comm.ts';

/** comm.ts dataParallelSync, per step: ZeRO 0 all-reduce; 1 reduce-scatter + all-gather; 2 reduce-scatter per micro-batch + all-gather; 3 reduce-scatter per micro-batch. */
export function syncStepSeconds(zero: number, parameters: number, ranks: number, link: Link, gradBytes: number, weightBytes: number, microBatches: number): number {
  if (parameters <= 0 || ranks <= 1) return 0;
  const grads = parameters * gradBytes;
  if (zero === 0) return allReduceSeconds(grads, ranks, link);
  const scatter = reduceScatterSeconds(grads, ranks, link);
  if (zero === 1) return scatter + allGatherSeconds(parameters * weightBytes, ranks, link);
  if (zero === 2) return microBatches * scatter + allGatherSeconds(parameters * weightBytes, ranks, link);
  return microBatches * scatter;
}

/** comm.ts dataParallelSync, per micro-batch: ZeRO-3 gathers the weights for forward and again for backward. */
export function syncPerMicroBatchSeconds(parameters: number, ranks: number, link: Link, weightBytes: number): number {
  if (parameters <= 0 || ranks <= 1) return 0;
  return 2 * allGatherSeconds(parameters * weightBytes, ranks, link);
}

/** Probe points for the affine fits: parameter counts of the size the search meets, far apart. */
const PROBE_PARAMETERS = [1e9, 2e9] as const;

/** Writes slope and intercept of f(p) = slope·p + intercept (for p > 0) at out[at], out[at + 1]. */
export function affine(out: Float64Array, at: number, f: (parameters: number) => number): void {
  const [p1, p2] = PROBE_PARAMETERS;
  const f1 = f(p1);
  const slope = (f(p2) - f1) / (p2 - p1);
  out[at] = slope;
  out[at + 1] = f1 - slope * p1;
}

export function minOf(values: Float64Array): number {
  let least = Infinity;
  for (const v of values) if (v < least) least = v;
  return least === Infinity ? 0 : least;
}

// Closed forms of the pipeline bubble, and the fallback that times a step from them
// when simulating it would need too many blocks to hold in memory.

import type { ScheduleInput, ScheduleSummary } from './types.ts';
import type { ScheduleKind } from '../input/index.ts';

/** Counts below 1 (or not finite) become 1; fractions are floored. */
export const positiveCount = (x: number): number => (Number.isFinite(x) && x >= 1 ? Math.floor(x) : 1);
/** Negative, missing or non-finite times become 0. */
export const nonNegativeSeconds = (x: number | undefined): number => (x !== undefined && Number.isFinite(x) && x > 0 ? x : 0);

/**
 * Bubble time over ideal (bubble-free) time, closed forms. B below is the whole
 * backward, W its weight-gradient part (DeepSeek-V3 report, arXiv 2412.19437, table 2).
 * - GPipe, 1F1B: (p−1)(F+B) over m(F+B) = (p−1)/m (Narayanan et al. 2021, section 2.2).
 * - Interleaved 1F1B: (p−1)/(v·m) (same section) once m ≥ p. With fewer micro-batches
 *   than stages a round of v chunks cannot fill the pipeline: each of the v−1 later
 *   rounds also waits p−m chunk slots, [(p−1) + (p−m)(v−1)]/(v·m) (derived from the
 *   simulated Megatron-Core order, and equal to it: schedule.test.ts). At m = 1 that is
 *   (p−1)/m, as without interleaving.
 * - ZB-H1: (p−1)(F+B−2W) (Qi et al. 2023, section 3.1, where it reads (p−1)(F+B−W) with
 *   B the input-gradient part); with F = B−W = W that is (p−1)F over 3mF = (p−1)/(3m).
 * - DualPipe: (p/2−1)(F&B+B−3W), times of one chunk; with F = B−W = W and
 *   F&B = F+B = 3F that is (p/2−1)·2F over 3mF = (p−2)/(3m), m counting both directions.
 */
export function bubbleOverIdeal(kind: ScheduleKind, p: number, m: number, v: number): number {
  const stages = positiveCount(p);
  const microBatches = positiveCount(m);
  switch (kind) {
    case 'gpipe':
    case '1f1b':
      return (stages - 1) / microBatches;
    case 'interleaved-1f1b': {
      const chunks = positiveCount(v);
      return (stages - 1 + Math.max(0, stages - microBatches) * (chunks - 1)) / (chunks * microBatches);
    }
    case 'zero-bubble':
      return (stages - 1) / (3 * microBatches);
    case 'dualpipe':
      return Math.max(0, stages - 2) / (3 * microBatches);
  }
}

/** A DualPipe device holds two chunks and a micro-batch passes one of them. */
export const DUALPIPE_CHUNK_SHARE = 1 / 2;

/** Blocks a simulation creates: forward and backward (and W for ZB-H1) per chunk; DualPipe at most three per micro-batch. */
export function blockCount(kind: ScheduleKind, p: number, m: number, v: number): number {
  const chunks = kind === 'interleaved-1f1b' ? v : 1;
  const perChunk = kind === 'zero-bubble' || kind === 'dualpipe' ? 3 : 2;
  return p * m * chunks * perChunk;
}

/**
 * Blocks beyond which a step is timed by the closed form instead of simulated. The
 * simulation's cost grows with its blocks (about 60 bytes of typed arrays and a few
 * hundred nanoseconds each): 200,000 blocks stay within a slider move's budget
 * (e2e/extreme-inputs.spec.ts) and far below memory trouble.
 */
export const MAX_SIMULATED_BLOCKS = 200_000;

/**
 * Makespan over the busiest device's work per micro-batch times m: 1 + bubble/ideal
 * (Narayanan et al. 2021, section 2.2), with DualPipe's chunk share (a device's times
 * cover both of its chunks; a micro-batch passes one of them).
 */
export function pipelineTimeFactor(kind: ScheduleKind, p: number, m: number, v: number): number {
  return (kind === 'dualpipe' ? DUALPIPE_CHUNK_SHARE : 1) * (1 + bubbleOverIdeal(kind, p, m, v));
}

/** One point-to-point hop per stage boundary for the first forward and again for the last backward. */
export function pipelineBoundarySeconds(p: number, p2pSeconds: number): number {
  return p > 1 ? 2 * (p - 1) * p2pSeconds : 0;
}

/**
 * The busiest device's work times (1 + bubble/ideal), plus one point-to-point hop per
 * stage boundary for the first forward and again for the last backward.
 */
export function closedFormSummary(input: ScheduleInput, note: string): ScheduleSummary {
  const p = positiveCount(input.stages);
  const m = positiveCount(input.microBatches);
  const share = input.kind === 'dualpipe' ? DUALPIPE_CHUNK_SHARE : 1;
  let busiest = 0;
  let busySeconds = 0;
  for (let d = 0; d < p; d++) {
    const work = nonNegativeSeconds(input.forwardSeconds[d]) + nonNegativeSeconds(input.backwardSeconds[d]);
    busiest = Math.max(busiest, work);
    busySeconds += m * share * work;
  }
  const makespanSeconds =
    m * busiest * pipelineTimeFactor(input.kind, p, m, input.virtualStages) +
    pipelineBoundarySeconds(p, nonNegativeSeconds(input.p2pSeconds));
  const capacity = p * makespanSeconds;
  return {
    makespanSeconds,
    busySeconds,
    bubbleFraction: capacity > 0 ? Math.max(0, 1 - busySeconds / capacity) : 0,
    adjustment: note,
  };
}

// Failures, checkpointing and goodput of a long run, and the data rate the input
// pipeline must sustain. Sizes come in as arguments (parameter counts live in
// params.ts); everything here is in seconds and bytes.

import { RESTART_SECONDS } from '../calibration.ts';
import type { CostConfig } from '../input/index.ts';
import { GB, SECONDS_PER_MINUTE } from '../input/index.ts';
import { interruptionRates } from './interruptions.ts';

/** Expected interruptions: GPU-hours over the per-GPU mean time between failures. */
export function expectedFailures(gpuHours: number, gpuMtbfHours: number): number {
  return gpuHours / gpuMtbfHours;
}

/** A synchronous job stops when any GPU's share fails: M = per-GPU MTBF / GPUs. */
export function clusterMtbfHours(gpuMtbfHours: number, gpus: number): number {
  return gpuMtbfHours / gpus;
}

/** One checkpoint of the whole model: parameters × bytes each (weights plus optimizer states; gradients are not saved). */
export function checkpointBytes(parameters: number, bytesPerParameter: number): number {
  return parameters * bytesPerParameter;
}

/** δ: time the job is blocked writing one checkpoint at the storage's aggregate bandwidth. */
export function checkpointWriteSeconds(bytes: number, checkpointWriteGBps: number): number {
  return bytes / (checkpointWriteGBps * GB);
}

/**
 * Optimum checkpoint interval τ = √(2δM) (Young 1974, "A first order approximation
 * to the optimum checkpoint interval", CACM 17(9)). Daly 2006 refines it by terms of
 * order δ/M, which stay under a few per cent while δ ≪ M.
 */
export function youngCheckpointIntervalSeconds(writeSeconds: number, clusterMtbfSeconds: number): number {
  return Math.sqrt(2 * writeSeconds * clusterMtbfSeconds);
}

/** Work lost per failure: half an interval on average since the last checkpoint, plus the restart. */
export function lostSecondsPerFailure(intervalSeconds: number, restartSeconds: number = RESTART_SECONDS): number {
  return intervalSeconds / 2 + restartSeconds;
}

/**
 * Goodput = useful time / wall time, from Daly's exponential model of the expected
 * wall time (Daly 2006, "A higher order estimate of the optimum checkpoint interval
 * for restart dumps", FGCS 22(3), section 3):
 *   T_wall / T_useful = M·e^(R/M)·(e^((τ+δ)/M) − 1) / τ.
 * To first order in δ/τ, τ/M and R/M this is 1 + δ/τ + (τ/2 + R)/M; unlike that form
 * it counts failures during lost work and restarts too, and stays in (0, 1].
 */
export function dalyGoodput(
  intervalSeconds: number,
  writeSeconds: number,
  clusterMtbfSeconds: number,
  restartSeconds: number = RESTART_SECONDS,
): number {
  const m = clusterMtbfSeconds;
  const restartFactor = Math.exp(restartSeconds / m);
  const segment = intervalSeconds + writeSeconds;
  // Continuous checkpointing at no cost: only restarts are lost (the limit τ → 0 of the formula).
  if (segment <= 0) return 1 / restartFactor;
  // ≤ 1 in exact arithmetic (e^x − 1 ≥ x); min() absorbs rounding when δ and R vanish.
  return Math.min(1, intervalSeconds / (m * restartFactor * Math.expm1(segment / m)));
}

export interface ReliabilityPlan {
  /** Mean time between the job's interruptions: failures, and spot preemptions when the run is on spot capacity. */
  readonly clusterMtbfSeconds: number;
  readonly checkpointWriteSeconds: number;
  /** Young's √(2δM). */
  readonly optimalCheckpointIntervalSeconds: number;
  /** The interval used: the document's, or the optimum. */
  readonly checkpointIntervalSeconds: number;
  /** R: cost.restartMinutes, else RESTART_SECONDS. */
  readonly restartSeconds: number;
  readonly lostSecondsPerFailure: number;
  readonly goodput: number;
}

type PlanCost = Pick<CostConfig, 'gpuMtbfHours' | 'checkpointWriteGBps'> &
  Partial<Pick<CostConfig, 'checkpointIntervalMinutes' | 'restartMinutes' | 'capacity' | 'preemptionsPerNodeDay'>>;

/**
 * Checkpointing plan for `gpus` GPUs saving `bytesPerCheckpoint`: at the interval the
 * document sets (cost.checkpointIntervalMinutes), else at Young's optimum. Goodput is
 * Daly's for the interval actually used, so a sweep of intervals draws his curve. M counts
 * every interruption (interruptions.ts): failures, and, given the GPUs per node, spot
 * preemptions; without gpusPerNode only failures.
 */
export function reliabilityPlan(cost: PlanCost, gpus: number, bytesPerCheckpoint: number, gpusPerNode?: number): ReliabilityPlan {
  const capacity = gpusPerNode === undefined ? 'on-demand' : (cost.capacity ?? 'on-demand');
  const rates = interruptionRates(
    { gpuMtbfHours: cost.gpuMtbfHours, capacity, preemptionsPerNodeDay: cost.preemptionsPerNodeDay ?? 0 },
    gpus,
    gpusPerNode ?? gpus,
  );
  const mtbfSeconds = 1 / rates.perSecond;
  const restartSeconds = cost.restartMinutes == null ? RESTART_SECONDS : cost.restartMinutes * SECONDS_PER_MINUTE;
  const writeSeconds = checkpointWriteSeconds(bytesPerCheckpoint, cost.checkpointWriteGBps);
  const optimalSeconds = youngCheckpointIntervalSeconds(writeSeconds, mtbfSeconds);
  const chosen = cost.checkpointIntervalMinutes;
  const intervalSeconds = chosen == null ? optimalSeconds : chosen * SECONDS_PER_MINUTE;
  return {
    clusterMtbfSeconds: mtbfSeconds,
    checkpointWriteSeconds: writeSeconds,
    optimalCheckpointIntervalSeconds: optimalSeconds,
    checkpointIntervalSeconds: intervalSeconds,
    restartSeconds,
    lostSecondsPerFailure: lostSecondsPerFailure(intervalSeconds, restartSeconds),
    goodput: dalyGoodput(intervalSeconds, writeSeconds, mtbfSeconds, restartSeconds),
  };
}

// ---- Input pipeline ------------------------------------------------------------------

/** Megatron's indexed datasets store token ids as uint16 below this vocabulary size (DType.optimal_dtype). */
export const UINT16_TOKEN_VOCAB_LIMIT = 65_500;
export const SMALL_VOCAB_TOKEN_ID_BYTES = 2;
/** int32 above it. */
export const LARGE_VOCAB_TOKEN_ID_BYTES = 4;

export function tokenIdBytes(vocab: number): number {
  return vocab < UINT16_TOKEN_VOCAB_LIMIT ? SMALL_VOCAB_TOKEN_ID_BYTES : LARGE_VOCAB_TOKEN_ID_BYTES;
}

export interface DataLoaderRate {
  readonly tokensPerSecondPerNode: number;
  readonly bytesPerSecondPerNode: number;
}

/** Token ids each node must read per second to keep the cluster fed (pre-tokenised data, no compression). */
export function dataLoaderRate(tokensPerSecond: number, vocab: number, gpus: number, gpusPerNode: number): DataLoaderRate {
  const nodes = Math.max(1, Math.ceil(gpus / gpusPerNode));
  const tokensPerSecondPerNode = tokensPerSecond / nodes;
  return { tokensPerSecondPerNode, bytesPerSecondPerNode: tokensPerSecondPerNode * tokenIdBytes(vocab) };
}

// What stops a run: failures (every GPU's share of the cluster, cost.gpuMtbfHours) and,
// on spot capacity, nodes taken back (cost.preemptionsPerNodeDay). Both are read as
// Poisson processes, so their rates add; one rule here for the rate, the price and what
// an elastic run keeps when a node goes.

import type { CostConfig, ParallelConfig } from '../input/index.ts';
import { SECONDS_PER_DAY, SECONDS_PER_HOUR } from '../input/index.ts';

type CapacityFields = Pick<CostConfig, 'capacity' | 'preemptionsPerNodeDay'>;

/** Nodes the job occupies: a partly filled last node is still a node that can be taken back. */
export function nodeCount(gpus: number, gpusPerNode: number): number {
  return Math.max(1, Math.ceil(gpus / Math.max(1, gpusPerNode)));
}

/** The preemption rate that counts: the document's on spot capacity, none on-demand. */
export function effectivePreemptionsPerNodeDay(cost: CapacityFields): number {
  return cost.capacity === 'spot' ? cost.preemptionsPerNodeDay : 0;
}

export interface InterruptionRates {
  /** Failures of the whole job per second: GPUs / (per-GPU MTBF). */
  readonly failuresPerSecond: number;
  /** Spot preemptions of the whole job per second: nodes × per-node rate. */
  readonly preemptionsPerSecond: number;
  /** The two together: a superposition of Poisson processes is one, at the summed rate. */
  readonly perSecond: number;
}

export function interruptionRates(
  cost: Pick<CostConfig, 'gpuMtbfHours'> & CapacityFields,
  gpus: number,
  gpusPerNode: number,
): InterruptionRates {
  const failuresPerSecond = gpus / (cost.gpuMtbfHours * SECONDS_PER_HOUR);
  const preemptionsPerSecond = (nodeCount(gpus, gpusPerNode) * effectivePreemptionsPerNodeDay(cost)) / SECONDS_PER_DAY;
  return { failuresPerSecond, preemptionsPerSecond, perSecond: failuresPerSecond + preemptionsPerSecond };
}

/** The price a GPU-hour is paid at: the spot price on spot capacity. */
export function usdPerGpuHourFor(cost: Pick<CostConfig, 'capacity' | 'usdPerGpuHour' | 'spotUsdPerGpuHour'>): number {
  return cost.capacity === 'spot' ? cost.spotUsdPerGpuHour : cost.usdPerGpuHour;
}

/**
 * The data-parallel degree an elastic run carries on at when one node is gone, or 0 when
 * it cannot: every model replica with a GPU on that node stops (a replica is tp·pp·cp
 * GPUs; a node of g GPUs holds ⌈g / replica⌉ of them when they are smaller than it, and
 * cuts one when a replica spans nodes), and the degree left is the largest one whose
 * tp·dp·cp ranks still form expert-parallel groups (input/consistency.ts, epProblem).
 */
export function elasticDataParallel(parallel: Pick<ParallelConfig, 'tp' | 'pp' | 'cp' | 'dp' | 'ep'>, gpusPerNode: number): number {
  const replicaGpus = parallel.tp * parallel.pp * parallel.cp;
  const lost = Math.max(1, Math.ceil(gpusPerNode / replicaGpus));
  for (let dp = parallel.dp - lost; dp >= 1; dp--) {
    if ((parallel.tp * dp * parallel.cp) % parallel.ep === 0) return dp;
  }
  return 0;
}

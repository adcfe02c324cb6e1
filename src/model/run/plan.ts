// The one rule that turns a run into its checkpointing plan and its price: what a
// checkpoint holds, the interruptions counted (failures and, on spot capacity, preemptions
// over the run's nodes), Young/Daly's interval and goodput, and the price a GPU-hour is
// paid at. estimate.ts and the layout search (search/run.ts) both read it, so the search
// ranks days and dollars exactly as the page shows them.

import type { RunConfig } from '../input/index.ts';
import { WEIGHT_BYTES } from '../input/index.ts';
import { optimizerBytesPerParameter } from '../memory/index.ts';
import { parameterCounts } from '../structure/index.ts';
import { usdPerGpuHourFor } from './interruptions.ts';
import { reliabilityPlan, type ReliabilityPlan } from './reliability.ts';

/** One checkpoint of the whole model: every parameter's weight and optimizer states (gradients are not saved). */
export function checkpointBytesOf(config: Pick<RunConfig, 'model' | 'training' | 'stack'>): number {
  const bytesPerParameter =
    WEIGHT_BYTES[config.training.precision] + optimizerBytesPerParameter(config.training, config.stack.optimizerStateDtype);
  return parameterCounts(config.model).total * bytesPerParameter;
}

export interface RunPlan {
  readonly checkpointBytes: number;
  readonly plan: ReliabilityPlan;
  /** The price paid: the spot price on spot capacity. */
  readonly usdPerGpuHour: number;
}

/** The plan for `config` on `gpus` GPUs (default: its own cluster), nodes of its cluster.gpusPerNode. */
export function runPlan(
  config: Pick<RunConfig, 'model' | 'training' | 'stack' | 'cost' | 'cluster'>,
  gpus: number = config.cluster.gpus,
  checkpointBytes: number = checkpointBytesOf(config),
): RunPlan {
  return {
    checkpointBytes,
    plan: reliabilityPlan(config.cost, gpus, checkpointBytes, config.cluster.gpusPerNode),
    usdPerGpuHour: usdPerGpuHourFor(config.cost),
  };
}

// Wall time, GPU-hours, money, energy and CO2 of a whole training run.

import { GPU_AVERAGE_POWER_FRACTION } from '../calibration.ts';
import type { CostConfig, GpuSpec } from '../input/index.ts';
import { SECONDS_PER_DAY, SECONDS_PER_HOUR } from '../input/index.ts';

const WATT_HOURS_PER_KWH = 1000;

export interface TrainingTime {
  readonly wallSeconds: number;
  readonly days: number;
  readonly hours: number;
  readonly gpuHours: number;
}

/**
 * Wall time to train on `tokens` at `tokensPerSecond` (the cluster's rate while it
 * runs), stretched by `goodput` (useful time / wall time, reliability.ts) to include
 * checkpoint writes, lost work and restarts. Needs tokensPerSecond > 0, goodput in (0, 1].
 */
export function trainingTime(tokens: number, tokensPerSecond: number, gpus: number, goodput: number): TrainingTime {
  const wallSeconds = tokens / tokensPerSecond / goodput;
  const hours = wallSeconds / SECONDS_PER_HOUR;
  return { wallSeconds, days: wallSeconds / SECONDS_PER_DAY, hours, gpuHours: gpus * hours };
}

/**
 * The figures a schedule is planned with (interchange "Output": time.tokensPerDay,
 * cost.usdPerMillionTokens): the rate the run actually advances at — the cluster's rate
 * while it runs × goodput — per day, and the price of a million tokens at that rate.
 * Computed from the rates rather than as tokens ÷ days so a zero token budget stays finite.
 */
export interface ScheduleRates {
  readonly tokensPerDay: number;
  readonly usdPerMillionTokens: number;
}

const TOKENS_PER_MILLION = 1e6;

export function scheduleRates(tokensPerSecond: number, goodput: number, gpus: number, usdPerGpuHour: number): ScheduleRates {
  const effectiveTokensPerSecond = tokensPerSecond * goodput;
  const usdPerSecond = (gpus * usdPerGpuHour) / SECONDS_PER_HOUR;
  return {
    tokensPerDay: effectiveTokensPerSecond * SECONDS_PER_DAY,
    usdPerMillionTokens: (usdPerSecond / effectiveTokensPerSecond) * TOKENS_PER_MILLION,
  };
}

export interface TrainingCost {
  readonly usd: number;
  readonly energyKwh: number;
  readonly co2Kg: number;
}

/** Energy of the GPUs alone (hosts and network excluded) × PUE for the facility. */
export function trainingEnergyKwh(cost: Pick<CostConfig, 'pue'>, gpu: Pick<GpuSpec, 'tdpWatts'>, gpuHours: number): number {
  const averageWatts = gpu.tdpWatts * GPU_AVERAGE_POWER_FRACTION;
  return (gpuHours * averageWatts * cost.pue) / WATT_HOURS_PER_KWH;
}

export function trainingCost(cost: CostConfig, gpu: Pick<GpuSpec, 'tdpWatts'>, gpuHours: number): TrainingCost {
  const energyKwh = trainingEnergyKwh(cost, gpu, gpuHours);
  return { usd: gpuHours * cost.usdPerGpuHour, energyKwh, co2Kg: energyKwh * cost.gridKgCo2PerKwh };
}

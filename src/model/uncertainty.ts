// Uncertainty of the headline figures, from how far the engine's predictions fell
// from published measurements (validation/published-runs.json, validate.ts). A row's
// signed error e = (predicted − published) / published says the measurement was
// predicted / (1 + e); the lower and upper quantiles of e over the published runs
// (uncertainty-table.ts) bound where that share of measurements fell around a
// prediction. Throughput rows bound the rate figures and, inversely, the durations
// and money that scale with 1 / throughput; memory rows bound per-GPU memory.

import type { EstimateOutput } from './types.ts';

export interface ErrorBand {
  /** Signed relative error at the lower quantile: negative when the engine under-predicted. */
  readonly lowerError: number;
  /** Signed relative error at the upper quantile: positive when the engine over-predicted. */
  readonly upperError: number;
  /** Published figures (rows with a prediction) the band was computed from. */
  readonly rows: number;
}

export interface UncertaintyTable {
  readonly lowerQuantile: number;
  readonly upperQuantile: number;
  /** Tokens per second per GPU, or MFU where that is all a source gave (scripts/validate.ts "throughput"). */
  readonly throughput: ErrorBand;
  readonly memory: ErrorBand;
}

/** 'rate': the figure grows with throughput (tokens/s, MFU); 'duration': it grows with 1 / throughput (step time, days, dollars). */
export type BandScaling = 'rate' | 'duration';

export interface ValueBand {
  readonly low: number;
  readonly high: number;
}

/**
 * Where the measured value would lie for a prediction, given the band of errors.
 * A rate measured as predicted / (1 + e) runs from predicted / (1 + upper) to
 * predicted / (1 + lower); a duration ∝ 1 / rate from predicted · (1 + lower) to
 * predicted · (1 + upper). Null when the value is not finite or an error reaches −100 %.
 */
export function measuredRange(predicted: number, band: ErrorBand, scaling: BandScaling): ValueBand | null {
  const lowerFactor = 1 + band.lowerError;
  const upperFactor = 1 + band.upperError;
  if (!Number.isFinite(predicted) || !(lowerFactor > 0) || !(upperFactor > 0)) return null;
  if (scaling === 'duration') return { low: predicted * lowerFactor, high: predicted * upperFactor };
  return { low: predicted / upperFactor, high: predicted / lowerFactor };
}

/** The headline figures that carry a band, by the output field they come from. */
export type BandedFigure = 'memoryTotal' | 'stepSeconds' | 'tokensPerSecond' | 'mfu' | 'days' | 'usd';

/** Bands for every headline figure the output has; a figure the output lacks has none. */
export function headlineBands(output: EstimateOutput, table: UncertaintyTable): Partial<Record<BandedFigure, ValueBand>> {
  if (output.errors.length > 0) return {};
  const bands: Partial<Record<BandedFigure, ValueBand>> = {};
  const put = (key: BandedFigure, value: number | undefined, band: ErrorBand, scaling: BandScaling) => {
    const range = value === undefined ? null : measuredRange(value, band, scaling);
    if (range) bands[key] = range;
  };
  put('memoryTotal', output.memory.perGpu.total, table.memory, 'rate');
  put('stepSeconds', output.throughput?.stepSeconds, table.throughput, 'duration');
  put('tokensPerSecond', output.throughput?.tokensPerSecond, table.throughput, 'rate');
  put('mfu', output.throughput?.mfu, table.throughput, 'rate');
  put('days', output.time?.days, table.throughput, 'duration');
  put('usd', output.cost?.usd, table.throughput, 'duration');
  return bands;
}

export type OomVerdict = 'safe' | 'tight' | 'will-not-fit';

export interface OomAssessment {
  readonly verdict: OomVerdict;
  /**
   * Predicted totals above this may exceed capacity once the error band is applied:
   * capacity · (1 + lower memory error), i.e. where predicted / (1 + lower) reaches capacity.
   * Equal to capacity when the engine never under-predicted memory at the lower quantile.
   */
  readonly tightFromBytes: number;
  /** tightFromBytes as a share of capacity: 1 + lower memory error (at most 1). */
  readonly tightFromShare: number;
  /** The highest total the band allows for this prediction: predicted / (1 + lower). */
  readonly upperBytes: number;
  /** How much more than predicted a measurement at the lower quantile used: 1 / (1 + lower) − 1. */
  readonly underPredictionMargin: number;
}

/**
 * "Will not fit" when the predicted total is above capacity (the engine's own
 * `fits`), "tight" when it fits but the band's upper end does not, "safe" otherwise.
 */
export function oomAssessment(totalBytes: number, capacityBytes: number, memory: ErrorBand): OomAssessment {
  const lowerFactor = 1 + Math.min(0, memory.lowerError);
  const safeFactor = lowerFactor > 0 ? lowerFactor : 0;
  const tightFromBytes = capacityBytes * safeFactor;
  const upperBytes = safeFactor > 0 ? totalBytes / safeFactor : Infinity;
  const underPredictionMargin = safeFactor > 0 ? 1 / safeFactor - 1 : Infinity;
  let verdict: OomVerdict = 'safe';
  if (totalBytes > capacityBytes) verdict = 'will-not-fit';
  else if (totalBytes > tightFromBytes) verdict = 'tight';
  return { verdict, tightFromBytes, tightFromShare: safeFactor, upperBytes, underPredictionMargin };
}

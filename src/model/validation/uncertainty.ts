// Uncertainty of the headline figures, from how far the engine's predictions fell
// from published measurements (validation/published-runs.json, validate.ts). A row's
// signed error e = (predicted − published) / published says the measurement was
// predicted / (1 + e); the lower and upper quantiles of e over the published runs
// (uncertainty-table.ts) bound where that share of measurements fell around a
// prediction. Throughput rows bound the rate figures and, inversely, the durations
// and money that scale with 1 / throughput; memory rows bound per-GPU memory.

import type { EstimateOutput, FigureRange } from '../input/index.ts';
import { fitMemoryBytes } from '../memory/index.ts';
import type { BandQuantiles } from '../uncertainty/index.ts';

export interface ErrorBand {
  /** Signed relative error at the lower quantile: negative when the engine under-predicted. */
  readonly lowerError: number;
  /** Signed relative error at the upper quantile: positive when the engine over-predicted. */
  readonly upperError: number;
  /** Published figures (rows with a prediction) the band was computed from. */
  readonly rows: number;
}

export interface UncertaintyTable extends BandQuantiles {
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

/**
 * An estimate's own ranges (output.uncertainty, from its segment of published runs:
 * uncertainty/ranges.ts) as error bands around its figures: a range [low, high] of a value
 * predicted p is p / (1 + upper) … p / (1 + lower). null when the output has none.
 */
export function ownBands(
  output: Pick<EstimateOutput, 'memory' | 'throughput' | 'uncertainty' | 'errors'>,
): { readonly throughput: ErrorBand; readonly memory: ErrorBand } | null {
  const u = output.uncertainty;
  const tokens = output.throughput?.tokensPerSecond;
  const fit = fitMemoryBytes(output);
  if (!u || output.errors.length > 0 || !tokens || !(fit > 0)) return null;
  const band = (predicted: number, range: FigureRange): ErrorBand | null =>
    range.low > 0 && range.high > 0
      ? { lowerError: predicted / range.high - 1, upperError: predicted / range.low - 1, rows: range.runs ?? 0 }
      : null;
  const throughput = band(tokens, u.tokensPerSecond);
  const memory = band(fit, u.memory);
  return throughput && memory ? { throughput, memory } : null;
}

/** The headline figures that carry a band, by the output field they come from. */
export type BandedFigure = 'memoryTotal' | 'stepSeconds' | 'tokensPerSecond' | 'mfu' | 'days' | 'usd';

/**
 * Bands for every headline figure the output has; a figure the output lacks has none. The
 * output's own ranges (its segment's, ownBands) where it has them, else the table's one band:
 * days, dollars, step time and MFU follow from the tokens/s range.
 */
export function headlineBands(output: EstimateOutput, fallback: UncertaintyTable): Partial<Record<BandedFigure, ValueBand>> {
  if (output.errors.length > 0) return {};
  const table = ownBands(output) ?? fallback;
  const bands: Partial<Record<BandedFigure, ValueBand>> = {};
  const put = (key: BandedFigure, value: number | undefined, band: ErrorBand, scaling: BandScaling) => {
    const range = value === undefined ? null : measuredRange(value, band, scaling);
    if (range) bands[key] = range;
  };
  // The figure memory.fits judges (memory/fit.ts, fitMemoryBytes), as the interchange spec's uncertainty.memory is.
  put('memoryTotal', fitMemoryBytes(output), table.memory, 'rate');
  put('stepSeconds', output.throughput?.stepSeconds, table.throughput, 'duration');
  put('tokensPerSecond', output.throughput?.tokensPerSecond, table.throughput, 'rate');
  put('mfu', output.throughput?.mfu, table.throughput, 'rate');
  put('days', output.time?.days, table.throughput, 'duration');
  put('usd', output.cost?.usd, table.throughput, 'duration');
  return bands;
}

export type OomVerdict = 'safe' | 'tight' | 'will-not-fit';

/**
 * The tight zone starts no later than this share of capacity, whatever the band says.
 * The memory rows behind the band are few (26, from three publishers), and a GPU also
 * holds what no document describes: the caching allocator's fragmentation under a
 * changing load, communicator buffers that grow with the number of groups, a
 * framework's own loss and attention kernels. A 10 % margin is the allocator reserve
 * calibration.ts already counts (ALLOCATOR_RESERVE_FRACTION) once more.
 */
export const MAX_TIGHT_FROM_SHARE = 0.9;

export interface OomAssessment {
  readonly verdict: OomVerdict;
  /**
   * Predicted totals above this may exceed capacity: capacity · (1 + lower memory error),
   * where predicted / (1 + lower) reaches capacity, or capacity · MAX_TIGHT_FROM_SHARE
   * when that is lower.
   */
  readonly tightFromBytes: number;
  /** tightFromBytes as a share of capacity: the lower of 1 + lower memory error and MAX_TIGHT_FROM_SHARE. */
  readonly tightFromShare: number;
  /** True when the fixed margin, not the band, sets where "tight" starts. */
  readonly marginFromFloor: boolean;
  /** The highest total the band allows for this prediction: predicted / (1 + lower). */
  readonly upperBytes: number;
  /** How much more than predicted a measurement at the lower quantile used: 1 / (1 + lower) − 1. */
  readonly underPredictionMargin: number;
}

/**
 * "Will not fit" when the predicted total is above capacity (the engine's own
 * `fits`), "tight" when it fits but the band's upper end does not or it is within the
 * fixed margin of capacity, "safe" otherwise.
 */
export function oomAssessment(totalBytes: number, capacityBytes: number, memory: ErrorBand): OomAssessment {
  const lowerFactor = 1 + Math.min(0, memory.lowerError);
  const bandFactor = lowerFactor > 0 ? lowerFactor : 0;
  const safeFactor = Math.min(bandFactor, MAX_TIGHT_FROM_SHARE);
  const tightFromBytes = capacityBytes * safeFactor;
  const upperBytes = bandFactor > 0 ? totalBytes / bandFactor : Infinity;
  const underPredictionMargin = bandFactor > 0 ? 1 / bandFactor - 1 : Infinity;
  let verdict: OomVerdict = 'safe';
  if (totalBytes > capacityBytes) verdict = 'will-not-fit';
  else if (totalBytes > tightFromBytes) verdict = 'tight';
  return {
    verdict,
    tightFromBytes,
    tightFromShare: safeFactor,
    marginFromFloor: safeFactor < bandFactor,
    upperBytes,
    underPredictionMargin,
  };
}

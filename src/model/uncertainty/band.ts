// The band of one segment's errors (issue 35): the 5th to 95th percentile, read outward.

import type { SegmentBand } from './table.ts';

/**
 * The 5th and 95th percentiles, for the segments' bands here and the headline table's
 * (validation/uncertainty-fit.ts uncertaintyTableOf): the band holds nine in ten published
 * runs. With 26 memory rows the 10th percentile sits on the third-smallest error (−3.9 %)
 * and would call 95 % of capacity safe although two runs used 20–25 % more than predicted.
 */
export const BAND_LOWER_QUANTILE = 0.05;
export const BAND_UPPER_QUANTILE = 0.95;

function interpolated(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const a = sorted[Math.floor(position)] ?? 0;
  const b = sorted[Math.ceil(position)] ?? a;
  return a + (b - a) * (position - Math.floor(position));
}

/**
 * The band of a segment's signed errors. The quantiles are read outward (nearest rank:
 * the lower one rounded down, the upper one up), so that at least 9 in 10 of the runs
 * lie inside even in a segment of 8 (interpolation there would leave both extremes out,
 * 6 in 8). Empty: null.
 */
export function bandOf(
  errors: readonly number[],
  lowerQuantile = BAND_LOWER_QUANTILE,
  upperQuantile = BAND_UPPER_QUANTILE,
): SegmentBand | null {
  if (errors.length === 0) return null;
  const sorted = [...errors].sort((a, b) => a - b);
  const last = sorted.length - 1;
  const abs = sorted.map(Math.abs).sort((a, b) => a - b);
  return {
    runs: sorted.length,
    lowerError: sorted[Math.floor(last * lowerQuantile)] ?? 0,
    upperError: sorted[Math.ceil(last * upperQuantile)] ?? 0,
    minError: sorted[0] ?? 0,
    maxError: sorted[last] ?? 0,
    p90AbsError: interpolated(abs, 0.9),
  };
}

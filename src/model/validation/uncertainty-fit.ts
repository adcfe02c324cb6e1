// The uncertainty table (uncertainty-table.ts) from validation rows: the lower and
// upper quantiles of the signed relative errors, throughput and memory apart, split
// exactly as `npm run validate` summarizes them (scripts/validate.ts).

import type { ErrorBand, UncertaintyTable } from './uncertainty.ts';
import { quantile, type ValidationRow } from './validate.ts';

/**
 * The 5th and 95th percentiles: the band holds nine in ten published runs. With 26
 * memory rows the 10th percentile sits on the third-smallest error (−3.9 %) and would
 * call 95 % of capacity safe although two runs used 20–25 % more than predicted.
 */
export const BAND_LOWER_QUANTILE = 0.05;
export const BAND_UPPER_QUANTILE = 0.95;

export function errorBandOf(rows: readonly ValidationRow[], lowerQuantile: number, upperQuantile: number): ErrorBand {
  const errors = rows.flatMap((r) => (r.error === null ? [] : [r.error])).sort((a, b) => a - b);
  return {
    lowerError: quantile(errors, lowerQuantile),
    upperError: quantile(errors, upperQuantile),
    rows: errors.length,
  };
}

export function isMemoryRow(row: ValidationRow): boolean {
  return row.figure === 'memoryBytesPerGpu';
}

export function uncertaintyTableOf(
  rows: readonly ValidationRow[], lowerQuantile = BAND_LOWER_QUANTILE, upperQuantile = BAND_UPPER_QUANTILE,
): UncertaintyTable {
  return {
    lowerQuantile,
    upperQuantile,
    throughput: errorBandOf(rows.filter((r) => !isMemoryRow(r)), lowerQuantile, upperQuantile),
    memory: errorBandOf(rows.filter(isMemoryRow), lowerQuantile, upperQuantile),
  };
}

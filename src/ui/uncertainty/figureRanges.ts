// The range of each headline figure (model/validation headlineBands: the estimate's own
// `uncertainty`, from its segment of published runs) formatted as the figure is, and the
// basis sentences behind them: what the strip, the cards, the embed and the compare show.

import type { EstimateOutput } from '../../model/input/index.ts';
import { headlineBands, UNCERTAINTY_TABLE, type BandedFigure } from '../../model/validation/index.ts';
import { formatDays, formatGiB, formatPercent, formatSeconds, formatTokensPerSecond, formatUsd } from '../format.ts';

/** Figure id → the output field its band is for, and the figure's own formatter. */
export const BANDED: Readonly<Record<string, { readonly key: BandedFigure; readonly format: (value: number) => string }>> = {
  'memory-total': { key: 'memoryTotal', format: formatGiB },
  'step-time': { key: 'stepSeconds', format: formatSeconds },
  'tokens-per-second': { key: 'tokensPerSecond', format: formatTokensPerSecond },
  mfu: { key: 'mfu', format: formatPercent },
  'training-days': { key: 'days', format: formatDays },
  'cost-usd': { key: 'usd', format: formatUsd },
};

/** 90: the percent of published runs a range holds. */
export const BAND_PERCENT_NUMBER = Math.round((UNCERTAINTY_TABLE.upperQuantile - UNCERTAINTY_TABLE.lowerQuantile) * 100);
/** "90 %": the share of published runs a range holds, in words. */
export const BAND_PERCENT = `${BAND_PERCENT_NUMBER} %`;

/**
 * "43.7 – 62.4 GiB": how every range reads, in its figure's own format, the unit written once
 * when both ends share it (so "43k – 59.8k tokens/s" fits under its figure), both units where
 * they differ ("18 hours – 2.1 days", "$746K – $1.0M").
 */
export function formatRange(range: { readonly low: number; readonly high: number }, format: (value: number) => string): string {
  const low = format(range.low);
  const high = format(range.high);
  const unit = sharedUnit(low, high);
  return `${unit ? low.slice(0, -unit.length) : low} – ${high}`;
}

/** The " unit" both texts end with (a space, then no digit), or "" when they differ or have none. */
function sharedUnit(low: string, high: string): string {
  const unit = / [^\d ]+$/.exec(high)?.[0] ?? '';
  return unit && low.endsWith(unit) && low.length > unit.length ? unit : '';
}

export interface FigureRangeText {
  readonly low: number;
  readonly high: number;
  /** "1.02 M – 1.38 M tokens/s" */
  readonly text: string;
}

/** The range of one headline figure, formatted; null when the figure has none. */
export function figureRange(figureId: string, output: EstimateOutput): FigureRangeText | null {
  const spec = BANDED[figureId];
  const band = spec ? headlineBands(output, UNCERTAINTY_TABLE)[spec.key] : undefined;
  if (!spec || !band) return null;
  return { low: band.low, high: band.high, text: formatRange(band, spec.format) };
}

export interface RangeBases {
  /** Why the tokens/s range (and so step time, MFU, days and dollars) is as wide as it is. */
  readonly speed: string;
  /** Why the memory range is. */
  readonly memory: string;
  /** The run lies beyond what the published runs of its segment cover. */
  readonly beyond: boolean;
}

/** The basis sentences of the estimate's ranges; null for an estimate without them. */
export function rangeBases(output: EstimateOutput): RangeBases | null {
  const u = output.errors.length === 0 ? output.uncertainty : null;
  if (!u) return null;
  return {
    speed: u.tokensPerSecond.basis,
    memory: u.memory.basis,
    beyond: Boolean(u.tokensPerSecond.beyondValidated || u.memory.beyondValidated),
  };
}

// The page's one memory verdict: safe, tight or will not fit, judged by fitVerdict
// (model/validation/verdict.ts: oomAssessment against the memory band of the validation set)
// on the one memory figure (model/memory/fit.ts, fitMemoryBytes). The strip, the phone strip,
// the embed, the search's column and hint and the trade-off table all ask here, so "tight"
// starts at the same share of capacity everywhere (issue 22, item 11) and explains itself in the same words (issue 31).

import { fitMemoryBytes } from '../../model/memory/index.ts';
import type { EstimateOutput } from '../../model/input/index.ts';
import {
  MAX_TIGHT_FROM_SHARE,
  UNCERTAINTY_TABLE,
  VERDICT_TIGHT_FROM_SHARE,
  estimateVerdict,
  fitVerdict,
  memoryBandOf,
  type ErrorBand,
  type OomAssessment,
  type OomVerdict,
} from '../../model/validation/index.ts';
import { formatGiB, formatPercent } from '../format.ts';

/** The verdict for what the device holds (memory.deviceUsed, as memory.fits judges) on a GPU of `capacityBytes`, by the validation set's one band. */
export function memoryVerdict(deviceUsedBytes: number, capacityBytes: number): OomAssessment {
  return fitVerdict(deviceUsedBytes, capacityBytes);
}

type Judged = Pick<EstimateOutput, 'memory'> & Partial<Pick<EstimateOutput, 'throughput' | 'uncertainty' | 'errors'>>;
const judged = (output: Judged) => ({ throughput: null, uncertainty: null, errors: [], ...output });

/** The verdict of an estimate, on its one memory figure, by the memory range of its own segment of published runs (issue 35). */
export function fitAssessment(output: Judged): OomAssessment {
  return output.uncertainty ? estimateVerdict(judged(output)) : memoryVerdict(fitMemoryBytes(output), output.memory.capacity);
}

/** The share of a GPU's memory above which a run is "tight" (the same for every capacity: the band is relative). */
export function tightFromShare(): number {
  return VERDICT_TIGHT_FROM_SHARE;
}

/**
 * The search form's default "memory kept free", percent: the verdict's own margin (1 − the
 * tight share), rounded up to a tenth so every layout it lists is one the strip calls safe
 * (23.0 with the current table, whose tight share is 77.10 %). The engine's default is the same
 * margin unrounded (model/search/types.ts DEFAULT_MEMORY_MARGIN).
 */
export function defaultMarginPercent(): string {
  return String(Math.ceil((1 - VERDICT_TIGHT_FROM_SHARE) * 1000 - 1e-9) / 10);
}

const ONE_IN = `1 in ${Math.round(1 / UNCERTAINTY_TABLE.lowerQuantile)}`;

/**
 * What "tight" means and where its margin comes from, in words: "Tight from 75 % of the GPU's
 * memory (60 GiB): 1 in 20 of 62 published runs used 33 % or more above their estimate."
 * With the margin set by the fixed floor (MAX_TIGHT_FROM_SHARE), the floor and what it is for.
 */
export function tightWords(capacityBytes: number, output?: Judged): string {
  const band: ErrorBand = output?.uncertainty ? memoryBandOf(judged(output)) : UNCERTAINTY_TABLE.memory;
  const a = fitVerdict(0, capacityBytes, band);
  const at = `Tight from ${formatPercent(a.tightFromShare)} of the GPU's memory${capacityBytes > 0 ? ` (${formatGiB(a.tightFromBytes)})` : ''}`;
  const runs = band.rows > 0 ? band.rows : UNCERTAINTY_TABLE.memory.rows;
  // Below 1 / lowerQuantile runs the band's edge is the furthest run itself (the quantile rounds outward): say so.
  const measured =
    runs * UNCERTAINTY_TABLE.lowerQuantile >= 1
      ? `${ONE_IN} of ${runs} published runs used ${formatPercent(a.underPredictionMargin)} or more above their estimate`
      : `of ${runs} published runs like this one, the furthest over its estimate used ${formatPercent(a.underPredictionMargin)} more`;
  return a.marginFromFloor
    ? `${at}: a ${formatPercent(1 - MAX_TIGHT_FROM_SHARE)} margin for what published runs do not cover (allocator ` +
        `fragmentation, communicator buffers, a framework's own kernels); ${measured}.`
    : `${at}: ${measured}, so a run estimated above it may not fit.`;
}

export const VERDICT_LABEL: Readonly<Record<OomVerdict, string>> = { safe: 'Safe', tight: 'Tight', 'will-not-fit': 'Will not fit' };
export const VERDICT_ICON: Readonly<Record<OomVerdict, string>> = { safe: '✓', tight: '⚠', 'will-not-fit': '✕' };
export const VERDICT_STYLE: Readonly<Record<OomVerdict, string>> = {
  safe: 'text-green-800 dark:text-green-300',
  tight: 'text-amber-800 dark:text-amber-300',
  'will-not-fit': 'text-red-700 dark:text-red-300',
};

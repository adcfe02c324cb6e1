// The page's one memory verdict rule: oomAssessment (uncertainty.ts) against the memory band
// of the validation set (uncertainty-table.ts). The strip, the embed, the search's "tight"
// and its default margin all read it here, so "tight" starts at the same share everywhere.

import type { EstimateOutput, RunConfig } from '../input/index.ts';
import { chooseBand, runTraits, SEGMENT_TABLE, segmentChain } from '../uncertainty/index.ts';
import { fitMemoryBytes } from '../memory/index.ts';
import { UNCERTAINTY_TABLE } from './uncertainty-table.ts';
import { oomAssessment, ownBands, type ErrorBand, type OomAssessment } from './uncertainty.ts';

/** The verdict for `fitBytes` (the figure memory.fits judges, memory/fit.ts) on a GPU of `capacityBytes`. */
export function fitVerdict(fitBytes: number, capacityBytes: number, band: ErrorBand = UNCERTAINTY_TABLE.memory): OomAssessment {
  return oomAssessment(fitBytes, capacityBytes, band);
}

/** The memory band a run is judged by: its own segment's (output.uncertainty.memory, issue 35), else the validation set's one band. */
export function memoryBandOf(output: Pick<EstimateOutput, 'memory' | 'throughput' | 'uncertainty' | 'errors'>): ErrorBand {
  return ownBands(output)?.memory ?? UNCERTAINTY_TABLE.memory;
}

/** An estimate's verdict: "safe" only when the top of its own memory range fits (and it is below the fixed margin). */
export function estimateVerdict(output: Pick<EstimateOutput, 'memory' | 'throughput' | 'uncertainty' | 'errors'>): OomAssessment {
  return fitVerdict(fitMemoryBytes(output), output.memory.capacity, memoryBandOf(output));
}

/**
 * The share of a GPU's memory above which a run is "tight", the same for every capacity
 * (the band is relative): the lower of 1 + the 5th-percentile memory error of the
 * validation set and MAX_TIGHT_FROM_SHARE. 0.75 with the table of 62 memory rows.
 */
export const VERDICT_TIGHT_FROM_SHARE: number = fitVerdict(0, 1).tightFromShare;

/**
 * The share of capacity above which a run of this configuration's segment of published runs
 * is "tight" (its memory band, before any widening beyond the validated range): what the
 * search keeps free by default, so a layout it lists is one the page calls safe.
 */
export function segmentTightFromShare(config: RunConfig): number {
  const chosen = chooseBand(segmentChain(runTraits(config)), SEGMENT_TABLE, 'memory');
  if (!chosen) return VERDICT_TIGHT_FROM_SHARE;
  return fitVerdict(0, 1, { lowerError: chosen.lowerError, upperError: chosen.upperError, rows: chosen.runs }).tightFromShare;
}

// The page's one memory verdict: safe, tight or will not fit, judged by oomAssessment
// (model/validation/uncertainty.ts) against the memory band of the validation set. The
// strip, the phone strip, the embed, the search form's hint and the trade-off table all
// ask here, so "tight" starts at the same share of capacity everywhere (issue 22, item 11).

import { UNCERTAINTY_TABLE, oomAssessment, type OomAssessment, type OomVerdict } from '../../model/validation/index.ts';

/** The verdict for what the device holds (memory.deviceUsed, as memory.fits judges) on a GPU of `capacityBytes`. */
export function memoryVerdict(deviceUsedBytes: number, capacityBytes: number): OomAssessment {
  return oomAssessment(deviceUsedBytes, capacityBytes, UNCERTAINTY_TABLE.memory);
}

/** The share of a GPU's memory above which a run is "tight" (the same for every capacity: the band is relative). */
export function tightFromShare(): number {
  return memoryVerdict(0, 1).tightFromShare;
}

export const VERDICT_LABEL: Readonly<Record<OomVerdict, string>> = { safe: 'Safe', tight: 'Tight', 'will-not-fit': 'Will not fit' };
export const VERDICT_ICON: Readonly<Record<OomVerdict, string>> = { safe: '✓', tight: '⚠', 'will-not-fit': '✕' };
export const VERDICT_STYLE: Readonly<Record<OomVerdict, string>> = {
  safe: 'text-green-800 dark:text-green-300',
  tight: 'text-amber-800 dark:text-amber-300',
  'will-not-fit': 'text-red-700 dark:text-red-300',
};

// uncertainty/: "how sure is it?" (issue 35). The segments of the validation set a run
// belongs to, the generated table of their errors, and the `uncertainty` ranges of every
// estimate. The validation wing fits the table (validation/uncertainty-fit.ts); this wing
// reads it. This file is the wing's one public entry.

export { BAND_LOWER_QUANTILE, BAND_UPPER_QUANTILE, bandOf } from './band.ts';
export {
  type Beyond,
  beyondValidated,
  type ChosenBand,
  chooseBand,
  MIN_SEGMENT_RUNS,
  type Uncertainty,
  uncertaintyDetail,
  type UncertaintyDetail,
  WIDENING_PER_STEP,
  wideningFactor,
} from './ranges.ts';
export { SEGMENT_TABLE } from './segment-table.ts';
export {
  ALL_RUNS,
  FINE_GRAINED_EXPERT_FFN,
  type FineTuneMethod,
  type RunKind,
  runKind,
  type RunTraits,
  runTraits,
  scaleSegment,
  type SegmentId,
  segmentChain,
  segmentWords,
} from './segments.ts';
export { rowOfSegment } from './table.ts';
export type { BandQuantiles, SegmentBand, SegmentEntry, SegmentTable } from './table.ts';

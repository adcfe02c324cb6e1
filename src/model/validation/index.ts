// validation/: "how right is it?". The engine against published runs (validate.ts,
// report.ts), calibrating from the user's own run (fit-run.ts) and the uncertainty bands
// the validation errors give (uncertainty*.ts).
// This file is the wing's one public entry: code outside the wing imports from here.

export { fitRunDocument, type RunFitResult, type RunMeasurement, type ScaleFit } from './fit-run.ts';
export { caseResult, type CaseResult, scaleBand } from './report.ts';
export { type SegmentedError, segmentedErrors, segmentTableOf, uncertaintyTableOf } from './uncertainty-fit.ts';
export { UNCERTAINTY_TABLE } from './uncertainty-table.ts';
export { estimateVerdict, fitVerdict, memoryBandOf, segmentTightFromShare, VERDICT_TIGHT_FROM_SHARE } from './verdict.ts';
export { type FineTuneRow, fineTuneRows, heldOutRows, readFineTuneCases, summarizeFineTune, throughputError } from './finetune.ts';
export {
  type BandedFigure,
  type ErrorBand,
  headlineBands,
  ownBands,
  MAX_TIGHT_FROM_SHARE,
  measuredRange,
  type ValueBand,
  oomAssessment,
  type OomAssessment,
  type OomVerdict,
  type UncertaintyTable,
} from './uncertainty.ts';
export {
  type ErrorSummary,
  type Figure,
  fitVerdicts,
  quantile,
  readValidationCases,
  summarize,
  validateCase,
  type ValidationCase,
  type ValidationRow,
} from './validate.ts';
export { leaveOneFamilyOut, LOFO_HOST_SECONDS_GRID, moeFamily, MOE_FAMILIES, type LofoRow } from './moe-lofo.ts';

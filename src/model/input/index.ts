// input/: what the user says. The interchange document's types and units, its parsing
// with field-named errors (document.ts, fields.ts), the layout rules every degree must
// obey (consistency.ts), whole-number helpers (counts.ts), JSON field edits (edit.ts) and the Hugging Face
// config.json import (hf-config.ts). Every other wing reads a RunConfig from here.
// This file is the wing's one public entry: code outside the wing imports from here.

export {
  batchProblem,
  checkConsistency,
  cpProblem,
  modelProblems,
  epProblem,
  etpProblem,
  ppProblem,
  scheduleProblem,
  tpProblem,
} from './consistency.ts';
export {
  cudaGraphProblem,
  epOverlapProblem,
  type EpOverlapInput,
  frameworkCapabilities,
  frameworkOffloadProblem,
  frameworkScheduleProblem,
  frameworkSchedules,
  frameworkShortName,
  frameworksRunning,
  frameworkZeroProblem,
  gpuPrecisions,
  microBatchMinimumProblem,
  minMicroBatches,
  precisionProblem,
} from './capabilities.ts';
export { divisors, microBatchesPerStep } from './counts.ts';
export { type Cure, layoutCures } from './cures.ts';
export { DEFAULT_TOKENS, type ModelRead, parseDocument, readModelObject } from './document.ts';
export { type Doc, type FieldChange, getAt, isPlainObject, type JsonPath, setAt, withFieldChanges } from './edit.ts';
export {
  type DocPath,
  DOC_PATHS,
  FIELDS,
  type FieldKind,
  type FieldPath,
  type FieldSpec,
  fieldSpec,
  keysUnder,
  type KeyOf,
  pathUnder,
  type RunDocument,
  STACK_KEYS,
} from './schema.ts';
export { type SwitchSpec, switchSpec, TRAINING_SWITCH_KEYS, TRAINING_SWITCHES, type TrainingSwitch } from './switches.ts';
export { fieldMessage } from './field-error.ts';
export { parseQuantity } from './quantity.ts';
export {
  DUALPIPE_MIN_MICRO_BATCHES_PER_STAGE,
  FRAMEWORK_PROFILES,
  type FrameworkCapabilities,
  frameworkProfile,
  type StackDefaults,
} from './frameworks.ts';
export { ARCHITECTURE_FACTS, type ArchitectureFacts, architectureFacts } from './architectures.ts';
export { DEFAULT_GPU_ID, defaultHostMemoryGiB, findGpuPreset, GPU_PRESETS, type GpuPreset, osNodeGpus } from './gpus.ts';
export { FieldReader, isObject, type JsonObject, MAX_INTEGER_FIELD, own } from './fields.ts';
export { importHfConfig, type ModelJson } from './hf-config.ts';
export {
  ADAPTER_METHODS,
  ADAPTER_MODULES,
  type AdapterConfig,
  type AdapterModule,
  ATTENTION_KERNELS,
  type AttentionKernel,
  type BlockKind,
  type CalibrationOverride,
  CAPACITIES,
  type Capacity,
  type Completion,
  type CompletionMilestone,
  type CompletionPercentiles,
  type ClusterConfig,
  type CostConfig,
  CUDA_GRAPH_SCOPES,
  type CudaGraphScope,
  type EstimateOutput,
  type FigureRange,
  type ModelSummary,
  FFN_TYPES,
  type FfnType,
  FP8_RECIPES,
  type Fp8Recipe,
  type Framework,
  FRAMEWORKS,
  type GpuArchitecture,
  type GpuSpec,
  GRAD_DTYPES,
  type LaunchTarget,
  LOSS_KINDS,
  type LossKind,
  MAX_RESTART_MINUTES,
  MEMORY_PARTS,
  type MemoryBreakdown,
  type StageOnDevice,
  type MemoryPart,
  MODEL_CODES,
  type ModelCode,
  type ModelConfig,
  MOE_DISPATCHERS,
  type MoeConfig,
  type MoeDispatcher,
  type OffloadConfig,
  type OptimizerKind,
  OPTIMIZERS,
  type ParallelConfig,
  type Precision,
  PRECISIONS,
  type Recompute,
  RECOMPUTE_MODULES,
  type RecomputeModule,
  RECOMPUTES,
  type RunConfig,
  type ScheduleBlock,
  type ScheduleKind,
  SCHEDULES,
  SELECTIVE_POLICIES,
  STATE_DTYPES,
  type StateDtype,
  TIME_PARTS,
  type Timeline,
  type TimePart,
  type TrainingConfig,
  ZERO_STAGES,
  type ZeroStage,
} from './types.ts';
export {
  ACTIVATION_BYTES,
  GB,
  GiB,
  GRAD_BYTES,
  SECONDS_PER_DAY,
  SECONDS_PER_HOUR,
  SECONDS_PER_MINUTE,
  TERA,
  WEIGHT_BYTES,
} from './units.ts';
export {
  defaultDp,
  DEGREE_FIELDS,
  DEGREE_WORDS,
  dpOnGpus,
  intentOfLayout,
  LAYOUT_DEGREES,
  type Layout,
  layoutChanges,
  type LayoutDegree,
  type LayoutIntent,
  layoutOfRun,
  scheduleForVpp,
  withLayoutDegree,
  withLayoutSchedule,
} from './layout.ts';
export { describeLayoutMove, type ForcedDegree, layoutForGpuCount, layoutFromIntent, settleDependents } from './layout-intent.ts';

// The interchange document as written (docs/spec/interchange.md, v1), typed: RunDocument,
// its field paths (DocPath, 'training.microBatch'; FieldPath, ['training', 'microBatch']),
// and one table with an entry for every field: its kind and vocabulary, whether the spec
// requires it, whether its absent value comes from the framework profile, the name the
// scenario comparison shows, and the sweep knob that moves it. The table is checked
// against the type (`satisfies Record<DocPath, FieldSpec>`): a field added to the types
// without an entry, or an entry with a misspelled path, does not compile. The parser's
// lists of known keys (document.ts, stack.ts), the comparison's labels
// (ui/compare/configDiff.ts) and the every-field test document's coverage
// (schema.test.ts) are read from it; the on/off training fields are read whole from their
// own table (switches.ts).

import type { FieldReader, JsonObject } from './fields.ts';
import { TRAINING_SWITCHES, TRAINING_SWITCH_KEYS, type TrainingSwitch, type TrainingSwitches } from './switches.ts';
import {
  ADAPTER_METHODS,
  ADAPTER_MODULES,
  ATTENTION_KERNELS,
  ATTENTION_LAYER_TYPES,
  CAPACITIES,
  CUDA_GRAPH_SCOPES,
  FFN_TYPES,
  FP8_RECIPES,
  FRAMEWORKS,
  GRAD_DTYPES,
  LOSS_KINDS,
  MODEL_CODES,
  FORWARD_HOST_SYNCS,
  MOE_DISPATCHERS,
  MOE_ROUTERS,
  OPTIMIZERS,
  PRECISIONS,
  RECOMPUTE_MODULES,
  RECOMPUTES,
  SCHEDULES,
  SELECTIVE_POLICIES,
  STATE_DTYPES,
  ZERO_STAGES,
  type AdapterConfig,
  type CalibrationOverride,
  type ClusterConfig,
  type CostConfig,
  type GpuSpec,
  type MlaConfig,
  type ModelConfig,
  type MoeConfig,
  type OffloadConfig,
  type OverlapConfig,
  type ParallelConfig,
  type SelectivePolicy,
  type SlidingWindowConfig,
  type StackConfig,
  type TrainingConfig,
} from './types.ts';

/** An object of the document as written: every key optional and writable (an import fills it field by field). */
export type Written<T> = { -readonly [K in keyof T]?: T[K] };

/** `model` as written: every key optional (the parser names what is required), null sub-objects for "none". */
export type ModelDocument = Written<Omit<ModelConfig, 'moe' | 'mla' | 'slidingWindow'>> & {
  moe?: Written<MoeConfig> | null;
  mla?: Written<MlaConfig> | null;
  slidingWindow?: Written<SlidingWindowConfig> | null;
};

/** `training` as written: its own fields and the software stack's (interchange "The software stack"), side by side. */
export type TrainingDocument = Written<Omit<TrainingConfig, 'offload' | 'adapter'>> &
  Written<Omit<StackConfig, 'overlap' | 'selectivePolicy'>> & {
    offload?: Written<OffloadConfig> | null;
    adapter?: Written<AdapterConfig> | null;
    overlap?: Written<OverlapConfig> | null;
    selectivePolicy?: SelectivePolicy;
  };

/** A custom GPU as written (its architecture follows from its name; SM counts belong to presets). */
export type GpuDocument = Written<Omit<GpuSpec, 'architecture' | 'sms'>>;

export type ClusterDocument = Written<Omit<ClusterConfig, 'gpuId' | 'gpu'>> & { gpu?: string | GpuDocument };

export type ParallelDocument = Written<ParallelConfig>;

/** The keys of an object of the document that take any number (counts, degrees), not a vocabulary of numbers (ZeRO stages). */
export type NumberKey<T> = { [K in keyof T]-?: number extends NonNullable<T[K]> ? K : never }[keyof T];

/** The interchange document as a file or a link holds it, before the parser fills the defaults (RunConfig). */
export interface RunDocument {
  version?: number;
  model?: ModelDocument;
  training?: TrainingDocument;
  parallel?: ParallelDocument | null;
  cluster?: ClusterDocument;
  cost?: Written<CostConfig> | null;
  calibration?: Written<CalibrationOverride> | null;
  /** The search's own block (search/search-block.ts reads it; estimate ignores it). */
  search?: unknown;
  /** What `npm run import` could not map from the file it read (estimate ignores them). */
  warnings?: readonly string[];
}

type Leaf = string | number | boolean | readonly unknown[];
/** The objects a value may be (a GPU is a preset id or an object): what paths go on into. */
type Branch<V> = Exclude<NonNullable<V>, Leaf>;

/** Every field's dotted path, objects included: 'training', 'training.offload', 'training.offload.optimizer'. */
type PathsOf<T, P extends string> = {
  [K in keyof T & string]-?: [Branch<T[K]>] extends [never] ? `${P}${K}` : `${P}${K}` | PathsOf<Branch<T[K]>, `${P}${K}.`>;
}[keyof T & string];

/** A field of the document by its dotted name, as the engine's errors write it ('parallel.tp'). `search` is one opaque field. */
export type DocPath = PathsOf<Omit<RunDocument, 'search'>, ''> | 'search';

type Split<S extends string> = S extends `${infer Head}.${infer Rest}` ? [Head, ...Split<Rest>] : [S];

/** A field of the document by its keys, ['parallel', 'tp']: only paths the document has compile. */
export type FieldPath = Readonly<Split<DocPath>>;

export type FieldKind = 'integer' | 'number' | 'boolean' | 'choice' | 'text' | 'list' | 'object' | 'gpu' | 'date' | 'opaque';

export interface FieldSpec {
  readonly kind: FieldKind;
  /** The values a choice (or a list's items) may take, from the vocabulary types.ts keeps. */
  readonly values?: readonly (string | number)[];
  /** The spec requires it (no default). */
  readonly required?: true;
  /** A field of the software stack: absent, it comes from the framework profile (frameworks.ts), read by stack.ts. */
  readonly stack?: true;
  /** The name the scenario comparison shows (ui/compare/configDiff.ts); absent: the control's label (ui/help.ts). */
  readonly compareLabel?: string;
  /** The sweep knob (sweep/knobs.ts SWEEP_KNOBS) that moves this field, where one does. */
  readonly knob?: string;
}

const integer = { kind: 'integer' } as const;
const number = { kind: 'number' } as const;
const boolean = { kind: 'boolean' } as const;
const object = { kind: 'object' } as const;
const required = { kind: 'integer', required: true } as const;
const choice = (values: readonly (string | number)[], more: Partial<FieldSpec> = {}): FieldSpec => ({ kind: 'choice', values, ...more });
const stack = (spec: FieldSpec): FieldSpec => ({ ...spec, stack: true });

/** The on/off training fields, from their own table: read whole by readSwitches. */
const SWITCH_FIELDS = Object.fromEntries(TRAINING_SWITCH_KEYS.map((key) => [`training.${key}`, boolean])) as Record<
  `training.${TrainingSwitch}`,
  FieldSpec
>;

export const FIELDS = {
  version: integer,
  model: object,
  training: object,
  parallel: object,
  cluster: object,
  cost: object,
  calibration: object,
  search: { kind: 'opaque' },
  warnings: { kind: 'list' },

  'model.name': { kind: 'text', compareLabel: 'Model' },
  'model.layers': required,
  'model.hidden': required,
  'model.heads': required,
  'model.kvHeads': integer,
  'model.headDim': integer,
  'model.ffnHidden': integer,
  'model.ffnType': choice(FFN_TYPES),
  'model.vocab': required,
  'model.tiedEmbeddings': boolean,
  'model.moe': object,
  'model.moe.experts': required,
  'model.moe.topK': required,
  'model.moe.expertFfnHidden': required,
  'model.moe.sharedExperts': integer,
  'model.moe.denseLayers': integer,
  'model.moe.capacityFactor': number,
  'model.mla': object,
  'model.mla.qLoraRank': integer,
  'model.mla.kvLoraRank': required,
  'model.mla.qkNopeHeadDim': required,
  'model.mla.qkRopeHeadDim': required,
  'model.mla.vHeadDim': required,
  'model.mtpLayers': integer,
  'model.slidingWindow': { ...object, compareLabel: 'Sliding-window attention' },
  'model.slidingWindow.window': { ...required, compareLabel: 'Sliding window (tokens)' },
  'model.slidingWindow.layerTypes': { kind: 'list', values: ATTENTION_LAYER_TYPES, compareLabel: 'Sliding-window layers' },

  'training.seqLen': { ...required, compareLabel: 'Sequence length', knob: 'seqLen' },
  'training.globalBatch': { ...required, compareLabel: 'Global batch', knob: 'globalBatch' },
  'training.microBatch': { ...integer, compareLabel: 'Micro-batch (MBS)', knob: 'microBatch' },
  'training.tokens': number,
  'training.precision': choice(PRECISIONS, { compareLabel: 'Precision', knob: 'precision' }),
  'training.optimizer': choice(OPTIMIZERS, { compareLabel: 'Optimizer' }),
  'training.masterWeights': boolean,
  'training.gradDtype': choice(GRAD_DTYPES),
  'training.recompute': choice(RECOMPUTES, { compareLabel: 'Recomputation', knob: 'recompute' }),
  ...SWITCH_FIELDS,
  'training.offload': object,
  'training.offload.optimizer': { ...boolean, compareLabel: 'Offload optimizer' },
  'training.offload.parameters': { ...boolean, compareLabel: 'Offload parameters' },
  'training.offload.optimizerFraction': number,
  'training.adapter': object,
  'training.adapter.method': choice(ADAPTER_METHODS),
  'training.adapter.rank': required,
  'training.adapter.modules': { kind: 'list', values: ADAPTER_MODULES },
  'training.moeLoadImbalance': { ...number, compareLabel: 'MoE load imbalance (busiest EP rank ÷ mean)' },
  'training.moeRouter': choice(MOE_ROUTERS, { compareLabel: 'MoE router' }),
  'training.framework': stack(choice(FRAMEWORKS)),
  'training.loss': stack(choice(LOSS_KINDS)),
  'training.compile': stack(boolean),
  'training.dropout': stack(boolean),
  'training.recomputeModules': stack({ kind: 'list', values: RECOMPUTE_MODULES }),
  'training.selectivePolicy': stack(choice(SELECTIVE_POLICIES)),
  'training.recomputeLayerFrequency': stack(integer),
  'training.recomputeLayers': stack(integer),
  'training.optimizerStateDtype': stack(choice(STATE_DTYPES)),
  'training.activationOffloadLayers': stack(integer),
  'training.attentionKernel': stack(choice(ATTENTION_KERNELS)),
  'training.fp8Recipe': stack(choice(FP8_RECIPES)),
  'training.fp8ParamGather': stack({ ...boolean, compareLabel: 'FP8 parameter gather' }),
  'training.overlap': stack(object),
  'training.overlap.tpComm': boolean,
  'training.overlap.dpGrad': boolean,
  'training.overlap.dpParam': boolean,
  'training.overlap.epComm': { ...boolean, knob: 'epComm' },
  'training.modelCode': stack(choice(MODEL_CODES)),
  'training.forwardHostSync': stack(choice(FORWARD_HOST_SYNCS)),
  'training.moeDispatcher': stack(choice(MOE_DISPATCHERS, { knob: 'moeDispatcher' })),
  'training.cudaGraph': stack(choice(CUDA_GRAPH_SCOPES, { knob: 'cudaGraph' })),
  'training.frameworkRelease': stack({ kind: 'text', compareLabel: 'Framework release' }),

  'parallel.tp': { ...integer, compareLabel: 'Tensor parallel (TP)', knob: 'tp' },
  'parallel.pp': { ...integer, compareLabel: 'Pipeline parallel (PP)', knob: 'pp' },
  'parallel.dp': { ...integer, compareLabel: 'Data parallel (DP)' },
  'parallel.cp': { ...integer, compareLabel: 'Context parallel (CP)', knob: 'cp' },
  'parallel.ep': { ...integer, compareLabel: 'Expert parallel (EP)', knob: 'ep' },
  'parallel.vpp': { ...integer, compareLabel: 'Virtual stages (VPP)', knob: 'vpp' },
  'parallel.etp': { ...integer, knob: 'etp' },
  'parallel.pipelineLayout': { kind: 'text', compareLabel: 'Pipeline layout (Megatron)' },
  'parallel.sequenceParallel': { ...boolean, compareLabel: 'Sequence parallel' },
  'parallel.zero': choice(ZERO_STAGES, { compareLabel: 'ZeRO stage', knob: 'zero' }),
  'parallel.schedule': choice(SCHEDULES, { compareLabel: 'Pipeline schedule' }),

  'cluster.gpu': { kind: 'gpu', required: true, compareLabel: 'GPU' },
  'cluster.gpu.name': { kind: 'text' },
  'cluster.gpu.memoryGiB': { ...number, required: true },
  'cluster.gpu.bf16Tflops': { ...number, required: true },
  'cluster.gpu.fp8Tflops': number,
  'cluster.gpu.fp32Tflops': number,
  'cluster.gpu.fp4Tflops': number,
  'cluster.gpu.expTeraOpsPerSecond': number,
  'cluster.gpu.hbmGBps': { ...number, required: true },
  'cluster.gpu.intraNodeGBps': { ...number, required: true },
  'cluster.gpu.interNodeGBps': { ...number, required: true },
  'cluster.gpu.tdpWatts': number,
  'cluster.gpu.usdPerHour': number,
  'cluster.gpusPerNode': { ...integer, compareLabel: 'GPUs per node' },
  'cluster.gpus': { ...integer, compareLabel: 'Cluster size (GPUs)', knob: 'gpus' },
  'cluster.hostMemoryGiB': number,
  'cluster.hostMemoryGBps': number,

  'cost.usdPerGpuHour': number,
  'cost.pue': number,
  'cost.gridKgCo2PerKwh': number,
  'cost.gpuMtbfHours': number,
  'cost.checkpointWriteGBps': number,
  'cost.checkpointIntervalMinutes': { ...number, knob: 'checkpointInterval' },
  'cost.capacity': choice(CAPACITIES),
  'cost.spotUsdPerGpuHour': number,
  'cost.preemptionsPerNodeDay': number,
  'cost.restartMinutes': number,
  'cost.elastic': boolean,
  'cost.startDate': { kind: 'date' },

  'calibration.computeEfficiencyScale': { ...number, compareLabel: 'Compute efficiency scale' },
  'calibration.memoryOverheadScale': { ...number, compareLabel: 'Memory overhead scale' },
} as const satisfies Readonly<Record<DocPath, FieldSpec>>;

const SPECS: Readonly<Record<string, FieldSpec>> = FIELDS;

/** The table's entry for a dotted path, or undefined for a path the document does not have. */
export function fieldSpec(path: string): FieldSpec | undefined {
  return Object.prototype.hasOwnProperty.call(SPECS, path) ? SPECS[path] : undefined;
}

/** Every dotted path of the table, in its order. */
export const DOC_PATHS = Object.keys(FIELDS) as readonly DocPath[];

/** The keys directly under `section` ('' for the top level, 'training.offload' for a sub-object), in the table's order. */
export function keysUnder(section: string): readonly string[] {
  const prefix = section === '' ? '' : `${section}.`;
  return DOC_PATHS.filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('.')).map((p) => p.slice(prefix.length));
}

/** The software-stack keys of training (read by stack.ts, their absent values from the framework profile). */
export const STACK_KEYS: readonly string[] = keysUnder('training').filter((k) => fieldSpec(`training.${k}`)?.stack === true);

/** The on/off training fields, each read as the switch table says (absent or null: its default). */
export function readSwitches(r: FieldReader, t: JsonObject): TrainingSwitches {
  const out: Partial<Record<TrainingSwitch, boolean>> = {};
  for (const key of TRAINING_SWITCH_KEYS) out[key] = r.boolean(t, key, 'training', TRAINING_SWITCHES[key].default);
  return out as TrainingSwitches;
}

/** The keys right under an object's dotted path: KeyOf<'training.offload'> is 'optimizer' | 'parameters' | 'optimizerFraction'. */
export type KeyOf<S extends string> = DocPath extends infer P
  ? P extends `${S}.${infer K}`
    ? K extends `${string}.${string}`
      ? never
      : K
    : never
  : never;

/** The path of a key under an object, checked by the compiler: pathUnder('cost', 'pue') is ['cost', 'pue']. */
export function pathUnder<S extends string>(section: S, key: KeyOf<S>): FieldPath {
  return [...section.split('.'), key] as readonly string[] as FieldPath;
}

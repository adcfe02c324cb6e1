// Parses an untrusted interchange document (docs/spec/interchange.md, v1) into
// a RunConfig with every default filled in, or a list of field-named errors.
// Never throws: every path through here ends in { ok: true } or { ok: false }.

import { FieldReader, MAX_LAYERS, describe, isObject, own, type JsonObject } from './fields.ts';
import { checkConsistency, modelProblems } from './consistency.ts';
import { readCalibration, readCluster, readCost, readGpu } from './document-cluster.ts';
import { defaultDp, scheduleForVpp } from './layout.ts';
import { toCurrentVersion } from './migrations.ts';
import { readMoeRouting } from './moe-routing.ts';
import { readPipelineLayout } from './pipeline-layout.ts';
import { keysUnder, readSwitches } from './schema.ts';
import { readSlidingWindow } from './sliding-window.ts';
import { readStack } from './stack.ts';
import {
  ADAPTER_METHODS,
  ADAPTER_MODULES,
  FFN_TYPES,
  GRAD_DTYPES,
  OPTIMIZERS,
  PRECISIONS,
  RECOMPUTES,
  SCHEDULES,
  ZERO_STAGES,
  type AdapterConfig,
  type AdapterModule,
  type MlaConfig,
  type ModelConfig,
  type MoeConfig,
  type ParallelConfig,
  type RunConfig,
  type TrainingConfig,
} from './types.ts';

export type ParseResult =
  | { readonly ok: true; readonly config: RunConfig; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly errors: readonly string[]; readonly warnings: readonly string[] };

// The known keys of each object come from the field table (schema.ts), as do the on/off training fields (readSwitches).
const TOP_KEYS = keysUnder('');
const MODEL_KEYS = keysUnder('model');
const MOE_KEYS = keysUnder('model.moe');
const MLA_KEYS = keysUnder('model.mla');
const TRAINING_KEYS = keysUnder('training');
const PARALLEL_KEYS = keysUnder('parallel');

/** Defaults the spec leaves to the project, stated once. */
export const DEFAULT_TOKENS = 1e12;

/**
 * What an absent choice field reads as, stated once: the parser below, and the page's selects
 * that show "(not set: …)" for a document that leaves one out.
 */
export const ABSENT_CHOICE = {
  'model.ffnType': 'gelu',
  'training.precision': 'bf16',
  'training.optimizer': 'adam',
  'training.gradDtype': 'fp32',
  'training.recompute': 'none',
  'parallel.zero': 1,
} as const;

export function parseDocument(raw: unknown): ParseResult {
  const r = new FieldReader();
  if (!isObject(raw)) {
    r.error('document', 'must be a JSON object');
    return { ok: false, errors: r.errors, warnings: r.warnings };
  }
  const version = own(raw, 'version');
  if (version === undefined) r.warn('version', 'missing, read as 1');
  const versioned = toCurrentVersion(raw, version);
  if (!versioned.ok) r.error('version', versioned.message);
  else for (const note of versioned.notes) r.warn('version', note);
  return readCurrent(r, versioned.ok ? versioned.document : raw);
}

export type ModelRead =
  | { readonly ok: true; readonly model: ModelConfig; readonly warnings: string[] }
  | { readonly ok: false; readonly errors: string[]; readonly warnings: string[] };

/** A document's `model` object alone, read as parseDocument reads it (defaults filled, the model's own rules checked). */
export function readModelObject(raw: unknown): ModelRead {
  const r = new FieldReader();
  if (!isObject(raw)) {
    r.error('model', 'must be a JSON object');
    return { ok: false, errors: r.errors, warnings: r.warnings };
  }
  const model = readModel(r, raw);
  if (r.errors.length > 0) return { ok: false, errors: r.errors, warnings: r.warnings };
  const errors = modelProblems(model);
  return errors.length > 0 ? { ok: false, errors, warnings: r.warnings } : { ok: true, model, warnings: r.warnings };
}

function readCurrent(r: FieldReader, raw: JsonObject): ParseResult {
  r.unknownKeys(raw, TOP_KEYS, 'document');

  const modelObj = r.section(raw, 'model', 'model');
  const trainingObj = r.section(raw, 'training', 'training');
  const clusterObj = r.section(raw, 'cluster', 'cluster');
  if (!modelObj) r.error('model', 'is required');
  if (!trainingObj) r.error('training', 'is required');
  if (!clusterObj) r.error('cluster', 'is required');
  if (!modelObj || !trainingObj || !clusterObj) return { ok: false, errors: r.errors, warnings: r.warnings };

  const model = readModel(r, modelObj);
  const training = readTraining(r, trainingObj);
  const stack = readStack(r, trainingObj);
  const gpuRead = readGpu(r, clusterObj);
  const parallel = readParallel(r, r.section(raw, 'parallel', 'parallel') ?? {}, clusterObj);
  const cluster = readCluster(r, clusterObj, gpuRead, parallel);
  const cost = readCost(r, r.section(raw, 'cost', 'cost') ?? {}, gpuRead.gpu);
  const calibration = readCalibration(r, r.section(raw, 'calibration', 'calibration') ?? {});
  if (r.errors.length > 0) return { ok: false, errors: r.errors, warnings: r.warnings };

  const config: RunConfig = { version: 1, model, training, stack, parallel, cluster, cost, calibration };
  const consistency = checkConsistency(config);
  const warnings = [...r.warnings, ...consistency.warnings];
  if (consistency.errors.length > 0) return { ok: false, errors: consistency.errors, warnings };
  return { ok: true, config, warnings };
}

function readModel(r: FieldReader, m: JsonObject): ModelConfig {
  r.unknownKeys(m, MODEL_KEYS, 'model');
  const hidden = r.integer(m, 'hidden', 'model', undefined);
  const heads = r.integer(m, 'heads', 'model', undefined);
  const mla = readMla(r, m);
  const defaultHeadDim = hidden % heads === 0 ? hidden / heads : undefined;
  if (defaultHeadDim === undefined && own(m, 'headDim') == null && !mla) {
    r.error('model.headDim', `is required when model.heads=${heads} does not divide model.hidden=${hidden}`);
  }
  return {
    name: r.text(m, 'name', 'model', 'Custom model'),
    layers: r.integer(m, 'layers', 'model', undefined, 1, MAX_LAYERS),
    hidden,
    heads,
    kvHeads: r.integer(m, 'kvHeads', 'model', heads),
    headDim: r.integer(m, 'headDim', 'model', defaultHeadDim ?? 1),
    ffnHidden: r.integer(m, 'ffnHidden', 'model', 4 * hidden),
    ffnType: r.choice(m, 'ffnType', 'model', FFN_TYPES, ABSENT_CHOICE['model.ffnType']),
    vocab: r.integer(m, 'vocab', 'model', undefined),
    tiedEmbeddings: r.boolean(m, 'tiedEmbeddings', 'model', false),
    moe: readMoe(r, m),
    mla,
    mtpLayers: r.integer(m, 'mtpLayers', 'model', 0, 0, 64),
    ...readSlidingWindow(r, m),
  };
}

function readMoe(r: FieldReader, m: JsonObject): MoeConfig | null {
  const o = r.section(m, 'moe', 'model.moe');
  if (!o) return null;
  r.unknownKeys(o, MOE_KEYS, 'model.moe');
  return {
    experts: r.integer(o, 'experts', 'model.moe', undefined),
    topK: r.integer(o, 'topK', 'model.moe', undefined),
    expertFfnHidden: r.integer(o, 'expertFfnHidden', 'model.moe', undefined),
    sharedExperts: r.integer(o, 'sharedExperts', 'model.moe', 0, 0),
    denseLayers: r.integer(o, 'denseLayers', 'model.moe', 0, 0),
    ...readCapacityFactor(r, o),
  };
}

/** Largest capacity factor read: every expert padded to all the tokens is capacity = experts / topK, far below this. */
const MAX_CAPACITY_FACTOR = 1e4;

/** Absent or null: dropless (the key stays out of the config, so older documents read exactly as before). */
function readCapacityFactor(r: FieldReader, o: JsonObject): { capacityFactor?: number } {
  if (own(o, 'capacityFactor') == null) return {};
  return { capacityFactor: r.number(o, 'capacityFactor', 'model.moe', 1, 0, MAX_CAPACITY_FACTOR, true) };
}

function readMla(r: FieldReader, m: JsonObject): MlaConfig | null {
  const o = r.section(m, 'mla', 'model.mla');
  if (!o) return null;
  r.unknownKeys(o, MLA_KEYS, 'model.mla');
  return {
    qLoraRank: r.integer(o, 'qLoraRank', 'model.mla', 0, 0),
    kvLoraRank: r.integer(o, 'kvLoraRank', 'model.mla', undefined),
    qkNopeHeadDim: r.integer(o, 'qkNopeHeadDim', 'model.mla', undefined),
    qkRopeHeadDim: r.integer(o, 'qkRopeHeadDim', 'model.mla', undefined),
    vHeadDim: r.integer(o, 'vHeadDim', 'model.mla', undefined),
  };
}

/**
 * The longest sequence read: 10 million tokens, the longest context an open model states (Llama 4 Scout's model card:
 * 10M). A longer one is a typing slip, not a run ("1e9" once gave "2,310 years"); above the model's own longest
 * context but within this the page warns (state/choices.ts seqLenNote) and estimates.
 */
export const MAX_SEQ_LEN = 10_000_000;

function readSeqLen(r: FieldReader, t: JsonObject): number {
  const seqLen = r.integer(t, 'seqLen', 'training', undefined);
  if (seqLen <= MAX_SEQ_LEN) return seqLen;
  r.error(
    'training.seqLen',
    `must be at most ${MAX_SEQ_LEN.toLocaleString('en-US')} tokens, the longest context of any open model; got ${seqLen.toLocaleString('en-US')}`,
  );
  return MAX_SEQ_LEN;
}

function readTraining(r: FieldReader, t: JsonObject): TrainingConfig {
  r.unknownKeys(t, TRAINING_KEYS, 'training');
  const offloadObj = r.section(t, 'offload', 'training.offload') ?? {};
  r.unknownKeys(offloadObj, keysUnder('training.offload'), 'training.offload');
  return {
    seqLen: readSeqLen(r, t),
    globalBatch: r.integer(t, 'globalBatch', 'training', undefined),
    microBatch: r.integer(t, 'microBatch', 'training', 1),
    tokens: r.number(t, 'tokens', 'training', DEFAULT_TOKENS, 0, 1e18, true),
    precision: r.choice(t, 'precision', 'training', PRECISIONS, ABSENT_CHOICE['training.precision']),
    optimizer: r.choice(t, 'optimizer', 'training', OPTIMIZERS, ABSENT_CHOICE['training.optimizer']),
    masterWeights: r.boolean(t, 'masterWeights', 'training', true),
    gradDtype: r.choice(t, 'gradDtype', 'training', GRAD_DTYPES, ABSENT_CHOICE['training.gradDtype']),
    recompute: r.choice(t, 'recompute', 'training', RECOMPUTES, ABSENT_CHOICE['training.recompute']),
    ...readSwitches(r, t),
    offload: {
      optimizer: r.boolean(offloadObj, 'optimizer', 'training.offload', false),
      parameters: r.boolean(offloadObj, 'parameters', 'training.offload', false),
      // Only where the document states it: configurations without it stay as they were.
      ...(offloadObj['optimizerFraction'] === undefined
        ? {}
        : { optimizerFraction: r.number(offloadObj, 'optimizerFraction', 'training.offload', 1, 0, 1) }),
    },
    ...readAdapter(r, t),
    ...readMoeRouting(r, t),
  };
}

/** The largest adapter rank read: far above any published fine-tune (QLoRA paper: 64; torchtune recipes: 8–64). */
export const MAX_ADAPTER_RANK = 65_536;

/**
 * training.adapter: null or absent is full training (the key stays out of the config);
 * an object needs a method and a rank ≥ 1; modules default to every linear of a layer.
 * QLoRA's frozen base is NF4, so an fp8 or fp4 compute precision has no meaning for it
 * (bitsandbytes dequantises to the compute dtype, bf16 / fp16 / fp32 only).
 */
function readAdapter(r: FieldReader, t: JsonObject): { adapter?: AdapterConfig } {
  const o = r.section(t, 'adapter', 'training.adapter');
  if (!o) return {};
  r.unknownKeys(o, keysUnder('training.adapter'), 'training.adapter');
  if (own(o, 'method') == null)
    r.error(
      'training.adapter.method',
      `is required ("${ADAPTER_METHODS.join('" or "')}"), or set training.adapter to null for full training`,
    );
  const method = r.choice(o, 'method', 'training.adapter', ADAPTER_METHODS, 'lora');
  const rank = r.integer(o, 'rank', 'training.adapter', undefined, 1, MAX_ADAPTER_RANK);
  const modules = readAdapterModules(r, o);
  const precision = own(t, 'precision');
  if (method === 'qlora' && (precision === 'fp8' || precision === 'fp4')) {
    r.error(
      'training.adapter.method',
      `"qlora" computes in the 16-bit dtype its NF4 weights are dequantised to; ` +
        `training.precision "${precision}" cannot be used with it (choose bf16 or fp16, or method "lora")`,
    );
  }
  return { adapter: { method, rank, modules } };
}

function readAdapterModules(r: FieldReader, o: JsonObject): readonly AdapterModule[] {
  const value = own(o, 'modules');
  if (value === undefined || value === null) return ADAPTER_MODULES;
  if (!Array.isArray(value)) {
    r.error('training.adapter.modules', `must be a list of matrix names (${ADAPTER_MODULES.join(', ')}), got ${describe(value)}`);
    return ADAPTER_MODULES;
  }
  const named = new Set<AdapterModule>();
  for (const item of value as readonly unknown[]) {
    const match = ADAPTER_MODULES.find((m) => m === item);
    if (match === undefined) {
      r.error('training.adapter.modules', `${describe(item)} is not a matrix an adapter can sit on (one of ${ADAPTER_MODULES.join(', ')})`);
      return ADAPTER_MODULES;
    }
    named.add(match);
  }
  if (named.size === 0) r.error('training.adapter.modules', 'must name at least one matrix (an adapter on nothing trains nothing)');
  return ADAPTER_MODULES.filter((m) => named.has(m));
}

function readParallel(r: FieldReader, p: JsonObject, clusterObj: JsonObject): ParallelConfig {
  r.unknownKeys(p, PARALLEL_KEYS, 'parallel');
  const tp = r.integer(p, 'tp', 'parallel', 1);
  const pp = r.integer(p, 'pp', 'parallel', 1);
  const cp = r.integer(p, 'cp', 'parallel', 1);
  const vpp = r.integer(p, 'vpp', 'parallel', 1);
  const gpus = own(clusterObj, 'gpus');
  const layout = readPipelineLayout(r, p);
  // An absent DP follows from the GPU count, and an absent schedule from VPP: the layout rule of layout.ts.
  return {
    tp,
    pp,
    dp: r.integer(p, 'dp', 'parallel', defaultDp(gpus, tp, pp, cp)),
    cp,
    ep: r.integer(p, 'ep', 'parallel', 1),
    vpp,
    // Absent or null: the default expert tensor-parallel rule (structure/params.ts); the key stays out of the config.
    ...(own(p, 'etp') == null ? {} : { etp: r.integer(p, 'etp', 'parallel', 1) }),
    // Absent, null or blank: the even split; the key stays out of the config (consistency.ts checks the text against the model).
    ...(layout === undefined ? {} : { pipelineLayout: layout }),
    sequenceParallel: r.boolean(p, 'sequenceParallel', 'parallel', tp > 1),
    zero: r.choice(p, 'zero', 'parallel', ZERO_STAGES, ABSENT_CHOICE['parallel.zero']),
    schedule: r.choice(p, 'schedule', 'parallel', SCHEDULES, scheduleForVpp('1f1b', vpp)),
  };
}

// The software stack fields of training (interchange "The software stack"): each read
// with a field-named error, each missing one taken from the framework's profile
// (input/frameworks.ts). An explicit field always wins over the profile.

import { fp8ParamGatherDefault, frameworkProfile } from './frameworks.ts';
import { describe, own, type FieldReader, type JsonObject } from './fields.ts';
import { readFrameworkRelease, releaseDefaultDispatcher } from './framework-release.ts';
import { keysUnder } from './schema.ts';
import {
  ATTENTION_KERNELS,
  CUDA_GRAPH_SCOPES,
  FORWARD_HOST_SYNCS,
  FP8_RECIPES,
  MOE_DISPATCHERS,
  FRAMEWORKS,
  LOSS_KINDS,
  MODEL_CODES,
  RECOMPUTE_MODULES,
  SELECTIVE_POLICIES,
  STATE_DTYPES,
  type MoeDispatcher,
  type OverlapConfig,
  type RecomputeModule,
  type ResolvedSelectivePolicy,
  type StackConfig,
} from './types.ts';

/** The most layers any stage can hold (fields.ts MAX_LAYERS): bounds the per-stage counts. */
const MAX_STAGE_LAYERS = 100_000;

function readModules(r: FieldReader, t: JsonObject, fallback: readonly RecomputeModule[]): readonly RecomputeModule[] {
  const value = own(t, 'recomputeModules');
  if (value === undefined || value === null) return fallback;
  if (!Array.isArray(value)) {
    r.error('training.recomputeModules', `must be a list of Megatron-Core module names, got ${describe(value)}`);
    return fallback;
  }
  const modules: RecomputeModule[] = [];
  for (const item of value as readonly unknown[]) {
    const match = RECOMPUTE_MODULES.find((m) => m === item);
    if (match === undefined) {
      r.error(
        'training.recomputeModules',
        `${describe(item)} is not a Megatron-Core recompute module (one of ${RECOMPUTE_MODULES.join(', ')})`,
      );
      return fallback;
    }
    if (!modules.includes(match)) modules.push(match);
  }
  return modules;
}

function readOverlap(r: FieldReader, t: JsonObject, fallback: OverlapConfig): OverlapConfig {
  const o = r.section(t, 'overlap', 'training.overlap');
  if (!o) return fallback;
  r.unknownKeys(o, keysUnder('training.overlap'), 'training.overlap');
  return {
    tpComm: r.boolean(o, 'tpComm', 'training.overlap', fallback.tpComm),
    dpGrad: r.boolean(o, 'dpGrad', 'training.overlap', fallback.dpGrad),
    dpParam: r.boolean(o, 'dpParam', 'training.overlap', fallback.dpParam),
    epComm: r.boolean(o, 'epComm', 'training.overlap', fallback.epComm),
  };
}

/** Megatron's "flex" is not a dispatcher of its own: its backend (--moe-flex-dispatcher-backend) names it. */
function readDispatcher(r: FieldReader, t: JsonObject, fallback: MoeDispatcher): MoeDispatcher {
  if (own(t, 'moeDispatcher') === 'flex') {
    r.error('training.moeDispatcher', '"flex" is named by its backend: "deepep" or "hybridep" (Megatron --moe-flex-dispatcher-backend)');
    return fallback;
  }
  return r.choice(t, 'moeDispatcher', 'training', MOE_DISPATCHERS, fallback);
}

/** Reads the stack fields of `training`; whatever is absent comes from the profile of `training.framework` (default "generic"). */
export function readStack(r: FieldReader, t: JsonObject): StackConfig {
  const framework = r.choice(t, 'framework', 'training', FRAMEWORKS, 'generic');
  const d = frameworkProfile(framework).defaults;
  // torchtitan compiles the loss with the model (frameworks.ts compileCompilesLoss): an unstated loss follows training.compile.
  const compile = r.boolean(t, 'compile', 'training', d.compile);
  const fp8Recipe = r.choice(t, 'fp8Recipe', 'training', FP8_RECIPES, d.fp8Recipe);
  const frameworkRelease = readFrameworkRelease(r, t, framework);
  const recomputeLayers = own(t, 'recomputeLayers') == null ? null : r.integer(t, 'recomputeLayers', 'training', 1, 0, MAX_STAGE_LAYERS);
  return {
    framework,
    loss: r.choice(
      t,
      'loss',
      'training',
      LOSS_KINDS,
      compile && frameworkProfile(framework).mechanisms.compileCompilesLoss ? 'compiled' : d.loss,
    ),
    compile,
    dropout: r.boolean(t, 'dropout', 'training', d.dropout),
    recomputeModules: readModules(r, t, d.recomputeModules),
    selectivePolicy: r.choice<ResolvedSelectivePolicy>(t, 'selectivePolicy', 'training', SELECTIVE_POLICIES, d.selectivePolicy),
    recomputeLayerFrequency: r.integer(t, 'recomputeLayerFrequency', 'training', d.recomputeLayerFrequency, 1, MAX_STAGE_LAYERS),
    recomputeLayers,
    optimizerStateDtype: r.choice(t, 'optimizerStateDtype', 'training', STATE_DTYPES, d.optimizerStateDtype),
    activationOffloadLayers: r.integer(t, 'activationOffloadLayers', 'training', 0, 0, MAX_STAGE_LAYERS),
    attentionKernel: r.choice(t, 'attentionKernel', 'training', ATTENTION_KERNELS, d.attentionKernel),
    fp8Recipe,
    fp8ParamGather: r.boolean(t, 'fp8ParamGather', 'training', fp8ParamGatherDefault(framework, fp8Recipe)),
    overlap: readOverlap(r, t, d.overlap),
    modelCode: r.choice(t, 'modelCode', 'training', MODEL_CODES, d.modelCode),
    forwardHostSync: r.choice(t, 'forwardHostSync', 'training', FORWARD_HOST_SYNCS, 'layer'),
    moeDispatcher: readDispatcher(r, t, releaseDefaultDispatcher(frameworkRelease, d.moeDispatcher)),
    cudaGraph: r.choice(t, 'cudaGraph', 'training', CUDA_GRAPH_SCOPES, d.cudaGraph),
    frameworkRelease,
  };
}

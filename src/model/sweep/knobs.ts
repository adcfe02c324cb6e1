// The knobs a trade-off curve can move, each with the values worth drawing and the
// document fields one value sets. Candidates are generous (every divisor, every stage):
// the engine's own rules (consistency.ts) decide which are valid, and a rejected value is
// reported with the engine's reason, never silently dropped.
//
// Every layout knob (TP, PP, CP, VPP, GPUs) edits the layout through the engine's one rule
// (input/layout.ts), as the page and fit-suggestions.ts do: at a fixed cluster DP absorbs
// TP, PP and CP; VPP brings its schedule; the "GPUs" knob keeps the run's degrees where the
// count allows and DP follows. EP is carved out of TP × DP × CP (Megatron-Core's expert
// groups), so it moves nothing else.

import {
  CUDA_GRAPH_SCOPES,
  cudaGraphProblem,
  divisors,
  epOverlapProblem,
  frameworkZeroProblem,
  MOE_DISPATCHERS,
  PRECISIONS,
  RECOMPUTES,
  ZERO_STAGES,
  type FieldChange,
  type FieldPath,
  type RunConfig,
  type ZeroStage,
} from '../input/index.ts';
import { intentOfLayout, layoutChanges, layoutForGpuCount, layoutOfRun, withLayoutDegree } from '../input/index.ts';
import { expertTensorParallel } from '../structure/index.ts';

export const SWEEP_KNOBS = [
  'tp',
  'pp',
  'cp',
  'ep',
  'vpp',
  'microBatch',
  'globalBatch',
  'zero',
  'recompute',
  'precision',
  'seqLen',
  'gpus',
  'checkpointInterval',
  'moeDispatcher',
  'epComm',
  'cudaGraph',
  'etp',
] as const;
export type SweepKnob = (typeof SWEEP_KNOBS)[number];
export type SweepValue = number | string;

export function isSweepKnob(value: unknown): value is SweepKnob {
  return typeof value === 'string' && (SWEEP_KNOBS as readonly string[]).includes(value);
}

/** What a knob needs besides the parsed run: the engine's recommended checkpoint interval. */
export interface KnobContext {
  readonly config: RunConfig;
  readonly optimalCheckpointIntervalMinutes: number;
}

export interface KnobSpec {
  /** In the field's own words, as the page labels it. */
  readonly label: string;
  /** The degree that follows so the cluster stays the same size, or null. */
  readonly absorbedBy: 'dp' | null;
  current(x: KnobContext): SweepValue;
  /** Ascending (categorical knobs in their listed order), without duplicates. */
  candidates(x: KnobContext): readonly SweepValue[];
  /** The fields to set for this value, or why the value cannot be laid out at all. */
  changes(x: KnobContext, value: SweepValue): readonly FieldChange[] | string;
}

/** Degrees above this are not drawn: no published run goes near them, and they would crowd the axis. */
const MAX_DEGREE = 1024;
const MAX_MICRO_BATCH = 64;
/** Global batches from the smallest the layout allows to this many times the current one. */
const GLOBAL_BATCH_SPAN = 8;
/** GPU counts from 1/16 to 16 times the current data-parallel width. */
const GPU_OCTAVES = 4;
const SEQ_LENGTHS = [512, 1024, 2048, 4096, 8192, 16_384, 32_768, 65_536, 131_072];
/** From a few minutes to a day (issue 13), roughly evenly on a log axis. */
export const CHECKPOINT_INTERVALS_MINUTES = [2, 3, 5, 7, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 360, 480, 720, 1080, 1440];
/** Expert TP drawn up to one 8-GPU node's NVLink domain and a little past it (Megatron-Bridge MoE recipes use 1 to 8). */
const MAX_ETP = 64;
/** A boolean field as the sweep's values (a row value is a number or a string). */
const OFF_ON = ['off', 'on'] as const;
/** A MoE stack knob offers its choices for a MoE model; a dense one has only its current value (the field changes nothing there). */
const forMoe = (c: RunConfig, choices: readonly SweepValue[], current: SweepValue): readonly SweepValue[] =>
  c.model.moe ? choices : [current];

/** Least to most precise: bytes per weight ascending. */
const PRECISION_ORDER = ['fp4', 'fp8', 'fp16', 'bf16', 'fp32'] as const;

const num = (value: SweepValue) => (typeof value === 'number' ? value : Number.NaN);
const sortedUnique = (values: readonly number[]) => [...new Set(values)].sort((a, b) => a - b);
const gpusOf = (c: RunConfig) => c.parallel.tp * c.parallel.pp * c.parallel.dp * c.parallel.cp;

/** One degree set with the rest following as the page sets it (input/layout.ts), or why the GPU count does not split that way. */
function degreeChanges(c: RunConfig, key: 'tp' | 'pp' | 'cp' | 'vpp', value: number): readonly FieldChange[] | string {
  const from = layoutOfRun(c);
  const edit = withLayoutDegree(from, key, value);
  // The knob's own field (and DP, which absorbs it) are listed even at the current value, so every row says what it sets.
  return edit.ok ? layoutChanges(from, edit.layout, key === 'vpp' ? [key] : [key, 'dp']) : edit.reason;
}

function degreeKnob(key: 'tp' | 'pp' | 'cp', label: string, bound: (c: RunConfig) => number): KnobSpec {
  return {
    label,
    absorbedBy: 'dp',
    current: ({ config }) => config.parallel[key],
    candidates: ({ config: c }) => {
      const rest = (c.parallel.tp * c.parallel.pp * c.parallel.cp) / c.parallel[key];
      return divisors(gpusOf(c) / rest).filter((d) => d <= Math.min(MAX_DEGREE, bound(c)));
    },
    changes: ({ config }, value) => degreeChanges(config, key, num(value)),
  };
}

function fieldKnob(
  label: string,
  path: FieldPath,
  current: (c: RunConfig) => SweepValue,
  candidates: (x: KnobContext) => readonly SweepValue[],
): KnobSpec {
  return {
    label,
    absorbedBy: null,
    current: ({ config }) => current(config),
    candidates,
    changes: (_, value) => [{ path, value }],
  };
}

function globalBatches(c: RunConfig): number[] {
  const unit = c.parallel.dp * c.training.microBatch;
  const values = [c.training.globalBatch];
  for (let b = unit; b <= Math.max(unit, c.training.globalBatch * GLOBAL_BATCH_SPAN); b *= 2) values.push(b);
  return sortedUnique(values);
}

/** The data-parallel width from 1/16 to 16 times the current one, as whole GPU counts. */
function gpuCounts(c: RunConfig): number[] {
  const width = c.parallel.tp * c.parallel.pp * c.parallel.cp;
  const values = [gpusOf(c)];
  for (let k = -GPU_OCTAVES; k <= GPU_OCTAVES; k++) {
    const dp = c.parallel.dp * 2 ** k;
    if (Number.isInteger(dp) && dp >= 1) values.push(dp * width);
  }
  return sortedUnique(values);
}

/**
 * A GPU count laid out as the page lays it out when the count is typed (input/layout-intent.ts):
 * the run's own degrees kept where the count allows, DP following; a count the page refuses is skipped with its reason.
 */
function gpuCountChanges(c: RunConfig, gpus: number): readonly FieldChange[] | string {
  const from = layoutOfRun(c);
  const result = layoutForGpuCount(c, intentOfLayout(from), from.schedule, gpus);
  return result.ok
    ? [...layoutChanges(from, result.layout, ['dp']).filter((ch) => ch.path[1] !== 'gpus'), { path: ['cluster', 'gpus'], value: gpus }]
    : result.reason;
}

export const KNOBS: Readonly<Record<SweepKnob, KnobSpec>> = {
  tp: degreeKnob('tp', 'Tensor parallel (TP)', (c) => c.model.heads),
  pp: degreeKnob('pp', 'Pipeline parallel (PP)', (c) => c.model.layers),
  cp: degreeKnob('cp', 'Context parallel (CP)', (c) => c.training.seqLen),
  ep: fieldKnob(
    'Expert parallel (EP)',
    ['parallel', 'ep'],
    (c) => c.parallel.ep,
    ({ config: c }) => (c.model.moe ? divisors(c.model.moe.experts).filter((d) => d <= MAX_DEGREE) : [1]),
  ),
  vpp: {
    label: 'Virtual pipeline stages (VPP)',
    absorbedBy: null,
    current: ({ config }) => config.parallel.vpp,
    candidates: ({ config: c }) => (c.parallel.pp < 2 ? [1] : divisors(Math.max(1, Math.floor(c.model.layers / c.parallel.pp)))),
    changes: ({ config }, value) => degreeChanges(config, 'vpp', num(value)),
  },
  microBatch: fieldKnob(
    'Micro-batch (sequences)',
    ['training', 'microBatch'],
    (c) => c.training.microBatch,
    ({ config: c }) => {
      const perReplica = c.training.globalBatch / c.parallel.dp;
      const values = Number.isInteger(perReplica) ? divisors(perReplica).filter((d) => d <= MAX_MICRO_BATCH) : [];
      return sortedUnique([...values, c.training.microBatch]);
    },
  ),
  globalBatch: fieldKnob(
    'Global batch (sequences)',
    ['training', 'globalBatch'],
    (c) => c.training.globalBatch,
    ({ config }) => globalBatches(config),
  ),
  // Only what the framework runs (input/capabilities.ts): another stage is skipped with the reason.
  zero: {
    ...fieldKnob(
      'ZeRO stage',
      ['parallel', 'zero'],
      (c) => c.parallel.zero,
      () => ZERO_STAGES,
    ),
    changes: ({ config: c }, value) =>
      frameworkZeroProblem(c.stack.framework, num(value) as ZeroStage, c.parallel.pp) ?? [{ path: ['parallel', 'zero'], value }],
  },
  recompute: fieldKnob(
    'Activation recomputation',
    ['training', 'recompute'],
    (c) => c.training.recompute,
    () => RECOMPUTES,
  ),
  precision: fieldKnob(
    'Precision',
    ['training', 'precision'],
    (c) => c.training.precision,
    () => PRECISION_ORDER.filter((p) => PRECISIONS.includes(p)),
  ),
  seqLen: fieldKnob(
    'Sequence length (tokens)',
    ['training', 'seqLen'],
    (c) => c.training.seqLen,
    ({ config }) => sortedUnique([...SEQ_LENGTHS, config.training.seqLen]),
  ),
  gpus: {
    label: 'GPUs',
    absorbedBy: 'dp',
    current: ({ config }) => gpusOf(config),
    candidates: ({ config }) => gpuCounts(config),
    changes: ({ config: c }, value) => gpuCountChanges(c, num(value)),
  },
  checkpointInterval: {
    label: 'Checkpoint interval (minutes)',
    absorbedBy: null,
    current: (x) => x.config.cost.checkpointIntervalMinutes ?? x.optimalCheckpointIntervalMinutes,
    candidates: (x) =>
      sortedUnique([...CHECKPOINT_INTERVALS_MINUTES, x.optimalCheckpointIntervalMinutes, num(KNOBS.checkpointInterval.current(x))]),
    changes: (_, value) => [{ path: ['cost', 'checkpointIntervalMinutes'], value }],
  },
  // The MoE stack (issue 20): each value is the document field set explicitly, over the framework's default.
  moeDispatcher: fieldKnob(
    'Token dispatcher',
    ['training', 'moeDispatcher'],
    (c) => c.stack.moeDispatcher,
    ({ config: c }) => forMoe(c, MOE_DISPATCHERS, c.stack.moeDispatcher),
  ),
  epComm: {
    label: 'Overlap expert-parallel communication',
    absorbedBy: null,
    current: ({ config }) => (config.stack.overlap.epComm ? 'on' : 'off'),
    candidates: ({ config: c }) => forMoe(c, OFF_ON, c.stack.overlap.epComm ? 'on' : 'off'),
    changes: ({ config: c }, value) =>
      (value === 'on'
        ? epOverlapProblem({
            framework: c.stack.framework,
            model: c.model,
            ep: c.parallel.ep,
            pp: c.parallel.pp,
            vpp: c.parallel.vpp,
            schedule: c.parallel.schedule,
            recompute: c.training.recompute,
            dispatcher: c.stack.moeDispatcher,
            precision: c.training.precision,
          })
        : null) ?? [{ path: ['training', 'overlap', 'epComm'], value: value === 'on' }],
  },
  cudaGraph: {
    ...fieldKnob(
      'CUDA graphs',
      ['training', 'cudaGraph'],
      (c) => c.stack.cudaGraph,
      ({ config: c }) => forMoe(c, CUDA_GRAPH_SCOPES, c.stack.cudaGraph),
    ),
    changes: ({ config: c }, value) => {
      const scope = CUDA_GRAPH_SCOPES.find((g) => g === value) ?? 'none';
      return (
        (scope === 'none' ? null : cudaGraphProblem(c.stack.framework, scope, c.model, c.stack.moeDispatcher)) ?? [
          { path: ['training', 'cudaGraph'], value },
        ]
      );
    },
  },
  // Divisors of the stage's TP × DP × CP; the engine (consistency.ts etpProblem) rejects those EP × ETP does not divide.
  etp: fieldKnob(
    'Expert tensor parallel (ETP)',
    ['parallel', 'etp'],
    (c) => expertTensorParallel(c.parallel),
    ({ config: c }) =>
      forMoe(
        c,
        divisors(c.parallel.tp * c.parallel.dp * c.parallel.cp).filter((d) => d <= MAX_ETP),
        expertTensorParallel(c.parallel),
      ),
  ),
};

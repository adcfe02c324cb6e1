// What a framework and a GPU can run (issue 36): the rules the engine, the search, cluster
// sizing, the sweeps, the fixes and the page all ask, so that nothing offers a plan the
// chosen framework cannot launch or a precision the GPU has no tensor cores for. The data
// with its sources sits in the framework profiles (frameworks.ts) and the GPU presets
// (gpus.ts); this file holds the rules, one rule in one place.

import { FRAMEWORK_PROFILES, type FrameworkCapabilities } from './frameworks.ts';
import {
  FRAMEWORKS,
  type CudaGraphScope,
  type Framework,
  type GpuSpec,
  type ModelConfig,
  type MoeDispatcher,
  type OffloadConfig,
  type Precision,
  type Recompute,
  type ScheduleKind,
  type ZeroStage,
} from './types.ts';

export function frameworkCapabilities(framework: Framework): FrameworkCapabilities {
  return FRAMEWORK_PROFILES[framework].capabilities;
}

const nameOf = (framework: Framework) => FRAMEWORK_PROFILES[framework].shortName;

/** The schedules a framework runs with pp > 1, in the engine's order. */
export function frameworkSchedules(framework: Framework): ScheduleKind[] {
  return Object.keys(frameworkCapabilities(framework).schedules) as ScheduleKind[];
}

/**
 * Why the framework cannot run this pipeline schedule, or null. Without a pipeline
 * (pp = 1) there is no schedule to run, so every framework takes any.
 */
export function frameworkScheduleProblem(framework: Framework, p: { readonly pp: number; readonly schedule: ScheduleKind }): string | null {
  if (p.pp <= 1) return null;
  const caps = frameworkCapabilities(framework);
  if (caps.schedules[p.schedule] !== undefined) return null;
  const runs = Object.values(caps.schedules);
  const others = FRAMEWORKS.filter(
    (f) => f !== 'generic' && f !== framework && frameworkCapabilities(f).schedules[p.schedule] !== undefined,
  ).map((f) => `${nameOf(f)} runs it as ${frameworkCapabilities(f).schedules[p.schedule] ?? ''}`);
  const runsWords = runs.length > 0 ? `it runs ${runs.join(', ')}` : 'it has no pipeline parallelism';
  return `${nameOf(framework)} does not run the ${p.schedule} schedule (${runsWords})${others.length > 0 ? `; ${others.join(', ')}` : ''}`;
}

/** The least micro-batches per step per pipeline the framework's schedule needs (1 when it sets none). */
export function minMicroBatches(framework: Framework, p: { readonly pp: number; readonly schedule: ScheduleKind }): number {
  if (p.pp <= 1) return 1;
  const perStage = frameworkCapabilities(framework).minMicroBatchesPerStage[p.schedule];
  return perStage === undefined ? 1 : perStage * p.pp;
}

/** Why `microBatches` per step are too few for the schedule, or null. */
export function microBatchMinimumProblem(
  framework: Framework,
  p: { readonly pp: number; readonly schedule: ScheduleKind },
  microBatches: number,
): string | null {
  const least = minMicroBatches(framework, p);
  if (microBatches >= least) return null;
  const perStage = least / p.pp;
  return (
    `${p.schedule} on pp=${p.pp} needs at least ${perStage === 1 ? 'pp' : `${perStage} × pp`} ` +
    `= ${least} micro-batches per step, got ${microBatches} (globalBatch ÷ (microBatch × dp))`
  );
}

/** Why the framework cannot shard with this ZeRO stage at this pipeline depth, or null. */
export function frameworkZeroProblem(framework: Framework, zero: ZeroStage, pp: number): string | null {
  const caps = frameworkCapabilities(framework);
  if (!caps.zeroStages.includes(zero))
    return `${nameOf(framework)} has no ZeRO-${zero} mode (it has ${caps.zeroStages.map((z) => `ZeRO-${z}`).join(', ')})`;
  if (pp > 1 && zero > caps.maxZeroWithPipeline)
    return `${nameOf(framework)} runs at most ZeRO-${caps.maxZeroWithPipeline} with pipeline parallelism`;
  return null;
}

/** Why the framework cannot offload this way, or null. */
export function frameworkOffloadProblem(framework: Framework, offload: Pick<OffloadConfig, 'optimizer' | 'parameters'>): string | null {
  const caps = frameworkCapabilities(framework).offload;
  if (offload.parameters && !caps.parameters) return `${nameOf(framework)} cannot offload parameters`;
  if (offload.optimizer && !caps.optimizer) return `${nameOf(framework)} cannot offload the optimizer`;
  return null;
}

/** What expert-parallel overlap needs (Megatron-Core transformer_config.py __post_init__, overlap_moe_expert_parallel_comm). */
export interface EpOverlapInput {
  readonly framework: Framework;
  readonly model: ModelConfig;
  readonly ep: number;
  readonly pp: number;
  readonly vpp: number;
  readonly schedule: ScheduleKind;
  readonly recompute: Recompute;
  readonly dispatcher: MoeDispatcher;
  readonly precision: Precision;
}

/** Why training.overlap.epComm cannot be on, or null. */
export function epOverlapProblem(x: EpOverlapInput): string | null {
  if (!frameworkCapabilities(x.framework).epOverlap) return `${nameOf(x.framework)} has no expert-parallel overlap`;
  if (!x.model.moe) return 'expert-parallel overlap needs a mixture-of-experts model';
  if (x.ep <= 1) return 'expert-parallel overlap needs parallel.ep > 1';
  if (x.framework === 'generic') return null;
  if (x.dispatcher === 'allgather') return 'expert-parallel overlap needs the alltoall or flex (DeepEP, HybridEP) dispatcher';
  if (x.recompute === 'full') return 'expert-parallel overlap cannot run with full recomputation';
  if (x.precision === 'fp32') return 'expert-parallel overlap needs bf16 or fp16 parameters';
  if (x.pp > 1 && x.schedule !== 'interleaved-1f1b' && x.schedule !== 'dualpipe')
    return 'expert-parallel overlap needs virtual pipeline stages (interleaved-1f1b) when pp > 1';
  return null;
}

/**
 * Why this CUDA-graph scope cannot be captured, or null. Whole-iteration graphs of a
 * dropless MoE need a dispatcher without a host synchronisation: the alltoall and DeepEP
 * paths copy per-expert counts to the host (Megatron-Core token_dispatcher.py,
 * _maybe_dtoh_and_synchronize); Megatron-Bridge's 26.06 recipes pair cuda_graph_impl
 * full_iteration with moe_flex_dispatcher_backend hybridep; a capacity factor pads the
 * shapes static instead (Megatron-Core moe/README.md, "CUDA graph").
 */
export function cudaGraphProblem(
  framework: Framework,
  scope: CudaGraphScope,
  model: ModelConfig,
  dispatcher: MoeDispatcher,
): string | null {
  const caps = frameworkCapabilities(framework);
  if (!caps.cudaGraphs.includes(scope))
    return `${nameOf(framework)} cannot capture ${scope === 'full' ? 'whole-iteration' : 'per-module'} CUDA graphs`;
  if (scope === 'full' && framework !== 'generic' && model.moe && model.moe.capacityFactor == null && dispatcher !== 'hybridep') {
    return (
      `whole-iteration CUDA graphs of a dropless MoE need the hybridep dispatcher ` +
      `(the ${dispatcher} dispatcher synchronises with the host) or a capacity factor`
    );
  }
  return null;
}

/** The architectures whose tensor cores run each low precision. */
const PRECISION_TENSOR_CORES: Readonly<Partial<Record<Precision, string>>> = {
  fp8: 'FP8 tensor cores (Hopper, Ada, Blackwell, CDNA3)',
  fp4: 'FP4 tensor cores (NVFP4/MXFP4: Blackwell)',
};

/**
 * Why the GPU cannot train at this precision, or null: FP8 needs FP8 tensor cores
 * (fp8Tflops > 0: Hopper, Ada, Blackwell, MI300X), FP4 needs FP4 ones (fp4Tflops > 0:
 * Blackwell). The engine refuses rather than estimate an emulated format at a speed it
 * does not have (issue 36: FP4 on H100 was shown 1.08× faster than FP8).
 */
export function precisionProblem(gpu: Pick<GpuSpec, 'name' | 'fp8Tflops' | 'fp4Tflops'>, precision: Precision): string | null {
  const needs = PRECISION_TENSOR_CORES[precision];
  if (needs === undefined) return null;
  const rate = precision === 'fp8' ? gpu.fp8Tflops : gpu.fp4Tflops;
  if (rate > 0) return null;
  return `${precision} needs ${needs}; the ${gpu.name} has none (custom GPUs: give ${precision}Tflops)`;
}

/** The precisions a GPU can train at, in PRECISIONS order. */
export function gpuPrecisions(gpu: Pick<GpuSpec, 'name' | 'fp8Tflops' | 'fp4Tflops'>, precisions: readonly Precision[]): Precision[] {
  return precisions.filter((p) => precisionProblem(gpu, p) === null);
}

/** Frameworks other than `framework` (and generic) that run `schedule`, for a labelled suggestion. */
export function frameworksRunning(schedule: ScheduleKind, except: Framework): Framework[] {
  return FRAMEWORKS.filter((f) => f !== except && f !== 'generic' && frameworkCapabilities(f).schedules[schedule] !== undefined);
}

export function frameworkShortName(framework: Framework): string {
  return nameOf(framework);
}

// Per-GPU memory of every pipeline stage: model states (weights, gradients,
// optimizer states, sharded by ZeRO), activations (activations.ts) and the named
// "other" terms whose constants live in calibration.ts.

import {
  ALLOCATOR_RESERVE_FRACTION, RUNTIME_BYTES, ZERO3_GATHERED_LAYERS, ZERO_UNSHARDED_GRADIENT_LAYERS,
} from '../calibration.ts';
import {
  denseDataParallel, expertDataParallel, layerGpuParameters,
  type GpuParameters, type PipelineStage,
} from '../structure/index.ts';
import { frameworkProfile } from '../input/index.ts';
import type { MemoryBreakdown, OptimizerKind, RunConfig, StateDtype, TrainingConfig } from '../input/index.ts';
import { GRAD_BYTES, WEIGHT_BYTES } from '../input/index.ts';

const FP32_BYTES = 4;
/** Adam's two moments, fp32 (Rajbhandari et al. 2020, section 3: K = 12 with the master copy). */
const ADAM_MOMENT_BYTES = 2 * FP32_BYTES;
/** Adam's two moments in bf16 (Megatron-Core --use-precision-aware-optimizer --exp-avg-dtype bf16 --exp-avg-sq-dtype bf16; Moonlight keeps them so). */
const ADAM_BF16_MOMENT_BYTES = 2 * 2;
/** 8-bit Adam: both moments in one byte each (Dettmers et al. 2021, arXiv 2110.02861, section 2). */
const ADAM8BIT_MOMENT_BYTES = 2;
/** Block-wise quantization keeps one fp32 absmax per block of 2048 values, per moment (Dettmers et al. 2021, section 2.1). */
const ADAM8BIT_BLOCK_STATISTICS_BYTES = (2 * FP32_BYTES) / 2048;
/** SGD with momentum keeps one fp32 buffer. */
const SGD_MOMENTUM_BYTES = FP32_BYTES;

/** fp32 master copy of the weights; none when the weights are fp32 already. */
function masterWeightBytes(t: Pick<TrainingConfig, 'masterWeights' | 'precision'>): number {
  return t.masterWeights && t.precision !== 'fp32' ? FP32_BYTES : 0;
}

/** Optimizer-state bytes per parameter (the K of ZeRO section 3), master weights included; `stateDtype` is the Adam moments' dtype. */
export function optimizerBytesPerParameter(t: Pick<TrainingConfig, 'optimizer' | 'masterWeights' | 'precision'>, stateDtype: StateDtype = 'fp32'): number {
  const states: Record<OptimizerKind, number> = {
    adam: stateDtype === 'bf16' ? ADAM_BF16_MOMENT_BYTES : ADAM_MOMENT_BYTES,
    adam8bit: ADAM8BIT_MOMENT_BYTES + ADAM8BIT_BLOCK_STATISTICS_BYTES,
    sgd: SGD_MOMENTUM_BYTES,
  };
  return states[t.optimizer] + masterWeightBytes(t);
}

export interface ModelStates {
  readonly parameters: number;
  readonly gradients: number;
  readonly optimizer: number;
}

/**
 * Weights, gradients and optimizer states on one GPU. ZeRO (Rajbhandari et al. 2020,
 * section 5) shards over the GPUs holding the same weights: stage 1 the optimizer
 * states, 2 also the gradients, 3 also the weights. Offload moves the optimizer states
 * with the master weights to CPU, and with ZeRO-2/3 the gradient shards the CPU
 * optimizer reads (ZeRO-Offload, Ren et al. 2021, arXiv 2101.06840, section 4.1);
 * parameter offload (ZeRO-Infinity) moves the weight shards.
 */
export function modelStateBytes(c: RunConfig, params: GpuParameters): ModelStates {
  const { training: t, parallel: p } = c;
  const shardOf = (count: number, group: number, sharded: boolean) => (sharded ? count / group : count);
  const byGroup = (sharded: boolean) =>
    shardOf(params.dense, denseDataParallel(p), sharded) + shardOf(params.expert, expertDataParallel(p), sharded);
  // FSDP mixed precision keeps the sharded parameters in fp32: they are the master weights (fsdpFp32ShardedParameters).
  const fp32Shards = fsdpFp32ShardedParameters(c);
  const weightBytes = fp32Shards ? FP32_BYTES : WEIGHT_BYTES[t.precision];
  const weights = t.offload.parameters ? 0 : weightBytes * byGroup(p.zero >= 3);
  const gradientsOffloaded = t.offload.optimizer && p.zero >= 2;
  const shardGradients = p.zero >= 2 && !deferredUnshardedGradients(c);
  const gradients = gradientsOffloaded ? 0 : GRAD_BYTES[t.gradDtype] * byGroup(shardGradients) + flatFp32GradientBufferBytes(c, byGroup(false));
  const optimizerBytes = optimizerBytesPerParameter(t, c.stack.optimizerStateDtype) - (fp32Shards ? masterWeightBytes(t) : 0);
  const optimizer = t.offload.optimizer ? 0 : optimizerBytes * byGroup(p.zero >= 1);
  return { parameters: weights, gradients, optimizer };
}

/**
 * PyTorch FSDP with MixedPrecision(param_dtype=bf16) and FSDP2 with
 * MixedPrecisionPolicy keep each rank's parameter shard in fp32 and cast to bf16 only
 * when gathering a unit (torch/distributed/fsdp/_fully_shard/_fsdp_param.py: the sharded
 * parameter keeps the original dtype; torchtitan training.mixed_precision_param = bfloat16
 * applies to the all-gather), so the shard is the master copy: 4 bytes of weights and no
 * separate master in the optimizer, 16 bytes per parameter with Adam instead of 18.
 */
export function fsdpFp32ShardedParameters(c: RunConfig): boolean {
  return frameworkProfile(c.stack.framework).mechanisms.fsdpFp32ShardedParameters && c.parallel.zero >= 3
    && c.training.masterWeights && c.training.precision !== 'fp32';
}

/**
 * FSDP2 under pipeline parallelism (torchtitan, input/frameworks.ts): gradient
 * reduce-scatter waits for the last micro-batch, so each stage holds its gradients
 * unsharded, in the reduce dtype, until then.
 */
export function deferredUnshardedGradients(c: RunConfig): boolean {
  return frameworkProfile(c.stack.framework).mechanisms.deferredGradSyncUnderPp && c.parallel.pp > 1 && c.parallel.zero >= 2;
}

/**
 * DeepSpeed's BF16 optimizer (deepspeed/runtime/bf16_optimizer.py) keeps a flat fp32
 * gradient buffer of every parameter (fp32_groups_gradients_flat) beside the bf16
 * gradients, with ZeRO stage 0/1 and bf16 weights (fp16 runs use the FP16 optimizer, which has none). `parameters`: the GPU's unsharded count.
 */
export function flatFp32GradientBufferBytes(c: RunConfig, parameters: number): number {
  const applies = frameworkProfile(c.stack.framework).mechanisms.flatFp32GradientBuffer && c.parallel.zero <= 1
    && c.training.precision === 'bf16' && c.training.gradDtype === 'bf16';
  return applies ? FP32_BYTES * parameters : 0;
}

/** The named parts of "other", bytes on one GPU. */
export interface OtherMemoryTerms {
  /** CUDA context, kernels and NCCL buffers, outside the caching allocator. */
  readonly runtime: number;
  /** ZeRO-3: full weights of the gathered layers beyond this GPU's shard. */
  readonly gatheredWeights: number;
  /** ZeRO-2/3: full gradients of the layers awaiting reduce-scatter beyond the shard. */
  readonly unshardedGradients: number;
  /** Caching-allocator reserve over the allocated bytes. */
  readonly allocatorReserve: number;
}

/** Largest layer's weights on one GPU of the stage, by data-parallel group. */
function largestLayer(c: RunConfig, stage: PipelineStage): GpuParameters {
  return stage.layers.reduce<GpuParameters>((big, i) => {
    const layer = layerGpuParameters(c.model, i, c.parallel);
    return layer.dense + layer.expert > big.dense + big.expert ? layer : big;
  }, { dense: 0, expert: 0 });
}

/**
 * What gathering `layers` full layers adds over the shard, bytes: each data-parallel
 * group's share (1 − 1/group) of the largest layer's weights, never more than the stage
 * holds. With the shard offloaded to the host the whole layer's buffer is extra GPU
 * memory, sharded or not. Over plain numbers (parameters on one GPU): the estimate and
 * the search's hot path both call it.
 */
export function gatheredBeyondShardBytes(
  layers: number, largestDense: number, largestExpert: number, stageDense: number, stageExpert: number,
  denseGroup: number, expertGroup: number, bytesPerParameter: number, shardOnGpu: boolean,
): number {
  const dense = Math.min(layers * largestDense, stageDense) * (shardOnGpu ? 1 - 1 / denseGroup : 1);
  const expert = Math.min(layers * largestExpert, stageExpert) * (shardOnGpu ? 1 - 1 / expertGroup : 1);
  return bytesPerParameter * (dense + expert);
}

/** The caching allocator's reserve over what it hands out (allocated, gathered and unsharded buffers), before the overhead scale. */
function allocatorReserveBytes(allocated: number, gatheredWeights: number, unshardedGradients: number, reserveFraction: number): number {
  return reserveFraction * (allocated + gatheredWeights + unshardedGradients);
}

/** The caching allocator's reserve fraction under the document's framework (input/frameworks.ts; null there: the fitted ALLOCATOR_RESERVE_FRACTION). */
export function allocatorReserveFraction(c: RunConfig): number {
  return frameworkProfile(c.stack.framework).mechanisms.allocatorReserveFraction ?? ALLOCATOR_RESERVE_FRACTION;
}

/** The named parts of "other" over plain numbers: allocated bytes, gathered weights and unsharded gradients (before the overhead scale). */
export function otherMemoryTermsOf(
  allocated: number, gatheredWeights: number, unshardedGradients: number, memoryOverheadScale: number, reserveFraction = ALLOCATOR_RESERVE_FRACTION,
): OtherMemoryTerms {
  const scale = memoryOverheadScale;
  return {
    runtime: scale * RUNTIME_BYTES,
    gatheredWeights: scale * gatheredWeights,
    unshardedGradients: scale * unshardedGradients,
    allocatorReserve: scale * allocatorReserveBytes(allocated, gatheredWeights, unshardedGradients, reserveFraction),
  };
}

export function otherMemoryTotal(o: OtherMemoryTerms): number {
  return o.runtime + o.gatheredWeights + o.unshardedGradients + o.allocatorReserve;
}

/** A stage's per-GPU total: allocated bytes plus every part of "other" (otherMemoryTermsOf, summed without allocating: the search's hot path). */
export function stageTotalBytes(
  allocated: number, gatheredWeights: number, unshardedGradients: number, memoryOverheadScale: number, reserveFraction = ALLOCATOR_RESERVE_FRACTION,
): number {
  return allocated + memoryOverheadScale * (RUNTIME_BYTES + gatheredWeights + unshardedGradients + allocatorReserveBytes(allocated, gatheredWeights, unshardedGradients, reserveFraction));
}

export function otherMemoryTerms(c: RunConfig, stage: PipelineStage, stageParams: GpuParameters, allocated: number): OtherMemoryTerms {
  const { training: t, parallel: p } = c;
  const largest = largestLayer(c, stage);
  const gathered = (layers: number, bytesPerParameter: number, shardOnGpu: boolean) => gatheredBeyondShardBytes(
    layers, largest.dense, largest.expert, stageParams.dense, stageParams.expert,
    denseDataParallel(p), expertDataParallel(p), bytesPerParameter, shardOnGpu,
  );
  const gatheredWeights = p.zero >= 3 ? gathered(ZERO3_GATHERED_LAYERS, WEIGHT_BYTES[t.precision], !t.offload.parameters) : 0;
  const unshardedGradients = p.zero >= 2 ? gathered(ZERO_UNSHARDED_GRADIENT_LAYERS, GRAD_BYTES[t.gradDtype], !t.offload.optimizer) : 0;
  return otherMemoryTermsOf(allocated, gatheredWeights, unshardedGradients, c.calibration.memoryOverheadScale, allocatorReserveFraction(c));
}

export interface StageMemory {
  /** Allocated peak: "other" is the runtime, gathered weights and unsharded gradients (no allocator reserve). */
  readonly breakdown: MemoryBreakdown;
  readonly other: OtherMemoryTerms;
  /** What the caching allocator holds at the peak: the allocated total plus its reserve (reservedBytes). */
  readonly reserved: number;
}

/** Reserved bytes of a stage: allocated peak (with the runtime) plus the caching allocator's reserve. Never below the allocated peak. */
export function reservedBytes(allocatedTotal: number, other: OtherMemoryTerms): number {
  return allocatedTotal + Math.max(0, other.allocatorReserve);
}

/**
 * The part of a stage's memory a published figure measured: "analytical model states"
 * (ZeRO, Figure 1) counts weights, gradients and optimizer states; PyTorch's "peak
 * allocated" leaves out the runtime and the allocator reserve; "peak reserved" (and
 * torchtitan's "max across ranks", which logs reserved bytes) leaves out the runtime.
 * Anything else is compared with the whole total.
 */
export function stageMemoryForMetric(s: StageMemory, metric: string | null): number {
  const b = s.breakdown;
  if (metric === 'analytical model states') return b.parameters + b.gradients + b.optimizer + (b.frozen ?? 0);
  if (metric?.startsWith('peak allocated')) return b.total - s.other.runtime;
  if (metric?.startsWith('peak reserved') || metric === 'max across ranks') return s.reserved - s.other.runtime;
  return s.reserved;
}

// Per-GPU memory of every pipeline stage: model states (weights, gradients,
// optimizer states, sharded by ZeRO), activations (activations.ts) and the named
// "other" terms whose constants live in calibration.ts.

import { ALLOCATOR_RESERVE_FRACTION, ZERO3_GATHERED_LAYERS, ZERO_UNSHARDED_GRADIENT_LAYERS } from '../calibration.ts';
import { deviceTerms, deviceTermsTotal, type DeviceTerms } from './device.ts';
import { fp8WeightCacheBytes, fsdpQuantizedLayerWeightBytes, stageLayerWeights } from './fp8-weight-cache.ts';
import { denseDataParallel, expertDataParallel, layerGpuParameters, type GpuParameters, type PipelineStage } from '../structure/index.ts';
import { frameworkProfile, microBatchesPerStep } from '../input/index.ts';
import type { MemoryBreakdown, OptimizerKind, ParallelConfig, RunConfig, StateDtype, TrainingConfig } from '../input/index.ts';
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
export function optimizerBytesPerParameter(
  t: Pick<TrainingConfig, 'optimizer' | 'masterWeights' | 'precision'>,
  stateDtype: StateDtype = 'fp32',
): number {
  const states: Record<OptimizerKind, number> = {
    adam: stateDtype === 'bf16' ? ADAM_BF16_MOMENT_BYTES : ADAM_MOMENT_BYTES,
    adam8bit: ADAM8BIT_MOMENT_BYTES + ADAM8BIT_BLOCK_STATISTICS_BYTES,
    sgd: SGD_MOMENTUM_BYTES,
  };
  return states[t.optimizer] + masterWeightBytes(t);
}

/**
 * Bytes one optimizer step reads and writes per updated parameter, in whichever memory it
 * runs (the GPU's HBM, or the host's under optimizer offload; time/optimizer.ts): every
 * state byte read and written (the master included), the gradient read (`gradientBytes`,
 * as the step holds it), and the weight: with an fp32 master, the 16-bit working weight
 * written from it; without one, the working weight read and written, being the state the
 * update changes. The kernels' loops: PyTorch aten/src/ATen/native/cpu/FusedAdamKernel.cpp
 * @000510a6 adam_fused_step_impl (torch.optim.AdamW(fused=True) on CPU) loads param, grad,
 * exp_avg and exp_avg_sq and stores exp_avg, exp_avg_sq and param, all in the param's
 * dtype; DeepSpeed csrc/adam/cpu_adam_impl.cpp @1640828d Adam_Optimizer::Step_1 (the
 * DeepSpeedCPUAdam of ZeRO-Offload, AVX512/AVX2 in Step_AVX) the same four and three, on
 * the fp32 partition. Adam, fp32 master, fp32 gradient, bf16 weight: 2 × 12 + 4 + 2 = 30;
 * bf16 Adam without a master (torchtune's bf16 recipes): 2 × 4 + 2 + 2 × 2 = 14.
 */
export function optimizerUpdateBytesPerParameter(
  t: Pick<TrainingConfig, 'optimizer' | 'masterWeights' | 'precision'>,
  stateDtype: StateDtype,
  gradientBytes: number,
): number {
  const weight = WEIGHT_BYTES[t.precision];
  const weightTraffic = masterWeightBytes(t) > 0 ? weight : 2 * weight;
  return 2 * optimizerBytesPerParameter(t, stateDtype) + gradientBytes + weightTraffic;
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
  const offloaded = optimizerOffloadFraction(t);
  const keepsMaster = frameworkProfile(c.stack.framework).mechanisms.optimizerOffloadKeepsMaster;
  // ZeRO-Offload's CPU optimizer reads the offloaded share's gradient shards on the host; Megatron's keeps its gradient buffer on the GPU.
  const gradientsOnGpu = p.zero >= 2 && !keepsMaster ? 1 - offloaded : 1;
  const shardGradients = p.zero >= 2 && !deferredUnshardedGradients(c);
  const gradients =
    gradientsOnGpu * GRAD_BYTES[t.gradDtype] * byGroup(shardGradients) +
    (gradientsOnGpu > 0 ? flatFp32GradientBufferBytes(c, byGroup(false)) : 0);
  const optimizerBytes = optimizerBytesPerParameter(t, c.stack.optimizerStateDtype) - (fp32Shards ? masterWeightBytes(t) : 0);
  const masterOnGpu = fp32Shards ? 0 : masterWeightBytes(t);
  const optimizer = optimizerOnGpuBytesPerParameter(optimizerBytes, masterOnGpu, offloaded, keepsMaster) * byGroup(p.zero >= 1);
  return { parameters: weights, gradients, optimizer };
}

/**
 * Whether no gradient exists when the activations peak: the framework frees the
 * gradients before the step's forward (input/frameworks.ts gradientsFreedBeforeForward:
 * torchtitan's train_step calls optimizers.zero_grad() first, PyTorch's set_to_none
 * default) and the step runs one micro-batch, so nothing is accumulated yet. With
 * gradient accumulation the second micro-batch's forward runs over the first one's
 * gradients.
 */
export function gradientsFreedAtActivationPeak(c: RunConfig): boolean {
  return frameworkProfile(c.stack.framework).mechanisms.gradientsFreedBeforeForward && microBatchesPerStep(c.training, c.parallel) === 1;
}

/**
 * Gradient bytes the peak holds beside the activations. Backward frees each layer's
 * saved activations as it writes that layer's gradients, so from the end of forward
 * (all activations, no gradient) to the end of backward (all gradients, no activation)
 * the sum moves between its two ends: the peak holds max(activations, gradients), the
 * gradients counting max(0, gradients − activations) of it. Without `freed` all of them.
 * Hand check: Llama 3 8B on 8 GPUs under FSDP2, fp32 gradient shards 4 · 8.03e9 / 8 =
 * 4.0 GB against ~20 GB of activations: none at the peak.
 */
export function gradientBytesAtPeak(gradients: number, activations: number, freed: boolean): number {
  return freed ? Math.max(0, gradients - activations) : gradients;
}

/** The share of the optimizer's parameters offloaded to the CPU: 0 without optimizer offload, else training.offload.optimizerFraction (absent: 1). */
export function optimizerOffloadFraction(t: Pick<TrainingConfig, 'offload'>): number {
  return t.offload.optimizer ? Math.min(1, Math.max(0, t.offload.optimizerFraction ?? 1)) : 0;
}

/**
 * Optimizer bytes per parameter left on the GPU when a share `offloaded` of the
 * parameters has its optimizer on the CPU. ZeRO-Offload (Ren et al. 2021, arXiv
 * 2101.06840, section 4.1; DeepSpeed offload_optimizer, its `ratio` for a partial
 * offload) moves the master weights with the moments: (1 − f) × K stay. Megatron-Core's
 * HybridDeviceOptimizer (megatron/core/optimizer/cpu_offloading/hybrid_device_optimizer.py,
 * --optimizer-cpu-offload, --optimizer-offload-fraction f, arguments.py) splits the
 * parameters it is handed in order until f of their elements are on the CPU; each
 * offloaded one is a pinned CPU clone, while the GPU tensor (the distributed optimizer's
 * fp32 main-param shard) stays and takes the update back after the CPU step: (1 − f) × K
 * + f × 4 stay (master = 4 bytes). Its gradient copies and clones are pinned host memory,
 * no GPU buffer.
 */
export function optimizerOnGpuBytesPerParameter(
  optimizerBytes: number,
  masterBytes: number,
  offloaded: number,
  keepsMaster: boolean,
): number {
  return (1 - offloaded) * optimizerBytes + (keepsMaster ? offloaded * masterBytes : 0);
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
  return (
    frameworkProfile(c.stack.framework).mechanisms.fsdpFp32ShardedParameters &&
    c.parallel.zero >= 3 &&
    c.training.masterWeights &&
    c.training.precision !== 'fp32'
  );
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
  const applies =
    frameworkProfile(c.stack.framework).mechanisms.flatFp32GradientBuffer &&
    c.parallel.zero <= 1 &&
    c.training.precision === 'bf16' &&
    c.training.gradDtype === 'bf16';
  return applies ? FP32_BYTES * parameters : 0;
}

/** The named parts of "other", bytes on one GPU. */
export interface OtherMemoryTerms {
  /**
   * Outside the caching allocator, so in no allocated or reserved figure, only in
   * deviceUsed: the CUDA context, NCCL's communicator buffers and the cuBLAS workspaces
   * (device.ts), the sum of `device`.
   */
  readonly runtime: number;
  /** The named parts of `runtime` (device.ts), after the overhead scale. */
  readonly device: DeviceTerms;
  /** ZeRO-3: full weights of the gathered layers beyond this GPU's shard. */
  readonly gatheredWeights: number;
  /** ZeRO-2/3: full gradients of the layers awaiting reduce-scatter beyond the shard. */
  readonly unshardedGradients: number;
  /** Caching-allocator reserve over the allocated bytes, lossReserve and zero3GatherCache included. */
  readonly allocatorReserve: number;
  /**
   * The part of allocatorReserve that is DeepSpeed ZeRO-3's gather-stream cache (zero3-gather-cache.ts), as much of it as
   * the GPU has free; 0 unless the document's forward never waits for the GPU.
   */
  readonly zero3GatherCache: number;
  /** The part of allocatorReserve that is the eager loss's freed 16-bit logits (activations.ts lossReserveBytes), after the overhead scale. */
  readonly lossReserve: number;
  /**
   * Transformer Engine's quantized copies of the linear weights, held the whole step
   * (fp8-weight-cache.ts): allocated like the model states, so not scaled by the overhead scale.
   */
  readonly fp8WeightCache: number;
}

/**
 * The embedding or output matrix on one GPU of the stage (vocab · hidden / tp), 0 when the stage holds neither: a ZeRO-3 / FSDP
 * unit of its own (gatheredBeyondShardBytes).
 */
export function edgeUnitParameters(c: RunConfig, stage: PipelineStage): number {
  return stage.embedding || stage.output ? (c.model.vocab * c.model.hidden) / c.parallel.tp : 0;
}

/** Largest layer's weights on one GPU of the stage, by data-parallel group (the adapter's memory, adapter.ts, uses it too). */
export function largestLayer(c: RunConfig, stage: PipelineStage): GpuParameters {
  return stage.layers.reduce<GpuParameters>(
    (big, i) => {
      const layer = layerGpuParameters(c.model, i, c.parallel);
      return layer.dense + layer.expert > big.dense + big.expert ? layer : big;
    },
    { dense: 0, expert: 0 },
  );
}

/**
 * What gathering `layers` full layers adds over the shard, bytes: each data-parallel
 * group's share (1 − 1/group) of the largest layer's weights, never more than the stage
 * holds. With the shard offloaded to the host the whole layer's buffer is extra GPU
 * memory, sharded or not. Over plain numbers (parameters on one GPU): the estimate and
 * the search's hot path both call it.
 *
 * `edgeUnitDense`: the embedding or output matrix on this GPU (vocab · hidden / tp) when the
 * stage holds one, else 0. It is a gathered unit of its own, and the output one is gathered
 * at the loss, where the activations peak, next to the last layer prefetched for backward:
 * torchtitan's apply_fsdp wraps `[norm, output]` as one fully_shard unit (and keeps it
 * unsharded after forward), DeepSpeed ZeRO-3 fetches `lm_head.weight` like any module's
 * parameters (deepspeed/runtime/zero/partitioned_param_coordinator.py fetch_sub_module).
 * So the dense gather is the larger of `layers` layers and that unit plus `layers − 1` layers.
 */
export function gatheredBeyondShardBytes(
  layers: number,
  largestDense: number,
  largestExpert: number,
  stageDense: number,
  stageExpert: number,
  denseGroup: number,
  expertGroup: number,
  bytesPerParameter: number,
  shardOnGpu: boolean,
  edgeUnitDense = 0,
): number {
  const atOnce = Math.max(layers * largestDense, edgeUnitDense + (layers - 1) * largestDense);
  const dense = Math.min(atOnce, stageDense) * (shardOnGpu ? 1 - 1 / denseGroup : 1);
  const expert = Math.min(layers * largestExpert, stageExpert) * (shardOnGpu ? 1 - 1 / expertGroup : 1);
  return bytesPerParameter * (dense + expert);
}

/**
 * The caching allocator's reserve over what it hands out (allocated, gathered and unsharded
 * buffers), before the overhead scale, plus `lossReserve`: blocks freed by an eager loss
 * that its backward cannot reuse (activations.ts lossReserveBytes).
 */
function allocatorReserveBytes(
  allocated: number,
  gatheredWeights: number,
  unshardedGradients: number,
  reserveFraction: number,
  lossReserve: number,
): number {
  return reserveFraction * (allocated + gatheredWeights + unshardedGradients) + lossReserve;
}

/** The caching allocator's reserve fraction under the document's framework (input/frameworks.ts; null there: the fitted ALLOCATOR_RESERVE_FRACTION). */
export function allocatorReserveFraction(c: RunConfig): number {
  return frameworkProfile(c.stack.framework).mechanisms.allocatorReserveFraction ?? ALLOCATOR_RESERVE_FRACTION;
}

/**
 * The named parts of "other" from what the allocator holds (allocated bytes, gathered weights, unsharded gradients, before the
 * overhead scale) and the run's device-side terms, overhead scale and reserve fraction.
 */
export function otherMemoryTermsOf(
  c: RunConfig,
  allocated: number,
  gatheredWeights: number,
  unshardedGradients: number,
  lossReserve: number,
  fp8WeightCache = 0,
): OtherMemoryTerms {
  const scale = c.calibration.memoryOverheadScale;
  const device = deviceTerms(c.parallel, c.model.moe != null, c.cluster.gpu.architecture);
  const reserveFraction = allocatorReserveFraction(c);
  const scaled: DeviceTerms = {
    cudaContext: scale * device.cudaContext,
    ncclBuffers: scale * device.ncclBuffers,
    workspaces: scale * device.workspaces,
  };
  return {
    runtime: deviceTermsTotal(scaled),
    device: scaled,
    gatheredWeights: scale * gatheredWeights,
    unshardedGradients: scale * unshardedGradients,
    allocatorReserve: scale * allocatorReserveBytes(allocated, gatheredWeights, unshardedGradients, reserveFraction, lossReserve),
    lossReserve: scale * lossReserve,
    zero3GatherCache: 0,
    fp8WeightCache,
  };
}

export function otherMemoryTotal(o: OtherMemoryTerms): number {
  return o.runtime + o.gatheredWeights + o.unshardedGradients + o.allocatorReserve + o.fp8WeightCache;
}

/**
 * A stage's device-used bytes (what the fit verdict judges): allocated bytes plus every
 * part of "other" and the device-side bytes outside the allocator (deviceTermsTotal),
 * summed without allocating: the search's hot path.
 */
export function stageTotalBytes(
  allocated: number,
  gatheredWeights: number,
  unshardedGradients: number,
  memoryOverheadScale: number,
  deviceBytes: number,
  reserveFraction = ALLOCATOR_RESERVE_FRACTION,
  lossReserve = 0,
): number {
  return (
    allocated +
    memoryOverheadScale *
      (deviceBytes +
        gatheredWeights +
        unshardedGradients +
        allocatorReserveBytes(allocated, gatheredWeights, unshardedGradients, reserveFraction, lossReserve))
  );
}

/**
 * A pipeline stage on one GPU as stageMemoryDetails (stages.ts) works it out before its model states: its layers, its
 * parameters, its activations and the blocks an eager loss frees (activations.ts lossReserveBytes).
 */
export interface StageLoad {
  readonly stage: PipelineStage;
  readonly params: GpuParameters;
  readonly activations: number;
  readonly lossReserve: number;
}

/** `layers` layers of `largest` beyond this GPU's ZeRO shard of `held` (gatheredBeyondShardBytes over GpuParameters). */
function layersBeyondShardBytes(
  p: ParallelConfig,
  layers: number,
  largest: GpuParameters,
  held: GpuParameters,
  bytesPerParameter: number,
  shardOnGpu: boolean,
  edgeUnitDense = 0,
): number {
  return gatheredBeyondShardBytes(
    layers,
    largest.dense,
    largest.expert,
    held.dense,
    held.expert,
    denseDataParallel(p),
    expertDataParallel(p),
    bytesPerParameter,
    shardOnGpu,
    edgeUnitDense,
  );
}

/**
 * ZeRO-3's gathered weights beyond this GPU's shard, at `bytesPerParameter` (none below stage 3; the adapter's frozen base
 * too). `edgeRatio`: an embedding or output weight's bytes over a layer weight's, when they differ.
 */
export function zero3GatheredBytes(
  c: RunConfig,
  stage: PipelineStage,
  stageParams: GpuParameters,
  bytesPerParameter: number,
  edgeRatio = 1,
): number {
  if (c.parallel.zero < 3) return 0;
  return layersBeyondShardBytes(
    c.parallel,
    ZERO3_GATHERED_LAYERS,
    largestLayer(c, stage),
    stageParams,
    bytesPerParameter,
    !c.training.offload.parameters,
    edgeRatio * edgeUnitParameters(c, stage),
  );
}

/**
 * ZeRO-3's gathered weights as the run holds them: 16-bit, or fp8 layer weights (Megatron-FSDP's uint8 buffer, torchao's
 * float8 all-gather) beside the 16-bit embedding and output layer (fp8-weight-cache.ts fsdpQuantizedLayerWeightBytes, from
 * the fp8GatheredLayerWeightBytes the ZeRO-3 gather's time reads too), counted in layer weights at the
 * gathered fp8 bytes, an embedding or output weight as 16-bit bytes ÷ those of them.
 */
export function zero3GatheredWeightBytes(c: RunConfig, stage: PipelineStage, stageParams: GpuParameters): number {
  const weightBytes = WEIGHT_BYTES[c.training.precision];
  const q = fsdpQuantizedLayerWeightBytes(c);
  if (!q) return zero3GatheredBytes(c, stage, stageParams, weightBytes);
  const ratio = weightBytes / q.gathered;
  const layers = stageLayerWeights(c, stage);
  const held = { dense: layers.dense + (stageParams.dense - layers.dense) * ratio, expert: stageParams.expert };
  return zero3GatheredBytes(c, stage, held, q.gathered, ratio);
}

/** ZeRO-2/3's unsharded gradients of `largest` before the reduce-scatter, out of `held` on this GPU (none below stage 2). */
export function zeroUnshardedGradientBytes(c: RunConfig, largest: GpuParameters, held: GpuParameters): number {
  if (c.parallel.zero < 2) return 0;
  return layersBeyondShardBytes(
    c.parallel,
    ZERO_UNSHARDED_GRADIENT_LAYERS,
    largest,
    held,
    GRAD_BYTES[c.training.gradDtype],
    !c.training.offload.optimizer,
  );
}

/**
 * The named parts of "other" of a stage. `allocated`: its model states and activations; the allocator's reserve covers
 * them and the Transformer Engine weight cache, which is computed here (fp8-weight-cache.ts).
 */
export function otherMemoryTerms(c: RunConfig, load: StageLoad, allocated: number): OtherMemoryTerms {
  const gatheredWeights = zero3GatheredWeightBytes(c, load.stage, load.params);
  const unshardedGradients = zeroUnshardedGradientBytes(c, largestLayer(c, load.stage), load.params);
  const weightCache = fp8WeightCacheBytes(c, load.stage);
  return otherMemoryTermsOf(c, allocated + weightCache, gatheredWeights, unshardedGradients, load.lossReserve, weightCache);
}

export interface StageMemory {
  /** Allocated peak: "other" is the gathered weights and unsharded gradients (no allocator reserve, nothing outside the allocator). */
  readonly breakdown: MemoryBreakdown;
  readonly other: OtherMemoryTerms;
  /** What the caching allocator holds at the peak: the allocated total plus its reserve (reservedBytes). */
  readonly reserved: number;
  /** What nvidia-smi shows: reserved plus the device-side terms outside the allocator (other.runtime). */
  readonly deviceUsed: number;
}

/** Reserved bytes of a stage: allocated peak plus the caching allocator's reserve. Never below the allocated peak. */
export function reservedBytes(allocatedTotal: number, other: OtherMemoryTerms): number {
  return allocatedTotal + Math.max(0, other.allocatorReserve);
}

/**
 * The part of a stage's memory a published figure measured: "analytical model states"
 * (ZeRO, Figure 1) counts weights, gradients and optimizer states; PyTorch's "peak
 * allocated" is the allocated total; "peak reserved" (and torchtitan's "max across
 * ranks", which logs reserved bytes) the reserved bytes; "device used" (nvidia-smi) and
 * anything else the device-used bytes.
 */
export function stageMemoryForMetric(s: StageMemory, metric: string | null): number {
  const b = s.breakdown;
  if (metric === 'analytical model states') return b.parameters + b.gradients + b.optimizer + (b.frozen ?? 0);
  if (metric?.startsWith('peak allocated')) return b.total;
  if (metric?.startsWith('peak reserved') || metric === 'max across ranks') return s.reserved;
  return s.deviceUsed;
}

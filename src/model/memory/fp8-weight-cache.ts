// Transformer Engine's quantized weight cache: with fp8/fp4 compute and 16-bit primary
// weights, a framework that passes `is_first_microbatch` to TE's modules (Megatron-Core's
// TE wrappers, megatron/core/extensions/transformer_engine.py: unless
// disable_parameter_transpose_cache) has TE quantize each linear weight on the step's first
// micro-batch and keep the quantized copy for the others (TE v1.6 module/linear.py
// weight1_fp8 / weight1_t_fp8; v2.8 get_weight_workspace(cache_name="weight") into
// base.py _fp8_workspaces). The copy is a module attribute: it stays allocated between
// steps, so the whole step holds it beside the 16-bit weight. With fp8_param_gather the
// primary weights are quantized already (TE returns them as they are) and nothing is added
// over the 2 bytes per weight memory.ts counts: 1 byte of fp8 data and 1 of its transpose.

import {
  WEIGHT_BYTES,
  architectureFacts,
  frameworkProfile,
  type Fp8Recipe,
  type GpuArchitecture,
  type RunConfig,
  type ZeroStage,
} from '../input/index.ts';
import { denseDataParallel, expertDataParallel, layerGpuParameters, type GpuParameters, type PipelineStage } from '../structure/index.ts';

/** One fp8 element (E4M3 / E5M2). */
const FP8_BYTES = 1;
/** One NVFP4 element: E2M1, two per byte. */
const FP4_BYTES = 0.5;
/**
 * MXFP8: one E8M0 scale per 32 elements (Transformer Engine v2.8 pytorch/constants.py MXFP8_BLOCK_SCALING_SIZE), along the
 * rows for the forward GEMM and along the columns for the backward one (tensor/mxfp8_tensor.py rowwise and columnwise data).
 */
const MXFP8_SCALE_BYTES_PER_ELEMENT = 1 / 32;
/** NVFP4: one E4M3 scale per 16 elements in each direction (constants.py NVFP4_BLOCK_SCALING_SIZE; tensor/nvfp4_tensor.py). */
const NVFP4_SCALE_BYTES_PER_ELEMENT = 1 / 16;
/** Blockwise fp8: one fp32 scale per 128 × 128 weight block in each direction (tensor/float8_blockwise_tensor.py, 2D weight blocks). */
const BLOCKWISE_SCALE_BYTES_PER_ELEMENT = 4 / (128 * 128);

/**
 * Bytes the cache holds per weight of a linear layer, by recipe. Per-tensor fp8 (delayed,
 * tensorwise): the fp8 data, and on GPUs whose fp8 GEMMs run only the TN layout its
 * transpose (architectures.ts fp8TransposeCopy). MXFP8, blockwise and NVFP4 scale along
 * one direction, so the backward GEMM needs a column-wise copy of its own on every GPU.
 */
export function fp8WeightCacheBytesPerWeight(recipe: Fp8Recipe, architecture: GpuArchitecture): number {
  switch (recipe) {
    case 'mxfp8':
      return 2 * (FP8_BYTES + MXFP8_SCALE_BYTES_PER_ELEMENT);
    case 'nvfp4':
      return 2 * (FP4_BYTES + NVFP4_SCALE_BYTES_PER_ELEMENT);
    case 'blockwise':
      return 2 * (FP8_BYTES + BLOCKWISE_SCALE_BYTES_PER_ELEMENT);
    default:
      return FP8_BYTES * (architectureFacts(architecture).fp8TransposeCopy ? 2 : 1);
  }
}

/**
 * Cache bytes per transformer-layer weight on one GPU, 0 where no cache is held: 16-bit
 * compute; a framework that does not pass is_first_microbatch (frameworks.ts
 * teFp8WeightCache); weights gathered in low precision (training.fp8ParamGather, which
 * Megatron runs only under the distributed optimizer: arguments.py "--fp8-param-gather only
 * supported with distributed optimizer", so not at ZeRO 0); ZeRO-3 (Megatron-FSDP gathers
 * each unit's weights and frees them, its keep_fp8_transpose_cache off by default); and a
 * fine-tune, whose frozen base memory/adapter.ts counts apart.
 */
export function fp8WeightCacheBytesPerParameter(c: RunConfig, zero: ZeroStage = c.parallel.zero): number {
  const t = c.training;
  if (t.precision !== 'fp8' && t.precision !== 'fp4') return 0;
  if (!frameworkProfile(c.stack.framework).mechanisms.teFp8WeightCache || t.adapter) return 0;
  if (zero >= 3 || (c.stack.fp8ParamGather && zero >= 1)) return 0;
  return fp8WeightCacheBytesPerWeight(c.stack.fp8Recipe, c.cluster.gpu.architecture);
}

/**
 * The cache on one GPU of a stage, bytes: the per-weight bytes over the weights of the
 * stage's transformer layers (their norms, a few thousand weights a layer, counted with
 * them). The embedding and the output layer are not Transformer Engine modules in
 * Megatron-Core (VocabParallelEmbedding, ColumnParallelLinear) and run in 16 bits.
 */
export function fp8WeightCacheBytes(c: RunConfig, stage: PipelineStage): number {
  const perWeight = fp8WeightCacheBytesPerParameter(c);
  if (perWeight === 0) return 0;
  const layers = stageLayerWeights(c, stage);
  return perWeight * (layers.dense + layers.expert);
}

/** The weights of the stage's transformer layers on one GPU (norms with them; no embedding or output layer). */
export function stageLayerWeights(c: RunConfig, stage: PipelineStage): GpuParameters {
  let dense = 0;
  let expert = 0;
  for (const i of stage.layers) {
    const layer = layerGpuParameters(c.model, i, c.parallel);
    dense += layer.dense;
    expert += layer.expert;
  }
  return { dense, expert };
}

/** Bytes per transformer-layer weight in Megatron-FSDP's quantized buffer: on the GPU's shard, and in a gathered unit. */
export interface QuantizedLayerWeightBytes {
  readonly shard: number;
  readonly gathered: number;
}

/**
 * Bytes one transformer-layer weight takes in the data-parallel weight all-gather, where the
 * weights are gathered in fp8: ZeRO-1's after the optimizer step, ZeRO-2/3's for each unit.
 * The one rule the memory (gathered units, Megatron-FSDP's shard) and the step time (time/comm.ts)
 * read. Megatron-Core keeps a Float8Tensor weight (delayed, tensorwise) in a uint8 buffer and
 * all-gathers that buffer, under the distributed optimizer (core_v0.13.0
 * distributed/distributed_data_parallel.py _allocate_buffers_for_parameters: param_dtype =
 * torch.uint8; param_and_grad_buffer.py start_param_sync) and Megatron-FSDP (custom_fsdp/
 * param_and_grad_buffer.py); an MXFP8 weight is gathered in bf16 through the grad buffer
 * (param_and_grad_buffer.py is_mxfp8tensor). torchao's FSDP float8 all-gather casts the shard
 * to fp8 before FSDP2 gathers it (pytorch/ao @0a4b91d4 torchao/float8/fsdp_utils.py
 * WeightWithDynamicFloat8CastTensor.fsdp_pre_all_gather returns the fp8 data, the scale as
 * metadata; tensorwise only, @c6c388b5 float8/config.py). The fp8 scale (one fp32 per tensor)
 * is left out. The embedding and output layer are not fp8 modules and move 16-bit bytes. null
 * where the 16-bit WEIGHT_BYTES hold: 16-bit weights (training.fp8ParamGather off, or another
 * precision), a block-scaled recipe, ZeRO 0 (no weight gather), a framework without the
 * mechanism (frameworks.ts fp8WeightAllGather), or a fine-tune (the frozen base, memory/adapter.ts).
 */
export function fp8GatheredLayerWeightBytes(c: RunConfig, zero: ZeroStage = c.parallel.zero): number | null {
  const t = c.training;
  if (t.precision !== 'fp8' || t.adapter || zero < 1 || !c.stack.fp8ParamGather) return null;
  if (!frameworkProfile(c.stack.framework).mechanisms.fp8WeightAllGather) return null;
  const recipe = c.stack.fp8Recipe;
  return recipe === 'delayed' || recipe === 'tensorwise' ? FP8_BYTES : null;
}

/** Bytes per transformer-layer weight in Megatron-FSDP's quantized buffer: on the GPU's shard, and in a gathered unit. */
export interface QuantizedLayerWeightBytes {
  readonly shard: number;
  readonly gathered: number;
}

/**
 * ZeRO-3's fp8 layer weights (fp8GatheredLayerWeightBytes) as memory holds them. Megatron-FSDP
 * (--use-megatron-fsdp with optim_grads_params) keeps them in a uint8 model-weight buffer: the
 * shard and the gathered unit hold 1 byte per weight, the fp32 main weights sit in the optimizer
 * (core_v0.13.0 megatron/core/distributed/custom_fsdp/param_and_grad_buffer.py
 * _init_each_parameter_group_buffers: is_dtype_float8 gives param_dtype = torch.uint8).
 * A GPU whose fp8 GEMMs run only the TN layout builds the weight's transpose for the
 * backward GEMM; the unit's release drops it (fully_sharded_data_parallel.py
 * release_params_fp8_transpose_cache, unless keep_fp8_transpose_cache_when_using_custom_fsdp,
 * default False), so it lives only in the gathered unit: 1 + 1 bytes there on Hopper, 1 on
 * Blackwell (fp8WeightCacheBytesPerWeight). torchao's FSDP2 shard stays in its 16-bit count
 * (frameworks.ts fsdpFp32ShardedParameters reads fp32), the gathered unit is its fp8 Float8Tensor,
 * the transpose for the backward GEMM a transient of the matmul. null where the 16-bit
 * WEIGHT_BYTES hold: fp8GatheredLayerWeightBytes null, ZeRO below 3, or weights offloaded.
 */
export function fsdpQuantizedLayerWeightBytes(c: RunConfig, zero: ZeroStage = c.parallel.zero): QuantizedLayerWeightBytes | null {
  const wire = fp8GatheredLayerWeightBytes(c, zero);
  if (wire === null || zero < 3 || c.training.offload.parameters) return null;
  if (!frameworkProfile(c.stack.framework).mechanisms.fsdpQuantizedWeightBuffer) {
    return { shard: WEIGHT_BYTES[c.training.precision], gathered: wire };
  }
  return { shard: wire, gathered: wire - FP8_BYTES + fp8WeightCacheBytesPerWeight(c.stack.fp8Recipe, c.cluster.gpu.architecture) };
}

/**
 * What Megatron-FSDP's quantized buffer takes off the GPU's 16-bit weight shard, bytes:
 * (16-bit − 1) bytes per layer weight of the shard, each group over its own data-parallel
 * shards. 0 where fsdpQuantizedLayerWeightBytes is null.
 */
export function fsdpQuantizedShardSavingBytes(c: RunConfig, stage: PipelineStage): number {
  const q = fsdpQuantizedLayerWeightBytes(c);
  if (!q) return 0;
  const layers = stageLayerWeights(c, stage);
  const shard = layers.dense / denseDataParallel(c.parallel) + layers.expert / expertDataParallel(c.parallel);
  return (WEIGHT_BYTES[c.training.precision] - q.shard) * shard;
}

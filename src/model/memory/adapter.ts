// Memory of a fine-tune with frozen base weights (training.adapter, issue 24): LoRA
// (Hu et al. 2021, arXiv 2106.09685) and QLoRA (Dettmers et al. 2023, arXiv 2305.14314).
//
// - The base weights are frozen: no gradients, no optimizer state, no master copy. They
//   are the breakdown's `frozen` part; ZeRO-3 / FSDP shards them like any weight (FSDP
//   flattens frozen and trainable parameters alike, torch/distributed/fsdp, use_orig_params),
//   DDP (ZeRO 0–2) keeps them whole on every GPU.
// - Each adapted matrix of shape in × out holds A (in × r) and B (r × out): r·(in + out)
//   trainable parameters, with their gradients, master copy and optimizer state exactly
//   as full training keeps them for any parameter (memory.ts modelStateBytes).
// - QLoRA stores the adapted base matrices in 4-bit NormalFloat with double quantisation
//   (NF4_DQ_BYTES_PER_PARAMETER). Which matrices are quantised follows torchtune
//   (torchtune/modules/peft/lora.py LoRALinear(quantize_base=True): the adapted linears
//   only); embeddings, output head, norms and unadapted matrices stay in the 16-bit
//   dtype. bitsandbytes through PEFT quantises every linear but lm_head, so for a run
//   with few modules this over-counts, on the safe side.
// - QLoRA dequantises one matrix at a time to the compute dtype before its matmul
//   (torchao dtypes/nf4tensor.py linear_nf4; bitsandbytes functional.dequantize_4bit):
//   a transient buffer of the largest adapted matrix, in "other".
// - Which matrices carry an adapter and what it saves: adapter-matrices.ts.
// - Activations: the engine's inventory for full training is kept. A frozen matrix
//   needs its weight, not its input, for the input gradient, but the inputs of the
//   adapted matrices are saved for the adapters' own weight gradients (x for ∂A), and
//   every module list the data holds adapts q and v (their shared input is saved); the
//   adapters' own rank-r intermediates (x·A, r/h of an input: 0.2–1.6 % of it for r 8–64,
//   h 4096) are left out.

import {
  modelStateBytes,
  otherMemoryTermsOf,
  stageTotalBytes,
  zero3GatheredBytes,
  zeroUnshardedGradientBytes,
  type ModelStates,
  type OtherMemoryTerms,
  type StageLoad,
} from './memory.ts';
import {
  denseDataParallel,
  expertDataParallel,
  expertTensorParallel,
  layerMatrices,
  type GpuParameters,
  type PipelineStage,
  type WeightMatrix,
} from '../structure/index.ts';
import type { AdapterConfig, ModelConfig, ParallelConfig, RunConfig } from '../input/index.ts';
import { adaptedMatrices, adapterParametersOf, isAdapted } from './adapter-matrices.ts';
import { WEIGHT_BYTES } from '../input/index.ts';

/**
 * NF4 with double quantisation, bytes per parameter (Dettmers et al. 2023, section 3,
 * "Double Quantization"): 4 bits per weight; one absmax constant per block of 64
 * weights, itself quantised to 8 bits; one fp32 constant per block of 256 of those
 * absmax values. 4 + 8/64 + 32/(64·256) = 4.127 bits = 0.5159 bytes (the paper: "from
 * 32/64 = 0.5 bits per parameter to 8/64 + 32/(64·256) = 0.127 bits" of constants).
 * torchao's NF4Tensor (block_size 64, scaler_block_size 256, int8 scalers) and
 * bitsandbytes' quant_type "nf4" with bnb_4bit_use_double_quant store the same.
 */
export const NF4_BLOCK = 64;
export const NF4_SCALER_BLOCK = 256;
export const NF4_DQ_BYTES_PER_PARAMETER = (4 + 8 / NF4_BLOCK + 32 / (NF4_BLOCK * NF4_SCALER_BLOCK)) / 8;

export interface AdapterLayerParameters {
  /** Base weights of the adapted matrices on one GPU, by data-parallel group (QLoRA quantises these). */
  readonly adaptedBase: GpuParameters;
  /** The adapters' own trainable parameters on one GPU. */
  readonly adapter: GpuParameters;
}

/**
 * One layer's adapted base weights and adapter parameters on one GPU, split as
 * structure/params.ts layerGpuParameters splits the base: routed experts by ep·etp, the
 * rest by tp (an adapter is taken to split with its matrix; Megatron-Bridge's LoRA
 * shards B of a column-parallel and A of a row-parallel matrix and replicates the other
 * factor, at most r·h per matrix more than this).
 */
export function adapterLayerParameters(
  m: ModelConfig,
  layerIndex: number,
  p: Pick<ParallelConfig, 'tp' | 'dp' | 'cp' | 'ep' | 'etp'>,
  adapter: AdapterConfig,
): AdapterLayerParameters {
  const expertSplit = p.ep * expertTensorParallel(p);
  const base = { dense: 0, expert: 0 };
  const lora = { dense: 0, expert: 0 };
  for (const w of adaptedMatrices(m, layerIndex, adapter)) {
    const expert = w.group === 'routedExpert';
    const split = expert ? expertSplit : p.tp;
    const key = expert ? 'expert' : 'dense';
    base[key] += (w.rows * w.cols * w.copies) / split;
    lora[key] += (adapterParametersOf(adapter.rank, w.rows, w.cols) * w.copies) / split;
  }
  return { adaptedBase: base, adapter: lora };
}

/** Sums of adapterLayerParameters over a stage's layers (the MTP modules and the embedding and head carry no adapter). */
export function stageAdapterParameters(c: RunConfig, stage: PipelineStage, adapter: AdapterConfig): AdapterLayerParameters {
  const cache = new Map<boolean, AdapterLayerParameters>();
  const base = { dense: 0, expert: 0 };
  const lora = { dense: 0, expert: 0 };
  const firstMoe = c.model.moe ? c.model.moe.denseLayers : Infinity;
  for (const i of stage.layers) {
    const moe = i >= firstMoe;
    let layer = cache.get(moe);
    if (!layer) {
      layer = adapterLayerParameters(c.model, i, c.parallel, adapter);
      cache.set(moe, layer);
    }
    base.dense += layer.adaptedBase.dense;
    base.expert += layer.adaptedBase.expert;
    lora.dense += layer.adapter.dense;
    lora.expert += layer.adapter.expert;
  }
  return { adaptedBase: base, adapter: lora };
}

/** Bytes per frozen parameter: the adapted matrices in NF4 + DQ under QLoRA, everything else in the weights' own dtype. */
export function frozenBytes(c: RunConfig, adapter: AdapterConfig, stageParams: GpuParameters, adaptedBase: GpuParameters): GpuParameters {
  const w = WEIGHT_BYTES[c.training.precision];
  const quantised = adapter.method === 'qlora' ? NF4_DQ_BYTES_PER_PARAMETER : w;
  return {
    dense: w * (stageParams.dense - adaptedBase.dense) + quantised * adaptedBase.dense,
    expert: w * (stageParams.expert - adaptedBase.expert) + quantised * adaptedBase.expert,
  };
}

export interface AdapterStageMemory {
  /** Frozen base weights on one GPU (ZeRO-3 shards them; parameter offload moves them to the host). */
  readonly frozen: number;
  /** The adapters' weights, gradients and optimizer states on one GPU. */
  readonly states: ModelStates;
  /** QLoRA: the 16-bit copy of the largest adapted matrix being dequantised for its matmul. */
  readonly dequantBuffer: number;
  /** "other" with ZeRO-3's gathered frozen weights and ZeRO-2/3's unsharded adapter gradients. */
  readonly other: OtherMemoryTerms;
}

/** Largest adapted matrix of layer `layerIndex` on one GPU, parameters (QLoRA's dequantisation buffer holds one at a time). */
export function largestAdaptedMatrixOfLayer(
  m: ModelConfig,
  layerIndex: number,
  p: Pick<ParallelConfig, 'tp' | 'dp' | 'cp' | 'ep' | 'etp'>,
  adapter: AdapterConfig,
): number {
  let largest = 0;
  for (const w of layerMatrices(m, layerIndex)) {
    if (!isAdapted(adapter, w)) continue;
    const split = w.group === 'routedExpert' ? p.ep * expertTensorParallel(p) : p.tp;
    largest = Math.max(largest, (w.rows * w.cols) / split);
  }
  return largest;
}

/** Largest adapted matrix of the stage's layers on one GPU (16-bit dequantisation buffer for QLoRA). */
function largestAdaptedMatrix(c: RunConfig, stage: PipelineStage, adapter: AdapterConfig): number {
  let largest = 0;
  const seen = new Set<readonly WeightMatrix[]>();
  for (const i of stage.layers) {
    const matrices = layerMatrices(c.model, i);
    if (seen.has(matrices)) continue;
    seen.add(matrices);
    largest = Math.max(largest, largestAdaptedMatrixOfLayer(c.model, i, c.parallel, adapter));
  }
  return largest;
}

/**
 * The frozen base on one GPU from its dense and expert bytes on the stage (frozenBytes): none under parameter offload (the host holds it),
 * ZeRO-3's shard over each data-parallel group, else whole (DDP). Over plain numbers: the estimate and the search's hot
 * path both call it.
 */
export function frozenOnGpuBytes(
  denseBytes: number,
  expertBytes: number,
  zero: number,
  parametersOffloaded: boolean,
  denseGroup: number,
  expertGroup: number,
): number {
  if (parametersOffloaded) return 0;
  return zero >= 3 ? denseBytes / denseGroup + expertBytes / expertGroup : denseBytes + expertBytes;
}

/** The mean bytes per frozen parameter of a stage of `stageParameters` whose frozen base is `frozenWhole` bytes (ZeRO-3 gathers at it). */
export function frozenGatherBytesPerParameter(frozenWhole: number, stageParameters: number, weightBytes: number): number {
  return stageParameters > 0 ? frozenWhole / stageParameters : weightBytes;
}

/**
 * A fine-tune's stage device-used bytes over plain numbers (adapterStageMemory's terms, the search's hot path): the frozen
 * base outside the caching allocator's reserve, and the churning bytes (adapter states, activations, QLoRA's dequantisation
 * buffer) with the gathered and unsharded buffers as stageTotalBytes adds them (memory.ts).
 */
export function adapterStageTotalBytes(
  frozen: number,
  churning: number,
  gatheredWeights: number,
  unshardedGradients: number,
  memoryOverheadScale: number,
  deviceBytes: number,
  reserveFraction: number,
  lossReserve: number,
): number {
  return (
    frozen + stageTotalBytes(churning, gatheredWeights, unshardedGradients, memoryOverheadScale, deviceBytes, reserveFraction, lossReserve)
  );
}

/**
 * A stage's memory on one GPU with the adapter: frozen base, adapter states, the
 * dequantisation buffer and "other", given the activations and the stage's parameters.
 */
export function adapterStageMemory(c: RunConfig, load: StageLoad, adapter: AdapterConfig): AdapterStageMemory {
  const { training: t, parallel: p } = c;
  const { stage, params: stageParams, activations, lossReserve } = load;
  const counts = stageAdapterParameters(c, stage, adapter);
  const bytes = frozenBytes(c, adapter, stageParams, counts.adaptedBase);
  const frozenWhole = bytes.dense + bytes.expert;
  const frozen = frozenOnGpuBytes(bytes.dense, bytes.expert, p.zero, t.offload.parameters, denseDataParallel(p), expertDataParallel(p));
  const states = modelStateBytes(c, counts.adapter);
  const dequantBuffer = adapter.method === 'qlora' ? WEIGHT_BYTES[t.precision] * largestAdaptedMatrix(c, stage, adapter) : 0;
  // ZeRO-3 gathers whole layers of frozen weights (at the stage's mean bytes per parameter);
  // ZeRO-2/3 hold one layer's unsharded gradients, which are the adapters' only.
  const stageCount = stageParams.dense + stageParams.expert;
  const frozenBytesPerParameter = frozenGatherBytesPerParameter(frozenWhole, stageCount, WEIGHT_BYTES[t.precision]);
  const layerCount = Math.max(1, stage.layers.length);
  const gathered = zero3GatheredBytes(c, stage, stageParams, frozenBytesPerParameter);
  const adapterLayer = { dense: counts.adapter.dense / layerCount, expert: counts.adapter.expert / layerCount };
  const unsharded = zeroUnshardedGradientBytes(c, adapterLayer, counts.adapter);
  // The caching allocator's reserve is slack around blocks that are freed and reused
  // (activations, gradients, gathered buffers). The frozen base is allocated once, at load,
  // and never freed, so none of the reserve grows with it: the reserve is taken over the
  // rest of the allocated bytes (and ZeRO-3's gathers of frozen layers, which do churn).
  const churning = states.parameters + states.gradients + states.optimizer + activations + dequantBuffer;
  const other = otherMemoryTermsOf(c, churning, gathered, unsharded, lossReserve);
  return { frozen, states, dequantBuffer, other };
}

export {
  adapterActivations,
  adaptedMatrices,
  adapterParametersOf,
  isAdapted,
  peftFp32Adapters,
  type AdapterActivations,
} from './adapter-matrices.ts';

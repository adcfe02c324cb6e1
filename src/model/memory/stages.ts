// Every pipeline stage's memory on one GPU: full training's model states, activations and
// "other" (memory.ts), or a fine-tune's frozen base and adapter states (adapter.ts). Apart
// from both so that neither imports the other.

import { adapterStageMemory } from './adapter.ts';
import { engineActivationSettings, lossReserveBytes, stageActivationBytes } from './activations.ts';
import {
  gradientBytesAtPeak,
  gradientsFreedAtActivationPeak,
  modelStateBytes,
  otherMemoryTerms,
  reservedBytes,
  type ModelStates,
  type OtherMemoryTerms,
  type StageLoad,
  type StageMemory,
} from './memory.ts';
import { cacheWithinCapacity, zero3GatherCacheBytes } from './zero3-gather-cache.ts';
import { fsdpQuantizedShardSavingBytes } from './fp8-weight-cache.ts';
import { pipelineLayout, stageGpuParameters, type PipelineStage } from '../structure/index.ts';
import { GiB, type AdapterConfig, type MemoryBreakdown, type RunConfig } from '../input/index.ts';

/** Every stage's breakdown with the parts of "other" named (index 0 = first stage). */
export function stageMemoryDetails(c: RunConfig): StageMemory[] {
  const settings = engineActivationSettings(c);
  const params = stageGpuParameters(c.model, c.parallel);
  return pipelineLayout(c.model, c.parallel).map((stage, i) => {
    const stageParams = params[i] ?? { dense: 0, expert: 0 };
    const activations = stageActivationBytes(c, stage, settings);
    const lossReserve = lossReserveBytes(c, stage, settings);
    const load: StageLoad = { stage, params: stageParams, activations, lossReserve };
    if (c.training.adapter) return adapterStageDetails(c, load, c.training.adapter);
    const held = quantizedShard(c, stage, modelStateBytes(c, stageParams));
    const states = { ...held, gradients: gradientBytesAtPeak(held.gradients, activations, gradientsFreedAtActivationPeak(c)) };
    const allocated = states.parameters + states.gradients + states.optimizer + activations;
    const terms = otherMemoryTerms(c, load, allocated);
    const otherAllocated = terms.gatheredWeights + terms.unshardedGradients + terms.fp8WeightCache;
    const total = allocated + otherAllocated;
    const other = withZero3GatherCache(c, load, total, terms);
    const reserved = reservedBytes(total, other);
    return {
      breakdown: { ...states, activations, other: otherAllocated, total },
      other,
      reserved,
      deviceUsed: reserved + Math.max(0, other.runtime),
    };
  });
}

/** The model states with Megatron-FSDP's fp8 layer weights in their one-byte buffer (fp8-weight-cache.ts). */
function quantizedShard(c: RunConfig, stage: PipelineStage, states: ModelStates): ModelStates {
  const saving = fsdpQuantizedShardSavingBytes(c, stage);
  return saving > 0 ? { ...states, parameters: states.parameters - saving } : states;
}

/** `other` with DeepSpeed ZeRO-3's gather-stream cache in its allocator reserve, as much as the GPU has free (zero3-gather-cache.ts). */
function withZero3GatherCache(c: RunConfig, load: StageLoad, total: number, other: OtherMemoryTerms): OtherMemoryTerms {
  const cache = zero3GatherCacheBytes(c, load.params, other.gatheredWeights);
  if (cache <= 0) return other;
  const deviceUsed = reservedBytes(total, other) + Math.max(0, other.runtime);
  const held = cacheWithinCapacity(cache, deviceUsed, c.cluster.gpu.memoryGiB * GiB);
  return { ...other, allocatorReserve: other.allocatorReserve + held, zero3GatherCache: held };
}

/**
 * A fine-tune's stage (training.adapter, adapter.ts): the frozen base apart, the adapters' states as model states, QLoRA's
 * dequantisation buffer in "other".
 */
function adapterStageDetails(c: RunConfig, load: StageLoad, adapter: AdapterConfig): StageMemory {
  const a = adapterStageMemory(c, load, adapter);
  const { activations } = load;
  const otherAllocated = a.other.gatheredWeights + a.other.unshardedGradients + a.dequantBuffer;
  const total = a.frozen + a.states.parameters + a.states.gradients + a.states.optimizer + activations + otherAllocated;
  const reserved = reservedBytes(total, a.other);
  return {
    breakdown: { ...a.states, activations, other: otherAllocated, total, frozen: a.frozen },
    other: a.other,
    reserved,
    deviceUsed: reserved + Math.max(0, a.other.runtime),
  };
}

/** Per-GPU memory of every pipeline stage (index 0 = first stage), bytes. */
export function stageMemoryBreakdowns(c: RunConfig): MemoryBreakdown[] {
  return stageMemoryDetails(c).map((s) => s.breakdown);
}

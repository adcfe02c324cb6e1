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
  type StageLoad,
  type StageMemory,
} from './memory.ts';
import { pipelineLayout, stageGpuParameters } from '../structure/index.ts';
import type { AdapterConfig, MemoryBreakdown, RunConfig } from '../input/index.ts';

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
    const held = modelStateBytes(c, stageParams);
    const states = { ...held, gradients: gradientBytesAtPeak(held.gradients, activations, gradientsFreedAtActivationPeak(c)) };
    const allocated = states.parameters + states.gradients + states.optimizer + activations;
    const other = otherMemoryTerms(c, load, allocated);
    const otherAllocated = other.gatheredWeights + other.unshardedGradients;
    const total = allocated + otherAllocated;
    const reserved = reservedBytes(total, other);
    return {
      breakdown: { ...states, activations, other: otherAllocated, total },
      other,
      reserved,
      deviceUsed: reserved + Math.max(0, other.runtime),
    };
  });
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

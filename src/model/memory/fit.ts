// "Will it fit?" has one figure: what the most loaded GPU holds on the device
// (memory.deviceUsed, what memory.fits judges). The verdict, the memory chart, the strip,
// the embed, compare, the layout search's column and the fix-it all read it from here;
// allocated and reserved are layers inside it (stageFitLayers), never a rival figure.

import { MEMORY_PARTS } from '../input/index.ts';
import type { EstimateOutput, MemoryBreakdown, MemoryPart } from '../input/index.ts';

/** The figure memory.fits judges, bytes on the most loaded GPU: memory.deviceUsed (reserved + CUDA context, NCCL buffers, cuBLAS workspaces). */
export function fitMemoryBytes(output: Pick<EstimateOutput, 'memory'>): number {
  return output.memory.deviceUsed;
}

/** One stage's memory as layers, bottom to top, bytes on one GPU of the stage. */
export interface StageFitLayers {
  /** 1 = the first pipeline stage. */
  readonly stage: number;
  /** The allocated parts (and a fine-tune's frozen base), as memory.stages holds them. */
  readonly allocated: MemoryBreakdown;
  /** What the caching allocator holds beyond the allocated peak: reserved − allocated (memory.ts, allocatorReserve). */
  readonly allocatorReserve: number;
  /** Outside the allocator: the CUDA context, NCCL's communicator buffers, cuBLAS workspaces (device.ts): deviceUsed − reserved. */
  readonly runtime: number;
  /** The stage's fit figure: allocated + reserve + runtime, what the device holds. */
  readonly deviceUsed: number;
}

/**
 * Every stage's layers, so that the chart's bars stack to each stage's device-used bytes
 * and the tallest bar is fitMemoryBytes. A stage whose device figures are missing (a
 * hand-built output) counts its allocated total for all three.
 */
export function stageFitLayers(output: Pick<EstimateOutput, 'memory'>): StageFitLayers[] {
  const { stages, stagesOnDevice } = output.memory;
  return stages.map((allocated, i) => {
    const device = stagesOnDevice[i] ?? { reserved: allocated.total, deviceUsed: allocated.total };
    const reserved = Math.max(allocated.total, device.reserved);
    const deviceUsed = Math.max(reserved, device.deviceUsed);
    return { stage: i + 1, allocated, allocatorReserve: reserved - allocated.total, runtime: deviceUsed - reserved, deviceUsed };
  });
}

/** The allocated parts of a breakdown, in the order they stack (a fine-tune's frozen base first). */
export function allocatedParts(stages: readonly MemoryBreakdown[]): readonly (MemoryPart | 'frozen')[] {
  return stages.some((s) => s.frozen !== undefined) ? ['frozen', ...MEMORY_PARTS] : MEMORY_PARTS;
}

/** The most loaded stage's layers (the one whose device figure is fitMemoryBytes); null without stages. */
export function mostLoadedFitLayers(output: Pick<EstimateOutput, 'memory'>): StageFitLayers | null {
  const layers = stageFitLayers(output);
  return layers.reduce<StageFitLayers | null>((most, l) => (most === null || l.deviceUsed > most.deviceUsed ? l : most), null);
}

// The layers of one GPU's memory as the chart, compare and the table draw them, bottom to
// top: the allocated parts (memory.stages), then what the caching allocator reserves beyond
// them, then what the runtime holds outside the allocator (CUDA context, NCCL, cuBLAS). Their
// sum is the one figure the fit is judged on (model/memory/fit.ts). One color per layer everywhere.

import type { MemoryPart } from '../../model/input/index.ts';

export type MemoryLayer = MemoryPart | 'frozen' | 'reserve' | 'runtime';

/**
 * Okabe–Ito colors (frozen: a darkened Okabe–Ito yellow) for the allocated parts; the two
 * layers above them in violet and dark cyan, each ≥ 3:1 against white and gray-900.
 */
export const MEMORY_LAYER_COLORS: Readonly<Record<MemoryLayer, string>> = {
  frozen: '#9c7a00',
  parameters: '#0072b2',
  gradients: '#d55e00',
  optimizer: '#009e73',
  activations: '#cc79a7',
  other: '#6b7280',
  reserve: '#8b5cf6',
  runtime: '#0e7490',
};

export const MEMORY_LAYER_LABELS: Readonly<Record<MemoryLayer, string>> = {
  frozen: 'Frozen weights',
  parameters: 'Parameters',
  gradients: 'Gradients',
  optimizer: 'Optimizer state',
  activations: 'Activations',
  other: 'Other',
  reserve: 'Allocator reserve',
  runtime: 'CUDA context, NCCL, cuBLAS',
};

/** The layers above the allocated parts, in stacking order. */
export const DEVICE_LAYERS: readonly MemoryLayer[] = ['reserve', 'runtime'];

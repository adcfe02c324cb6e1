import type { MemoryBreakdown, RunConfig } from './types.ts';

/** Per-GPU memory of every pipeline stage (index 0 = first stage), bytes. STUB: being written. */
export function stageMemoryBreakdowns(c: RunConfig): MemoryBreakdown[] {
  return Array.from({ length: c.parallel.pp }, () => ({ parameters: 0, gradients: 0, optimizer: 0, activations: 0, other: 0, total: 0 }));
}

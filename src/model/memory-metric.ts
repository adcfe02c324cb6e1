// What a published memory figure measured, mapped onto the engine's breakdown.
// "analytical model states" (ZeRO paper, Figure 1) counts weights, gradients and
// optimizer states only; every measured figure is compared with the per-GPU total.

import type { EstimateOutput } from './types.ts';

export function memoryForMetric(output: EstimateOutput, metric: string | null): number {
  const m = output.memory.perGpu;
  if (metric === 'analytical model states') return m.parameters + m.gradients + m.optimizer;
  return m.total;
}

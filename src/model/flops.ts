import type { RunConfig } from './types.ts';

/** FLOPs of one optimizer step, whole cluster. STUB: being written. */
export function stepFlops(_c: RunConfig): { modelPerStep: number; hardwarePerStep: number } {
  return { modelPerStep: 0, hardwarePerStep: 0 };
}

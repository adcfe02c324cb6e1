import { describe, it, expect } from 'vitest';
import { ALLOCATOR_RESERVE_FRACTION } from '../calibration.ts';
import { parseDocument } from '../input/index.ts';
import { estimate } from '../estimate.ts';
import { stageMemoryDetails } from './stages.ts';

// calibration.memoryOverheadScale multiplies the four "other" terms of memory.ts
// (runtime, ZeRO-3 gathered weights, ZeRO-2/3 unsharded gradients, allocator reserve)
// and nothing else: a stage's total at scale k is allocated + k × other(1).

const document = (memoryOverheadScale?: number) => ({
  version: 1,
  model: { layers: 8, hidden: 2048, heads: 16, vocab: 32000 },
  training: { seqLen: 2048, globalBatch: 64, microBatch: 1 },
  parallel: { tp: 1, pp: 2, dp: 4, zero: 3 },
  cluster: { gpu: 'a100-80gb', gpus: 8 },
  ...(memoryOverheadScale === undefined ? {} : { calibration: { memoryOverheadScale } }),
});

function details(memoryOverheadScale?: number) {
  const parsed = parseDocument(document(memoryOverheadScale));
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return stageMemoryDetails(parsed.config);
}

describe('calibration.memoryOverheadScale', () => {
  const base = details();

  it(
    'defaults to 1: the runtime term is the device-side bytes (device.ts) and the reserve ' +
      'ALLOCATOR_RESERVE_FRACTION of what is allocated, plus ' +
      'the freed bf16 logits of the eager loss on the last stage',
    () => {
      // A100, TP1 PP2 DP4: 3 communicators (world, PP, DP) × 32 channels × (4 MiB + 512 KiB + 4 915 200 B)
      // = 924 844 032; CUDA context 512 MiB = 536 870 912; 2 cuBLAS workspaces of :4096:2:16:8 = 2 × 8 519 680.
      const runtime = 924_844_032 + 536_870_912 + 17_039_360;
      // loss.ts eagerLossLogitsHoleBytes: 2 bytes × vocab 32 000 × 2 048 tokens = 131 072 000 on the output stage.
      const lossHole = [0, 131_072_000];
      for (const [i, stage] of base.entries()) {
        const b = stage.breakdown;
        const allocated = b.parameters + b.gradients + b.optimizer + b.activations;
        expect(stage.other.runtime).toBe(runtime);
        expect(stage.other.gatheredWeights).toBeGreaterThan(0);
        expect(stage.other.unshardedGradients).toBeGreaterThan(0);
        expect(stage.other.allocatorReserve).toBeCloseTo(
          ALLOCATOR_RESERVE_FRACTION * (allocated + stage.other.gatheredWeights + stage.other.unshardedGradients) + (lossHole[i] ?? NaN),
          0,
        );
      }
    },
  );

  for (const scale of [0, 0.5, 2.5]) {
    it(`at ${scale}, each "other" term is ${scale}× its value at 1 and the total moves by exactly (${scale} − 1) × other`, () => {
      const scaled = details(scale);
      base.forEach((stage, i) => {
        const s = scaled[i];
        expect(s).toBeDefined();
        if (!s) return;
        for (const key of ['runtime', 'gatheredWeights', 'unshardedGradients', 'allocatorReserve'] as const) {
          expect(s.other[key]).toBeCloseTo(scale * stage.other[key], 3);
        }
        // Weights, gradients, optimizer states and activations do not move.
        for (const part of ['parameters', 'gradients', 'optimizer', 'activations'] as const)
          expect(s.breakdown[part]).toBe(stage.breakdown[part]);
        expect(s.breakdown.other).toBeCloseTo(scale * stage.breakdown.other, 3);
        expect(s.breakdown.total - stage.breakdown.total).toBeCloseTo((scale - 1) * stage.breakdown.other, 3);
      });
    });
  }

  it("moves the estimate's per-GPU total the same way", () => {
    const at1 = estimate(document()).memory.perGpu;
    const at2 = estimate(document(2)).memory.perGpu;
    expect(at2.total - at1.total).toBeCloseTo(at1.other, 3);
  });
});

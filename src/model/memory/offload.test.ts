import { describe, expect, it } from 'vitest';
import { parseDocument } from '../input/index.ts';
import { modelStateBytes, optimizerOnGpuBytesPerParameter } from './memory.ts';
import type { RunConfig } from '../input/index.ts';

// Optimizer offload as the frameworks do it (memory.ts optimizerOnGpuBytesPerParameter).
// Ψ = 1e9 parameters on the GPU, DP 4 with the distributed optimizer (ZeRO-1), bf16 with
// fp32 master weights and fp32 Adam: K = 4 (master) + 8 (moments) = 12 bytes, sharded
// over 4 ranks = 3 bytes per parameter, 3e9 bytes with nothing offloaded.

function config(framework: string, offload: Record<string, unknown>, zero = 1): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: { layers: 8, hidden: 1024, heads: 16, vocab: 32000 },
    training: { seqLen: 2048, globalBatch: 64, microBatch: 1, framework, gradDtype: 'fp32', offload },
    parallel: { dp: 4, zero },
    cluster: { gpu: 'h100-sxm' },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

const PSI = 1e9;
const states = (c: RunConfig) => modelStateBytes(c, { dense: PSI, expert: 0 });

describe("Megatron-Core's HybridDeviceOptimizer (--optimizer-cpu-offload --optimizer-offload-fraction f)", () => {
  it('keeps 3e9 bytes of optimizer state without offload', () => {
    expect(states(config('megatron', { optimizer: false })).optimizer).toBeCloseTo(3e9, -3);
  });

  it('fraction 1.0: the moments leave, the fp32 main-param shard stays: 4 / 4 × Ψ = 1e9 bytes; gradients stay (4 / 1 × Ψ fp32 buffer)', () => {
    const s = states(config('megatron', { optimizer: true, optimizerFraction: 1 }));
    expect(s.optimizer).toBeCloseTo(1e9, -3);
    expect(s.gradients).toBeCloseTo(4e9, -3);
    // Absent fraction = 1.
    expect(states(config('megatron', { optimizer: true })).optimizer).toBeCloseTo(1e9, -3);
  });

  it('fraction 0.5: half keeps all 12 bytes, half its 4 master bytes: (0.5 × 12 + 0.5 × 4) / 4 × Ψ = 2e9 bytes', () => {
    expect(states(config('megatron', { optimizer: true, optimizerFraction: 0.5 })).optimizer).toBeCloseTo(2e9, -3);
  });

  it('the Bridge card: fraction 1.0 frees the 8 bytes of moments per sharded parameter', () => {
    // 47.2 GB − 32.0 GB = 15.2 GB measured; the engine frees (12 − 4) / 12 of the optimizer state.
    expect(optimizerOnGpuBytesPerParameter(12, 4, 0, true) - optimizerOnGpuBytesPerParameter(12, 4, 1, true)).toBe(8);
  });
});

describe('ZeRO-Offload (DeepSpeed offload_optimizer, its ratio for a partial offload)', () => {
  it('moves master and moments: fraction 1.0 leaves no optimizer state, fraction 0.5 half of 3e9', () => {
    expect(states(config('deepspeed', { optimizer: true })).optimizer).toBe(0);
    expect(states(config('deepspeed', { optimizer: true, optimizerFraction: 0.5 })).optimizer).toBeCloseTo(1.5e9, -3);
  });

  it('with ZeRO-2 the offloaded share of the gradient shards goes to the host too: 0.5 × 4 / 4 × Ψ = 0.5e9 bytes stay', () => {
    expect(states(config('deepspeed', { optimizer: true, optimizerFraction: 0.5 }, 2)).gradients).toBeCloseTo(0.5e9, -3);
    expect(states(config('deepspeed', { optimizer: true }, 2)).gradients).toBe(0);
  });
});

describe('training.offload.optimizerFraction in the document', () => {
  it('is optional and bounded to 0..1', () => {
    const bad = parseDocument({
      version: 1,
      model: { layers: 8, hidden: 1024, heads: 16, vocab: 32000 },
      training: { seqLen: 2048, globalBatch: 64, offload: { optimizer: true, optimizerFraction: 1.5 } },
      parallel: { dp: 4, zero: 1 },
      cluster: { gpu: 'h100-sxm' },
    });
    expect(bad.ok).toBe(false);
    expect(config('megatron', { optimizer: true }).training.offload.optimizerFraction).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { estimate } from '../estimate.ts';
import { parseDocument } from './document.ts';
import { FRAMEWORK_PROFILES } from './frameworks.ts';
import { GPU_PRESETS, architectureOfGpuName } from './gpus.ts';
import { FRAMEWORKS } from './types.ts';

// Issue 25: the names the engine used to test (a Hopper preset list, a GPU-name pattern,
// "torchtitan" and "fsdp" in the time and memory wings, a framework → launch-writer table)
// are fields of the profiles, resolved once by the parser.

const custom = (name: string) => {
  const parsed = parseDocument({
    version: 1,
    model: { layers: 4, hidden: 1024, heads: 8, vocab: 32000 },
    training: { seqLen: 2048, globalBatch: 8 },
    parallel: { dp: 8 },
    cluster: { gpu: { name, memoryGiB: 80, bf16Tflops: 900, hbmGBps: 3000, intraNodeGBps: 450, interNodeGBps: 50 } },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config.cluster.gpu.architecture;
};

describe('the GPU presets carry their architecture', () => {
  it('the Hopper presets are H100 SXM and PCIe, H800 and H200: the set the time model keyed on before', () => {
    expect(GPU_PRESETS.filter((g) => g.architecture === 'hopper').map((g) => g.id)).toEqual(['h100-sxm', 'h100-pcie', 'h800', 'h200']);
  });
  it('every preset runs through the engine: a step time, a cost and a memory verdict', () => {
    for (const preset of GPU_PRESETS) {
      const output = estimate({
        version: 1,
        model: { layers: 4, hidden: 1024, heads: 8, vocab: 32000 },
        training: { seqLen: 2048, globalBatch: 8 },
        parallel: { dp: 8 },
        cluster: { gpu: preset.id, gpus: 8 },
      });
      expect(output.errors, preset.id).toEqual([]);
      expect(output.throughput?.stepSeconds, preset.id).toBeGreaterThan(0);
      expect(Number.isFinite(output.cost?.usd), preset.id).toBe(true);
    }
  });
  it("a custom GPU's architecture comes from its name, as the time model read it before", () => {
    expect(custom('NVIDIA H100 SXM5 80GB (custom)')).toBe('hopper');
    expect(custom('my gh200 node')).toBe('hopper');
    expect(custom('NVIDIA B200 180GB (custom)')).toBe('other');
    expect(custom('H1000')).toBe('other');
    expect(architectureOfGpuName('H800')).toBe('hopper');
  });
});

describe('the framework profiles carry the mechanisms once keyed by name', () => {
  it("torchao casts for torchtitan and FSDP, chunked fused loss for torchtitan only, and each framework's launch writer", () => {
    const by = <T>(read: (f: (typeof FRAMEWORK_PROFILES)[keyof typeof FRAMEWORK_PROFILES]) => T) =>
      Object.fromEntries(FRAMEWORKS.map((f) => [f, read(FRAMEWORK_PROFILES[f])]));
    expect(by((p) => p.mechanisms.torchaoFloat8Casts)).toEqual({
      generic: false,
      megatron: false,
      torchtitan: true,
      deepspeed: false,
      fsdp: true,
    });
    expect(by((p) => p.mechanisms.fusedLossChunks)).toEqual({ generic: 1, megatron: 1, torchtitan: 8, deepspeed: 1, fsdp: 1 });
    // Weights gathered in fp8 (memory/fp8-weight-cache.ts fp8GatheredLayerWeightBytes): Megatron-Core's uint8 param buffer, torchao's float8 all-gather.
    expect(by((p) => p.mechanisms.fp8WeightAllGather)).toEqual({
      generic: false,
      megatron: true,
      torchtitan: true,
      deepspeed: false,
      fsdp: true,
    });
    expect(by((p) => (p.mechanisms.fp8WeightAllGather ? (p.sources.fp8WeightAllGather ?? '') : 'none').length > 0)).toEqual({
      generic: true,
      megatron: true,
      torchtitan: true,
      deepspeed: true,
      fsdp: true,
    });
    expect(by((p) => p.launchTarget)).toEqual({
      generic: 'megatron',
      megatron: 'megatron',
      torchtitan: 'torchtitan',
      deepspeed: 'deepspeed',
      fsdp: 'torchtitan',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { fsdpQuantizedLayerWeightBytes } from './fp8-weight-cache.ts';
import { stageMemoryDetails } from './stages.ts';

// Megatron-FSDP keeps fp8 layer weights in a uint8 buffer (fp8-weight-cache.ts fsdpQuantizedLayerWeightBytes).
// Hand derivation, the two-layer model below on one GPU of TP 2, DP 4, ZeRO-3 (hidden 1024, 8 heads of 128,
// SwiGLU FFN 4096, vocab 32,000, untied):
//   one layer: QKV 3,145,728 + out 1,048,576 + fc1 8,388,608 + fc2 4,194,304 = 16,777,216, ÷ TP 2 = 8,388,608,
//   + 2 RMSNorm weights 2,048 = 8,390,656; two layers 16,781,312 (fp8-weight-cache.test.ts);
//   embedding and output 32,000 · 1,024 ÷ 2 = 16,384,000 each, with the final norm's 1,024: 32,769,024, kept in 16 bits.
// Weight shard, 16-bit: 2 · (16,781,312 + 32,769,024) ÷ 4 = 24,775,168 bytes;
//   fp8 layers: 1 · 16,781,312 ÷ 4 + 2 · 32,769,024 ÷ 4 = 4,195,328 + 16,384,512 = 20,579,840 bytes.
// Gathered beyond the shard (2 units at once, the output matrix one of them, × (1 − 1/4)):
//   16-bit: max(2 · 8,390,656, 16,384,000 + 8,390,656) · 2 · 3/4 = 24,774,656 · 1.5 = 37,161,984;
//   fp8 on Blackwell (1 byte): max(2 · 8,390,656, 2 · 16,384,000 + 8,390,656) · 3/4 = 41,158,656 · 0.75 = 30,868,992;
//   fp8 on Hopper (the transpose while gathered, 2 bytes): max(4 · 8,390,656, 2 · 16,384,000 + 2 · 8,390,656) · 3/4 = 37,161,984.
const LAYER_WEIGHTS = 16_781_312;

function doc(training: Record<string, unknown>, gpu: string, zero = 3) {
  return {
    version: 1,
    model: {
      name: 'two-layer test',
      layers: 2,
      hidden: 1024,
      heads: 8,
      kvHeads: 8,
      headDim: 128,
      ffnHidden: 4096,
      ffnType: 'swiglu',
      vocab: 32000,
      tiedEmbeddings: false,
    },
    training: { seqLen: 2048, globalBatch: 8, microBatch: 1, precision: 'fp8', framework: 'megatron', ...training },
    parallel: { tp: 2, pp: 1, dp: 4, zero, sequenceParallel: true },
    cluster: { gpu, gpusPerNode: 8, gpus: 8 },
  };
}

function config(raw: unknown): RunConfig {
  const parsed = parseDocument(raw);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

function stage(raw: unknown) {
  const s = stageMemoryDetails(config(raw))[0];
  if (!s) throw new Error('no stage');
  return s;
}

describe("Megatron-FSDP's fp8 weight buffer (ZeRO-3 with fp8 weights)", () => {
  it('keeps the layer weights in 1 byte on the shard, the embedding and output in 2', () => {
    expect(stage(doc({ fp8Recipe: 'tensorwise' }, 'b200')).breakdown.parameters).toBe(20_579_840);
    expect(stage(doc({ fp8Recipe: 'tensorwise' }, 'h100-sxm')).breakdown.parameters).toBe(20_579_840);
    expect(stage(doc({ fp8Recipe: 'tensorwise', fp8ParamGather: false }, 'b200')).breakdown.parameters).toBe(24_775_168);
    expect(24_775_168 - 20_579_840).toBe(LAYER_WEIGHTS / 4);
  });

  it('gathers the layers in fp8, with their transpose only where fp8 GEMMs are TN-only (Hopper)', () => {
    expect(stage(doc({ fp8Recipe: 'tensorwise' }, 'b200')).other.gatheredWeights).toBeCloseTo(30_868_992, 3);
    expect(stage(doc({ fp8Recipe: 'tensorwise' }, 'h100-sxm')).other.gatheredWeights).toBeCloseTo(37_161_984, 3);
    expect(stage(doc({ fp8Recipe: 'tensorwise', fp8ParamGather: false }, 'b200')).other.gatheredWeights).toBeCloseTo(37_161_984, 3);
  });

  it('applies to per-tensor recipes at ZeRO-3 only; under torchao (torchtitan) to the gathered unit only', () => {
    const bytes = (training: Record<string, unknown>, gpu = 'b200', zero = 3) =>
      fsdpQuantizedLayerWeightBytes(config(doc(training, gpu, zero)));
    expect(bytes({ fp8Recipe: 'tensorwise' })).toEqual({ shard: 1, gathered: 1 });
    expect(bytes({ fp8Recipe: 'delayed', fp8ParamGather: true }, 'h100-sxm')).toEqual({ shard: 1, gathered: 2 });
    expect(bytes({ fp8Recipe: 'delayed' })).toBeNull();
    expect(bytes({ fp8Recipe: 'mxfp8' })).toBeNull();
    expect(bytes({ fp8Recipe: 'tensorwise' }, 'b200', 1)).toBeNull();
    // torchao's float8 all-gather: the FSDP2 shard keeps its 16-bit count, the gathered unit is fp8 (fp8GatheredLayerWeightBytes).
    expect(bytes({ fp8Recipe: 'tensorwise', fp8ParamGather: true, framework: 'torchtitan' })).toEqual({ shard: 2, gathered: 1 });
    expect(bytes({ fp8Recipe: 'rowwise', fp8ParamGather: true, framework: 'torchtitan' })).toBeNull();
    expect(bytes({ fp8Recipe: 'tensorwise', framework: 'torchtitan' })).toBeNull();
    expect(bytes({ precision: 'bf16' })).toBeNull();
  });
});

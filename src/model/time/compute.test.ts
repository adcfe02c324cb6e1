import { describe, expect, it } from 'vitest';
import { DP_OVERLAP, MOE_TIME, TIME_CALIBRATION as K } from '../calibration.ts';
import { layerForwardSeconds, peakFlopsPerSecond, sustainedPeakFlopsPerSecond } from './compute.ts';
import { parseDocument } from '../input/index.ts';
import { exposedDataParallelSeconds } from './step.ts';
import type { RunConfig } from '../input/index.ts';

// A Llama-3-8B-like layer (32 heads of 128, 8 KV heads) on a custom GPU whose
// special-function rate each test sets; one micro-batch of 8,192 tokens, TP 2.
function config(expTeraOpsPerSecond: number, overrides: { model?: object; parallel?: object; training?: object } = {}): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: {
      name: 'test',
      layers: 4,
      hidden: 4096,
      heads: 32,
      kvHeads: 8,
      ffnHidden: 14336,
      ffnType: 'swiglu',
      vocab: 32000,
      ...overrides.model,
    },
    training: { seqLen: 8192, globalBatch: 8, microBatch: 1, precision: 'bf16', ...overrides.training },
    parallel: { tp: 2, pp: 1, dp: 4, ...overrides.parallel },
    cluster: {
      gpu: {
        name: 'g',
        memoryGiB: 80,
        bf16Tflops: 1000,
        fp8Tflops: 2000,
        hbmGBps: 3000,
        intraNodeGBps: 450,
        interNodeGBps: 50,
        tdpWatts: 700,
        expTeraOpsPerSecond,
      },
      gpusPerNode: 8,
    },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

// Hand count for one layer on one GPU: causal queries see s/2 keys on average;
// QKᵀ and P·V are 2 multiply-adds of head width 128 each per score, split over TP 2.
const tokens = 8192;
const scoresPerGpu = (tokens * 32 * (8192 / 2)) / 2;
const tensorForward = (2 * scoresPerGpu * (128 + 128)) / (1000e12 * K.attentionTensorEfficiency);

describe('attention: tensor-core matmuls and the softmax exponentials', () => {
  it('is the matmuls alone when the special-function units are far faster', () => {
    const t = layerForwardSeconds(config(1e7), 0, tokens);
    expect(t.attentionForward).toBeCloseTo(tensorForward, 9);
    // FlashAttention's backward does 2.5× the forward's matmul work (Dao 2023).
    expect(t.attentionBackward).toBeCloseTo(tensorForward * K.attentionBackwardOverForward, 9);
  });

  it('is the exponentials, one per score, when the special-function units are the bottleneck', () => {
    const rate = 1e-3;
    const expForward = scoresPerGpu / (rate * 1e12 * K.softmaxExpEfficiency);
    const t = layerForwardSeconds(config(rate), 0, tokens);
    expect(t.attentionForward).toBeCloseTo(expForward + K.softmaxExposedFraction * tensorForward, 9);
    // Doubling the exponential rate (Blackwell Ultra over Blackwell) halves an exponential-bound kernel.
    const doubled = layerForwardSeconds(config(2 * rate), 0, tokens);
    expect(doubled.attentionForward).toBeCloseTo(expForward / 2 + K.softmaxExposedFraction * tensorForward, 9);
  });

  it('never gets faster when the special-function units slow down', () => {
    let previous = 0;
    for (const rate of [1e7, 100, 10, 4, 1, 0.1]) {
      const t = layerForwardSeconds(config(rate), 0, tokens);
      expect(t.attentionForward).toBeGreaterThanOrEqual(previous);
      previous = t.attentionForward;
    }
  });
});

describe('power-capped tensor rate by precision', () => {
  it('counts an fp8 FLOP as tensorEnergyPerFlopRelative.fp8 of a 16-bit one against the power knee', () => {
    const gpu = config(4).cluster.gpu;
    const knee = K.powerKneeTflopsPerWatt;
    // 1,000 TFLOP/s bf16 and 2,000 fp8 on 700 W.
    expect(sustainedPeakFlopsPerSecond(gpu, 'bf16')).toBeCloseTo(1000e12 / (1 + 1000 / 700 / knee), 0);
    expect(sustainedPeakFlopsPerSecond(gpu, 'fp8')).toBeCloseTo(2000e12 / (1 + (2000 * K.tensorEnergyPerFlopRelative.fp8) / 700 / knee), 0);
    expect(peakFlopsPerSecond(gpu, 'fp8')).toBe(2000e12);
  });
});

describe("the GPU's exponential rate in the document", () => {
  // A tiny run on a custom GPU with the given figures.
  const onGpu = (gpu: object) =>
    parseDocument({
      version: 1,
      model: { name: 'm', layers: 2, hidden: 256, heads: 4, vocab: 1000 },
      training: { seqLen: 512, globalBatch: 8, microBatch: 1 },
      parallel: { tp: 1, pp: 1, dp: 1 },
      cluster: { gpu: { name: 'g', memoryGiB: 80, hbmGBps: 3000, intraNodeGBps: 450, interNodeGBps: 50, ...gpu } },
    });

  it("defaults, for a custom GPU, to its BF16 peak at H100's ratio of 3.9 T exponentials to 989 TFLOP/s", () => {
    const parsed = onGpu({ bf16Tflops: 1978 });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    expect(parsed.config.cluster.gpu.expTeraOpsPerSecond).toBeCloseTo(7.8, 9);
  });

  it('refuses a rate that is not positive, naming the field', () => {
    const parsed = onGpu({ bf16Tflops: 100, expTeraOpsPerSecond: 0 });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors.join(' ')).toMatch(/cluster\.gpu\.expTeraOpsPerSecond/);
  });
});

describe('fixed MoE costs per layer', () => {
  it('grow with the experts each GPU holds: halving EP adds 2 GEMM operators per extra local expert to the host time (moe-host.ts)', () => {
    const moe = { moe: { experts: 64, topK: 4, expertFfnHidden: 1024, sharedExperts: 0, denseLayers: 0 } };
    const training = { moeDispatcher: 'deepep' };
    const ep4 = layerForwardSeconds(config(4, { model: moe, parallel: { ep: 4 }, training }), 0, tokens);
    const ep8 = layerForwardSeconds(config(4, { model: moe, parallel: { ep: 8 }, training }), 0, tokens);
    // 16 local experts against 8 (DeepEP: no chunk sort); the per-token element-wise work does not depend on EP.
    expect(ep4.hostForward - ep8.hostForward).toBeCloseTo((16 - 8) * 2 * MOE_TIME.eagerOpHostSeconds, 12);
    expect(ep4.elementwiseForward).toBeCloseTo(ep8.elementwiseForward, 12);
  });
});

describe('data-parallel sync hidden under compute', () => {
  it("ZeRO 0/1 hide it under one micro-batch's work, ZeRO 2/3 under the whole step's", () => {
    // 10 s of sync, 1 s of work per micro-batch, 20 micro-batches.
    expect(exposedDataParallelSeconds(10, 1, 20, 1)).toBeCloseTo(
      Math.max(10 * DP_OVERLAP.minimumExposedFraction, 10 - DP_OVERLAP.overlapEfficiency),
      12,
    );
    expect(exposedDataParallelSeconds(10, 1, 20, 3)).toBeCloseTo(10 * DP_OVERLAP.minimumExposedFraction, 12);
  });
});

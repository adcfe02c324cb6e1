import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { estimate } from '../estimate.ts';
import { gemmSeconds, peakFlopsPerSecond } from './compute.ts';
import { findGpuPreset } from '../input/index.ts';
import type { EstimateOutput } from '../input/index.ts';

// Llama-3-8B-like dense model on one 8-GPU H100 node: a small, valid document.
function doc(overrides: { parallel?: object; training?: object; cluster?: object; model?: object } = {}) {
  return {
    version: 1,
    model: {
      name: 'test',
      layers: 32,
      hidden: 4096,
      heads: 32,
      kvHeads: 8,
      ffnHidden: 14336,
      ffnType: 'swiglu',
      vocab: 128256,
      ...overrides.model,
    },
    training: { seqLen: 4096, globalBatch: 64, microBatch: 1, tokens: 1e11, recompute: 'selective', ...overrides.training },
    parallel: { tp: 2, pp: 2, dp: 2, zero: 1, ...overrides.parallel },
    cluster: { gpu: 'h100-sxm', ...overrides.cluster },
  };
}

function throughput(out: EstimateOutput) {
  expect(out.errors).toEqual([]);
  if (!out.throughput || !out.time || !out.reliability) throw new Error('no throughput');
  return { ...out.throughput, ...out.time, goodput: out.reliability.goodput };
}

describe('identities between the output figures', () => {
  it('MFU × peak × GPUs × stepSeconds equals the model FLOPs of one step', () => {
    for (const precision of ['bf16', 'fp8'] as const) {
      const out = estimate(doc({ training: { precision } }));
      const t = throughput(out);
      const peak = peakFlopsPerSecond(findGpuPreset('h100-sxm')!, precision);
      expect(t.mfu * peak * 8 * t.stepSeconds).toBeCloseTo(out.flops.modelPerStep, -6);
      expect(t.hfu * peak * 8 * t.stepSeconds).toBeCloseTo(out.flops.hardwarePerStep, -6);
      expect(t.hfu).toBeGreaterThanOrEqual(t.mfu);
    }
  });

  it('time to train × tokens per second × goodput equals the token budget', () => {
    const t = throughput(estimate(doc()));
    // days × 86,400 s is wall time; the cluster makes progress only for the goodput share of it.
    expect(t.days * 86_400 * t.tokensPerSecond * t.goodput).toBeCloseTo(1e11, -3);
    expect(t.gpuHours).toBeCloseTo(t.days * 24 * 8, 6);
  });

  it("tokens per second is the step's tokens over the step time", () => {
    const t = throughput(estimate(doc()));
    expect(t.tokensPerSecond * t.stepSeconds).toBeCloseTo(64 * 4096, 6);
  });

  it("the input pipeline must deliver the cluster's tokens, split over its nodes, 4 bytes per token id above a 65,500 vocabulary", () => {
    const out = estimate(doc({ parallel: { tp: 2, pp: 2, dp: 4 }, cluster: { gpu: 'h100-sxm', gpusPerNode: 8 } }));
    const t = throughput(out);
    // 16 GPUs on 8-GPU nodes = 2 nodes; vocabulary 128,256 needs int32 token ids (Megatron's indexed dataset).
    expect(out.dataPipeline?.tokensPerSecondPerNode).toBeCloseTo(t.tokensPerSecond / 2, 6);
    expect(out.dataPipeline?.bytesPerSecondPerNode).toBeCloseTo((4 * t.tokensPerSecond) / 2, 6);
  });

  it("checkpoint write time is its size over the storage bandwidth, and Young's interval is √(2δM)", () => {
    const out = estimate(doc());
    const r = out.reliability;
    if (!r || r.checkpointBytes === undefined || r.checkpointWriteSeconds === undefined || r.clusterMtbfHours === undefined)
      throw new Error('no reliability');
    // Default storage bandwidth 50 GB/s; default per-GPU MTBF 50,000 h over 8 GPUs.
    expect(r.checkpointWriteSeconds).toBeCloseTo(r.checkpointBytes / 50e9, 9);
    expect(r.clusterMtbfHours).toBeCloseTo(50_000 / 8, 9);
    expect(r.checkpointIntervalMinutes * 60).toBeCloseTo(Math.sqrt(2 * r.checkpointWriteSeconds * r.clusterMtbfHours * 3600), 6);
  });

  it("DualPipe does each micro-batch's work once: its step is about 1F1B's less some bubble, not twice it", () => {
    // Each device holds two chunks (one per direction) but a micro-batch passes one of them (arXiv 2412.19437, 3.2.1).
    const step = (schedule: string) =>
      throughput(estimate(doc({ model: { layers: 16 }, parallel: { tp: 1, pp: 4, dp: 2, schedule }, training: { globalBatch: 32 } })))
        .stepSeconds;
    const ratio = step('dualpipe') / step('1f1b');
    expect(ratio).toBeLessThan(1.05);
    expect(ratio).toBeGreaterThan(0.7);
  });

  it('the breakdown adds up to the step time', () => {
    const t = throughput(estimate(doc()));
    const sum = Object.values(t.breakdown).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(t.stepSeconds, 9);
  });

  it("bubble fraction is the breakdown's bubble over the step: about (p−1)/(m+p−1) for 1F1B with identical stages", () => {
    // 8 layers on 4 stages, no embedding/output imbalance to speak of when vocab is tiny.
    const out = estimate(
      doc({ model: { layers: 8, vocab: 8 }, parallel: { tp: 1, pp: 4, dp: 2, zero: 1 }, training: { globalBatch: 16 } }),
    );
    const t = throughput(out);
    // One definition (issue 16 item 6): the bubble part of the step over the step.
    expect(t.bubbleFraction).toBe(t.breakdown.bubble / t.stepSeconds);
    // m = 16 / (1 × 2) = 8; the critical stage idles 3 of 8 + 3 slots ≈ 0.273 of the makespan, a little more
    // for p2p and the tiny head, a little less of the whole step, which adds the DP sync and the optimizer.
    expect(t.bubbleFraction).toBeGreaterThan(0.26);
    expect(t.bubbleFraction).toBeLessThan(0.3);
    expect(out.timeline?.blocks.length).toBe(4 * 8 * 2);
  });
});

describe('achievable GEMM time', () => {
  const h100 = findGpuPreset('h100-sxm')!;
  it('is never faster than the dense peak allows', () => {
    const flops = 2 * 8192 * 8192 * 8192;
    expect(gemmSeconds(h100, 'bf16', { m: 8192, k: 8192, n: 8192 })).toBeGreaterThan(flops / 989e12);
  });
  it('reaches a lower fraction of peak when the matrix is small (small h/t runs worse)', () => {
    const fraction = (d: number) => (2 * 4096 * d * d) / gemmSeconds(h100, 'bf16', { m: 4096, k: d, n: d }) / 989e12;
    expect(fraction(512)).toBeLessThan(fraction(2048));
    expect(fraction(2048)).toBeLessThan(fraction(8192));
  });
});

describe('monotonic properties', () => {
  const layouts = fc.record({
    tp: fc.constantFrom(1, 2, 4, 8),
    pp: fc.constantFrom(1, 2, 4),
    dp: fc.constantFrom(1, 2, 4, 8),
    microBatch: fc.constantFrom(1, 2),
    accumulation: fc.constantFrom(1, 2, 4),
    zero: fc.constantFrom(0, 1, 2, 3),
    recompute: fc.constantFrom('none', 'selective', 'full'),
  });

  it('more GPUs of the same kind at fixed per-GPU work never lower tokens/s', () => {
    fc.assert(
      fc.property(layouts, fc.constantFrom(2, 4), (l, factor) => {
        const base = (dp: number) =>
          estimate(
            doc({
              parallel: { tp: l.tp, pp: l.pp, dp, zero: l.zero },
              training: { microBatch: l.microBatch, globalBatch: l.microBatch * dp * l.accumulation * l.pp, recompute: l.recompute },
            }),
          );
        const small = throughput(base(l.dp));
        const large = throughput(base(l.dp * factor));
        expect(large.tokensPerSecond).toBeGreaterThanOrEqual(small.tokensPerSecond * (1 - 1e-9));
      }),
      { numRuns: 60 },
    );
  });

  it('faster links never lengthen a step', () => {
    const gpu = {
      name: 'test',
      memoryGiB: 80,
      bf16Tflops: 989,
      fp8Tflops: 1979,
      fp32Tflops: 67,
      hbmGBps: 3350,
      tdpWatts: 700,
      usdPerHour: 2,
    };
    fc.assert(
      fc.property(
        layouts,
        fc.double({ min: 1, max: 4, noNaN: true }),
        fc.double({ min: 1, max: 4, noNaN: true }),
        (l, intraFactor, interFactor) => {
          const run = (intra: number, inter: number) =>
            throughput(
              estimate(
                doc({
                  parallel: { tp: l.tp, pp: l.pp, dp: l.dp, zero: l.zero },
                  training: { microBatch: l.microBatch, globalBatch: l.microBatch * l.dp * l.accumulation * l.pp, recompute: l.recompute },
                  cluster: { gpu: { ...gpu, intraNodeGBps: intra, interNodeGBps: inter }, gpusPerNode: 4 },
                }),
              ),
            ).stepSeconds;
          expect(run(450 * intraFactor, 50 * interFactor)).toBeLessThanOrEqual(run(450, 50) * (1 + 1e-9));
        },
      ),
      { numRuns: 60 },
    );
  });
});

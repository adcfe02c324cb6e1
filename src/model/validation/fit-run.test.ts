import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { parseDocument } from '../input/index.ts';
import { estimateConfig } from '../estimate.ts';
import { fitComputeEfficiencyScale, fitMemoryOverheadScale, fitRun, fitRunDocument } from './fit-run.ts';
import { stageMemoryDetails } from '../memory/index.ts';
import type { RunConfig } from '../input/index.ts';

function config(document: Record<string, unknown>): RunConfig {
  const parsed = parseDocument(document);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

/** One GPU: no communication, no pipeline, so the step is m × (forward + backward + recompute) + optimizer. */
const oneGpu = config({
  version: 1,
  model: { layers: 4, hidden: 1024, heads: 16, vocab: 32000 },
  training: { seqLen: 2048, globalBatch: 8, microBatch: 2 },
  parallel: { tp: 1, pp: 1, dp: 1, zero: 0 },
  cluster: { gpu: 'h100-sxm', gpus: 1 },
});

/** 8 GPUs with ZeRO-3, so every "other" term (runtime, gathered weights, unsharded gradients, allocator reserve) is non-zero. */
const zero3 = config({
  version: 1,
  model: { layers: 8, hidden: 2048, heads: 16, vocab: 32000 },
  training: { seqLen: 2048, globalBatch: 64, microBatch: 1 },
  parallel: { tp: 1, pp: 2, dp: 4, zero: 3 },
  cluster: { gpu: 'a100-80gb', gpus: 8 },
});

const withScales = (c: RunConfig, computeEfficiencyScale: number, memoryOverheadScale = 1): RunConfig => ({
  ...c,
  calibration: { computeEfficiencyScale, memoryOverheadScale },
});
const stepAt = (c: RunConfig, scale: number) => estimateConfig(withScales(c, scale)).throughput?.stepSeconds ?? NaN;

describe('fitting the compute-efficiency scale to a measured step time', () => {
  // On one GPU every term of the step is either tensor-core time, which the scale
  // divides (GEMMs and attention, compute.ts), or time it leaves alone (memory-bound
  // element-wise work, operand traffic, the optimizer step): T(s) = A/s + B. Two
  // evaluations give A and B: T(1) = A + B, T(2) = A/2 + B, so A = 2(T(1) − T(2)) and
  // B = 2T(2) − T(1); the exact fit for a measured T* is s = A / (T* − B).
  const t1 = stepAt(oneGpu, 1);
  const t2 = stepAt(oneGpu, 2);
  const a = 2 * (t1 - t2);
  const b = 2 * t2 - t1;

  it('the one-GPU step really is A/s + B (checked at s = 4 and 0.5)', () => {
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    expect(stepAt(oneGpu, 4) / (a / 4 + b)).toBeCloseTo(1, 12);
    expect(stepAt(oneGpu, 0.5) / (a / 0.5 + b)).toBeCloseTo(1, 12);
  });

  it('a run 20 % slower than predicted fits s = A / (1.2·T(1) − B), below 1', () => {
    const measured = 1.2 * t1;
    const fit = fitComputeEfficiencyScale(oneGpu, measured);
    expect(fit.ok).toBe(true);
    if (!fit.ok) return;
    const expected = a / (measured - b);
    expect(fit.scale / expected).toBeCloseTo(1, 8);
    expect(fit.scale).toBeLessThan(1);
    expect(fit.predictedBefore).toBe(t1);
    expect(fit.predictedAfter / measured).toBeCloseTo(1, 8);
  });

  it('reproduces any reachable measured step time on a pipelined, data-parallel layout (property)', () => {
    const before = stepAt(zero3, 1);
    fc.assert(
      fc.property(fc.double({ min: 0.7, max: 2.5, noNaN: true }), (factor) => {
        const fit = fitComputeEfficiencyScale(zero3, factor * before);
        expect(fit.ok).toBe(true);
        if (!fit.ok) return;
        expect(fit.predictedAfter / (factor * before)).toBeCloseTo(1, 7);
        // Slower than predicted means less efficient than calibrated, and the reverse.
        expect(fit.scale < 1).toBe(factor > 1);
      }),
      { numRuns: 12 },
    );
  });

  it('refuses a step time no scale in the document range (0.05, 20] can reach, saying why', () => {
    const tooSlow = fitComputeEfficiencyScale(oneGpu, 1000 * t1);
    expect(tooSlow.ok === false && tooSlow.reason).toMatch(/slower than the engine predicts even at 0.05×/);
    const tooFast = fitComputeEfficiencyScale(oneGpu, b / 2);
    expect(tooFast.ok === false && tooFast.reason).toMatch(/faster than the engine predicts even at 20×/);
    expect(fitComputeEfficiencyScale(oneGpu, -1).ok).toBe(false);
    expect(fitComputeEfficiencyScale(oneGpu, Number.NaN).ok).toBe(false);
  });

  it('is absolute: the fit from an already calibrated configuration lands on the same scale', () => {
    const measured = 1.1 * t1;
    const fresh = fitComputeEfficiencyScale(oneGpu, measured);
    const again = fitComputeEfficiencyScale(withScales(oneGpu, 0.5), measured);
    expect(fresh.ok && again.ok).toBe(true);
    if (fresh.ok && again.ok) {
      expect(again.scale / fresh.scale).toBeCloseTo(1, 8);
      expect(again.predictedBefore).toBe(stepAt(oneGpu, 0.5));
    }
  });
});

describe('fitting the memory-overhead scale to a measured peak', () => {
  // memory.ts: a stage's device-used bytes are allocated + scale × (runtime + gathered +
  // unsharded + allocator reserve), where allocated (weights, gradients, optimizer states,
  // activations) does not depend on the scale. With O = deviceUsed(1) − allocated, a measured
  // deviceUsed(1) + ½ O of the most loaded stage is therefore exactly scale 1.5.
  const stages = stageMemoryDetails(zero3);
  const worst = stages.reduce((w, s) => (s.deviceUsed > w.deviceUsed ? s : w));
  const allocated = worst.breakdown.total - worst.breakdown.other;
  const overheads = worst.deviceUsed - allocated;

  it("a peak half the overheads above the prediction fits 1.5 (nvidia-smi's figure, the default)", () => {
    const measured = worst.deviceUsed + 0.5 * overheads;
    const fit = fitMemoryOverheadScale(zero3, measured);
    expect(fit.ok).toBe(true);
    if (!fit.ok) return;
    expect(fit.scale).toBeCloseTo(1.5, 8);
    expect(fit.predictedBefore).toBe(worst.deviceUsed);
    expect(fit.predictedAfter / measured).toBeCloseTo(1, 10);
  });

  it('a peak reserved figure is compared with the reserved bytes', () => {
    const fit = fitMemoryOverheadScale(zero3, worst.reserved, 'peak reserved');
    expect(fit.ok && fit.scale).toBeCloseTo(1, 8);
  });

  it('refuses a peak below what the model states and activations alone need', () => {
    const fit = fitMemoryOverheadScale(zero3, 0.9 * allocated);
    expect(fit.ok === false && fit.reason).toMatch(/less than the weights, gradients, optimizer states and activations/);
  });
});

describe('fitRun', () => {
  it('fits only what was measured', () => {
    const onlyStep = fitRun(oneGpu, { stepSeconds: stepAt(oneGpu, 1) });
    expect(onlyStep.memoryOverheadScale).toBeNull();
    expect(onlyStep.computeEfficiencyScale?.ok && onlyStep.computeEfficiencyScale.scale).toBeCloseTo(1, 8);
    expect(fitRun(oneGpu, {})).toEqual({ computeEfficiencyScale: null, memoryOverheadScale: null });
  });

  it('turns an invalid document into its field-named errors', () => {
    const result = fitRunDocument(
      { version: 1, model: { layers: 'many' }, training: {}, cluster: { gpu: 'h100-sxm' } },
      { stepSeconds: 1 },
    );
    expect(result.ok === false && result.errors).toContain('model.layers: must be a whole number, got "many"');
  });
});

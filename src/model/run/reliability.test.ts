import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { RESTART_SECONDS } from '../calibration.ts';
import {
  checkpointBytes,
  checkpointWriteSeconds,
  clusterMtbfHours,
  dalyGoodput,
  dataLoaderRate,
  expectedFailures,
  lostSecondsPerFailure,
  reliabilityPlan,
  tokenIdBytes,
  youngCheckpointIntervalSeconds,
} from './reliability.ts';

describe('failures: Llama 3 (arXiv 2407.21783, section 3.3.4)', () => {
  // 419 unexpected interruptions in 54 days on 16,384 H100s.
  const gpuHours = 16_384 * 54 * 24; // 21,233,664
  it('a per-GPU MTBF of 16,384·54·24/419 ≈ 50,700 h gives back ≈ 419 failures', () => {
    expect(gpuHours / 419).toBeCloseTo(50_677, 0);
    // 21,233,664 / 50,700 = 418.81.
    expect(expectedFailures(gpuHours, 50_700)).toBeCloseTo(419, 0);
    expect(expectedFailures(gpuHours, gpuHours / 419)).toBeCloseTo(419, 9);
  });
  it('the cluster MTBF is about 3 hours, as the paper says', () => {
    // 50,677 / 16,384 = 3.093 h.
    expect(clusterMtbfHours(50_677, 16_384)).toBeCloseTo(3.093, 3);
  });
});

describe('checkpointing (Young 1974; Daly 2006)', () => {
  it('checkpoint size and write time', () => {
    // 70e9 parameters × 14 bytes (bf16 weights + fp32 master + two fp32 moments) = 980 GB; at 50 GB/s, 19.6 s.
    const bytes = checkpointBytes(70e9, 14);
    expect(bytes).toBe(980e9);
    expect(checkpointWriteSeconds(bytes, 50)).toBeCloseTo(19.6, 9);
  });

  it('Young interval, hand example', () => {
    // δ = 60 s, M = 3 h = 10,800 s: τ = √(2·60·10,800) = √1,296,000 = 1138.42 s ≈ 19 min.
    expect(youngCheckpointIntervalSeconds(60, 10_800)).toBeCloseTo(1138.42, 2);
    expect(lostSecondsPerFailure(1138.42, 600)).toBeCloseTo(1169.21, 2);
    expect(lostSecondsPerFailure(1000)).toBe(500 + RESTART_SECONDS);
  });

  it('Daly goodput, hand example, close to the first-order form', () => {
    // τ = 1138.42, δ = 60, M = 10,800, R = 600:
    // e^(R/M) = e^0.0555556 = 1.057128; (τ+δ)/M = 0.110965, e^that − 1 = 0.117355;
    // goodput = 1138.42 / (10,800 · 1.057128 · 0.117355) = 0.84966.
    // First order: 1 / (1 + 60/1138.42 + (569.21 + 600)/10,800) = 1 / 1.160964 = 0.86135.
    const g = dalyGoodput(1138.42, 60, 10_800, 600);
    expect(g).toBeCloseTo(0.84966, 4);
    expect(Math.abs(g - 0.86135)).toBeLessThan(0.02);
  });

  it('agrees with 1 / (1 + δ/τ + (τ/2 + R)/M) when δ, τ, R ≪ M', () => {
    // δ = 1 s, M = 1e6 s, R = 10 s: τ = √2e6 = 1414.2 s.
    const tau = youngCheckpointIntervalSeconds(1, 1e6);
    const firstOrder = 1 / (1 + 1 / tau + (tau / 2 + 10) / 1e6);
    expect(dalyGoodput(tau, 1, 1e6, 10) / firstOrder).toBeCloseTo(1, 5);
  });

  it('goodput stays in (0, 1]', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e4, noNaN: true }),
        fc.double({ min: 60, max: 1e9, noNaN: true }),
        fc.double({ min: 0, max: 3600, noNaN: true }),
        (delta, mtbf, restart) => {
          const g = dalyGoodput(youngCheckpointIntervalSeconds(delta, mtbf), delta, mtbf, restart);
          expect(g).toBeGreaterThan(0);
          expect(g).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('a plan for Llama 3 scale: 16,384 GPUs, 50,677 h MTBF, 980 GB at 50 GB/s', () => {
    // M = 3.093 h = 11,135 s; δ = 19.6 s; τ = √(2·19.6·11,135) = 660.7 s.
    const plan = reliabilityPlan({ gpuMtbfHours: 50_677, checkpointWriteGBps: 50 }, 16_384, 980e9);
    expect(plan.clusterMtbfSeconds).toBeCloseTo(11_135.08, 1);
    expect(plan.checkpointWriteSeconds).toBeCloseTo(19.6, 9);
    expect(plan.checkpointIntervalSeconds).toBeCloseTo(660.66, 1);
    expect(plan.goodput).toBeGreaterThan(0.85);
    expect(plan.goodput).toBeLessThan(0.96);
  });

  it("checkpoints at the interval the document sets, with Daly's goodput for that interval; the optimum stays recommended", () => {
    const cost = { gpuMtbfHours: 50_677, checkpointWriteGBps: 50 };
    const optimal = reliabilityPlan(cost, 16_384, 980e9);
    const hourly = reliabilityPlan({ ...cost, checkpointIntervalMinutes: 60 }, 16_384, 980e9);
    expect(hourly.checkpointIntervalSeconds).toBe(3600);
    expect(hourly.optimalCheckpointIntervalSeconds).toBeCloseTo(660.66, 1);
    expect(hourly.goodput).toBeCloseTo(dalyGoodput(3600, 19.6, optimal.clusterMtbfSeconds), 12);
    // First order, once an hour against an 11,135 s cluster MTBF: 1 − 19.6/3,600 − (1,800 + 600)/11,135 = 0.779
    // (Daly's exact form: 0.798); at the optimum 1 − 19.6/660.7 − (330 + 600)/11,135 = 0.887.
    expect(hourly.goodput).toBeCloseTo(1 - 19.6 / 3600 - 2400 / 11_135, 1);
    expect(hourly.goodput).toBeLessThan(optimal.goodput - 0.05);
    expect(reliabilityPlan({ ...cost, checkpointIntervalMinutes: null }, 16_384, 980e9)).toEqual(optimal);
  });
});

describe('input pipeline', () => {
  it('token ids are uint16 below a 65,500 vocabulary, int32 above (Megatron indexed datasets)', () => {
    expect(tokenIdBytes(50_257)).toBe(2);
    expect(tokenIdBytes(128_256)).toBe(4);
  });
  it('bytes per second per node', () => {
    // 2e6 tokens/s over 1024 GPUs = 128 nodes: 15,625 tokens/s and 62,500 B/s per node with 4-byte ids.
    expect(dataLoaderRate(2e6, 128_256, 1024, 8)).toEqual({ tokensPerSecondPerNode: 15_625, bytesPerSecondPerNode: 62_500 });
  });
});

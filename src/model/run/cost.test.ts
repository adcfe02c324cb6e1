import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { GPU_AVERAGE_POWER_FRACTION } from '../calibration.ts';
import { scheduleRates, trainingCost, trainingEnergyKwh, trainingTime } from './cost.ts';
import type { CostConfig } from '../input/index.ts';

const COST: CostConfig = {
  usdPerGpuHour: 2,
  pue: 1.2,
  gridKgCo2PerKwh: 0.4,
  gpuMtbfHours: 50_000,
  checkpointWriteGBps: 50,
  checkpointIntervalMinutes: null,
  capacity: 'on-demand',
  spotUsdPerGpuHour: 2,
  preemptionsPerNodeDay: 0,
  restartMinutes: 10,
  elastic: false,
  startDate: null,
};
const H100 = { tdpWatts: 700 };

describe('training time', () => {
  it('tokens / rate, stretched by goodput', () => {
    // 1e12 tokens at 1e6 tokens/s = 1e6 s; at goodput 0.8, 1.25e6 s = 14.4676 days = 347.22 h.
    const t = trainingTime(1e12, 1e6, 1000, 0.8);
    expect(t.wallSeconds).toBeCloseTo(1.25e6, 6);
    expect(t.days).toBeCloseTo(1.25e6 / 86_400, 9);
    expect(t.hours).toBeCloseTo(347.2222222, 6);
    // 1000 GPUs × 347.22 h.
    expect(t.gpuHours).toBeCloseTo(347_222.2222, 3);
  });

  it('Llama 3 405B scale: 54 days on 16,384 GPUs is 21,233,664 GPU-hours', () => {
    // Any token count that takes 54 × 86,400 s of wall time.
    const t = trainingTime(54 * 86_400 * 1e6, 1e6, 16_384, 1);
    expect(t.gpuHours).toBeCloseTo(16_384 * 54 * 24, 3);
  });

  it('lower goodput never shortens the run', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 1, noNaN: true }), fc.double({ min: 0.01, max: 1, noNaN: true }), (a, b) => {
        const [lo, hi] = a < b ? [a, b] : [b, a];
        expect(trainingTime(1e12, 1e6, 8, lo).wallSeconds).toBeGreaterThanOrEqual(trainingTime(1e12, 1e6, 8, hi).wallSeconds);
      }),
    );
  });
});

describe('training cost', () => {
  it('dollars, energy and CO2 from GPU-hours (hand example)', () => {
    // 1000 GPU-hours × 700 W × PUE 1.2 = 840 kWh at full TDP; × 0.4 kg/kWh = 336 kg; × $2 = $2000.
    const c = trainingCost(COST, H100, 1000);
    expect(c.usd).toBe(2000);
    expect(c.energyKwh).toBeCloseTo(840 * GPU_AVERAGE_POWER_FRACTION, 9);
    expect(c.co2Kg).toBeCloseTo(336 * GPU_AVERAGE_POWER_FRACTION, 9);
  });

  it('energy = GPUs × power × hours × PUE, however the GPU-hours are split', () => {
    // 16 GPUs for 10 h and 160 GPU-hours are the same energy: 160 × 1000 W × 1.5 = 240 kWh at full TDP.
    expect(trainingEnergyKwh({ pue: 1.5 }, { tdpWatts: 1000 }, 16 * 10)).toBeCloseTo(240 * GPU_AVERAGE_POWER_FRACTION, 9);
  });
});

describe('schedule rates (interchange "Output": time.tokensPerDay, cost.usdPerMillionTokens)', () => {
  it('hand example: 1e6 tokens/s at goodput 0.8 on 1000 GPUs at $2/GPU-hour', () => {
    // 1e6 × 0.8 = 8e5 tokens/s × 86,400 s = 6.912e10 tokens/day.
    // 1000 × $2 / 3600 s = $0.5556/s; / 8e5 tokens/s = $6.944e-7 per token = $0.6944 per million.
    const r = scheduleRates(1e6, 0.8, 1000, 2);
    expect(r.tokensPerDay).toBeCloseTo(6.912e10, 0);
    expect(r.usdPerMillionTokens).toBeCloseTo(0.694444, 6);
  });

  it('agrees with tokens ÷ days and dollars ÷ millions of tokens of the whole run', () => {
    const t = trainingTime(1e12, 1e6, 1000, 0.8);
    const r = scheduleRates(1e6, 0.8, 1000, COST.usdPerGpuHour);
    expect(r.tokensPerDay * t.days).toBeCloseTo(1e12, -2);
    expect(r.usdPerMillionTokens * 1e6).toBeCloseTo(trainingCost(COST, H100, t.gpuHours).usd, 6);
  });
});

import { describe, expect, it } from 'vitest';
import {
  completionFigures, histogram, isoDateAfter, logGamma, mulberry32, poisson, quantile, simulateCompletion, uninterruptedSeconds,
  type CompletionInput,
} from './completion.ts';
import { elasticDataParallel, interruptionRates, nodeCount, usdPerGpuHourFor } from './interruptions.ts';

const HOUR = 3600;
const DAY = 86_400;

/** 100 days of useful work, checkpoints every hour at no cost, a 10-minute restart, one interruption per 10 hours. */
const ONE_RATE: CompletionInput = {
  usefulSeconds: 100 * DAY,
  checkpointIntervalSeconds: HOUR,
  checkpointWriteSeconds: 0,
  restartSeconds: 600,
  interruptionsPerSecond: 1 / (10 * HOUR),
  elasticRate: 0,
  usdPerSecond: 1,
};

describe('the seeded generator and its draws', () => {
  it('mulberry32 is uniform in [0, 1) and repeats for a seed', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    let sum = 0;
    let bad = 0;
    for (let i = 0; i < 10_000; i++) {
      const x = a();
      if (x !== b() || x < 0 || x >= 1) bad++;
      sum += x;
    }
    expect(bad).toBe(0);
    // Mean of 10,000 uniforms: 0.5 ± 3 × √(1/12 / 10,000) = 0.5 ± 0.0087.
    expect(Math.abs(sum / 10_000 - 0.5)).toBeLessThan(0.0087);
  });

  it('ln Γ: ln Γ(1) = ln Γ(2) = 0, ln Γ(5) = ln 24, ln Γ(11) = ln 3,628,800, ln Γ(0.5) = ln √π', () => {
    expect(logGamma(1)).toBe(0);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(11)).toBeCloseTo(Math.log(3_628_800), 11);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 11);
  });

  it('Poisson draws have mean and variance equal to the mean, by Knuth\'s method and by PTRS', () => {
    for (const mean of [0.3, 4, 37, 5000]) {
      const random = mulberry32(11);
      const n = 20_000;
      let sum = 0;
      let squares = 0;
      for (let i = 0; i < n; i++) {
        const k = poisson(mean, random);
        sum += k;
        squares += k * k;
      }
      const m = sum / n;
      const variance = squares / n - m * m;
      // Standard error of the mean √(mean / n): within 4 of them.
      expect(Math.abs(m - mean)).toBeLessThan(4 * Math.sqrt(mean / n));
      expect(variance / mean).toBeGreaterThan(0.95);
      expect(variance / mean).toBeLessThan(1.05);
    }
    expect(poisson(0, mulberry32(1))).toBe(0);
  });

  it('quantiles interpolate between order statistics (Hyndman & Fan definition 7)', () => {
    // 1..5: the 10th percentile sits at position 0.4 → 1.4; the median at 3; the 90th at 3.6 → 4.6.
    expect(quantile([1, 2, 3, 4, 5], 0.1)).toBeCloseTo(1.4, 12);
    expect(quantile([1, 2, 3, 4, 5], 0.5)).toBe(3);
    expect(quantile([1, 2, 3, 4, 5], 0.9)).toBeCloseTo(4.6, 12);
  });
});

describe('the completion Monte Carlo', () => {
  it('without interruptions every run ends on the uninterrupted day: p10 = p50 = p90', () => {
    // 100 days of work, one 30-s checkpoint per hour: 100 × (1 + 30/3600) = 100.8333 days.
    const d = simulateCompletion({ ...ONE_RATE, interruptionsPerSecond: 0, checkpointWriteSeconds: 30 });
    expect(d.days.p10).toBeCloseTo(100.833333, 5);
    expect(d.days.p50).toBe(d.days.p10);
    expect(d.days.p90).toBe(d.days.p10);
    expect(d.meanInterruptions).toBe(0);
    expect(d.histogram).toEqual({ fromDays: d.days.p10, binDays: 0, counts: [1000] });
  });

  it('one failure rate against the closed form: each interruption costs τ/2 + R on average', () => {
    // τ/2 + R = 30 + 10 = 40 min. Interruptions also strike during lost time, so the wall time W
    // solves W = W₀ + Λ·W·(τ/2 + R): W = 2400 h / (1 − 0.1/h × 2/3 h) = 2400 / 0.93333 = 2571.43 h = 107.143 days,
    // and Λ·W = 257.14 interruptions a run.
    const d = simulateCompletion(ONE_RATE, 4000);
    const lostPerInterruption = (d.meanDays * DAY - 100 * DAY) / d.meanInterruptions;
    expect(lostPerInterruption / 60).toBeGreaterThan(40 * 0.98);
    expect(lostPerInterruption / 60).toBeLessThan(40 * 1.02);
    expect(d.meanDays).toBeCloseTo(107.143, 1);
    expect(d.meanInterruptions / 257.14).toBeGreaterThan(0.98);
    expect(d.meanInterruptions / 257.14).toBeLessThan(1.02);
  });

  it('percentiles against an analytic Poisson case: only restarts lost, N ~ Poisson(10)', () => {
    // τ = 0 (nothing lost but the restart), R = 0.01 day, Λ = 0.1 a day over 100 days: N ~ Poisson(10), days = 100 + 0.01 N.
    // Poisson(10) CDF: P(N ≤ 5) = 0.0671, P(N ≤ 6) = 0.1301; P(N ≤ 9) = 0.4579, P(N ≤ 10) = 0.5830;
    // P(N ≤ 13) = 0.8645, P(N ≤ 14) = 0.9165. So p10 = 6, p50 = 10, p90 = 14 restarts:
    // 100.06, 100.10 and 100.14 days. (Interruptions during the restarts themselves add about
    // 0.1 × 0.1 = 0.01 a run, too few to move a percentile across those gaps.)
    const analytic = (q: number) => {
      let k = 0;
      let term = Math.exp(-10);
      let cdf = term;
      while (cdf < q) {
        k++;
        term *= 10 / k;
        cdf += term;
      }
      return k;
    };
    expect([analytic(0.1), analytic(0.5), analytic(0.9)]).toEqual([6, 10, 14]);
    const d = simulateCompletion({
      usefulSeconds: 100 * DAY, checkpointIntervalSeconds: 0, checkpointWriteSeconds: 0, restartSeconds: 0.01 * DAY,
      interruptionsPerSecond: 0.1 / DAY, elasticRate: 0, usdPerSecond: 0,
    }, 20_000);
    expect(d.days.p10).toBeCloseTo(100 + 0.01 * analytic(0.1), 9);
    expect(d.days.p50).toBeCloseTo(100 + 0.01 * analytic(0.5), 9);
    expect(d.days.p90).toBeCloseTo(100 + 0.01 * analytic(0.9), 9);
  });

  it('the same input and seed give the same figures; another seed others', () => {
    const a = simulateCompletion(ONE_RATE, 500, 42);
    const b = simulateCompletion(ONE_RATE, 500, 42);
    const c = simulateCompletion(ONE_RATE, 500, 43);
    expect(a).toEqual(b);
    expect(c.days.p50).not.toBe(a.days.p50);
  });

  it('dollars are the wall time at the cluster\'s price per second', () => {
    const d = simulateCompletion({ ...ONE_RATE, usdPerSecond: 2.5 });
    expect(d.usd.p50).toBeCloseTo(d.days.p50 * DAY * 2.5, 6);
    expect(d.usd.p90).toBeCloseTo(d.days.p90 * DAY * 2.5, 6);
  });

  it('an elastic run that keeps 7/8 of its rate loses 1/8 of each restart instead of all of it', () => {
    const waiting = simulateCompletion({ ...ONE_RATE, checkpointIntervalSeconds: 0 }, 2000);
    const elastic = simulateCompletion({ ...ONE_RATE, checkpointIntervalSeconds: 0, elasticRate: 7 / 8 }, 2000);
    // Lost per interruption: 10 min waiting, 1.25 min elastic. Waiting: W = 2400 / (1 − 0.1 × 1/6) = 2440.68 h = 101.695 days;
    // elastic: 2400 / (1 − 0.1 × 0.0208333) = 2405.01 h = 100.209 days.
    expect(waiting.meanDays).toBeCloseTo(101.695, 1);
    expect(elastic.meanDays).toBeCloseTo(100.209, 1);
  });

  it('the histogram counts every run, from the fastest end', () => {
    const d = simulateCompletion(ONE_RATE);
    expect(d.histogram.counts.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(d.histogram.fromDays).toBeLessThanOrEqual(d.days.p10);
    expect(histogram([1, 2, 3, 4], 2)).toEqual({ fromDays: 1, binDays: 1.5, counts: [2, 2] });
  });

  it('checkpoint writes stretch the uninterrupted run by δ/τ', () => {
    expect(uninterruptedSeconds({ usefulSeconds: 3600, checkpointIntervalSeconds: 600, checkpointWriteSeconds: 60 })).toBeCloseTo(3960, 9);
  });
});

describe('dated ends and the basis', () => {
  it('an end 54.5 days after 2027-01-04 falls on 2027-02-27 (27 days to 31 January, 27 more into February)', () => {
    expect(isoDateAfter('2027-01-04', 54.5)).toBe('2027-02-27');
    expect(isoDateAfter('2028-02-28', 1.2)).toBe('2028-02-29');
  });

  it('dates the percentiles only when a start date is given, and says what was drawn', () => {
    const context = { gpuMtbfHours: 50_000, preemptionsPerNodeDay: 0.05, nodes: 128, dp: 64, elasticDp: null };
    const undated = completionFigures(ONE_RATE, context, null, 200);
    expect(undated.endDate).toBeUndefined();
    expect(undated.basis).toContain('200 simulated runs');
    expect(undated.basis).toContain('0.050 per node-day over 128 nodes');
    const dated = completionFigures(ONE_RATE, context, '2027-01-04', 200);
    expect(dated.endDate?.p50).toBe(isoDateAfter('2027-01-04', dated.days.p50));
  });
});

describe('interruption rates and prices', () => {
  const cost = { gpuMtbfHours: 50_000, capacity: 'spot' as const, preemptionsPerNodeDay: 0.05, usdPerGpuHour: 3, spotUsdPerGpuHour: 1.2 };

  it('failures over GPUs plus preemptions over nodes', () => {
    // 1,024 GPUs / 50,000 h = 0.02048 an hour; 128 nodes × 0.05 a day = 6.4 a day = 0.26667 an hour.
    const r = interruptionRates(cost, 1024, 8);
    expect(r.failuresPerSecond * HOUR).toBeCloseTo(0.02048, 12);
    expect(r.preemptionsPerSecond * HOUR).toBeCloseTo(0.266667, 6);
    expect(r.perSecond).toBeCloseTo(r.failuresPerSecond + r.preemptionsPerSecond, 15);
    expect(interruptionRates({ ...cost, capacity: 'on-demand' }, 1024, 8).preemptionsPerSecond).toBe(0);
    expect(nodeCount(12, 8)).toBe(2);
  });

  it('spot is paid at the spot price, on-demand at the on-demand price', () => {
    expect(usdPerGpuHourFor(cost)).toBe(1.2);
    expect(usdPerGpuHourFor({ ...cost, capacity: 'on-demand' })).toBe(3);
  });

  it('an elastic run drops the replicas on the lost node', () => {
    // tp 2 × pp 2 = 4-GPU replicas, 8 GPUs a node: two replicas go, dp 16 → 14.
    expect(elasticDataParallel({ tp: 2, pp: 2, cp: 1, dp: 16, ep: 1 }, 8)).toBe(14);
    // tp 8 × pp 4 = 32-GPU replicas across 4 nodes: one goes, dp 8 → 7.
    expect(elasticDataParallel({ tp: 8, pp: 4, cp: 1, dp: 8, ep: 1 }, 8)).toBe(7);
    // ep 4 from tp 1 × dp × cp 1: dp 8 − 8 replicas = 0 left; dp 16 − 8 = 8, a multiple of 4.
    expect(elasticDataParallel({ tp: 1, pp: 1, cp: 1, dp: 8, ep: 4 }, 8)).toBe(0);
    expect(elasticDataParallel({ tp: 1, pp: 1, cp: 1, dp: 16, ep: 4 }, 8)).toBe(8);
    // tp 8 × dp must be a multiple of ep 16: one 8-GPU replica goes, dp 14 → 13 (8 × 13 = 104, no), 12 (96 = 6 × 16).
    expect(elasticDataParallel({ tp: 8, pp: 1, cp: 1, dp: 14, ep: 16 }, 8)).toBe(12);
  });
});

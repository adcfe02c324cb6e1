import { describe, expect, it } from 'vitest';
import {
  budgetMilestones,
  completionFigures,
  gamma,
  histogram,
  isoDateAfter,
  logGamma,
  mulberry32,
  p50OptimalInterval,
  poisson,
  quantile,
  simulateCompletion,
  truncatedExponentialMoments,
  truncatedExponentialSum,
  uninterruptedSeconds,
  type CompletionInput,
} from './completion.ts';
import { elasticDataParallel, interruptionRates, nodeCount, usdPerGpuHourFor } from './interruptions.ts';

const HOUR = 3600;
const DAY = 86_400;

/** 100 days of useful work, checkpoints every hour at no cost, a 10-minute restart, one interruption per 100 hours. */
const ONE_RATE: CompletionInput = {
  usefulSeconds: 100 * DAY,
  checkpointIntervalSeconds: HOUR,
  checkpointWriteSeconds: 0,
  restartSeconds: 600,
  interruptionsPerSecond: 1 / (100 * HOUR),
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

  it("Poisson draws have mean and variance equal to the mean, by Knuth's method and by PTRS", () => {
    for (const mean of [0.3, 4, 37, 5000, 3e9]) {
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
    // Astronomical means (a hostile document's) end too, at about the mean.
    expect(poisson(1e300, mulberry32(1)) / 1e300).toBeCloseTo(1, 9);
  });

  it('Gamma draws have mean and variance equal to the shape (Marsaglia–Tsang, and boosted below 1)', () => {
    for (const shape of [0.4, 3, 250, 1e9]) {
      const random = mulberry32(5);
      const n = 20_000;
      let sum = 0;
      let squares = 0;
      for (let i = 0; i < n; i++) {
        const g = gamma(shape, random);
        sum += g;
        squares += g * g;
      }
      const m = sum / n;
      expect(Math.abs(m - shape)).toBeLessThan(4 * Math.sqrt(shape / n));
      expect((squares / n - m * m) / shape).toBeGreaterThan(0.93);
      expect((squares / n - m * m) / shape).toBeLessThan(1.07);
    }
  });

  it('the lost share of a segment: an exponential truncated to [0, 1], its moments and its draws', () => {
    // x = 1: mean 1 − 1/(e − 1) = 1 − 0.581977 = 0.418023; variance 1 − e/(e − 1)² = 1 − 2.718282/2.952492 = 0.079326.
    expect(truncatedExponentialMoments(1).mean).toBeCloseTo(0.418023, 6);
    expect(truncatedExponentialMoments(1).variance).toBeCloseTo(0.079326, 6);
    // Series and closed form meet at x = 1e-3 (1/2 − 1e-3/12 = 0.4999167; 1/12 − 1e-6/240 = 0.0833333):
    // either side of it they differ only by the slope, 1/12 × 2e-6.
    expect(truncatedExponentialMoments(0.000999).mean).toBeCloseTo(truncatedExponentialMoments(0.001001).mean, 6);
    expect(truncatedExponentialMoments(0.000999).variance).toBeCloseTo(truncatedExponentialMoments(0.001001).variance, 9);
    // 20 exact draws and 2000 from the normal limit agree with n × mean.
    const random = mulberry32(3);
    let exact = 0;
    for (let i = 0; i < 2000; i++) exact += truncatedExponentialSum(20, 1, random);
    expect(exact / (2000 * 20)).toBeCloseTo(0.418023, 2);
    expect(truncatedExponentialSum(2000, 1, random) / 2000).toBeCloseTo(0.418023, 1);
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
    // Λτ = 1 h / 100 h = 0.01 ≪ 1, where the closed form holds: lost work τ/2 + R = 30 + 10 = 40 min a failure.
    // (Exactly, the exponential truncated to the interval: τ(1/x − 1/(eˣ − 1)) = 60 × 0.499167 = 29.95 min.)
    // Interruptions: 2400 segments × (e^0.01 − 1) = 2400 × 0.0100502 = 24.12 a run; wall time
    // 2400 h + 24.12 × 39.95 min = 2400 + 16.06 h = 2416.06 h = 100.669 days.
    const d = simulateCompletion(ONE_RATE, 4000);
    const lostPerInterruption = (d.meanDays * DAY - 100 * DAY) / d.meanInterruptions;
    expect(lostPerInterruption / 60).toBeGreaterThan(40 * 0.99);
    expect(lostPerInterruption / 60).toBeLessThan(40 * 1.01);
    expect(d.meanInterruptions / 24.12).toBeGreaterThan(0.98);
    expect(d.meanInterruptions / 24.12).toBeLessThan(1.02);
    // Within 4 standard errors: √24 × 43 min ≈ 0.15 days a run, / √4000 = 0.0023 days.
    expect(Math.abs(d.meanDays - 100.669)).toBeLessThan(0.01);
  });

  it("the mean wall time is Daly's (e^(Λs) − 1)(1/Λ + R) a segment, also when interruptions are frequent", () => {
    // Λ = 1 per 2 h, τ = 1 h, δ = 0.1 h, R = 0.5 h: s = 1.1 h, Λs = 0.55, e^0.55 − 1 = 0.733253;
    // per segment 0.733253 × (2 + 0.5) = 1.833132 h; 100 segments: 183.3132 h = 7.63805 days.
    const d = simulateCompletion(
      {
        usefulSeconds: 100 * HOUR,
        checkpointIntervalSeconds: HOUR,
        checkpointWriteSeconds: 0.1 * HOUR,
        restartSeconds: 0.5 * HOUR,
        interruptionsPerSecond: 1 / (2 * HOUR),
        elasticRate: 0,
        usdPerSecond: 0,
      },
      8000,
    );
    expect(d.meanDays / 7.63805).toBeGreaterThan(0.99);
    expect(d.meanDays / 7.63805).toBeLessThan(1.01);
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
    const d = simulateCompletion(
      {
        usefulSeconds: 100 * DAY,
        checkpointIntervalSeconds: 0,
        checkpointWriteSeconds: 0,
        restartSeconds: 0.01 * DAY,
        interruptionsPerSecond: 0.1 / DAY,
        elasticRate: 0,
        usdPerSecond: 0,
      },
      20_000,
    );
    expect(d.days.p10).toBeCloseTo(100 + 0.01 * analytic(0.1), 9);
    expect(d.days.p50).toBeCloseTo(100 + 0.01 * analytic(0.5), 9);
    expect(d.days.p90).toBeCloseTo(100 + 0.01 * analytic(0.9), 9);
    // With checkpoints every 10 s instead, the count is negative binomial over 864,000 segments,
    // Poisson(10) to a relative 1e-5, and each loses 5 s on average (10 of them: 50 s = 0.0006 days):
    // the same percentiles to within 0.005 days, half a restart.
    const near = simulateCompletion(
      {
        usefulSeconds: 100 * DAY,
        checkpointIntervalSeconds: 10,
        checkpointWriteSeconds: 0,
        restartSeconds: 0.01 * DAY,
        interruptionsPerSecond: 0.1 / DAY,
        elasticRate: 0,
        usdPerSecond: 0,
      },
      20_000,
    );
    expect(near.days.p10).toBeCloseTo(100 + 0.01 * analytic(0.1), 2);
    expect(near.days.p50).toBeCloseTo(100 + 0.01 * analytic(0.5), 2);
    expect(near.days.p90).toBeCloseTo(100 + 0.01 * analytic(0.9), 2);
  });

  it('the same input and seed give the same figures; another seed others', () => {
    const a = simulateCompletion(ONE_RATE, 500, 42);
    const b = simulateCompletion(ONE_RATE, 500, 42);
    const c = simulateCompletion(ONE_RATE, 500, 43);
    expect(a).toEqual(b);
    expect(c.days.p50).not.toBe(a.days.p50);
  });

  it("dollars are the wall time at the cluster's price per second", () => {
    const d = simulateCompletion({ ...ONE_RATE, usdPerSecond: 2.5 });
    expect(d.usd.p50).toBeCloseTo(d.days.p50 * DAY * 2.5, 6);
    expect(d.usd.p90).toBeCloseTo(d.days.p90 * DAY * 2.5, 6);
  });

  it('an elastic run that keeps 7/8 of its rate loses 1/8 of each restart instead of all of it', () => {
    // Checkpoints at no cost (τ = 0): only restarts are lost, N ~ Poisson(Λ × 2400 h = 24).
    const waiting = simulateCompletion({ ...ONE_RATE, checkpointIntervalSeconds: 0 }, 4000);
    const elastic = simulateCompletion({ ...ONE_RATE, checkpointIntervalSeconds: 0, elasticRate: 7 / 8 }, 4000);
    // Waiting: 2400 h + 24 × 10 min = 2404 h = 100.1667 days; elastic: 2400 h + 24 × 1.25 min = 2400.5 h = 100.0208 days.
    expect(waiting.meanDays).toBeCloseTo(100.1667, 2);
    expect(elastic.meanDays).toBeCloseTo(100.0208, 2);
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

describe('the checkpoint interval chosen against the distribution', () => {
  it("with hundreds of interruptions a run, the median's best interval is the mean's: Daly's optimum, within half an octave", () => {
    // 100 days of work, δ = 60 s, R = 600 s, one interruption per 10 h (240 a run): Young's τ = √(2 × 60 × 36,000) = 2,078 s.
    // The mean wall time per useful second, (e^(Λ(τ+δ)) − 1)(1/Λ + R)/τ (Daly 2006), is least at τ* found below on a fine grid;
    // to first order τ* = √(2δ(M + R)) = √(2 × 60 × 36,600) = 2,096 s. The median of 240-odd interruptions sits near the mean.
    const input: CompletionInput = { ...ONE_RATE, checkpointWriteSeconds: 60, interruptionsPerSecond: 1 / (10 * HOUR) };
    const young = Math.sqrt(2 * 60 * 10 * HOUR);
    expect(young).toBeCloseTo(2078.5, 0);
    const lambda = input.interruptionsPerSecond;
    const wallPerUseful = (tau: number) => (Math.expm1(lambda * (tau + 60)) * (1 / lambda + 600)) / tau;
    let daly = 60;
    for (let tau = 60; tau < 20_000; tau += 1) if (wallPerUseful(tau) < wallPerUseful(daly)) daly = tau;
    expect(daly).toBeGreaterThan(1900);
    expect(daly).toBeLessThan(2200);
    const best = p50OptimalInterval(input, young);
    if (!best) throw new Error('no interval chosen');
    expect(Math.abs(Math.log2(best.seconds / daly))).toBeLessThanOrEqual(0.5);
    // Never worse at the median than Young's interval or the one in use.
    expect(best.days.p50).toBeLessThanOrEqual(simulateCompletion({ ...input, checkpointIntervalSeconds: young }).days.p50);
    expect(best.days.p50).toBeLessThanOrEqual(simulateCompletion(input).days.p50);
  });

  it('when the median run meets no interruption, the longest interval wins: one checkpoint at the end', () => {
    // 10 days of work, 0.2 interruptions expected: P(none) = e^−0.2 = 0.82 > 1/2, so the median run is uninterrupted and
    // ends at U(1 + δ/τ), least at the longest τ tried: Young's √(2 × 60 × 4.32e6) = 22,768 s × 64 = 1.457e6 s, capped at
    // the useful time U = 864,000 s. p50 = 864,060 s = 10.000694 days.
    const input: CompletionInput = {
      ...ONE_RATE,
      usefulSeconds: 10 * DAY,
      checkpointWriteSeconds: 60,
      interruptionsPerSecond: 0.2 / (10 * DAY),
    };
    const young = Math.sqrt(2 * 60 * 4.32e6);
    const best = p50OptimalInterval(input, young);
    expect(best?.seconds).toBe(10 * DAY);
    expect(best?.days.p50).toBeCloseTo(10.000694, 6);
  });

  it('nothing to choose without interruptions or when checkpoints cost nothing; the same input gives the same choice', () => {
    expect(p50OptimalInterval({ ...ONE_RATE, interruptionsPerSecond: 0 }, 3600)).toBeNull();
    expect(p50OptimalInterval(ONE_RATE, 3600)).toBeNull();
    const input = { ...ONE_RATE, checkpointWriteSeconds: 30 };
    expect(p50OptimalInterval(input, 2000)).toEqual(p50OptimalInterval(input, 2000));
  });
});

describe('the dates each quarter of the token budget is reached', () => {
  it('without interruptions, quarter q is reached on day q × the whole run, dated from the start', () => {
    // 100.8333 days uninterrupted (100 days of work, 30-s checkpoints an hour): 25.2083, 50.4167, 75.625, 100.8333 days.
    const input = { ...ONE_RATE, interruptionsPerSecond: 0, checkpointWriteSeconds: 30 };
    const whole = simulateCompletion(input).days;
    const m = budgetMilestones(input, '2027-01-04', whole);
    expect(m.map((x) => x.fraction)).toEqual([0.25, 0.5, 0.75, 1]);
    expect(m.map((x) => x.days.p50)).toEqual([0.25, 0.5, 0.75, 1].map((q) => expect.closeTo(q * 100.833333, 5)));
    // 2027-01-04 + 25.2 days = 2027-01-29; + 50.4 = 2027-02-23; + 75.6 = 2027-03-20; + 100.8 = 2027-04-14.
    expect(m.map((x) => x.date?.p50)).toEqual(['2027-01-29', '2027-02-23', '2027-03-20', '2027-04-14']);
    expect(budgetMilestones(input, null, whole)[0]?.date).toBeUndefined();
  });

  it("with interruptions each quarter ends later than its share of the clean run, and the last is the run's end", () => {
    const whole = simulateCompletion(ONE_RATE).days;
    const m = budgetMilestones(ONE_RATE, null, whole);
    expect(m[3]?.days).toEqual(whole);
    for (const x of m) expect(x.days.p50).toBeGreaterThan(x.fraction * 100);
    expect(m[0]!.days.p50).toBeLessThan(m[1]!.days.p50);
  });
});

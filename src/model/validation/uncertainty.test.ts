import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, it, expect } from 'vitest';
import { estimate } from '../estimate.ts';
import { headlineBands, measuredRange, oomAssessment, type ErrorBand } from './uncertainty.ts';
import { uncertaintyTableOf } from './uncertainty-fit.ts';
import { UNCERTAINTY_TABLE } from './uncertainty-table.ts';
import { readValidationCases, validateCase, type ValidationRow } from './validate.ts';

const GIB = 2 ** 30;
/** Under-predicts by up to 20 %, over-predicts by up to 25 %: factors 0.8 and 1.25. */
const BAND: ErrorBand = { lowerError: -0.2, upperError: 0.25, rows: 10 };

describe('measuredRange', () => {
  it('turns signed errors into the range a measurement would fall in', () => {
    // A rate measured as predicted / (1 + e): 100 / 1.25 = 80 and 100 / 0.8 = 125.
    const rate = measuredRange(100, BAND, 'rate');
    expect(rate?.low).toBeCloseTo(80, 12);
    expect(rate?.high).toBeCloseTo(125, 12);
    // A duration ∝ 1 / rate, measured as predicted · (1 + e): 10 · 0.8 = 8 and 10 · 1.25 = 12.5.
    const duration = measuredRange(10, BAND, 'duration');
    expect(duration?.low).toBeCloseTo(8, 12);
    expect(duration?.high).toBeCloseTo(12.5, 12);
  });

  it('has no range when an error reaches −100 % or the value is not finite', () => {
    expect(measuredRange(1, { lowerError: -1, upperError: 0.5, rows: 3 }, 'rate')).toBeNull();
    expect(measuredRange(Number.NaN, BAND, 'duration')).toBeNull();
  });

  it('contains the prediction whenever the band straddles zero error', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-6, max: 1e12, noNaN: true }),
        fc.double({ min: -0.99, max: 0, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.constantFrom('rate' as const, 'duration' as const),
        (value, lowerError, upperError, scaling) => {
          const range = measuredRange(value, { lowerError, upperError, rows: 1 }, scaling);
          expect(range).not.toBeNull();
          expect(range?.low ?? Infinity).toBeLessThanOrEqual(value * (1 + 1e-12));
          expect(range?.high ?? -Infinity).toBeGreaterThanOrEqual(value * (1 - 1e-12));
        },
      ),
    );
  });
});

describe('oomAssessment', () => {
  // Lower error −20 %: a measurement may use 1 / 0.8 = 1.25 × the prediction, so an
  // 80 GiB GPU is at risk from 80 · 0.8 = 64 GiB predicted.
  const capacity = 80 * GIB;

  it('is tight at 95 % of capacity, safe well below, and will not fit above capacity', () => {
    const tight = oomAssessment(0.95 * capacity, capacity, BAND);
    expect(tight.verdict).toBe('tight');
    expect(tight.tightFromBytes).toBeCloseTo(64 * GIB, 0);
    expect(tight.upperBytes).toBeCloseTo(95 * GIB, 0);
    expect(tight.underPredictionMargin).toBeCloseTo(0.25, 12);
    expect(oomAssessment(60 * GIB, capacity, BAND).verdict).toBe('safe');
    expect(oomAssessment(64 * GIB, capacity, BAND).verdict).toBe('safe');
    expect(oomAssessment(64.1 * GIB, capacity, BAND).verdict).toBe('tight');
    expect(oomAssessment(80 * GIB, capacity, BAND).verdict).toBe('tight');
    expect(oomAssessment(80.1 * GIB, capacity, BAND).verdict).toBe('will-not-fit');
  });

  it('keeps a 10 % margin when the band is narrower, even when the engine never under-predicted', () => {
    const overOnly = { lowerError: 0.05, upperError: 0.3, rows: 4 };
    const near = oomAssessment(0.95 * capacity, capacity, overOnly);
    expect(near.verdict).toBe('tight');
    expect(near.marginFromFloor).toBe(true);
    expect(near.tightFromBytes).toBeCloseTo(0.9 * capacity, 0);
    // The band's own margin is none: a measurement at the lower quantile used no more than predicted.
    expect(near.upperBytes).toBeCloseTo(0.95 * capacity, 0);
    expect(oomAssessment(0.89 * capacity, capacity, overOnly).verdict).toBe('safe');
    // A band wider than the margin sets the threshold itself (BAND: −20 % → 80 %).
    expect(oomAssessment(0.85 * capacity, capacity, BAND).marginFromFloor).toBe(false);
  });

  it('with the committed table, flags a configuration at 95 % of capacity as tight', () => {
    expect(oomAssessment(0.95 * capacity, capacity, UNCERTAINTY_TABLE.memory).verdict).toBe('tight');
  });
});

describe('headlineBands', () => {
  it('bands every headline figure of a valid estimate, each around its value', () => {
    const output = estimate({
      version: 1,
      model: { name: 'tiny', layers: 4, hidden: 512, heads: 8, ffnHidden: 2048, vocab: 32000 },
      training: { seqLen: 1024, globalBatch: 16, microBatch: 1 },
      parallel: { tp: 1, pp: 1, dp: 2 },
      cluster: { gpu: 'a100-80gb', gpus: 2 },
    });
    expect(output.errors).toEqual([]);
    // Without ranges of its own (a hand-built output), the table's band.
    const bands = headlineBands(
      { ...output, uncertainty: null },
      { lowerQuantile: 0.05, upperQuantile: 0.95, throughput: BAND, memory: BAND },
    );
    const stepSeconds = output.throughput?.stepSeconds ?? NaN;
    expect(bands.stepSeconds?.low).toBeCloseTo(stepSeconds * 0.8, 12);
    expect(bands.tokensPerSecond?.high).toBeCloseTo((output.throughput?.tokensPerSecond ?? NaN) / 0.8, 6);
    // The band brackets the figure memory.fits judges (what the device holds), not the allocated peak.
    expect(bands.memoryTotal?.low).toBeCloseTo(output.memory.deviceUsed / 1.25, 0);
    expect(output.memory.deviceUsed).toBeGreaterThan(output.memory.perGpu.total);
    expect(Object.keys(bands).sort()).toEqual(['days', 'memoryTotal', 'mfu', 'stepSeconds', 'tokensPerSecond', 'usd']);
  });

  it("uses the estimate's own ranges (its segment's), and days and dollars follow from the tokens/s range", () => {
    const output = estimate({
      version: 1,
      model: { name: 'tiny', layers: 4, hidden: 512, heads: 8, ffnHidden: 2048, vocab: 32000 },
      training: { seqLen: 1024, globalBatch: 16, microBatch: 1 },
      parallel: { tp: 1, pp: 1, dp: 2 },
      cluster: { gpu: 'a100-80gb', gpus: 2 },
    });
    const own = output.uncertainty;
    expect(own).toBeTruthy();
    const bands = headlineBands(output, UNCERTAINTY_TABLE);
    expect(bands.tokensPerSecond?.low).toBeCloseTo(own?.tokensPerSecond.low ?? NaN, 6);
    expect(bands.tokensPerSecond?.high).toBeCloseTo(own?.tokensPerSecond.high ?? NaN, 6);
    expect(bands.memoryTotal?.high).toBeCloseTo(own?.memory.high ?? NaN, 0);
    // Days ∝ 1 / tokens/s: the low end of days is where tokens/s is at its high end.
    const tokens = output.throughput?.tokensPerSecond ?? NaN;
    const days = output.time?.days ?? NaN;
    expect(bands.days?.low).toBeCloseTo((days * tokens) / (own?.tokensPerSecond.high ?? NaN), 9);
    expect(bands.usd?.high).toBeCloseTo(((output.cost?.usd ?? NaN) * tokens) / (own?.tokensPerSecond.low ?? NaN), 3);
  });

  it('gives no band for an invalid configuration', () => {
    expect(headlineBands(estimate({ version: 1 }), UNCERTAINTY_TABLE)).toEqual({});
  });
});

describe('the committed uncertainty table', () => {
  it('equals what the validation set gives (regenerate: npx tsx scripts/uncertainty-table.ts)', () => {
    const file = JSON.parse(readFileSync(new URL('../../../validation/published-runs.json', import.meta.url), 'utf8')) as unknown;
    const rows: ValidationRow[] = readValidationCases(file).flatMap((c) => validateCase(c));
    const fresh = uncertaintyTableOf(rows);
    expect(UNCERTAINTY_TABLE.lowerQuantile).toBe(fresh.lowerQuantile);
    expect(UNCERTAINTY_TABLE.upperQuantile).toBe(fresh.upperQuantile);
    for (const part of ['throughput', 'memory'] as const) {
      expect(UNCERTAINTY_TABLE[part].rows, part).toBe(fresh[part].rows);
      expect(UNCERTAINTY_TABLE[part].lowerError, part).toBeCloseTo(fresh[part].lowerError, 9);
      expect(UNCERTAINTY_TABLE[part].upperError, part).toBeCloseTo(fresh[part].upperError, 9);
    }
  }, 120_000);
});

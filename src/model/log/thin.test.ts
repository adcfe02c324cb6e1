import { describe, expect, it } from 'vitest';
import { readLog, thinSeries } from './test-api.ts';
import { syntheticMegatronLog } from './synthetic.ts';

describe("thinSeries (the page's pictures)", () => {
  const report = readLog(syntheticMegatronLog({ steps: 5000, lossSpikeAt: 3333, stallAt: 4001 }));

  it('keeps at most the points asked, plus the last and every flagged step', () => {
    const thin = thinSeries(report, 100);
    expect(thin.loss.length).toBeLessThanOrEqual(100 + 3);
    expect(thin.loss.some(([s]) => s === 3333)).toBe(true);
    expect(thin.stepSeconds.some(([s]) => s === 4001)).toBe(true);
    expect(thin.loss[thin.loss.length - 1]?.[0]).toBe(5000);
    // In step order, every point one the full series has.
    const full = new Map(report.series.loss.map(([s, v]) => [s, v]));
    expect(thin.loss.every(([s, v], i) => full.get(s) === v && (i === 0 || s > (thin.loss[i - 1]?.[0] ?? 0)))).toBe(true);
  });

  it('a short series is left whole', () => {
    const short = readLog(syntheticMegatronLog({ steps: 50 }));
    expect(thinSeries(short, 100)).toEqual(short.series);
  });
});

// The search ranks days and dollars by the page's own rule (run/plan.ts): on spot capacity
// the preemptions over the run's nodes lower goodput, and the GPUs are paid at the spot price.
import { describe, expect, it } from 'vitest';
import { estimateConfig } from '../estimate.ts';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { Scoring } from './run.ts';

const DOC = {
  version: 1,
  model: { name: 'test', layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 },
  training: { seqLen: 4096, globalBatch: 256, microBatch: 1, tokens: 1e12, recompute: 'selective' },
  parallel: { tp: 2, pp: 1, dp: 32, zero: 1 },
  cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 64 },
  // $3 on demand, $1.2 on spot; each of the 8 nodes taken back twice a day.
  cost: { usdPerGpuHour: 3, capacity: 'spot', spotUsdPerGpuHour: 1.2, preemptionsPerNodeDay: 2 },
};

function config(doc: unknown): RunConfig {
  const parsed = parseDocument(doc);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('the search scores days and dollars as the page shows them', () => {
  for (const [name, doc] of [
    ['spot', DOC],
    ['on-demand', { ...DOC, cost: { usdPerGpuHour: 3 } }],
  ] as const) {
    it(`${name}: the scoring's wall time and dollars at the engine's step time are the estimate's time.days and cost.usd`, () => {
      const c = config(doc);
      const out = estimateConfig(c);
      if (!out.throughput || !out.time || !out.cost) throw new Error(out.errors.join('; '));
      const scoring = new Scoring(c, 'usd', 80 * 2 ** 30, Infinity, Infinity);
      expect(scoring.wallSeconds(out.throughput.stepSeconds, 64) / 86_400).toBeCloseTo(out.time.days, 9);
      expect(scoring.usd(out.throughput.stepSeconds, 64) / out.cost.usd).toBeCloseTo(1, 12);
    });
  }

  it('spot: 16 preemptions a day over 8 nodes lengthen the run over on-demand, and the dollars are at $1.2, not $3', () => {
    const spot = new Scoring(config(DOC), 'usd', 80 * 2 ** 30, Infinity, Infinity);
    const onDemand = new Scoring(config({ ...DOC, cost: { usdPerGpuHour: 3 } }), 'usd', 80 * 2 ** 30, Infinity, Infinity);
    const step = 1;
    expect(spot.wallSeconds(step, 64)).toBeGreaterThan(onDemand.wallSeconds(step, 64));
    // Dollars per wall second: 64 GPUs × $1.2 / 3,600 s against 64 × $3 / 3,600.
    expect(spot.usd(step, 64) / spot.wallSeconds(step, 64)).toBeCloseTo((64 * 1.2) / 3600, 12);
    expect(onDemand.usd(step, 64) / onDemand.wallSeconds(step, 64)).toBeCloseTo((64 * 3) / 3600, 12);
  });
});

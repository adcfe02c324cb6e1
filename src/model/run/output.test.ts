// The run wing's figures as estimate() returns them: identities between them.
import { describe, expect, it } from 'vitest';
import { estimate, estimateConfig } from '../estimate.ts';
import { GiB, parseDocument } from '../input/index.ts';
import { elasticPlan, memoryShortfall, reducedRun } from './run-completion.ts';

// Llama-3-8B-like dense model on one 8-GPU H100 node at $2.5 per GPU-hour.
const DOC = {
  version: 1,
  model: { name: 'test', layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 },
  training: { seqLen: 4096, globalBatch: 64, microBatch: 1, tokens: 1e11, recompute: 'selective' },
  parallel: { tp: 2, pp: 2, dp: 2, zero: 1 },
  cluster: { gpu: 'h100-sxm' },
  cost: { usdPerGpuHour: 2.5 },
};

describe('the figures a schedule is planned with', () => {
  it('tokensPerDay × days is the token budget; usdPerMillionTokens × millions of tokens is the dollars', () => {
    const out = estimate(DOC);
    expect(out.errors).toEqual([]);
    if (!out.time || !out.cost) throw new Error('no time or cost');
    expect(out.time.tokensPerDay * out.time.days).toBeCloseTo(1e11, -3);
    // 1e11 tokens = 1e5 million tokens.
    expect(out.cost.usdPerMillionTokens * 1e5).toBeCloseTo(out.cost.usd, 3);
  });
});

// Llama 3 405B as Meta trained it (arXiv 2407.21783, section 3.3 and table 4): 16,384 H100s,
// tp 8, pp 16, dp 128, 8,192-token sequences, 16M-token batches (2,048 sequences).
const LLAMA3_405B = {
  version: 1,
  model: { name: 'Llama 3 405B', layers: 126, hidden: 16384, heads: 128, kvHeads: 8, ffnHidden: 53248, ffnType: 'swiglu', vocab: 128256 },
  training: { seqLen: 8192, globalBatch: 2048, microBatch: 1, tokens: 1e12, precision: 'bf16', recompute: 'selective' },
  parallel: { tp: 8, pp: 16, dp: 128, zero: 1 },
  cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 16_384 },
};

function reliability(doc: unknown) {
  const out = estimate(doc);
  expect(out.errors).toEqual([]);
  if (!out.time || !out.cost || !out.reliability?.completion) throw new Error('no completion');
  return { time: out.time, cost: out.cost, reliability: out.reliability, completion: out.reliability.completion };
}

describe('expected interruptions and the completion distribution', () => {
  it('Llama 3 405B on 16,384 H100 for 54 days: within 35 % of the 419 interruptions the paper reports (section 3.3.4)', () => {
    // Scale the token budget so the engine's run lasts 54 days, as the paper's snapshot did.
    const first = reliability(LLAMA3_405B);
    const tokens = 1e12 * (54 / first.time.days);
    const r = reliability({ ...LLAMA3_405B, training: { ...LLAMA3_405B.training, tokens } });
    expect(r.time.days).toBeCloseTo(54, 6);
    // The default failure rate, 1 per 50,000 GPU-hours (document.ts, from the same paper):
    // 16,384 × 54 × 24 / 50,000 = 424.7.
    expect(r.reliability.expectedInterruptions).toBeCloseTo(424.7, 0);
    expect(Math.abs(r.reliability.expectedInterruptions / 419 - 1)).toBeLessThan(0.35);
    expect(Math.abs((r.completion.meanInterruptions ?? 0) / 419 - 1)).toBeLessThan(0.35);
  });

  it('without interruptions the three percentiles coincide with time.days', () => {
    // A per-GPU MTBF of 1e12 h: 8 GPUs fail once in 1.25e11 h; no run of a few days meets one.
    const r = reliability({ ...DOC, cost: { ...DOC.cost, gpuMtbfHours: 1e12 } });
    expect(r.reliability.expectedInterruptions).toBeLessThan(1e-6);
    expect(r.completion.days.p10).toBe(r.completion.days.p50);
    expect(r.completion.days.p90).toBe(r.completion.days.p50);
    expect(r.completion.days.p50 / r.time.days).toBeCloseTo(1, 6);
    expect(r.completion.usd.p50 / r.cost.usd).toBeCloseTo(1, 6);
  });

  it('the same document gives the same figures', () => {
    expect(reliability(LLAMA3_405B).completion).toEqual(reliability(LLAMA3_405B).completion);
  });

  it('spot pricing: dollars at the spot price, and the on-demand answer beside it at its own price', () => {
    // 8 GPUs at $3 on demand and $1.2 on spot, nodes of 8 taken back 0.5 times a day.
    const spot = reliability({ ...DOC, cost: { usdPerGpuHour: 3, capacity: 'spot', spotUsdPerGpuHour: 1.2, preemptionsPerNodeDay: 0.5 } });
    const onDemand = reliability({ ...DOC, cost: { usdPerGpuHour: 3 } });
    // usd = GPU-hours × price: 8 GPUs × 24 h a day × days × $1.2.
    expect(spot.cost.usd).toBeCloseTo(spot.time.gpuHours * 1.2, 6);
    expect(spot.completion.usd.p50).toBeCloseTo(spot.completion.days.p50 * 24 * 8 * 1.2, 6);
    const beside = spot.completion.onDemand;
    if (!beside) throw new Error('no on-demand answer beside spot');
    expect(beside.days).toEqual(onDemand.completion.days);
    expect(beside.usd.p50).toBeCloseTo(beside.days.p50 * 24 * 8 * 3, 6);
    // Preemptions at 0.5 a node-day on 1 node: the spot run meets more interruptions and ends later, for less.
    expect(spot.reliability.expectedInterruptions).toBeGreaterThan(onDemand.reliability.expectedInterruptions);
    expect(spot.completion.days.p50).toBeGreaterThan(beside.days.p50);
    expect(spot.completion.usd.p50).toBeLessThan(beside.usd.p50);
    expect(spot.cost.usdPerMillionTokens / onDemand.cost.usdPerMillionTokens).toBeLessThan((1.2 / 3) * 1.1);
  });

  it('dated ends from cost.startDate, in order', () => {
    const r = reliability({ ...DOC, cost: { ...DOC.cost, capacity: 'spot', preemptionsPerNodeDay: 2, startDate: '2027-01-04' } });
    const end = r.completion.endDate;
    if (!end) throw new Error('no end date');
    expect(end.p10 <= end.p50 && end.p50 <= end.p90).toBe(true);
    expect(end.p10 >= '2027-01-04').toBe(true);
  });

  it('elastic: carrying on at reduced data parallel ends no later than waiting', () => {
    const cost = { ...DOC.cost, capacity: 'spot', preemptionsPerNodeDay: 2, restartMinutes: 120 };
    const doc = { ...DOC, parallel: { tp: 2, pp: 1, dp: 16 }, cluster: { gpu: 'h100-sxm', gpusPerNode: 8 } };
    const waiting = reliability({ ...doc, cost });
    const elastic = reliability({ ...doc, cost: { ...cost, elastic: true } });
    expect(elastic.completion.basis).toContain('data parallel 12 of 16');
    expect(elastic.completion.days.p50).toBeLessThan(waiting.completion.days.p50);
    // The effect shown beside it: the same runs waiting instead are the waiting document's own figures.
    expect(elastic.completion.waiting?.days).toEqual(waiting.completion.days);
    expect(waiting.completion.waiting).toBeUndefined();
  });

  it('elastic: a reduced degree that would not fit in memory waits for the node instead, and says so', () => {
    // ZeRO-3 over dp 16 (tp 1): a lost 8-GPU node takes 8 replicas, dp 8 holds twice the sharded states per GPU
    // (16 B/param × 8.03e9 / 8 = 16.1 GB against 8.0 GB). A GPU with 2 GiB more than the full run needs holds
    // the full run and not the reduced one.
    const doc = { ...DOC, parallel: { tp: 1, pp: 1, dp: 16, zero: 3 }, cluster: { gpu: 'h100-sxm', gpusPerNode: 8 } };
    const parsed = parseDocument(doc);
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const full = estimateConfig(parsed.config);
    const memoryGiB = full.memory.deviceUsed / GiB + 2;
    const config = { ...parsed.config, cluster: { ...parsed.config.cluster, gpu: { ...parsed.config.cluster.gpu, memoryGiB } } };
    expect(memoryShortfall(config)).toBeNull();
    const reduced = memoryShortfall(reducedRun(config, 8));
    expect(reduced?.where).toBe('device');
    expect((reduced?.needBytes ?? 0) - full.memory.deviceUsed).toBeGreaterThan(7e9);
    const cost = { ...config.cost, capacity: 'spot' as const, preemptionsPerNodeDay: 2, elastic: true };
    const plan = elasticPlan({ ...config, cost }, full.throughput?.stepSeconds ?? 1);
    expect(plan).toMatchObject({ dp: 8, rate: 0 });
    const out = estimateConfig({ ...config, cost }, [], { completion: true });
    expect(out.reliability?.completion?.basis).toMatch(
      /elastic, but data parallel 8 of 16 would need [\d.]+ GiB of GPU memory per GPU, more than the [\d.]+ GiB there, so the run waits for the node/,
    );
    expect(out.reliability?.completion?.waiting).toBeUndefined();
    expect(out.warnings).toContainEqual(
      expect.stringMatching(
        /^cost\.elastic: data parallel 8 of 16 would need [\d.]+ GiB of GPU memory per GPU, more than the [\d.]+ GiB there, so the run waits/,
      ),
    );
  });

  it('the checkpoint interval chosen against the distribution, and the dated quarters of the token budget', () => {
    const r = reliability({ ...DOC, cost: { ...DOC.cost, capacity: 'spot', preemptionsPerNodeDay: 2, startDate: '2027-01-04' } });
    const best = r.completion.p50OptimalInterval;
    if (!best) throw new Error('no interval chosen');
    // Never a later median end than Young/Daly's interval, which the run uses.
    expect(best.days.p50).toBeLessThanOrEqual(r.completion.days.p50);
    expect(best.minutes).toBeGreaterThan(0);
    const quarters = r.completion.milestones ?? [];
    expect(quarters.map((q) => q.fraction)).toEqual([0.25, 0.5, 0.75, 1]);
    expect(quarters[3]?.date).toEqual(r.completion.endDate);
    expect(quarters.every((q, i) => i === 0 || (q.date?.p50 ?? '') >= (quarters[i - 1]?.date?.p50 ?? ''))).toBe(true);
  });
});

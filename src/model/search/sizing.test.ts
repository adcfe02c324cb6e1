import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { searchDocument, type SearchDocumentResult } from './document.ts';
import { searchBase, searchRunDocument } from '../../testing/search-fixtures.ts';
import { layerTimePieces, layoutConfig } from './pieces.ts';
import { readSearchBlock } from './search-block.ts';
import { allowedGpuCounts } from './sizing.ts';
import { runToEnd, searchLaneSteps } from './search.ts';
import { LayoutSpace } from './space.ts';
import type { LayoutChoice } from './types.ts';
import { estimateConfig } from '../estimate.ts';
import { checkConsistency, divisors, RECOMPUTES, SCHEDULES, type RunConfig, type ZeroStage } from '../input/index.ts';
import type { ModelJson } from '../input/index.ts';

// Issue 15, item 2: cluster sizing. Which GPU, how many, and which layout trains the token
// budget within the days (or dollars) at the least cost (or soonest).

const GPT3_DOC = searchRunDocument({ model: 'gpt3-175b', gpu: 'a100-80gb', gpus: 1024, globalBatch: 1536, seqLen: 2048 });
const { gpus: _gpus, ...GPT3_CLUSTER } = GPT3_DOC.cluster as Record<string, unknown>;

describe('the search block', () => {
  it("reads every field, the spec's objective names included", () => {
    const read = readSearchBlock({
      search: {
        objective: 'headroom',
        gpuTypes: ['h100-sxm', 'h200'],
        minGpus: 256,
        maxGpus: 2048,
        maxDays: 60,
        maxUsd: 5e6,
        memoryMargin: 0.15,
        evenLayers: false,
      },
    });
    expect(read.errors).toEqual([]);
    expect(read.options).toEqual({
      objective: 'memoryHeadroom',
      gpuTypes: ['h100-sxm', 'h200'],
      gpuRange: { min: 256, max: 2048 },
      maxDays: 60,
      maxUsd: 5e6,
      memoryMargin: 0.15,
      evenLayerSplit: false,
    });
    expect(readSearchBlock({}).options).toEqual({});
  });

  it('names the field of every bad value, and a search with a bad block answers with those errors', () => {
    const errors = readSearchBlock({
      search: {
        objective: 'cheapest',
        gpuTypes: ['h100-sxm', 'tpu-v5'],
        minGpus: 512,
        maxGpus: 256,
        memoryMargin: 1.5,
        evenLayers: 'yes',
        maxDays: -1,
      },
    }).errors;
    expect(errors).toContain('search.objective: must be one of "tokensPerSecond", "days", "usd", "headroom", got "cheapest"');
    expect(errors.some((e) => e.startsWith('search.gpuTypes[1]: unknown GPU preset "tpu-v5"; known: v100-32gb'))).toBe(true);
    expect(errors).toContain('search.minGpus: 512 is more than search.maxGpus = 256');
    expect(errors.some((e) => e.startsWith('search.memoryMargin:'))).toBe(true);
    expect(errors.some((e) => e.startsWith('search.evenLayers: must be true or false'))).toBe(true);
    expect(errors.some((e) => e.startsWith('search.maxDays: must be above 0'))).toBe(true);
    expect(readSearchBlock({ search: { minGpus: 8 } }).errors).toEqual([
      'search.maxGpus: is required with search.minGpus: the largest cluster to consider',
    ]);
    expect(readSearchBlock({ search: [] }).errors).toEqual(['search: must be an object']);
    expect(readSearchBlock({ search: { gpuTypes: 'h100-sxm' } }).errors[0]).toMatch(/^search\.gpuTypes: must be a list/);
    const out = searchDocument({ ...GPT3_DOC, search: { objective: 'cheapest' } });
    expect(out.results).toEqual([]);
    expect(out.errors[0]).toMatch(/^search\.objective:/);
  });
});

describe('a range too wide for one search', () => {
  it('is refused with a message naming what to narrow, not run for minutes', () => {
    const out = searchDocument({
      ...GPT3_DOC,
      cluster: GPT3_CLUSTER,
      search: { gpuTypes: ['a100-80gb', 'h100-sxm', 'h200'], minGpus: 1, maxGpus: 1_000_000, evenLayers: false },
    });
    expect(out.results).toEqual([]);
    expect(out.errors[0]).toMatch(
      /^search: [\d,]+ pairs of GPU type and cluster size are more than one search covers \(2,000\); narrow the GPU range or the GPU types$/,
    );
  });
});

describe('the search block never throws', () => {
  it('on 2,000 random blocks, every error names a search field', () => {
    const value = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.double(),
      fc.integer({ min: -10, max: 5000 }),
      fc.string(),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.array(fc.constantFrom('a100-80gb', 'h100-sxm', 'h200', '__proto__', ''), { maxLength: 4 }),
      fc.dictionary(fc.string(), fc.integer()),
    );
    const block = fc.oneof(
      value,
      fc.record(
        {
          objective: value,
          gpuTypes: value,
          minGpus: value,
          maxGpus: value,
          maxDays: value,
          maxUsd: value,
          memoryMargin: value,
          evenLayers: value,
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(block, (b) => {
        const read = readSearchBlock({ search: b });
        for (const e of read.errors) expect(e).toMatch(/^search(\.|\[|:)/);
        if (read.options.gpuRange) expect(read.options.gpuRange.min).toBeLessThanOrEqual(read.options.gpuRange.max);
      }),
      { numRuns: 2000, seed: 15 },
    );
  });
});

describe('the GPU counts the layout rules allow', () => {
  it('GPT-3 175B (96 heads, 96 layers, batch 1,536, sequence 2,048), 256–4,096 GPUs, even splits: 2^a · 3^b with b ≤ 3', () => {
    // tp | 96 = 2^5·3, pp | 96, dp | 1,536 = 2^9·3, cp | 1,024 (2·cp must divide the sequence): each of tp, pp, dp
    // brings at most one factor 3, cp none. Whole 8-GPU nodes. So 2^a, 3·2^a, 9·2^a, 27·2^a in range.
    const base = searchBase({ model: 'gpt3-175b', gpu: 'a100-80gb', gpus: 1024, globalBatch: 1536, seqLen: 2048 });
    expect(allowedGpuCounts(base, { evenLayerSplit: true }, { min: 256, max: 4096 })).toEqual([
      256, 288, 384, 432, 512, 576, 768, 864, 1024, 1152, 1536, 1728, 2048, 2304, 3072, 3456, 4096,
    ]);
    // Below one node any count is a candidate; tensor parallelism pinned to 8 needs multiples of 8.
    expect(allowedGpuCounts(base, { evenLayerSplit: true }, { min: 1, max: 7 })).toEqual([1, 2, 3, 4, 6]);
    expect(allowedGpuCounts(base, { evenLayerSplit: true, fixed: { tp: 8 } }, { min: 1, max: 40 })).toEqual([8, 16, 24, 32]);
  });

  it("a layer's time pieces are the same on every cluster size beyond one node, so one cache serves them all", () => {
    const base = searchBase({ model: 'llama3-70b', gpu: 'h100-sxm', gpus: 64, globalBatch: 512, seqLen: 8192 });
    const space = new LayoutSpace(base, {});
    const at = (gpus: number) =>
      space
        .groupsFor(gpus)
        .filter((g) => g.tp === 8 && g.cp === 2 && g.microBatch === 1 && g.recompute === 'selective' && g.sequenceParallel);
    const [small, large] = [at(64)[0], at(1024)[0]];
    expect(small && large).toBeTruthy();
    if (!small || !large) return;
    expect(small.timeSlot).toBe(large.timeSlot);
    expect(layerTimePieces(base, small)).toEqual(layerTimePieces(base, large));
    // One node is another regime: groups never cross nodes there (comm.ts groupSpansNodes).
    const oneNode = space.groupsFor(8).find((g) => g.tp === 8 && g.cp === 1);
    const manyNodes = space
      .groupsFor(64)
      .find(
        (g) =>
          g.tp === 8 &&
          g.cp === 1 &&
          g.microBatch === oneNode?.microBatch &&
          g.recompute === oneNode?.recompute &&
          g.sequenceParallel === oneNode?.sequenceParallel,
      );
    expect(oneNode?.timeSlot).not.toBe(manyNodes?.timeSlot);
    expect(oneNode?.activationSlot).toBe(manyNodes?.activationSlot);
  });
});

describe('cluster sizing', () => {
  it('GPT-3 175B on A100 80GB, H100 SXM or H200, 256–2,048 GPUs, within 60 days at least cost: every result within the ranges, cheapest first', () => {
    const types = ['a100-80gb', 'h100-sxm', 'h200'];
    const out = searchDocument(
      { ...GPT3_DOC, cluster: GPT3_CLUSTER, search: { objective: 'usd', gpuTypes: types, minGpus: 256, maxGpus: 2048, maxDays: 60 } },
      { topK: 8, variants: 1 },
    );
    expect(out.errors).toEqual([]);
    expect(out.results.length).toBe(8);
    for (const r of out.results) {
      expect(types).toContain(r.cluster.gpu);
      expect(r.cluster.gpus).toBeGreaterThanOrEqual(256);
      expect(r.cluster.gpus).toBeLessThanOrEqual(2048);
      expect(r.cluster.gpus % 8).toBe(0);
      expect(r.output.errors).toEqual([]);
      expect(r.output.time?.days ?? Infinity).toBeLessThanOrEqual(60);
      expect(r.output.memory.perGpu.total).toBeLessThanOrEqual(0.9 * r.output.memory.capacity);
    }
    const costs = out.results.map((r) => r.output.cost?.usd ?? Infinity);
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
    expect(out.sizing).toEqual({ gpuTypes: types, gpuRange: { min: 256, max: 2048 } });
    // Each GPU type has a cost-against-days curve: one point per cluster size in range (its soonest layout), soonest first.
    expect(out.costFronts.map((f) => f.gpu)).toEqual(types);
    for (const f of out.costFronts) {
      expect(f.points.length).toBeGreaterThan(3);
      expect(new Set(f.points.map((p) => p.gpus)).size).toBe(f.points.length);
      for (const p of f.points) expect(p.gpus >= 256 && p.gpus <= 2048 && Number.isFinite(p.usd)).toBe(true);
      const days = f.points.map((p) => p.days);
      expect(days).toEqual([...days].sort((a, b) => a - b));
    }
    expect(out.pareto).toEqual([]);
  });
});

// A small space searched by brute force through the engine's own estimate: every GPU type,
// every GPU count of the range (whole 8-GPU nodes from 8 up), every layout the engine's
// consistency rules accept with an even layer split, kept when it needs at most 90 % of
// memory and meets the budget; the cheapest (then the soonest) must be the search's first result.
const TINY: ModelJson = {
  name: 'tiny',
  layers: 4,
  hidden: 1024,
  heads: 8,
  kvHeads: 8,
  ffnHidden: 4096,
  ffnType: 'gelu',
  vocab: 32000,
  tiedEmbeddings: false,
  moe: null,
  mla: null,
  mtpLayers: 0,
};

interface Candidate {
  readonly gpu: string;
  readonly choice: LayoutChoice;
  readonly days: number;
  readonly usd: number;
  readonly memoryBytes: number;
}

/** Every layout of the small space that the engine accepts, with an even split and at most 90 % of memory, with its days and dollars. */
function bruteForce(bases: readonly RunConfig[], counts: readonly number[]): Candidate[] {
  const found: Candidate[] = [];
  for (const base of bases) {
    const m = base.model;
    for (const gpus of counts) {
      for (const tp of divisors(gpus))
        for (const cp of divisors(gpus / tp))
          for (const pp of divisors(gpus / (tp * cp))) {
            const dp = gpus / (tp * cp * pp);
            for (const schedule of SCHEDULES)
              for (let vpp = 1; pp * vpp <= m.layers + 2; vpp++) {
                // The even split: pp × vpp chunks (DualPipe: pp devices hold 2 chunks each, split as pp stages).
                if (m.layers % (schedule === 'dualpipe' ? pp : pp * vpp) !== 0) continue;
                for (const microBatch of divisors(base.training.globalBatch))
                  for (const recompute of RECOMPUTES)
                    for (const sequenceParallel of [false, true])
                      for (const zero of [0, 1, 2, 3] as ZeroStage[]) {
                        const choice: LayoutChoice = {
                          gpus,
                          parallel: { tp, pp, dp, cp, ep: 1, vpp, sequenceParallel, zero, schedule },
                          microBatch,
                          recompute,
                          offload: { optimizer: false, parameters: false },
                        };
                        const c = layoutConfig(base, choice);
                        if (checkConsistency(c).errors.length > 0) continue;
                        // The search's rule for interleaving: at least pp micro-batches per step (types.ts interleaveWithFullPipeline).
                        if (schedule === 'interleaved-1f1b' && base.training.globalBatch / (microBatch * dp) < pp) continue;
                        const out = estimateConfig(c);
                        if (out.errors.length > 0 || out.memory.perGpu.total > 0.9 * out.memory.capacity) continue;
                        found.push({
                          gpu: base.cluster.gpuId ?? '',
                          choice,
                          days: out.time?.days ?? Infinity,
                          usd: out.cost?.usd ?? Infinity,
                          memoryBytes: out.memory.perGpu.total,
                        });
                      }
              }
          }
    }
  }
  return found;
}

/** The best candidate by `score` among those `within` the limits; ties as the search breaks them (rank.ts): sooner, then less memory. */
function bestOf(
  candidates: readonly Candidate[],
  score: (c: Candidate) => number,
  within: (c: Candidate) => boolean,
): Candidate | undefined {
  const better = (c: Candidate, best: Candidate) =>
    score(c) > score(best) ||
    (score(c) === score(best) && (c.days < best.days || (c.days === best.days && c.memoryBytes < best.memoryBytes)));
  return candidates.filter(within).reduce<Candidate | undefined>((best, c) => (!best || better(c, best) ? c : best), undefined);
}

describe('cluster sizing finds what brute force finds', () => {
  const doc = {
    ...searchRunDocument({ model: TINY, gpu: 'a100-80gb', gpus: 8, globalBatch: 8, seqLen: 2048, training: { tokens: 2e10 } }),
  };
  const { gpus: _n, ...cluster } = doc.cluster as Record<string, unknown>;
  const types = ['a100-80gb', 'h100-sxm'];
  const bases = types.map((gpu) => searchBase({ model: TINY, gpu, gpus: 8, globalBatch: 8, seqLen: 2048, training: { tokens: 2e10 } }));
  const counts = [1, 2, 3, 4, 5, 6, 7, 8, 16];
  const candidates = bruteForce(bases, counts);
  const expectFound = (got: SearchDocumentResult | undefined, expected: Candidate | undefined) => {
    expect(expected).toBeDefined();
    expect(got?.cluster).toEqual({ gpu: expected?.gpu, gpus: expected?.choice.gpus });
    expect(got?.parallel).toEqual(expected?.choice.parallel);
    expect([got?.training.microBatch, got?.training.recompute]).toEqual([expected?.choice.microBatch, expected?.choice.recompute]);
  };

  it('least cost within a day limit', () => {
    const cheapest = bestOf(
      candidates,
      (c) => -c.usd,
      () => true,
    );
    // A limit that the cheapest run misses, so that the answer is a trade.
    const maxDays = (cheapest?.days ?? 0) * 0.6;
    const expected = bestOf(
      candidates,
      (c) => -c.usd,
      (c) => c.days <= maxDays,
    );
    const out = searchDocument(
      { ...doc, cluster, search: { objective: 'usd', gpuTypes: types, minGpus: 1, maxGpus: 16, maxDays } },
      { topK: 5 },
    );
    expect(out.errors).toEqual([]);
    expectFound(out.results[0], expected);
  });

  it('soonest within a dollar limit', () => {
    const soonest = bestOf(
      candidates,
      (c) => -c.days,
      () => true,
    );
    const maxUsd = (soonest?.usd ?? 0) * 0.8;
    const expected = bestOf(
      candidates,
      (c) => -c.days,
      (c) => c.usd <= maxUsd,
    );
    const out = searchDocument(
      { ...doc, cluster, search: { objective: 'days', gpuTypes: types, minGpus: 1, maxGpus: 16, maxUsd } },
      { topK: 5 },
    );
    expect(out.errors).toEqual([]);
    expectFound(out.results[0], expected);
  });
});

describe('sizing prunes soundly', () => {
  it("over two GPU types and 1–32 GPUs the pruned search returns the exhaustive one's top K and size curve, for each objective", () => {
    const lanes = ['a100-40gb', 'h100-sxm'].map((gpu) => ({
      gpuId: gpu,
      base: searchBase({ model: TINY, gpu, gpus: 8, globalBatch: 16, seqLen: 4096, training: { tokens: 2e10 } }),
    }));
    const id = (l: { gpuId?: string; gpus: number; parallel: object; microBatch: number; recompute: string }) =>
      JSON.stringify([l.gpuId, l.gpus, l.parallel, l.microBatch, l.recompute]);
    for (const objective of ['usd', 'days', 'tokensPerSecond', 'memoryHeadroom'] as const) {
      const options = { objective, topK: 4, gpuRange: { min: 1, max: 32 }, memoryMargin: 0.1, progressEvery: 5000 };
      const fast = runToEnd(searchLaneSteps(lanes, options));
      const full = runToEnd(searchLaneSteps(lanes, { ...options, exhaustive: true }));
      // Bounds held for only some blocks (the rest computed again when visited): the same answer.
      const lean = runToEnd(searchLaneSteps(lanes, { ...options, keptBounds: 300 }));
      expect(fast.top.map(id)).toEqual(full.top.map(id));
      expect(fast.pareto.map(id)).toEqual(full.pareto.map(id));
      expect(lean.top.map(id)).toEqual(full.top.map(id));
      expect(lean.pareto.map(id)).toEqual(full.pareto.map(id));
      expect(fast.counts.layouts).toBe(full.counts.layouts);
      expect(fast.counts.evaluated + fast.counts.memoryOnly + fast.counts.pruned).toBe(fast.counts.layouts);
      expect(fast.counts.pruned).toBeGreaterThan(0);
    }
  });
});

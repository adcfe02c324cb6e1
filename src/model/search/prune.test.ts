import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { searchLayouts } from './search.ts';
import { searchBase } from '../../testing/search-fixtures.ts';
import type { ScoredLayout, SearchObjective, SearchOptions } from './types.ts';
import type { ModelJson } from '../input/index.ts';
import { GiB } from '../input/index.ts';

// How we know the pruning is sound: the pruned search skips a group or a pipeline shape
// only when lower bounds on its step time and memory prove that none of its layouts can
// fit, meet the budget, enter the top K or reach the Pareto front. If a bound were ever
// too high (not a lower bound), some space would lose a layout that belongs in the
// answer. So on random small spaces, with random objectives, K, memory limits (tight
// ones too, so that memory pruning happens), budgets and pinned degrees, the pruned
// search must return exactly the exhaustive search's top K, in order, and exactly its
// Pareto front. Ties are broken by a canonical key, so the order of visiting cannot matter.

const identity = (l: ScoredLayout) => JSON.stringify([l.gpus, l.parallel, l.microBatch, l.recompute, l.offload]);

const smallModel = fc.record({
  layers: fc.integer({ min: 1, max: 10 }),
  headsLog: fc.integer({ min: 0, max: 4 }),
  kvLog: fc.integer({ min: 0, max: 4 }),
  headDim: fc.constantFrom(32, 64, 128),
  ffnMultiple: fc.integer({ min: 1, max: 4 }),
  vocab: fc.integer({ min: 100, max: 60000 }),
  tied: fc.boolean(),
  moe: fc.option(
    fc.record({ expertsLog: fc.integer({ min: 1, max: 3 }), topK: fc.integer({ min: 1, max: 2 }), dense: fc.integer({ min: 0, max: 1 }) }),
    { freq: 3 },
  ),
});

const space = fc.record({
  model: smallModel,
  gpus: fc.integer({ min: 1, max: 24 }),
  gpu: fc.constantFrom('a100-80gb', 'h100-sxm', 'v100-32gb'),
  batch: fc.constantFrom(1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48),
  seqLog: fc.integer({ min: 8, max: 13 }),
  objective: fc.constantFrom<SearchObjective>('tokensPerSecond', 'days', 'usd', 'memoryHeadroom'),
  topK: fc.integer({ min: 1, max: 8 }),
  /** Memory limit as a share of the GPU's: small shares leave few layouts that fit. */
  memoryShare: fc.option(fc.double({ min: 0.005, max: 1, noNaN: true }), { freq: 2 }),
  searchOffload: fc.boolean(),
  pareto: fc.boolean(),
  tpWithinNode: fc.boolean(),
  fixedZero: fc.option(fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>, { freq: 4 }),
  budgetShare: fc.option(fc.double({ min: 0.5, max: 20, noNaN: true }), { freq: 4 }),
  /** Also search a cluster twice the size. */
  twoSizes: fc.boolean(),
  /** Issue 15's defaults (even splits, interleaving with a full pipeline, layouts grouped), each switched off at random. */
  evenLayerSplit: fc.boolean(),
  interleaveWithFullPipeline: fc.boolean(),
  groupByLayout: fc.boolean(),
  memoryMargin: fc.constantFrom(0, 0.1, 0.3),
  /** A fine-tune (training.adapter): its bounds hold the frozen base apart from the adapters' states (evaluate.ts). */
  adapter: fc.option(
    fc.record({
      method: fc.constantFrom('lora', 'qlora'),
      rank: fc.integer({ min: 1, max: 64 }),
      modules: fc.subarray(['q', 'k', 'v', 'o', 'gate', 'up', 'down'], { minLength: 1 }),
    }),
    { freq: 3 },
  ),
});

type Space = typeof space extends fc.Arbitrary<infer T> ? T : never;

function setUp(s: Space) {
  const heads = 2 ** s.model.headsLog;
  const hidden = heads * s.model.headDim;
  const model: ModelJson = {
    name: 'random',
    layers: s.model.layers,
    hidden,
    heads,
    kvHeads: 2 ** Math.min(s.model.kvLog, s.model.headsLog),
    ffnHidden: hidden * s.model.ffnMultiple,
    ffnType: 'swiglu',
    vocab: s.model.vocab,
    tiedEmbeddings: s.model.tied,
    moe: s.model.moe
      ? {
          experts: 2 ** s.model.moe.expertsLog,
          topK: Math.min(s.model.moe.topK, 2 ** s.model.moe.expertsLog),
          expertFfnHidden: hidden,
          sharedExperts: 0,
          denseLayers: Math.min(s.model.moe.dense, s.model.layers),
        }
      : null,
    mla: null,
    mtpLayers: 0,
  };
  const training = s.adapter ? { adapter: s.adapter } : {};
  const base = searchBase({ model, gpu: s.gpu, gpus: s.gpus, globalBatch: s.batch, seqLen: 2 ** s.seqLog, training });
  const options: SearchOptions = {
    objective: s.objective,
    topK: s.topK,
    pareto: s.pareto,
    searchOffload: s.searchOffload,
    tpWithinNode: s.tpWithinNode,
    gpuCounts: s.twoSizes ? [s.gpus, 2 * s.gpus] : [s.gpus],
    evenLayerSplit: s.evenLayerSplit,
    interleaveWithFullPipeline: s.interleaveWithFullPipeline,
    groupByLayout: s.groupByLayout,
    memoryMargin: s.memoryMargin,
    ...(s.memoryShare !== null ? { memoryCapacityBytes: s.memoryShare * base.cluster.gpu.memoryGiB * GiB } : {}),
    ...(s.fixedZero !== null ? { fixed: { zero: s.fixedZero } } : {}),
  };
  return { base, options };
}

describe('pruning is sound', () => {
  it("the pruned search returns the exhaustive search's top K and Pareto front on 60 random small spaces", () => {
    let pruned = 0;
    let layouts = 0;
    fc.assert(
      fc.property(space, (s) => {
        const { base, options } = setUp(s);
        const exhaustive = searchLayouts(base, { ...options, exhaustive: true });
        // A budget between the best and the worst cost found, so that it binds.
        const costs = exhaustive.top.map((l) => l.stepSeconds);
        const budgeted: SearchOptions =
          s.budgetShare !== null && costs.length > 0
            ? { ...options, maxDays: (Math.min(...costs) * s.budgetShare * 3e11) / (s.batch * 2 ** s.seqLog) / 86_400 }
            : options;
        const reference = budgeted === options ? exhaustive : searchLayouts(base, { ...budgeted, exhaustive: true });
        const fast = searchLayouts(base, budgeted);
        expect(fast.top.map(identity)).toEqual(reference.top.map(identity));
        expect(fast.pareto.map(identity)).toEqual(reference.pareto.map(identity));
        expect(fast.counts.layouts).toBe(reference.counts.layouts);
        expect(fast.counts.evaluated + fast.counts.memoryOnly + fast.counts.pruned).toBe(fast.counts.layouts);
        pruned += fast.counts.pruned;
        layouts += fast.counts.layouts;
      }),
      { numRuns: 60 },
    );
    // The comparison means something only if pruning happened.
    expect(pruned).toBeGreaterThan(0.2 * layouts);
  });

  it('prunes most of a large space: GPT-3 175B on 1,024 A100s (tp within a node), and still finds the exhaustive answer', () => {
    const base = searchBase({ model: 'gpt3-175b', gpu: 'a100-80gb', gpus: 1024, globalBatch: 1536, seqLen: 2048 });
    const fast = searchLayouts(base, { topK: 5, tpWithinNode: true });
    const full = searchLayouts(base, { topK: 5, tpWithinNode: true, exhaustive: true });
    expect(fast.top.map(identity)).toEqual(full.top.map(identity));
    expect(fast.pareto.map(identity)).toEqual(full.pareto.map(identity));
    expect(fast.counts.pruned).toBeGreaterThan(0.5 * fast.counts.layouts);
  });
});

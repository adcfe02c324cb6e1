import { describe, expect, it } from 'vitest';
import { checkConsistency } from '../input/index.ts';
import { estimate, estimateConfig } from '../estimate.ts';
import { stageMemoryBreakdowns } from '../memory/index.ts';
import { searchLayouts, searchSteps } from './search.ts';
import { searchDocument, searchDocumentSteps } from './document.ts';
import { searchBase, searchRunDocument, type SearchRunSpec } from '../../testing/search-fixtures.ts';
import { layoutConfig } from './pieces.ts';
import type { ScoredLayout, SearchObjective, SearchOptions } from './types.ts';
import type { RunConfig } from '../input/index.ts';
import { GiB } from '../input/index.ts';

/** The validity conditions, each checked on its own, then the engine's full rule set. */
function expectValid(base: RunConfig, l: ScoredLayout, evenLayers: boolean): void {
  const p = l.parallel;
  const { model, training } = base;
  const where = JSON.stringify(l.parallel);
  expect(p.tp * p.pp * p.dp * p.cp, where).toBe(l.gpus);
  expect(model.heads % p.tp, where).toBe(0);
  expect(model.kvHeads % p.tp, where).toBe(0);
  // consistency.ts allows uneven pipeline splits (up to layers + 2 chunks); the even option asks for layers divisible by pp × vpp.
  expect(p.pp * p.vpp, where).toBeLessThanOrEqual(model.layers + 2);
  if (evenLayers) expect(model.layers % (p.schedule === 'dualpipe' ? p.pp : p.pp * p.vpp), where).toBe(0);
  expect(training.globalBatch % (p.dp * l.microBatch), where).toBe(0);
  const c = layoutConfig(base, l);
  expect(checkConsistency(c).errors, where).toEqual([]);
  // Fits by the engine's own memory model (what estimate's memory.fits compares).
  const capacity = base.cluster.gpu.memoryGiB * GiB;
  expect(Math.max(...stageMemoryBreakdowns(c).map((s) => s.total)), where).toBeLessThanOrEqual(capacity);
  expect(l.memoryBytes, where).toBeLessThanOrEqual(capacity);
}

const GPT3: SearchRunSpec = { model: 'gpt3-175b', gpu: 'a100-80gb', gpus: 1024, globalBatch: 1536, seqLen: 2048 };

describe('every layout the search returns is valid and fits', () => {
  const cases: readonly { name: string; spec: SearchRunSpec; options: SearchOptions }[] = [
    { name: 'GPT-3 175B, tp within a node, even layer split', spec: GPT3, options: { tpWithinNode: true, evenLayerSplit: true, topK: 20 } },
    {
      name: 'Mixtral 8x7B with expert parallelism and offload searched',
      spec: { model: 'mixtral-8x7b', gpu: 'a100-40gb', gpus: 64, globalBatch: 512, seqLen: 4096 },
      options: { searchOffload: true, topK: 20 },
    },
    {
      name: 'Llama 2 13B on 12 GPUs (not a power of two), memory objective',
      spec: { model: 'llama2-13b', gpu: 'a100-40gb', gpus: 12, globalBatch: 96, seqLen: 4096 },
      options: { objective: 'memoryHeadroom', topK: 20 },
    },
  ];
  for (const { name, spec, options } of cases) {
    it(name, () => {
      const base = searchBase(spec);
      const result = searchLayouts(base, options);
      expect(result.errors).toEqual([]);
      expect(result.top.length).toBeGreaterThan(0);
      for (const l of [...result.top, ...result.pareto]) expectValid(base, l, options.evenLayerSplit ?? false);
      const out = estimateConfig(layoutConfig(base, result.top[0] as ScoredLayout));
      expect(out.errors).toEqual([]);
      expect(out.memory.fits).toBe(true);
    });
  }
});

describe('the search finds layouts at least as good as published ones', () => {
  it("Narayanan et al. 2021, 1T model on 3,072 A100s: at least as fast as the paper's TP = 8, PP = 64", () => {
    const spec: SearchRunSpec = { model: 'megatron-1t', gpu: 'a100-80gb', gpus: 3072, globalBatch: 3072, seqLen: 2048 };
    const doc = searchRunDocument(spec);
    // Table 1, last row: t = 8, p = 64 (so d = 6), batch 3,072; micro-batch 1 with full activation recomputation (section 5.1), no ZeRO.
    const paper = estimate({
      ...doc,
      parallel: { tp: 8, pp: 64, dp: 6, zero: 0 },
      training: { ...(doc.training as object), microBatch: 1, recompute: 'full' },
    });
    expect(paper.errors).toEqual([]);
    const found = searchDocument(doc, { topK: 3 });
    const best = found.results[0];
    expect(best?.output.errors).toEqual([]);
    expect(best?.output.memory.fits).toBe(true);
    expect(best?.output.throughput?.tokensPerSecond ?? 0).toBeGreaterThanOrEqual(paper.throughput?.tokensPerSecond ?? Infinity);
    // And the best of the paper's own degrees (any schedule, micro-batch, recompute, ZeRO) is no faster than the overall best.
    const paperDegrees = searchDocument({ ...doc, parallel: { tp: 8, pp: 64 } }, { topK: 1 });
    expect(paperDegrees.results[0]?.parallel.dp).toBe(6);
    expect(best?.search.stepSeconds ?? Infinity).toBeLessThanOrEqual(paperDegrees.results[0]?.search.stepSeconds ?? 0);
  });
});

describe('objectives', () => {
  const base = searchBase({ model: 'llama2-7b', gpu: 'h100-sxm', gpus: 32, globalBatch: 256, seqLen: 4096 });

  it('on one cluster size, tokens/s, days and dollars rank the same layouts (all fall as the step time grows)', () => {
    const ids = (o: SearchObjective) =>
      searchLayouts(base, { objective: o, topK: 8, pareto: false }).top.map((l) => JSON.stringify([l.parallel, l.microBatch, l.recompute]));
    const byThroughput = ids('tokensPerSecond');
    expect(ids('days')).toEqual(byThroughput);
    expect(ids('usd')).toEqual(byThroughput);
  });

  it('memory headroom picks the least memory of all fitting layouts: the low end of the Pareto front', () => {
    const r = searchLayouts(base, { objective: 'memoryHeadroom', topK: 1 });
    expect(r.top[0]?.memoryBytes).toBe(r.pareto[0]?.memoryBytes);
    expect(r.top[0]?.score).toBeCloseTo(80 * GiB - (r.pareto[0]?.memoryBytes ?? 0), 0);
  });

  it('the Pareto front trades memory for throughput: memory and throughput both rise along it', () => {
    const { pareto } = searchLayouts(base, { topK: 1 });
    expect(pareto.length).toBeGreaterThan(2);
    for (let i = 1; i < pareto.length; i++) {
      expect(pareto[i]?.memoryBytes ?? 0).toBeGreaterThan(pareto[i - 1]?.memoryBytes ?? 0);
      expect(pareto[i]?.tokensPerSecond ?? 0).toBeGreaterThan(pareto[i - 1]?.tokensPerSecond ?? 0);
    }
  });

  it('a dollar budget leaves out every layout that would cost more; several cluster sizes are searched together', () => {
    const all = searchLayouts(base, { objective: 'usd', gpuCounts: [8, 16, 32], topK: 50, pareto: false });
    expect(new Set(all.top.map((l) => l.gpus)).size).toBeGreaterThan(1);
    const cheapest = -(all.top[0]?.score ?? 0);
    const limit = cheapest * 1.05;
    const budgeted = searchLayouts(base, { objective: 'usd', gpuCounts: [8, 16, 32], topK: 50, pareto: false, maxUsd: limit });
    expect(budgeted.top.length).toBeGreaterThan(0);
    for (const l of budgeted.top) expect(-l.score).toBeLessThanOrEqual(limit);
  });
});

describe('the document front door (npm run search)', () => {
  const doc = searchRunDocument({ model: 'llama2-7b', gpu: 'a100-80gb', gpus: 16, globalBatch: 128, seqLen: 4096 });

  it("holds the document's parallel fields fixed and searches the rest; results are the engine's output, best first", () => {
    const out = searchDocument({ ...doc, parallel: { tp: 2, schedule: '1f1b' } }, { topK: 5 });
    expect(out.errors).toEqual([]);
    expect(out.results.length).toBe(5);
    for (const r of out.results) {
      expect(r.parallel.tp).toBe(2);
      expect(r.parallel.schedule).toBe('1f1b');
      expect(r.output.errors).toEqual([]);
      expect(r.output.memory.fits).toBe(true);
      // The search ranked by the closed-form bubble; the engine simulates the schedule. They agree within 3 % here.
      const simulated = r.output.throughput?.stepSeconds ?? 0;
      expect(Math.abs(simulated - r.search.stepSeconds) / simulated).toBeLessThan(0.03);
    }
    const tps = out.results.map((r) => r.output.throughput?.tokensPerSecond ?? 0);
    expect(tps).toEqual([...tps].sort((a, b) => b - a));
    expect(out.evaluated).toBeGreaterThan(0);
    expect(out.evaluated + out.memoryOnly + out.pruned).toBe(out.layouts);
  });

  it('answers an invalid document with field-named errors, never an exception', () => {
    expect(searchDocument('nope').errors).toEqual(['document: must be a JSON object']);
    const noGpus = searchDocument({ ...doc, cluster: { gpu: 'a100-80gb' } });
    expect(noGpus.errors).toContain(
      'cluster.gpus: is required for a search: the number of GPUs to lay out (or give search.minGpus and search.maxGpus to size the cluster)',
    );
    const badTp = searchDocument({ ...doc, parallel: { tp: 'eight' } });
    expect(badTp.errors.some((e) => e.startsWith('parallel.tp:'))).toBe(true);
    const impossible = searchDocument({ ...doc, parallel: { tp: 3 } });
    expect(impossible.results).toEqual([]);
    expect(impossible.errors[0]).toMatch(/no parallel layout is valid/);
    const tooBig = searchDocument({
      ...doc,
      model: { ...(doc.model as object), layers: 400, hidden: 16384, heads: 128, kvHeads: 8, ffnHidden: 53248 },
    });
    expect(tooBig.results).toEqual([]);
    expect(tooBig.warnings.some((w) => w.includes('fits in'))).toBe(true);
  });
});

describe('a Web Worker can follow and stop the search', () => {
  it('yields progress as it goes and stops when asked, with the part searched', () => {
    const base = searchBase(GPT3);
    const fractions: number[] = [];
    let calls = 0;
    const result = searchLayouts(
      base,
      { progressEvery: 10_000, exhaustive: true },
      {
        onProgress: (p) => fractions.push(p.fraction),
        shouldStop: () => ++calls >= 3,
      },
    );
    expect(result.stopped).toBe(true);
    expect(fractions.length).toBe(3);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(result.counts.evaluated).toBeLessThan(result.counts.layouts);
    const steps = searchSteps(base, { progressEvery: 100_000 });
    const first = steps.next();
    expect(first.done).toBe(false);
  });

  it("the document generator stops between steps when the worker's flag is set", () => {
    let cancelled = false;
    const steps = searchDocumentSteps(searchRunDocument(GPT3), { progressEvery: 50_000 }, { shouldStop: () => cancelled });
    expect(steps.next().done).toBe(false);
    cancelled = true;
    const last = steps.next();
    expect(last.done).toBe(true);
    if (last.done) {
      expect(last.value.stopped).toBe(true);
      expect(last.value.errors).toEqual([]);
    }
  });
});

describe("a document's explicit expert tensor-parallel degree", () => {
  it('stays in every layout the search returns, which the engine then estimates as the search scored it', () => {
    const plain = searchBase({ model: 'mixtral-8x7b', gpu: 'h100-sxm', gpus: 64, globalBatch: 256, seqLen: 4096 });
    const base = { ...plain, parallel: { ...plain.parallel, etp: 1 } };
    const result = searchLayouts(base, { topK: 5 });
    expect(result.top.length).toBeGreaterThan(0);
    for (const layout of result.top) {
      expect(layout.parallel.etp).toBe(1);
      const c = layoutConfig(base, layout);
      expect(estimateConfig(c).memory.deviceUsed).toBeCloseTo(layout.memoryBytes, -3);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { checkConsistency, type RunConfig } from '../input/index.ts';
import { searchBase } from '../../testing/search-fixtures.ts';
import { layoutConfig } from './pieces.ts';
import { searchLayouts } from './search.ts';

/** Llama 2 13B (40 layers) on 12 A100 80GB at TP 2 · PP 2 · VPP 20, with a stated layout. */
function statedBase(pipelineLayout: string): RunConfig {
  const base = searchBase({ model: 'llama2-13b', gpu: 'a100-80gb', gpus: 12, globalBatch: 96, seqLen: 4096 });
  return { ...base, parallel: { ...base.parallel, tp: 2, pp: 2, dp: 3, vpp: 20, schedule: 'interleaved-1f1b', pipelineLayout } };
}

const ownShape = (l: { parallel: { pp: number; vpp: number } }) => l.parallel.pp === 2 && l.parallel.vpp === 20;

describe('the search and a stated pipeline layout', () => {
  it('keeps the layout on the layouts of its own PP × VPP, takes the even split on every other one, each valid', () => {
    // The even split's own text (one layer a chunk, E on the first, L on the last): the figures of no layout.
    const text = 'Et|(t|)*38tL';
    const base = statedBase(text);
    expect(checkConsistency(base).errors).toEqual([]);
    const result = searchLayouts(base, { topK: 60, pareto: false });
    expect(result.errors).toEqual([]);
    const own = result.top.filter(ownShape);
    const other = result.top.filter((l) => !ownShape(l));
    expect(own.length).toBeGreaterThan(0);
    expect(other.length).toBeGreaterThan(0);
    for (const l of own) expect(l.parallel.pipelineLayout).toBe(text);
    for (const l of other) expect('pipelineLayout' in l.parallel).toBe(false);
    for (const l of result.top) expect(checkConsistency(layoutConfig(base, l)).errors).toEqual([]);
  });

  it('scores its own shape with the stated layout: 19 and 21 layers a rank put PP 2 × VPP 20 out of the top', () => {
    // "E|(t|)*38ttL": the embedding alone in chunk 0, two layers in the last; rank 0 holds chunks 0, 2, …, 38 = 19 layers,
    // rank 1 chunks 1, 3, …, 39 = 21 layers and the head: slower than 20 + 20, so PP 2 · VPP 10 takes the shape's place.
    const even = searchLayouts(statedBase('Et|(t|)*38tL'), { topK: 60, pareto: false });
    const uneven = searchLayouts(statedBase('E|(t|)*38ttL'), { topK: 60, pareto: false });
    expect(even.top.some(ownShape)).toBe(true);
    expect(uneven.top.some(ownShape)).toBe(false);
    expect(uneven.top.some((l) => l.parallel.pp === 2 && l.parallel.vpp === 10)).toBe(true);
  });
});

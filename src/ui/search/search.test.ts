import { describe, it, expect } from 'vitest';
import { parseDocument } from '../../model/input/index.ts';
import { searchDocument } from '../../model/search/index.ts';
import { DEFAULT_DOCUMENT } from '../../state/defaults.ts';
import { getAt } from '../../state/doc.ts';
import { fixedDegreesOf, searchDocumentOf, searchOptionsOf, withLayout, type SearchForm } from './searchRequest.ts';
import { layoutText, nextOrder, searchRows, sortRows, type SearchRow } from './searchTable.ts';

const FORM: SearchForm = { objective: 'tokensPerSecond', topK: 5, tpWithinNode: true, fixed: [], maxGpus: null, maxUsd: null };

describe('what the panel sends the search', () => {
  it('the document loses its layout (else the search would hold every degree fixed) and keeps the rest', () => {
    const doc = searchDocumentOf(DEFAULT_DOCUMENT);
    expect(getAt(doc, ['parallel'])).toBeUndefined();
    expect(getAt(doc, ['training', 'microBatch'])).toBeUndefined();
    expect(getAt(doc, ['training', 'recompute'])).toBeUndefined();
    expect(getAt(doc, ['training', 'seqLen'])).toBe(8192);
    expect(getAt(doc, ['cluster'])).toEqual(getAt(DEFAULT_DOCUMENT, ['cluster']));
    expect(getAt(DEFAULT_DOCUMENT, ['parallel', 'tp'])).toBe(8);
  });

  it('pinned degrees are the document\'s current values (TP 8, ZeRO-1, 1F1B in the default)', () => {
    expect(fixedDegreesOf(DEFAULT_DOCUMENT, ['tp', 'zero', 'schedule'])).toEqual({ tp: 8, zero: 1, schedule: '1f1b' });
    expect(fixedDegreesOf(DEFAULT_DOCUMENT, [])).toEqual({});
  });

  it('limits are sent only when given', () => {
    const plain = searchOptionsOf(DEFAULT_DOCUMENT, FORM);
    expect('maxGpus' in plain || 'maxUsd' in plain).toBe(false);
    const limited = searchOptionsOf(DEFAULT_DOCUMENT, { ...FORM, maxGpus: 128, maxUsd: 1e6 });
    expect(limited).toMatchObject({ maxGpus: 128, maxUsd: 1e6, tpWithinNode: true, topK: 5 });
  });

  it('on the default run, pinning TP and PP gives only layouts with TP 8 and PP 4 (so DP 2 on 64 GPUs)', () => {
    const form = { ...FORM, fixed: ['tp', 'pp'] as const };
    const output = searchDocument(searchDocumentOf(DEFAULT_DOCUMENT), searchOptionsOf(DEFAULT_DOCUMENT, form));
    expect(output.errors).toEqual([]);
    expect(output.results.length).toBeGreaterThan(0);
    for (const r of output.results) expect([r.parallel.tp, r.parallel.pp, r.parallel.tp * r.parallel.pp * r.parallel.cp * r.parallel.dp]).toEqual([8, 4, 64]);
  });
});

describe('Apply', () => {
  it('writes the layout, micro-batch, recomputation, offload and cluster size, and the engine accepts the document', () => {
    const layout = {
      parallel: { tp: 2, pp: 8, dp: 2, cp: 2, ep: 1, vpp: 1, sequenceParallel: true, zero: 1, schedule: 'zero-bubble' },
      training: { microBatch: 1, recompute: 'full', offload: { optimizer: false, parameters: false } },
      cluster: { gpus: 64 },
    } as const;
    const doc = withLayout(DEFAULT_DOCUMENT, layout);
    const parsed = parseDocument(doc);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.config.parallel).toMatchObject(layout.parallel);
    expect(parsed.config.training.recompute).toBe('full');
    expect(parsed.config.cluster.gpus).toBe(64);
    expect(layoutText(layout)).toBe('TP 2 · PP 8 · DP 2 · CP 2 (64 GPUs, ZeRO-1, zero-bubble, MBS 1, full recompute, SP)');
  });
});

describe('the results table', () => {
  const row = (rank: number, tokensPerSecond: number, usd: number): SearchRow =>
    ({ rank, tokensPerSecond, usd, memoryBytes: rank, mfu: 0.4, days: 1, result: undefined as never });
  const rows = [row(1, 300, 20), row(2, NaN, 10), row(3, 500, 30)];

  it('sorts by a column either way, figures the engine could not give last', () => {
    expect(sortRows(rows, { key: 'tokensPerSecond', direction: 'descending' }).map((r) => r.rank)).toEqual([3, 1, 2]);
    expect(sortRows(rows, { key: 'tokensPerSecond', direction: 'ascending' }).map((r) => r.rank)).toEqual([1, 3, 2]);
    expect(sortRows(rows, { key: 'usd', direction: 'ascending' }).map((r) => r.rank)).toEqual([2, 1, 3]);
    expect(rows.map((r) => r.rank)).toEqual([1, 2, 3]);
  });

  it('a first click sorts throughput best first and cost cheapest first; a second click reverses', () => {
    const start = { key: 'rank', direction: 'ascending' } as const;
    expect(nextOrder(start, 'tokensPerSecond')).toEqual({ key: 'tokensPerSecond', direction: 'descending' });
    expect(nextOrder(start, 'usd')).toEqual({ key: 'usd', direction: 'ascending' });
    expect(nextOrder({ key: 'usd', direction: 'ascending' }, 'usd')).toEqual({ key: 'usd', direction: 'descending' });
  });

  it('rows carry the engine\'s figures, NaN where it gave none', () => {
    const output = searchDocument(searchDocumentOf(DEFAULT_DOCUMENT), { topK: 2, fixed: { tp: 8, pp: 4 } });
    const [first] = searchRows(output.results);
    expect(first?.rank).toBe(1);
    expect(first?.memoryBytes).toBe(output.results[0]?.output.memory.perGpu.total);
    expect(first?.tokensPerSecond).toBe(output.results[0]?.output.throughput?.tokensPerSecond);
  });
});

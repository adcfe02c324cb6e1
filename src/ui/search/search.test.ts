import { describe, it, expect } from 'vitest';
import { parseDocument } from '../../model/input/index.ts';
import { searchDocument } from '../../model/search/index.ts';
import { DEFAULT_DOCUMENT } from '../../state/defaults.ts';
import { getAt } from '../../state/doc.ts';
import { fixedDegreesOf, searchDocumentOf, searchOptionsOf, searchQuestionKey, withLayout, type SearchForm } from './searchRequest.ts';
import { setAt } from '../../state/doc.ts';
import { memoryVerdict } from '../uncertainty/memoryVerdict.ts';
import { VERDICT_TIGHT_FROM_SHARE } from '../../model/validation/index.ts';
import { layoutText, nextOrder, searchRows, sortRows, type SearchRow } from './searchTable.ts';
import { INITIAL_FORM, formFromDocument, readForm } from './searchForm.ts';

const LAYOUT = {
  parallel: { tp: 8, pp: 4, dp: 2, cp: 1, ep: 1, vpp: 1, sequenceParallel: true, zero: 1, schedule: '1f1b' },
  training: { microBatch: 1, recompute: 'selective', offload: { optimizer: false, parameters: false } },
} as const;

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

  it("pinned degrees are the document's current values (TP 8, ZeRO-1, 1F1B in the default)", () => {
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
    for (const r of output.results)
      expect([r.parallel.tp, r.parallel.pp, r.parallel.tp * r.parallel.pp * r.parallel.cp * r.parallel.dp]).toEqual([8, 4, 64]);
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
    expect(layoutText(layout)).toBe('TP 2 · PP 8 · DP 2 · CP 2 (64 GPUs, ZeRO-1, zero-bubble (ZB-H1), MBS 1, full recompute, SP)');
    // One pipeline stage: no schedule to name (issue 22, item 11: PP 1 layouts were labelled "gpipe").
    const flat = { ...layout, parallel: { ...layout.parallel, pp: 1, dp: 16, schedule: 'gpipe' as const } };
    expect(layoutText(flat)).toBe('TP 2 · PP 1 · DP 16 · CP 2 (64 GPUs, ZeRO-1, MBS 1, full recompute, SP)');
  });
});

describe("a search's question, to tell its results from an earlier configuration's", () => {
  const layout = {
    parallel: { tp: 2, pp: 8, dp: 2, cp: 2, ep: 1, vpp: 1, sequenceParallel: true, zero: 1, schedule: 'zero-bubble' },
    training: { microBatch: 1, recompute: 'full', offload: { optimizer: true, parameters: false }, epComm: true, cudaGraph: 'partial' },
    cluster: { gpus: 64 },
  } as const;

  it('is unchanged by applying a found layout (degrees, micro-batch, recompute, offload, switches)', () => {
    expect(searchQuestionKey(withLayout(DEFAULT_DOCUMENT, layout))).toBe(searchQuestionKey(DEFAULT_DOCUMENT));
    // Up to a larger cluster, Apply may write another size: still the same question.
    const bigger = withLayout(DEFAULT_DOCUMENT, { ...layout, cluster: { gpus: 128 } });
    expect(searchQuestionKey(bigger, { maxGpus: 256 })).toBe(searchQuestionKey(DEFAULT_DOCUMENT, { maxGpus: 256 }));
    expect(searchQuestionKey(bigger)).not.toBe(searchQuestionKey(DEFAULT_DOCUMENT));
  });

  it('changes with the model, the batch, the cluster or the stack', () => {
    const before = searchQuestionKey(DEFAULT_DOCUMENT);
    expect(searchQuestionKey(setAt(DEFAULT_DOCUMENT, ['model', 'layers'], 40))).not.toBe(before);
    expect(searchQuestionKey(setAt(DEFAULT_DOCUMENT, ['training', 'globalBatch'], 512))).not.toBe(before);
    expect(searchQuestionKey(setAt(DEFAULT_DOCUMENT, ['cluster', 'gpu'], 'a100-80gb'))).not.toBe(before);
    expect(searchQuestionKey(setAt(DEFAULT_DOCUMENT, ['training', 'precision'], 'fp8'))).not.toBe(before);
  });

  it('when sizing, keeps the GPU type and cluster size Apply writes, not the model', () => {
    const sizing = { mode: 'sizing', maxGpus: null } as const;
    const sized = withLayout(DEFAULT_DOCUMENT, { ...layout, cluster: { gpus: 128, gpu: 'b200' } });
    expect(searchQuestionKey(sized, sizing)).toBe(searchQuestionKey(DEFAULT_DOCUMENT, sizing));
    expect(searchQuestionKey(setAt(DEFAULT_DOCUMENT, ['model', 'layers'], 40), sizing)).not.toBe(
      searchQuestionKey(DEFAULT_DOCUMENT, sizing),
    );
  });
});

describe('the results table', () => {
  const row = (rank: number, tokensPerSecond: number, usd: number): SearchRow => ({
    rank,
    tokensPerSecond,
    usd,
    memoryBytes: rank,
    verdict: 'safe',
    mfu: 0.4,
    days: 1,
    result: undefined as never,
    gpuName: 'NVIDIA H100',
    variants: [],
  });
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

  it("rows carry the engine's figures, NaN where it gave none", () => {
    const output = searchDocument(searchDocumentOf(DEFAULT_DOCUMENT), { topK: 2, fixed: { tp: 8, pp: 4 } });
    const [first] = searchRows(output.results);
    expect(first?.rank).toBe(1);
    // The column shows the figure the verdict judges (model/memory/fit.ts), what the strip and the chart show.
    expect(first?.memoryBytes).toBe(output.results[0]?.output.memory.deviceUsed);
    expect(first?.tokensPerSecond).toBe(output.results[0]?.output.throughput?.tokensPerSecond);
    // The strip's verdict, on the same figure: one "tight" threshold for the strip and the search.
    const memory = output.results[0]!.output.memory;
    expect(first?.verdict).toBe(memoryVerdict(memory.deviceUsed, memory.capacity).verdict);
    const tight = {
      ...output.results[0]!,
      output: {
        ...output.results[0]!.output,
        memory: { ...memory, reserved: 74.5 * 2 ** 30, deviceUsed: 74.5 * 2 ** 30, capacity: 80 * 2 ** 30 },
      },
    };
    expect(searchRows([tight])[0]?.verdict).toBe('tight');
  });
});

describe('sizing the cluster from the page', () => {
  it('reads the form: GPU types, a whole-number range, a day limit, the margin; names the field of each bad value', () => {
    const sizing = {
      ...INITIAL_FORM,
      mode: 'sizing' as const,
      sizing: { gpuTypes: ['h100-sxm', 'h200'], minGpus: '64', maxGpus: '1,024', maxDays: '30' },
    };
    const read = readForm(sizing);
    expect('form' in read && read.form).toMatchObject({
      mode: 'sizing',
      objective: 'usd',
      sizing: { gpuTypes: ['h100-sxm', 'h200'], minGpus: 64, maxGpus: 1024, maxDays: 30 },
    });
    // The default margin is the verdict's own: 1 − the tight share, rounded up to a tenth of a percent (the share
    // follows the uncertainty table: 77.10 % after the 2026-12-05 memory mechanisms, so 22.90… → 23.0 %).
    const margin = 'form' in read ? (read.form.memoryMarginPercent ?? NaN) : NaN;
    const exact = (1 - VERDICT_TIGHT_FROM_SHARE) * 100;
    expect(margin).toBeGreaterThanOrEqual(exact - 1e-9);
    expect(margin).toBeLessThan(exact + 0.1);
    expect(Math.round(margin * 10)).toBeCloseTo(margin * 10, 9);
    const bad = readForm({ ...sizing, margin: '95', sizing: { gpuTypes: [], minGpus: '512', maxGpus: '256', maxDays: '-1' } });
    expect('errors' in bad && bad.errors).toEqual([
      'Memory kept free: a percentage from 0 to 90.',
      'GPU types to compare: choose at least one.',
      'Most GPUs: 256 is fewer than the fewest, 512.',
      'Max days: a positive number of days, or empty.',
    ]);
  });

  it('sends the document without its cluster size and the options of a sizing search; Apply writes the GPU type too', () => {
    const read = readForm({ ...INITIAL_FORM, mode: 'sizing', sizing: { gpuTypes: ['h200'], minGpus: '8', maxGpus: '64', maxDays: '' } });
    if (!('form' in read)) throw new Error('form rejected');
    expect(getAt(searchDocumentOf(DEFAULT_DOCUMENT, 'sizing'), ['cluster', 'gpus'])).toBeUndefined();
    const options = searchOptionsOf(DEFAULT_DOCUMENT, read.form);
    expect(options).toMatchObject({
      gpuTypes: ['h200'],
      gpuRange: { min: 8, max: 64 },
      memoryMargin: read.form.memoryMarginPercent! / 100,
      objective: 'usd',
    });
    expect('maxDays' in options || 'maxGpus' in options || 'evenLayerSplit' in options).toBe(false);
    const doc = withLayout(DEFAULT_DOCUMENT, { ...LAYOUT, cluster: { gpu: 'h200', gpus: 64 } });
    expect([getAt(doc, ['cluster', 'gpu']), getAt(doc, ['cluster', 'gpus'])]).toEqual(['h200', 64]);
    expect(parseDocument(doc).ok).toBe(true);
  });
});

describe("a document's search block opens the panel on its question", () => {
  it('sizing fields, objective, margin and split rule come from the block; a bad block leaves the defaults', () => {
    const doc = {
      ...DEFAULT_DOCUMENT,
      search: {
        objective: 'days',
        gpuTypes: ['h100-sxm', 'h200'],
        minGpus: 128,
        maxGpus: 2048,
        maxUsd: 2e6,
        memoryMargin: 0.15,
        evenLayers: false,
      },
    };
    const form = formFromDocument(doc);
    expect(form).toMatchObject({
      mode: 'sizing',
      sizingObjective: 'days',
      maxUsd: '2000000',
      margin: '15',
      unevenLayers: true,
      sizing: { gpuTypes: ['h100-sxm', 'h200'], minGpus: '128', maxGpus: '2048', maxDays: INITIAL_FORM.sizing.maxDays },
    });
    expect(formFromDocument({ ...DEFAULT_DOCUMENT, search: { objective: 'headroom' } })).toMatchObject({
      mode: 'layout',
      objective: 'memoryHeadroom',
    });
    expect(formFromDocument({ ...DEFAULT_DOCUMENT, search: { minGpus: 'many' } })).toEqual(INITIAL_FORM);
    expect(formFromDocument(DEFAULT_DOCUMENT)).toEqual(INITIAL_FORM);
  });
});

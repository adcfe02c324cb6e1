import { describe, expect, it } from 'vitest';
import { syntheticMegatronLog } from '../model/log/index.ts';
import { LOG_SLICE_BYTES, logApi } from './log-api.ts';

// The worker's read: a file in slices (a multi-byte character may fall on a slice's edge),
// progress up to 1, the same report as the text, and the comparison with the page's document.
/** The run the synthetic log states: 64 GPUs, TP 8, global batch 256 of 8192 tokens. */
const DOCUMENT = {
  version: 1,
  model: { name: 'Llama-style', layers: 32, hidden: 4096, heads: 32, kvHeads: 8, vocab: 128256, ffnType: 'swiglu', ffnHidden: 14336 },
  training: { seqLen: 8192, globalBatch: 256, microBatch: 1, precision: 'bf16' },
  parallel: { tp: 8, pp: 1, dp: 8 },
  cluster: { gpu: 'h100-sxm', gpus: 64 },
};

describe('logApi.read', () => {
  const text = syntheticMegatronLog({ steps: 40, globalBatch: 256, seqLen: 8192, gpus: 64, tp: 8, pp: 1 }).replace(
    'training ...',
    'training … ✓ é',
  );

  it('a Blob and the same text give the same report; progress reaches 1', async () => {
    const seen: number[] = [];
    const fromBlob = await logApi.read(new Blob([text]), DOCUMENT, (f) => seen.push(f));
    const fromText = await logApi.read(text, DOCUMENT);
    expect(fromBlob).toEqual(fromText);
    expect(seen[seen.length - 1]).toBe(1);
    if (!fromBlob.ok) throw new Error(fromBlob.errors.join('; '));
    expect(fromBlob.report.steps).toBe(40);
    expect(fromBlob.comparison.predicted?.stepSeconds).toBeGreaterThan(0);
  });

  it('a character cut by a slice edge is read whole', async () => {
    const edge = `${'x'.repeat(LOG_SLICE_BYTES - 1)}é\n${text}`;
    const r = await logApi.read(new Blob([edge]), DOCUMENT);
    if (!r.ok) throw new Error(r.errors.join('; '));
    expect(r.report.steps).toBe(40);
  });

  it('a log of another layout is read, and says it is not compared', async () => {
    const r = await logApi.read(syntheticMegatronLog({ steps: 10, globalBatch: 512, tp: 4 }), DOCUMENT);
    if (!r.ok) throw new Error(r.errors.join('; '));
    expect(r.comparison.ratio).toBeNull();
    expect(r.comparison.mismatch.length).toBeGreaterThan(0);
  });
});

describe('logApi.compare: the log read once, compared again when the page changes', () => {
  it('on 128 GPUs the comparison says the log is of another run; back on 64 it compares again', async () => {
    const read = await logApi.read(syntheticMegatronLog({ steps: 40, globalBatch: 256, seqLen: 8192, gpus: 64, tp: 8, pp: 1 }), DOCUMENT);
    if (!read.ok) throw new Error(read.errors.join('; '));
    expect(read.comparison.mismatch).toEqual([]);
    const moved = logApi.compare(read.report, { ...DOCUMENT, parallel: { tp: 8, pp: 1, dp: 16 }, cluster: { gpu: 'h100-sxm', gpus: 128 } });
    if (!moved.ok) throw new Error(moved.errors.join('; '));
    expect(moved.comparison.mismatch).toEqual(["GPUs: the log's 64, the document's 128"]);
    expect(moved.comparison.ratio).toBeNull();
    const back = logApi.compare(read.report, DOCUMENT);
    expect(back).toEqual({ ok: true, comparison: read.comparison });
  });
});

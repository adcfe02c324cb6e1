import { describe, it, expect } from 'vitest';
import { searchDocument } from '../model/search/index.ts';
import { searchRunDocument } from '../testing/search-fixtures.ts';
import type { SearchProgress } from '../model/search/index.ts';
import { createSearchApi } from './search-api.ts';

// A small space: Llama 3 8B on 16 H100, batch 64 × 4,096; progress every 64 layouts gives many steps.
const DOCUMENT = searchRunDocument({ model: 'llama3-8b', gpu: 'h100-sxm', gpus: 16, globalBatch: 64, seqLen: 4096 });
const OPTIONS = { topK: 5, progressEvery: 64 } as const;

describe('the search worker object', () => {
  it('runs to the end with progress at every step and returns what the synchronous search returns', async () => {
    const progress: SearchProgress[] = [];
    const output = await createSearchApi().search(DOCUMENT, OPTIONS, (p) => progress.push(p));
    const direct = searchDocument(DOCUMENT, OPTIONS);
    expect(output.stopped).toBe(false);
    expect(output.results.map((r) => r.parallel)).toEqual(direct.results.map((r) => r.parallel));
    expect(output.results.length).toBe(5);
    // Progress rises and never passes the whole space.
    expect(progress.length).toBeGreaterThan(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]?.fraction).toBeGreaterThanOrEqual(progress[i - 1]?.fraction ?? 0);
    expect(progress.every((p) => p.fraction <= 1)).toBe(true);
    // layouts = evaluated + memoryOnly + pruned once finished (search-types.ts SearchCounts).
    expect(output.evaluated + output.memoryOnly + output.pruned).toBe(output.layouts);
  });

  it('stops at the next step after cancel, with the part searched (stopped: true)', async () => {
    const api = createSearchApi();
    let steps = 0;
    const output = await api.search(DOCUMENT, OPTIONS, () => {
      steps += 1;
      api.cancel();
    });
    expect(steps).toBe(1);
    expect(output.stopped).toBe(true);
    expect(output.evaluated + output.memoryOnly + output.pruned).toBeLessThan(output.layouts);
  });

  it('a new search after a cancelled one runs to the end (the flag is reset)', async () => {
    const api = createSearchApi();
    await api.search(DOCUMENT, OPTIONS, () => api.cancel());
    const output = await api.search(DOCUMENT, OPTIONS);
    expect(output.stopped).toBe(false);
  });
});

describe('cluster sizing in the search worker', () => {
  const { gpus: _gpus, ...cluster } = DOCUMENT.cluster as Record<string, unknown>;
  const SIZING = {
    ...DOCUMENT,
    cluster,
    search: { objective: 'usd', gpuTypes: ['a100-80gb', 'h100-sxm'], minGpus: 8, maxGpus: 64, maxDays: 365 },
  };

  it('reports rising progress through the bounds pass and the search, and answers with GPU types and sizes', async () => {
    const progress: SearchProgress[] = [];
    const output = await createSearchApi().search(SIZING, { topK: 3, progressEvery: 2000 }, (p) => progress.push(p));
    expect(output.errors).toEqual([]);
    expect(output.results.length).toBe(3);
    for (const r of output.results) expect(['a100-80gb', 'h100-sxm']).toContain(r.cluster.gpu);
    expect(progress.some((p) => p.fraction > 0 && p.fraction < 0.3)).toBe(true);
    for (let i = 1; i < progress.length; i++) expect(progress[i]?.fraction).toBeGreaterThanOrEqual(progress[i - 1]?.fraction ?? 0);
  });

  it('stops when cancelled, with the part searched', async () => {
    const api = createSearchApi();
    const output = await api.search(SIZING, { topK: 3, progressEvery: 2000 }, () => api.cancel());
    expect(output.stopped).toBe(true);
    expect(output.evaluated + output.memoryOnly + output.pruned).toBeLessThan(output.layouts);
  });
});

import { describe, expect, it } from 'vitest';
import { engineApi } from './api.ts';
import { fakeWorker, type FakeWorker } from '../testing/fake-worker.ts';
import { createFitSuggester, SUGGEST_TIMEOUT_MS } from './suggest-client.ts';

// An 8B dense model on 8 H100 at ZeRO-0: its unsharded Adam state alone is over 80 GiB, so fixes exist (fit-suggestions.test.ts).
const tooSmall = {
  version: 1,
  model: { name: 'test 8B', layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 },
  training: { seqLen: 2048, globalBatch: 64, microBatch: 2, recompute: 'selective' },
  parallel: { tp: 1, pp: 1, dp: 8, zero: 0 },
  cluster: { gpu: 'h100-sxm', gpus: 8 },
};

describe('the fixes worker client', () => {
  it("answers with the engine's own list, through comlink: the quick knob fixes, or the full list with the searches", async () => {
    const worker = fakeWorker(engineApi);
    const suggester = createFitSuggester(() => worker, SUGGEST_TIMEOUT_MS, false);
    const answer = await suggester.request(tooSmall);
    expect(answer).toEqual(engineApi.fitSuggestions(tooSmall, false));
    expect(answer?.ok && answer.searched).toBe(false);
    expect(answer?.ok && answer.suggestions.length).toBeGreaterThan(0);
    suggester.dispose();
    expect(worker.terminated).toBe(true);
  });

  it("hands back only the newest request's answer, and none to a request its signal abandoned", async () => {
    const suggester = createFitSuggester(() => fakeWorker(engineApi), SUGGEST_TIMEOUT_MS, false);
    const stop = new AbortController();
    const abandoned = suggester.request(tooSmall, stop.signal);
    stop.abort();
    expect(await abandoned).toBeNull();
    const older = suggester.request(tooSmall);
    const newer = suggester.request({ ...tooSmall, training: { ...tooSmall.training, microBatch: 1 } });
    expect(await older).toBeNull();
    expect((await newer)?.ok).toBe(true);
    suggester.dispose();
  });

  it('gives an error value when the worker does not answer in time, and starts a fresh one next time', async () => {
    const workers: FakeWorker[] = [];
    const silent = { fitSuggestions: () => new Promise(() => {}) };
    // The fresh worker answers at once, so the short timeout tests the client, not the machine's speed.
    const prompt = { fitSuggestions: () => ({ ok: false, errors: ['fresh worker'] }) };
    const suggester = createFitSuggester(() => {
      const w = fakeWorker(workers.length === 0 ? silent : prompt);
      workers.push(w);
      return w;
    }, 300);
    expect(await suggester.request(tooSmall)).toEqual({ ok: false, errors: ['the fixes were not computed within 0.3 s'] });
    expect(workers[0]?.terminated).toBe(true);
    expect(await suggester.request(tooSmall)).toEqual({ ok: false, errors: ['fresh worker'] });
    expect(workers).toHaveLength(2);
    suggester.dispose();
  });

  it('names the field of a document the engine rejects', () => {
    const answer = engineApi.fitSuggestions({ ...tooSmall, parallel: { ...tooSmall.parallel, tp: 0 } });
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.errors.join(' ')).toMatch(/parallel\.tp/);
  });
});

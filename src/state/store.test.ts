import { beforeAll, describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { estimate, invalidOutput } from '../model/estimate.ts';
import { parseDocument } from '../model/input/index.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { getAt } from './doc.ts';
import { createPlannerStore } from './store.ts';
import { loadCatalog } from './catalog.ts';

// Model presets come from the catalog, which the page loads lazily.
beforeAll(async () => {
  await loadCatalog();
});

const LLAMA3_8B_CONFIG = readFileSync(new URL('../../e2e/data/llama3-8b-config.json', import.meta.url), 'utf8');

describe('the results slice', () => {
  it('keeps the last valid estimate on screen when the configuration turns invalid', () => {
    const store = createPlannerStore();
    const good = estimate(DEFAULT_DOCUMENT);
    store.getState().receive(good, DEFAULT_DOCUMENT);
    const bad = invalidOutput(['model.layers: must be a whole number, got "abc"'], []);
    store.getState().receive(bad, {});
    const state = store.getState();
    expect(state.output).toBe(good);
    expect(state.outputDocument).toBe(DEFAULT_DOCUMENT);
    expect(state.errors).toEqual(['model.layers: must be a whole number, got "abc"']);
    expect(state.answers).toBe(2);
  });

  it("keeps an empty error list's identity across answers (the controls watch it)", () => {
    const store = createPlannerStore();
    const before = store.getState().errors;
    store.getState().receive(estimate(DEFAULT_DOCUMENT), DEFAULT_DOCUMENT);
    expect(store.getState().errors).toBe(before);
  });
});

describe('the configuration slice', () => {
  it('moves DP with TP so that TP × PP × DP × CP stays 64', () => {
    const store = createPlannerStore();
    store.getState().setDegree('tp', 2);
    expect(getAt(store.getState().document, ['parallel'])).toMatchObject({ tp: 2, pp: 4, dp: 8 });
  });

  it('a model preset brings its dimensions and suggested sequence length, and a valid layout', () => {
    const store = createPlannerStore();
    store.getState().setModelPreset('mixtral-8x7b');
    const doc = store.getState().document;
    expect(getAt(doc, ['model', 'name'])).toBe('Mixtral 8x7B');
    expect(getAt(doc, ['training', 'seqLen'])).toBe(32768);
    expect(parseDocument(doc).ok).toBe(true);
  });

  it('a GPU preset brings its GPUs per node and price; "custom" copies the figures into an editable object', () => {
    const store = createPlannerStore();
    store.getState().setGpuPreset('a100-80gb');
    expect(getAt(store.getState().document, ['cluster'])).toMatchObject({ gpu: 'a100-80gb', gpusPerNode: 8 });
    expect(getAt(store.getState().document, ['cost', 'usdPerGpuHour'])).toBe(1.8);
    store.getState().setGpuPreset('custom');
    expect(getAt(store.getState().document, ['cluster', 'gpu'])).toMatchObject({
      name: 'NVIDIA A100 SXM4 80GB (custom)',
      memoryGiB: 80,
      bf16Tflops: 312,
    });
    // The host memory is the cluster's: not a GPU field, and the preset's (DGX A100 640GB: 2 TB) is kept.
    expect(getAt(store.getState().document, ['cluster', 'gpu', 'hostMemoryGiB'])).toBeUndefined();
    expect(getAt(store.getState().document, ['cluster', 'hostMemoryGiB'])).toBe(2048);
    // So is its bandwidth (DGX A100: 2 × EPYC 7742, 8 channels of DDR4-3200 each, 2 × 204.8 GB/s).
    expect(getAt(store.getState().document, ['cluster', 'gpu', 'hostMemoryGBps'])).toBeUndefined();
    expect(getAt(store.getState().document, ['cluster', 'hostMemoryGBps'])).toBe(409.6);
    expect(parseDocument(store.getState().document).ok).toBe(true);
  });

  it('imports a Hugging Face config.json of Llama 3 8B to its published dimensions', () => {
    const store = createPlannerStore();
    store.getState().importHfConfigText(LLAMA3_8B_CONFIG);
    expect(getAt(store.getState().document, ['model'])).toMatchObject({
      layers: 32,
      hidden: 4096,
      heads: 32,
      kvHeads: 8,
      ffnHidden: 14336,
      vocab: 128256,
      ffnType: 'swiglu',
    });
    expect(store.getState().importStatus?.ok).toBe(true);
  });

  it('refuses text that is not a config.json, and leaves the model alone', () => {
    const store = createPlannerStore();
    store.getState().importHfConfigText('{ not json');
    expect(store.getState().importStatus).toMatchObject({ ok: false });
    expect(store.getState().importStatus?.lines[0]).toMatch(/^config\.json: is not valid JSON/);
    expect(getAt(store.getState().document, ['model', 'layers'])).toBe(80);
  });

  it('keeps a GPU count that is not a number as typed (the engine names the field), and re-lays out a valid one', () => {
    const store = createPlannerStore();
    store.getState().setGpuCount('lots');
    expect(getAt(store.getState().document, ['cluster', 'gpus'])).toBe('lots');
    store.getState().setGpuCount(128);
    expect(getAt(store.getState().document, ['parallel'])).toMatchObject({ tp: 8, pp: 4, dp: 4 });
  });
});

import { describe, expect, it } from 'vitest';
import { getAt } from './doc.ts';
import { catalogEntries, catalogMatch, defaultUsdPerGpuHour, findModelPreset, findTyped, loadCatalog } from './catalog.ts';
import { parseDocument } from '../model/input/index.ts';
import { createPlannerStore } from './store.ts';

// The page's side of the catalog: none of it at first (no model data in the first JavaScript), every entry once its chunk is in.
describe('the catalog as the page reaches it', () => {
  it('offers nothing before loading, every entry after, and a preset picked before the load applies once it is in', async () => {
    expect(catalogEntries()).toEqual([]);
    const early = createPlannerStore();
    early.getState().setModelPreset('mixtral-8x7b');
    const all = await loadCatalog();
    expect(all.length).toBeGreaterThanOrEqual(60);
    expect(catalogEntries()).toBe(all);
    await Promise.resolve();
    expect(getAt(early.getState().document, ['model', 'name'])).toBe('Mixtral 8x7B');
    expect(findModelPreset('gpt-oss-20b')?.model.name).toBe('gpt-oss-20b');
  });

  it('finds a typed name or Hub id, variants included, and says how', async () => {
    const all = await loadCatalog();
    expect(findTyped('Gemma 3 4B', all)).toMatchObject({ entry: { id: 'gemma3-4b' }, how: 'by name' });
    expect(findTyped('Qwen/Qwen3-4B-Instruct-2507', all)).toMatchObject({
      entry: { id: 'qwen3-4b' },
      how: 'by its Hugging Face id Qwen/Qwen3-4B-Instruct-2507',
    });
    expect(findTyped('someone/Qwen3-4B-Instruct-2507-AWQ', all)?.how).toBe('as Qwen/Qwen3-4B, the Hugging Face id of the same shape');
    expect(findTyped('no such model', all)).toBeNull();
  });

  it('names the entry an imported Hub id used, and no entry once a dimension is edited', async () => {
    await loadCatalog();
    const entry = findModelPreset('qwen3-4b');
    const imported = { ...entry?.model, name: 'Qwen/Qwen3-4B-Instruct-2507' };
    expect(catalogMatch(imported)).toMatchObject({
      entry: { id: 'qwen3-4b' },
      hub: { id: 'Qwen/Qwen3-4B-Instruct-2507', resolution: { exact: true } },
    });
    expect(catalogMatch(entry?.model)).toEqual({ entry });
    expect(catalogMatch({ ...imported, layers: 35 })).toBeUndefined();
  });

  it("a catalog entry without a stated pre-training length keeps the run's sequence length; a preset sets its own", async () => {
    await loadCatalog();
    const store = createPlannerStore();
    store.getState().setModelPreset('llama3-8b');
    expect(getAt(store.getState().document, ['training', 'seqLen'])).toBe(8192);
    store.getState().setModelPreset('qwen3-8b');
    expect(getAt(store.getState().document, ['model', 'name'])).toBe('Qwen3 8B');
    expect(getAt(store.getState().document, ['training', 'seqLen'])).toBe(8192);
    expect(store.getState().output?.errors ?? []).toEqual([]);
  });
});

// The price box's placeholder names the price an absent cost.usdPerGpuHour is read as: the engine's own default, not a second one.
describe('defaultUsdPerGpuHour', () => {
  const base = {
    version: 1,
    model: { name: 'm', layers: 2, hidden: 256, heads: 4, vocab: 1000 },
    training: { seqLen: 512, globalBatch: 8 },
  };
  const engineDefault = (gpu: unknown) => {
    const parsed = parseDocument({ ...base, cluster: { gpu, gpus: 8 } });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    return parsed.config.cost.usdPerGpuHour;
  };

  it("is the preset's or the custom GPU's own price, as the engine reads it", () => {
    for (const id of ['h100-sxm', 'a100-80gb', 'gb300']) expect(defaultUsdPerGpuHour(id)).toBe(engineDefault(id));
    const custom = { name: 'x', memoryGiB: 24, bf16Tflops: 100, hbmGBps: 1000, intraNodeGBps: 32, interNodeGBps: 12.5, usdPerHour: 0.75 };
    expect(defaultUsdPerGpuHour(custom)).toBe(0.75);
    expect(engineDefault(custom)).toBe(0.75);
    // A custom GPU that leaves its price out is priced at the reader's own default, which the box shows too.
    const { usdPerHour: _price, ...unpriced } = custom;
    expect(defaultUsdPerGpuHour(unpriced)).toBe(engineDefault(unpriced));
  });

  it('is null for an unknown id or a custom GPU without a usable price', () => {
    expect(defaultUsdPerGpuHour('no-such-gpu')).toBeNull();
    expect(defaultUsdPerGpuHour({ name: 'x', usdPerHour: 'cheap' })).toBeNull();
    expect(defaultUsdPerGpuHour(null)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { getAt } from './doc.ts';
import { catalogEntries, catalogMatch, findModelPreset, findTyped, loadCatalog, MODEL_PRESETS } from './catalog.ts';
import { createPlannerStore } from './store.ts';

// The page's side of the catalog: the presets at first, every entry once the lazily loaded chunk is in.
describe('the catalog as the page reaches it', () => {
  it('offers the presets before loading, every entry after', async () => {
    expect(catalogEntries()).toBe(MODEL_PRESETS);
    const all = await loadCatalog();
    expect(all.length).toBeGreaterThanOrEqual(60);
    expect(catalogEntries()).toBe(all);
    expect(findModelPreset('gpt-oss-20b')?.model.name).toBe('gpt-oss-20b');
  });

  it('finds a typed name or Hub id, variants included, and says how', async () => {
    const all = await loadCatalog();
    expect(findTyped('Gemma 3 4B', all)).toMatchObject({ entry: { id: 'gemma3-4b' }, how: 'by name' });
    expect(findTyped('Qwen/Qwen3-4B-Instruct-2507', all)).toMatchObject({ entry: { id: 'qwen3-4b' }, how: 'by its Hugging Face id Qwen/Qwen3-4B-Instruct-2507' });
    expect(findTyped('someone/Qwen3-4B-Instruct-2507-AWQ', all)?.how).toBe('as Qwen/Qwen3-4B, the Hugging Face id of the same shape');
    expect(findTyped('no such model', all)).toBeNull();
  });

  it('names the entry an imported Hub id used, and no entry once a dimension is edited', async () => {
    await loadCatalog();
    const entry = findModelPreset('qwen3-4b');
    const imported = { ...entry?.model, name: 'Qwen/Qwen3-4B-Instruct-2507' };
    expect(catalogMatch(imported)).toMatchObject({ entry: { id: 'qwen3-4b' }, hub: { id: 'Qwen/Qwen3-4B-Instruct-2507', resolution: { exact: true } } });
    expect(catalogMatch(entry?.model)).toEqual({ entry });
    expect(catalogMatch({ ...imported, layers: 35 })).toBeUndefined();
  });

  it('a catalog entry without a stated pre-training length keeps the run\'s sequence length; a preset sets its own', async () => {
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

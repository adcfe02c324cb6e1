import { beforeAll, describe, it, expect } from 'vitest';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { getAt } from './doc.ts';
import { HISTORY_MERGE_MS, createPlannerStore } from './store.ts';
import { loadCatalog } from './catalog.ts';

// Model presets come from the catalog, which the page loads lazily.
beforeAll(async () => {
  await loadCatalog();
});

/** A store on a hand-wound clock, so that edits are apart (separate steps) or together (one step) on purpose. */
function storeAt() {
  let t = 0;
  const store = createPlannerStore(DEFAULT_DOCUMENT, false, () => t);
  return {
    store,
    advance: (ms = HISTORY_MERGE_MS + 1) => {
      t += ms;
    },
  };
}

describe('configuration history', () => {
  it('undoes and redoes edits one step at a time', () => {
    const { store, advance } = storeAt();
    store.getState().setField(['training', 'globalBatch'], 512);
    advance();
    store.getState().setField(['training', 'globalBatch'], 1024);
    store.getState().undo();
    expect(getAt(store.getState().document, ['training', 'globalBatch'])).toBe(512);
    store.getState().undo();
    expect(store.getState().document).toBe(DEFAULT_DOCUMENT);
    store.getState().undo(); // nothing left: no change
    expect(store.getState().document).toBe(DEFAULT_DOCUMENT);
    store.getState().redo();
    store.getState().redo();
    expect(getAt(store.getState().document, ['training', 'globalBatch'])).toBe(1024);
  });

  it('counts a quick run of edits (a dragged slider) as one step, and a new edit clears what was undone', () => {
    const { store, advance } = storeAt();
    store.getState().setField(['training', 'globalBatch'], 300);
    advance(10);
    store.getState().setField(['training', 'globalBatch'], 400);
    expect(store.getState().past).toHaveLength(1);
    store.getState().undo();
    expect(store.getState().document).toBe(DEFAULT_DOCUMENT);
    advance();
    store.getState().setField(['training', 'globalBatch'], 128);
    expect(store.getState().future).toHaveLength(0);
  });
});

describe('presets keep what the user set', () => {
  it('a GPU preset keeps a typed price and says so', () => {
    const { store, advance } = storeAt();
    store.getState().setField(['cost', 'usdPerGpuHour'], 1.23);
    advance();
    store.getState().setGpuPreset('a100-80gb');
    expect(getAt(store.getState().document, ['cluster', 'gpu'])).toBe('a100-80gb');
    expect(getAt(store.getState().document, ['cost', 'usdPerGpuHour'])).toBe(1.23);
    expect(store.getState().changeNote?.join(' ')).toMatch(/Kept your price of \$1\.23/);
  });

  it("a GPU preset moves a price that was the previous GPU's own", () => {
    const { store, advance } = storeAt();
    store.getState().setGpuPreset('a100-80gb');
    advance();
    store.getState().setGpuPreset('a100-40gb');
    // gpus.ts: A100 40GB at 1.3 $/h, A100 80GB at 1.8 $/h.
    expect(getAt(store.getState().document, ['cost', 'usdPerGpuHour'])).toBe(1.3);
  });

  it('a model preset that moves the sequence length says so, and Undo restores it', () => {
    const { store, advance } = storeAt();
    store.getState().setField(['training', 'seqLen'], 1234);
    advance();
    store.getState().setModelPreset('llama2-7b');
    expect(store.getState().changeNote?.join(' ')).toMatch(/Sequence length changed from 1,234 to/);
    store.getState().undo();
    expect(getAt(store.getState().document, ['training', 'seqLen'])).toBe(1234);
    expect(store.getState().changeNote).toBeNull();
  });

  it("a preset's note stays through later edits until dismissed, and a later note goes on top of it", () => {
    const { store, advance } = storeAt();
    store.getState().setModelPreset('deepseek-v3');
    const note = store.getState().changeNote ?? [];
    // Dubey et al. / DeepSeek-V3 report section 4.2: the default 8,192 becomes DeepSeek-V3's 4,096 pre-training length.
    expect(note.join(' ')).toMatch(
      /Sequence length changed from 8,192 to 4,096, DeepSeek-V3 671B's pre-training length; its longest context, 131,072/,
    );
    expect(store.getState().changeNoteDocument).toBe(store.getState().document);
    advance();
    store.getState().setField(['training', 'globalBatch'], 512);
    expect(store.getState().changeNote).toEqual(note);
    // The note's Undo is for the noted edit only: it is no longer the current configuration.
    expect(store.getState().changeNoteDocument).not.toBe(store.getState().document);
    advance();
    store.getState().setField(['cost', 'usdPerGpuHour'], 1.23);
    store.getState().setGpuPreset('a100-80gb');
    expect(store.getState().changeNote?.[0]).toMatch(/Kept your price of \$1\.23/);
    expect(store.getState().changeNote?.join(' ')).toContain(note[0]);
    store.getState().dismissChangeNote();
    expect(store.getState().changeNote).toBeNull();
    advance();
    store.getState().setField(['training', 'globalBatch'], 256);
    expect(store.getState().changeNote).toBeNull();
  });

  it('a Llama 3.1 preset sets its 8,192-token pre-training length, not its 131,072-token context', () => {
    const { store } = storeAt();
    store.getState().setField(['training', 'seqLen'], 2048);
    store.getState().setModelPreset('llama3.1-8b');
    expect(getAt(store.getState().document, ['training', 'seqLen'])).toBe(8192);
    expect(store.getState().changeNote?.join(' ')).toMatch(
      /from 2,048 to 8,192, Llama 3\.1 8B's pre-training length; its longest context, 131,072/,
    );
  });
});

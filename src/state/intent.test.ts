import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { getAt, type Doc } from './doc.ts';
import { HISTORY_MERGE_MS, createPlannerStore } from './store.ts';
import { loadCatalog } from './catalog.ts';

// Model presets come from the catalog, which the page loads lazily.
beforeAll(async () => {
  await loadCatalog();
});

function storeAt(doc: Doc = DEFAULT_DOCUMENT) {
  let t = 0;
  const store = createPlannerStore(doc, false, () => t);
  return {
    store,
    advance: () => {
      t += HISTORY_MERGE_MS + 1;
    },
  };
}
const parallel = (doc: Doc) => getAt(doc, ['parallel']) as Record<string, unknown>;
const layoutOf = (doc: Doc) => {
  const p = parallel(doc);
  return { tp: p['tp'], pp: p['pp'], dp: p['dp'], cp: p['cp'], ep: p['ep'], gpus: getAt(doc, ['cluster', 'gpus']) };
};

describe('exploring the GPU count is safe (issue 22)', () => {
  it('64 → 48 → 64 → 24 → 64 gives back TP 8 × PP 4 × DP 2', () => {
    const { store, advance } = storeAt();
    for (const gpus of [48, 64, 24, 64]) {
      store.getState().setGpuCount(gpus);
      advance();
    }
    expect(layoutOf(store.getState().document)).toEqual({ tp: 8, pp: 4, dp: 2, cp: 1, ep: 1, gpus: 64 });
  });

  it('24 GPUs forces PP 4 → 3 and says so; Undo brings 64 back', () => {
    const { store } = storeAt();
    store.getState().setGpuCount(24);
    expect(layoutOf(store.getState().document)).toMatchObject({ tp: 8, pp: 3, dp: 1, gpus: 24 });
    expect(store.getState().changeNote?.[0]).toMatch(/^PP 4 → 3 because 24 GPUs ÷ TP 8 = 3 is not a multiple of PP 4/);
    store.getState().undo();
    expect(store.getState().document).toBe(DEFAULT_DOCUMENT);
  });

  it.each([7, 1e99, 2.5, -1])('a refused count (%s) changes only the count field, and 64 afterwards is the layout as it was', (typo) => {
    const { store, advance } = storeAt();
    store.getState().setGpuCount(typo);
    const after = store.getState().document;
    expect(parallel(after)).toEqual(parallel(DEFAULT_DOCUMENT));
    expect(getAt(after, ['cluster', 'gpus'])).toBe(typo);
    advance();
    store.getState().setGpuCount(64);
    expect(layoutOf(store.getState().document)).toEqual({ tp: 8, pp: 4, dp: 2, cp: 1, ep: 1, gpus: 64 });
  });

  it('a degree the user sets is theirs: PP 2, then 8 GPUs (8 ÷ TP 8 = 1 leaves PP 1), then 64 gives PP 2 back', () => {
    const { store, advance } = storeAt();
    store.getState().setDegree('pp', 2);
    advance();
    store.getState().setGpuCount(8);
    expect(layoutOf(store.getState().document)).toMatchObject({ tp: 8, pp: 1, dp: 1 });
    advance();
    store.getState().setGpuCount(64);
    expect(layoutOf(store.getState().document)).toMatchObject({ tp: 8, pp: 2, dp: 4 });
  });
});

describe('presets, imports and GPU switches say what else they changed', () => {
  it('Mixtral 8x7B: sequence length 8,192 → 32,768 and EP 8 as its recipe, both said; Undo restores', () => {
    const { store } = storeAt();
    store.getState().setModelPreset('mixtral-8x7b');
    const note = store.getState().changeNote?.join('\n') ?? '';
    expect(note).toMatch(/Sequence length changed from 8,192 to 32,768/);
    // 64 GPUs at TP 8 × PP 4 × DP 2: TP × DP × CP = 16 ranks, and 8 experts: EP 8 divides both.
    expect(parallel(store.getState().document)['ep']).toBe(8);
    expect(note).toMatch(/EP 1 → 8/);
    store.getState().undo();
    expect(store.getState().document).toBe(DEFAULT_DOCUMENT);
  });

  it('DeepSeek-V3 opens with EP 16 on 64 GPUs (its authors used 64; TP × DP × CP = 8 × 2 × 1 = 16 ranks allow 16)', () => {
    const { store } = storeAt();
    store.getState().setModelPreset('deepseek-v3');
    expect(parallel(store.getState().document)['ep']).toBe(16);
  });

  it('H100 → H200 moves an untouched price $2.5 → $3.5 and says so; a typed price stays', () => {
    const { store, advance } = storeAt();
    store.getState().setGpuPreset('h200');
    expect(getAt(store.getState().document, ['cost', 'usdPerGpuHour'])).toBe(3.5);
    expect(store.getState().changeNote?.join(' ')).toMatch(/Price per GPU-hour \$2\.5 → \$3\.5/);
    store.getState().undo();
    advance();
    // The user types the H100's own price: it is theirs now, and the switch keeps it.
    store.getState().setField(['cost', 'usdPerGpuHour'], 2.5);
    advance();
    store.getState().setGpuPreset('h200');
    expect(getAt(store.getState().document, ['cost', 'usdPerGpuHour'])).toBe(2.5);
    expect(store.getState().changeNote?.join(' ')).toMatch(/Kept your price of \$2\.5/);
  });

  it('importing a Qwen2.5-7B config.json (28 heads, 4 KV heads) moves TP 8 → 4 and says so', () => {
    const { store } = storeAt();
    store.getState().importHfConfigText(
      JSON.stringify({
        architectures: ['Qwen2ForCausalLM'],
        model_type: 'qwen2',
        hidden_size: 3584,
        intermediate_size: 18944,
        num_attention_heads: 28,
        num_hidden_layers: 28,
        num_key_value_heads: 4,
        vocab_size: 152064,
        tie_word_embeddings: false,
        hidden_act: 'silu',
      }),
    );
    expect(parallel(store.getState().document)['tp']).toBe(4);
    expect(store.getState().changeNote?.[0]).toMatch(/^TP 8 → 4 because 8 does not divide model.heads=28/);
  });
});

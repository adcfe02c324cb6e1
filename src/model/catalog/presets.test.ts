import { describe, it, expect } from 'vitest';
import { parseDocument } from '../input/index.ts';
import { layerMatrices, layerNormParameters } from '../structure/index.ts';
import type { ModelConfig } from '../input/index.ts';
import { MODEL_PRESETS, findModelPreset } from './presets.ts';
import type { ModelPreset } from './types.ts';

function parsed(preset: ModelPreset): ModelConfig {
  const result = parseDocument({
    version: 1,
    model: preset.model,
    training: { seqLen: preset.seqLen, globalBatch: 8 },
    cluster: { gpu: 'h100-sxm' },
  });
  if (!result.ok) throw new Error(`${preset.id}: ${result.errors.join('; ')}`);
  expect(result.warnings).toEqual([]);
  return result.config.model;
}

/**
 * Every weight of the main model, counted here from matrices.ts (independent of
 * params.ts): all copies of every layer matrix + per-layer norms + the final norm +
 * the input embedding and, when untied, the output layer. Biases, position embeddings
 * and MTP modules are left out (each < 0.1 % here, except MTP, tested separately).
 */
function mainModelParameters(m: ModelConfig): number {
  let total = m.hidden + m.vocab * m.hidden * (m.tiedEmbeddings ? 1 : 2);
  for (let layer = 0; layer < m.layers; layer++) {
    total += layerNormParameters(m);
    for (const w of layerMatrices(m, layer)) total += w.copies * w.rows * w.cols;
  }
  return total;
}

const preset = (id: string): ModelPreset => {
  const found = findModelPreset(id);
  if (!found) throw new Error(`no preset ${id}`);
  return found;
};

describe('model presets', () => {
  it('has the required presets, with unique ids, a source and a positive seqLen each', () => {
    const required = [
      'gpt3-175b',
      'llama2-7b',
      'llama2-13b',
      'llama2-70b',
      'llama3-8b',
      'llama3-70b',
      'llama3-405b',
      'llama3.1-8b',
      'llama3.1-70b',
      'llama3.1-405b',
      'mixtral-8x7b',
      'mixtral-8x22b',
      'deepseek-v3',
      'qwen2.5-72b',
      'megatron-1t',
    ];
    for (const id of required) expect(findModelPreset(id), id).toBeDefined();
    expect(new Set(MODEL_PRESETS.map((p) => p.id)).size).toBe(MODEL_PRESETS.length);
    for (const p of MODEL_PRESETS) {
      expect(p.source.length).toBeGreaterThan(20);
      expect(Number.isInteger(p.seqLen) && p.seqLen > 0).toBe(true);
    }
    expect(findModelPreset('no-such-model')).toBeUndefined();
  });

  it('sets the pre-training sequence length, never the longest context, and keeps the longest context as a fact (issue 31 item 3)', () => {
    for (const p of MODEL_PRESETS) {
      expect(p.seqLen, p.id).toBeLessThanOrEqual(p.longestContext);
      expect(p.contextSource.length, p.id).toBeGreaterThan(20);
    }
    // Dubey et al. 2024 (arXiv 2407.21783), sections 3.4.1 and 3.4.2: Llama 3.1 pre-trained at 8,192, extended to 128K.
    for (const id of ['llama3.1-8b', 'llama3.1-70b', 'llama3.1-405b']) {
      expect(preset(id).seqLen).toBe(8192);
      expect(preset(id).longestContext).toBe(131072);
    }
    // DeepSeek-V3 report section 4.2 and Qwen2.5 report section 3.3: 4K pre-training, 128K after extension.
    expect([preset('deepseek-v3').seqLen, preset('deepseek-v3').longestContext]).toEqual([4096, 131072]);
    expect([preset('qwen2.5-72b').seqLen, preset('qwen2.5-72b').longestContext]).toEqual([4096, 131072]);
    // NeMo's Mixtral 8x22B pre-training recipe trains at 4,096; the model reads 64K.
    expect([preset('mixtral-8x22b').seqLen, preset('mixtral-8x22b').longestContext]).toEqual([4096, 65536]);
  });

  it.each(MODEL_PRESETS.map((p) => [p.id, p] as const))('%s parses as a document model with no warnings', (_id, p) => {
    const m = parsed(p);
    expect(m.name).toBe(p.model.name);
    expect(m.layers).toBe(p.model.layers);
  });

  it('Llama 3.1 differs from Llama 3 only in name and context length', () => {
    for (const size of ['8b', '70b', '405b']) {
      const v3 = preset(`llama3-${size}`);
      const v31 = preset(`llama3.1-${size}`);
      expect({ ...v31.model, name: '' }).toEqual({ ...v3.model, name: '' });
      // Both pre-trained at 8,192; only Llama 3.1's long-context stage reaches 128K (arXiv 2407.21783, section 3.4.2).
      expect([v3.seqLen, v3.longestContext]).toEqual([8192, 8192]);
      expect([v31.seqLen, v31.longestContext]).toEqual([8192, 131072]);
    }
  });

  // Stated totals, each from its publisher; the count must land within 0.5 %.
  const statedTotals: readonly (readonly [string, number, string])[] = [
    ['gpt3-175b', 175.0e9, 'Brown et al. 2020, Table 2.1'],
    ['llama2-7b', 6.74e9, 'meta-llama/Llama-2-7b-hf model card (6.74B)'],
    ['llama2-13b', 13.0e9, 'meta-llama/Llama-2-13b-hf model card (13.0B)'],
    ['llama2-70b', 69.0e9, 'meta-llama/Llama-2-70b-hf model card (69.0B)'],
    ['llama3-8b', 8.03e9, 'meta-llama/Meta-Llama-3-8B model card (8.03B)'],
    ['llama3-70b', 70.6e9, 'meta-llama/Meta-Llama-3-70B model card (70.6B)'],
    ['llama3.1-405b', 405.9e9, 'meta-llama/Llama-3.1-405B model card (405.9B)'],
    ['mixtral-8x7b', 46.7e9, 'Mistral AI, Mixtral of experts announcement (46.7B)'],
    ['mixtral-8x22b', 141e9, 'Mistral AI, Mixtral 8x22B announcement (141B)'],
    ['deepseek-v3', 671e9, 'DeepSeek-V3 technical report, abstract (671B, MTP excluded)'],
    ['qwen2.5-72b', 72.7e9, 'Qwen/Qwen2.5-72B model card (72.7B)'],
    ['megatron-1t', 1008e9, 'Narayanan et al. 2021, Table 1 (1008B)'],
  ];
  it.each(statedTotals)('%s has about %d parameters (%s)', (id, stated) => {
    const count = mainModelParameters(parsed(preset(id)));
    expect(Math.abs(count - stated) / stated).toBeLessThan(0.005);
  });

  it('Llama 2 7B counts exactly 6,738,415,616 weights', () => {
    // 32 · (4·4096² + 3·4096·11008 + 2·4096) + 2·32000·4096 + 4096
    // = 32 · 202,383,360 + 262,144,000 + 4,096 = 6,738,415,616 (the safetensors total).
    expect(mainModelParameters(parsed(preset('llama2-7b')))).toBe(6_738_415_616);
  });

  it('DeepSeek-V3 with its MTP module is about the 685B of the released checkpoint', () => {
    // deepseek-ai/DeepSeek-V3 model card: 685B = 671B main model + 14B MTP module. The
    // checkpoint stores the MTP module's own copies of the embedding and output head
    // (2·V·h), its 2h→h projection (section 2.2) and one MoE transformer layer.
    const m = parsed(preset('deepseek-v3'));
    let mtpLayer = layerNormParameters(m);
    for (const w of layerMatrices(m, m.layers)) mtpLayer += w.copies * w.rows * w.cols;
    const mtp = mtpLayer + 2 * m.hidden * m.hidden + 2 * m.vocab * m.hidden;
    const total = mainModelParameters(m) + m.mtpLayers * mtp;
    expect(Math.abs(total - 685e9) / 685e9).toBeLessThan(0.005);
  });
});

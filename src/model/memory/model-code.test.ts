import { describe, expect, it } from 'vitest';
import { activationBytesPerLayer, engineActivationSettings, type ActivationSettings } from './activations.ts';
import { parseDocument, type ModelConfig } from '../input/index.ts';
import { LLAMA2_7B_MODEL } from '../../testing/documents.ts';

// Hugging Face transformers' eager modeling code against the fused inventory (model-code.ts),
// every expected value counted by hand from modeling_llama.py.

// Llama 2 7B: multi-head attention (32 KV heads), SwiGLU of width 11,008.
const llama2_7b: ModelConfig = LLAMA2_7B_MODEL;
const perToken = (modelCode: 'fused' | 'transformers', recompute: ActivationSettings['recompute'] = 'none', m: ModelConfig = llama2_7b) =>
  activationBytesPerLayer(m, 0, {
    seqLen: 1,
    microBatch: 1,
    tp: 1,
    sequenceParallel: false,
    cp: 1,
    recompute,
    selectiveScope: 'elementwise',
    flashAttention: true,
    dropout: false,
    elementBytes: 2,
    modelCode,
  });

describe('model code: one Llama 2 7B layer in bf16 with flash attention, bytes per token', () => {
  it(
    'fused: the two norm inputs, the QKV input, Q and K, the log-sum-exp, V, ' +
      'the output projection input, the MLP input, up, gate and product = 131,712',
    () => {
      // 6 × 2·4096 (norm1, attention input, V, projection input, norm2, MLP input) + 2·(32 + 32)·128 (Q, K)
      // + 4·32 (log-sum-exp) + 3 × 2·11008 (up, gate, product) = 49,152 + 16,384 + 128 + 66,048.
      expect(perToken('fused')).toBe(131_712);
    },
  );
  it("transformers: + one fp32 copy of the hidden state per RMSNorm (2 × 4·4096) + silu's output (2·11008) = 186,496", () => {
    expect(perToken('transformers') - perToken('fused')).toBe(2 * 4 * 4096 + 2 * 11008);
    expect(perToken('transformers')).toBe(186_496);
  });
  it('full recompute keeps only the layer input either way (2·4096)', () => {
    expect(perToken('transformers', 'full')).toBe(8192);
    expect(perToken('fused', 'full')).toBe(8192);
  });
  it('selective recompute of element-wise ops recomputes what the eager code adds', () => {
    expect(perToken('transformers', 'selective')).toBe(perToken('fused', 'selective'));
  });
  it('GELU models (nn.LayerNorm keeps its 16-bit input, as the fused norm does) are unchanged', () => {
    const gpt: ModelConfig = { ...llama2_7b, ffnType: 'gelu', ffnHidden: 16384 };
    expect(perToken('transformers', 'none', gpt)).toBe(perToken('fused', 'none', gpt));
  });
  it("a MoE layer adds silu's output for each of the top-k experts a token visits", () => {
    const moe: ModelConfig = { ...llama2_7b, moe: { experts: 8, topK: 2, expertFfnHidden: 14336, sharedExperts: 0, denseLayers: 0 } };
    expect(perToken('transformers', 'none', moe) - perToken('fused', 'none', moe)).toBe(2 * 4 * 4096 + 2 * 2 * 14336);
  });
});

describe('model code from the framework profile', () => {
  const settings = (training: Record<string, unknown>) => {
    const parsed = parseDocument({
      version: 1,
      model: { layers: 2, hidden: 256, heads: 4, vocab: 1024, ffnType: 'swiglu', ffnHidden: 688 },
      training: { seqLen: 256, globalBatch: 8, microBatch: 1, ...training },
      parallel: { dp: 8, zero: 3 },
      cluster: { gpu: 'a100-80gb', gpus: 8 },
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    return engineActivationSettings(parsed.config);
  };
  it('DeepSpeed trains a transformers model unless the document says otherwise; the other profiles use fused layers', () => {
    expect(settings({ framework: 'deepspeed' }).modelCode).toBe('transformers');
    expect(settings({ framework: 'deepspeed', modelCode: 'fused' }).modelCode).toBeUndefined();
    for (const framework of ['generic', 'megatron', 'torchtitan', 'fsdp']) expect(settings({ framework }).modelCode).toBeUndefined();
    expect(settings({ framework: 'fsdp', modelCode: 'transformers' }).modelCode).toBe('transformers');
  });
});

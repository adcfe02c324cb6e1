import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { findModelPreset } from '../catalog/all.ts';
import { parseDocument } from './document.ts';
import { SUPPORTED_ARCHITECTURES, importHfConfig, type HfImportResult, type ModelJson } from './hf-config.ts';

// Hand-written config.json files, shaped like those on the Hugging Face Hub
// (the keys the importer reads plus some it must ignore).
const LLAMA3_8B = {
  architectures: ['LlamaForCausalLM'],
  attention_bias: false,
  bos_token_id: 128000,
  eos_token_id: 128001,
  hidden_act: 'silu',
  hidden_size: 4096,
  initializer_range: 0.02,
  intermediate_size: 14336,
  max_position_embeddings: 8192,
  model_type: 'llama',
  num_attention_heads: 32,
  num_hidden_layers: 32,
  num_key_value_heads: 8,
  rms_norm_eps: 1e-5,
  rope_scaling: null,
  rope_theta: 500000.0,
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
  vocab_size: 128256,
};

const MIXTRAL_8X7B = {
  _name_or_path: 'mistralai/Mixtral-8x7B-v0.1',
  architectures: ['MixtralForCausalLM'],
  hidden_act: 'silu',
  hidden_size: 4096,
  intermediate_size: 14336,
  max_position_embeddings: 32768,
  model_type: 'mixtral',
  num_attention_heads: 32,
  num_experts_per_tok: 2,
  num_hidden_layers: 32,
  num_key_value_heads: 8,
  num_local_experts: 8,
  router_aux_loss_coef: 0.02,
  sliding_window: null,
  tie_word_embeddings: false,
  vocab_size: 32000,
};

const DEEPSEEK_V3 = {
  architectures: ['DeepseekV3ForCausalLM'],
  first_k_dense_replace: 3,
  hidden_act: 'silu',
  hidden_size: 7168,
  intermediate_size: 18432,
  kv_lora_rank: 512,
  max_position_embeddings: 163840,
  model_type: 'deepseek_v3',
  moe_intermediate_size: 2048,
  moe_layer_freq: 1,
  n_group: 8,
  n_routed_experts: 256,
  n_shared_experts: 1,
  num_attention_heads: 128,
  num_experts_per_tok: 8,
  num_hidden_layers: 61,
  num_key_value_heads: 128,
  num_nextn_predict_layers: 1,
  q_lora_rank: 1536,
  qk_nope_head_dim: 128,
  qk_rope_head_dim: 64,
  quantization_config: { activation_scheme: 'dynamic', fmt: 'e4m3', quant_method: 'fp8', weight_block_size: [128, 128] },
  rope_scaling: { factor: 40, type: 'yarn' },
  routed_scaling_factor: 2.5,
  scoring_func: 'sigmoid',
  tie_word_embeddings: false,
  topk_method: 'noaux_tc',
  v_head_dim: 128,
  vocab_size: 129280,
};

function expectOk(result: HfImportResult): ModelJson {
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result.model;
}

function expectErrors(result: HfImportResult): string[] {
  if (result.ok) throw new Error('expected errors');
  expect(result.errors.length).toBeGreaterThan(0);
  return result.errors;
}

/** An imported model must be a valid interchange `model`. */
function parsesAsDocument(model: ModelJson): boolean {
  return parseDocument({ version: 1, model, training: { seqLen: 1024, globalBatch: 1 }, cluster: { gpu: 'h100-sxm' } }).ok;
}

describe('importHfConfig: supported architectures', () => {
  it('reads Llama 3 8B', () => {
    const result = importHfConfig(LLAMA3_8B);
    const model = expectOk(result);
    expect(model).toEqual({
      name: 'Llama (imported config)',
      layers: 32,
      hidden: 4096,
      heads: 32,
      kvHeads: 8,
      ffnHidden: 14336,
      ffnType: 'swiglu',
      vocab: 128256,
      tiedEmbeddings: false,
      moe: null,
      mla: null,
      mtpLayers: 0,
    });
    expect(result.ok && result.warnings).toEqual([]);
    expect(parsesAsDocument(model)).toBe(true);
    // The same shape as the hand-entered preset.
    expect({ ...model, name: '' }).toEqual({ ...findModelPreset('llama3-8b')?.model, name: '' });
  });

  it('names a model saved from a local folder by the folder, and one without a name by its family, in words', () => {
    expect(expectOk(importHfConfig({ ...LLAMA3_8B, _name_or_path: '/data/checkpoints/qwen2.5-7b/' })).name).toBe('qwen2.5-7b');
    expect(expectOk(importHfConfig({ ...LLAMA3_8B, _name_or_path: 'C:\\models\\llama-3-8b' })).name).toBe('llama-3-8b');
    expect(expectOk(importHfConfig({ ...LLAMA3_8B, architectures: ['Qwen2ForCausalLM'], model_type: 'qwen2' })).name).toBe(
      'Qwen2 (imported config)',
    );
  });

  it('names the model from _name_or_path, and ignores a prototype carrying fields', () => {
    expect(expectOk(importHfConfig({ ...LLAMA3_8B, _name_or_path: 'meta-llama/Meta-Llama-3-8B' })).name).toBe('meta-llama/Meta-Llama-3-8B');
    const { hidden_size: _dropped, ...withoutHidden } = LLAMA3_8B;
    const inherited = Object.assign(Object.create({ hidden_size: 4096 }) as object, withoutHidden);
    expect(expectErrors(importHfConfig(inherited))).toContain('config.json hidden_size: is required');
    // JSON.parse makes "__proto__" an own key; it must not be read as the config's prototype.
    const polluted = JSON.parse(JSON.stringify(withoutHidden).replace('{', '{"__proto__":{"hidden_size":4096},')) as unknown;
    expect(expectErrors(importHfConfig(polluted))).toContain('config.json hidden_size: is required');
    expect(({} as Record<string, unknown>).hidden_size).toBeUndefined();
  });

  it('reads Mixtral 8x7B: 8 experts, top-2, experts as wide as intermediate_size', () => {
    const model = expectOk(importHfConfig(MIXTRAL_8X7B));
    expect(model.name).toBe('mistralai/Mixtral-8x7B-v0.1');
    expect(model.moe).toEqual({ experts: 8, topK: 2, expertFfnHidden: 14336, sharedExperts: 0, denseLayers: 0 });
    expect({ ...model, name: '' }).toEqual({ ...findModelPreset('mixtral-8x7b')?.model, name: '' });
    expect(parsesAsDocument(model)).toBe(true);
  });

  it('reads DeepSeek-V3: MLA, 256 + 1 experts, 3 dense layers, 1 MTP module', () => {
    const model = expectOk(importHfConfig(DEEPSEEK_V3));
    expect(model.mla).toEqual({ qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 });
    expect(model.moe).toEqual({ experts: 256, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 3 });
    expect(model.mtpLayers).toBe(1);
    expect({ ...model, name: '' }).toEqual({ ...findModelPreset('deepseek-v3')?.model, name: '' });
    expect(parsesAsDocument(model)).toBe(true);
  });

  it('reads DeepSeek-V2-Lite style uncompressed queries (q_lora_rank null) as qLoraRank 0', () => {
    const model = expectOk(
      importHfConfig({
        ...DEEPSEEK_V3,
        architectures: ['DeepseekV2ForCausalLM'],
        model_type: 'deepseek_v2',
        q_lora_rank: null,
        num_hidden_layers: 27,
        hidden_size: 2048,
        num_attention_heads: 16,
        n_routed_experts: 64,
        n_shared_experts: 2,
        num_experts_per_tok: 6,
        moe_intermediate_size: 1408,
        first_k_dense_replace: 1,
        intermediate_size: 10944,
        vocab_size: 102400,
        num_nextn_predict_layers: undefined,
      }),
    );
    expect(model.mla?.qLoraRank).toBe(0);
    expect(model.moe).toEqual({ experts: 64, topK: 6, expertFfnHidden: 1408, sharedExperts: 2, denseLayers: 1 });
    expect(model.mtpLayers).toBe(0);
    expect(parsesAsDocument(model)).toBe(true);
  });

  it('reads Qwen3-30B-A3B (head_dim given, no shared experts) and Qwen1.5-MoE (shared expert = 4 expert widths)', () => {
    const qwen3 = expectOk(
      importHfConfig({
        architectures: ['Qwen3MoeForCausalLM'],
        decoder_sparse_step: 1,
        head_dim: 128,
        hidden_act: 'silu',
        hidden_size: 2048,
        intermediate_size: 6144,
        mlp_only_layers: [],
        moe_intermediate_size: 768,
        num_attention_heads: 32,
        num_experts: 128,
        num_experts_per_tok: 8,
        num_hidden_layers: 48,
        num_key_value_heads: 4,
        tie_word_embeddings: false,
        vocab_size: 151936,
      }),
    );
    expect(qwen3).toMatchObject({ heads: 32, kvHeads: 4, headDim: 128, ffnHidden: 6144 });
    expect(qwen3.moe).toEqual({ experts: 128, topK: 8, expertFfnHidden: 768, sharedExperts: 0, denseLayers: 0 });
    // Qwen1.5-MoE-A2.7B: shared_expert_intermediate_size 5632 = 4 × 1408.
    const qwen15 = importHfConfig({
      architectures: ['Qwen2MoeForCausalLM'],
      hidden_size: 2048,
      intermediate_size: 5632,
      moe_intermediate_size: 1408,
      shared_expert_intermediate_size: 5632,
      num_experts: 60,
      num_experts_per_tok: 4,
      num_hidden_layers: 24,
      num_attention_heads: 16,
      num_key_value_heads: 16,
      vocab_size: 151936,
      decoder_sparse_step: 1,
    });
    expect(expectOk(qwen15).moe).toEqual({ experts: 60, topK: 4, expertFfnHidden: 1408, sharedExperts: 4, denseLayers: 0 });
    expect(qwen15.ok && qwen15.warnings).toEqual([]);
  });

  it('counts MoE-free layers that are not leading ones, with a warning', () => {
    // decoder_sparse_step 2: layers 1, 3, 5, ... are MoE, 0, 2, 4, ... dense → 4 of 8 dense.
    const result = importHfConfig({
      architectures: ['Qwen2MoeForCausalLM'],
      hidden_size: 256,
      intermediate_size: 512,
      moe_intermediate_size: 128,
      num_experts: 8,
      num_experts_per_tok: 2,
      num_hidden_layers: 8,
      num_attention_heads: 4,
      vocab_size: 1000,
      decoder_sparse_step: 2,
    });
    expect(expectOk(result).moe?.denseLayers).toBe(4);
    expect(result.ok && result.warnings.join()).toMatch(/decoder_sparse_step/);
  });

  it('reads GPT-2 (n_* keys, n_inner null = 4h, tied) and Gemma (GeGLU counted as three matrices, head_dim 256)', () => {
    const gpt2 = expectOk(
      importHfConfig({
        architectures: ['GPT2LMHeadModel'],
        activation_function: 'gelu_new',
        model_type: 'gpt2',
        n_ctx: 1024,
        n_embd: 768,
        n_head: 12,
        n_inner: null,
        n_layer: 12,
        n_positions: 1024,
        vocab_size: 50257,
      }),
    );
    expect(gpt2).toMatchObject({ layers: 12, hidden: 768, heads: 12, kvHeads: 12, ffnHidden: 3072, ffnType: 'gelu', tiedEmbeddings: true });
    const gemma = importHfConfig({
      architectures: ['GemmaForCausalLM'],
      head_dim: 256,
      hidden_act: 'gelu',
      hidden_size: 3072,
      intermediate_size: 24576,
      num_attention_heads: 16,
      num_hidden_layers: 28,
      num_key_value_heads: 16,
      vocab_size: 256000,
    });
    expect(expectOk(gemma)).toMatchObject({ headDim: 256, ffnType: 'swiglu', tiedEmbeddings: true });
    expect(gemma.ok && gemma.warnings.join()).toMatch(/hidden_act/);
    expect(parsesAsDocument(expectOk(gemma))).toBe(true);
    const bigcode = expectOk(
      importHfConfig({
        architectures: ['GPTBigCodeForCausalLM'],
        n_embd: 6144,
        n_head: 48,
        n_layer: 40,
        n_inner: 24576,
        vocab_size: 49152,
        multi_query: true,
      }),
    );
    expect(bigcode).toMatchObject({ kvHeads: 1, ffnType: 'gelu', ffnHidden: 24576 });
  });

  it('falls back to model_type, with a warning, when architectures names a head it does not know', () => {
    const result = importHfConfig({ ...LLAMA3_8B, architectures: ['LlamaForSequenceClassification'] });
    expect(expectOk(result).layers).toBe(32);
    expect(result.ok && result.warnings.join()).toMatch(/architectures/);
  });
});

describe('importHfConfig: errors, never exceptions', () => {
  it('rejects an unknown architecture, naming architectures and the supported list', () => {
    const [error] = expectErrors(
      importHfConfig({ architectures: ['LlavaForConditionalGeneration'], model_type: 'llava', hidden_size: 4096 }),
    );
    expect(error).toMatch(/^config\.json architectures: "LlavaForConditionalGeneration"/);
    for (const name of SUPPORTED_ARCHITECTURES) expect(error).toContain(name);
  });

  it('names each missing or bad field', () => {
    const { hidden_size: _h, vocab_size: _v, ...missing } = LLAMA3_8B;
    expect(expectErrors(importHfConfig(missing))).toEqual(['config.json hidden_size: is required', 'config.json vocab_size: is required']);
    expect(expectErrors(importHfConfig({ ...LLAMA3_8B, hidden_size: 1e300 }))).toEqual([
      'config.json hidden_size: must be between 1 and 1000000000, got 1e+300',
    ]);
    expect(expectErrors(importHfConfig({ ...LLAMA3_8B, hidden_size: '4096' }))).toEqual([
      'config.json hidden_size: must be a whole number, got "4096"',
    ]);
    expect(expectErrors(importHfConfig({ ...LLAMA3_8B, num_hidden_layers: 32.5 }))[0]).toMatch(
      /^config\.json num_hidden_layers: must be a whole number/,
    );
    expect(expectErrors(importHfConfig({ ...LLAMA3_8B, num_key_value_heads: 5 }))).toEqual([
      'config.json num_key_value_heads: 5 must divide num_attention_heads=32',
    ]);
    expect(expectErrors(importHfConfig({ ...LLAMA3_8B, hidden_size: 4000, num_attention_heads: 48, num_key_value_heads: 8 }))[0]).toMatch(
      /^config\.json head_dim: is required/,
    );
    expect(expectErrors(importHfConfig({ ...MIXTRAL_8X7B, num_experts_per_tok: 9 }))).toEqual([
      'config.json num_experts_per_tok: 9 is more than the 8 experts',
    ]);
    expect(expectErrors(importHfConfig({ ...LLAMA3_8B, tie_word_embeddings: 'no' }))[0]).toMatch(/^config\.json tie_word_embeddings/);
    expect(expectErrors(importHfConfig({ ...LLAMA3_8B, num_hidden_layers: 1e8 }))[0]).toMatch(
      /^config\.json num_hidden_layers: must be between 1 and 100000/,
    );
  });

  it('rejects values that are not a config object', () => {
    for (const garbage of [
      null,
      undefined,
      [],
      [LLAMA3_8B],
      'LlamaForCausalLM',
      42,
      true,
      {},
      { architectures: 'LlamaForCausalLM' },
      { architectures: [42] },
    ]) {
      expect(expectErrors(importHfConfig(garbage))[0]).toMatch(/^config\.json/);
    }
  });

  it('never throws on arbitrary JSON, and whatever it accepts is a valid interchange model', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (raw) => {
        const result = importHfConfig(raw);
        expect(result.ok ? parsesAsDocument(result.model) : result.errors.length > 0).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws when any field of a real config is replaced by anything', () => {
    const keys = [...Object.keys(DEEPSEEK_V3), '__proto__', 'constructor', 'n_inner', 'mlp_only_layers', 'shared_expert_intermediate_size'];
    const architectures = fc.constantFrom(...SUPPORTED_ARCHITECTURES.map((name) => [name]));
    fc.assert(
      fc.property(fc.constantFrom(...keys), fc.anything(), architectures, (key, value, arch) => {
        const raw: Record<string, unknown> = { ...DEEPSEEK_V3, architectures: arch };
        Object.defineProperty(raw, key, { value, enumerable: true, configurable: true, writable: true });
        const result = importHfConfig(raw);
        expect(result.ok ? parsesAsDocument(result.model) : result.errors.length > 0).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

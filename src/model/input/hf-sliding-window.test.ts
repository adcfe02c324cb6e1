import { describe, it, expect } from 'vitest';
import { parseDocument } from './document.ts';
import { importHfConfig, type HfImportResult, type ModelJson } from './hf-config.ts';
import { shortestPeriod } from './hf-sliding-window.ts';

// Real config.json files, key for key.
// https://huggingface.co/openai/gpt-oss-120b/raw/main/config.json (transformers 4.55.0.dev0; layer_types is
// ["sliding_attention", "full_attention"] 18 times, written out below).
const GPT_OSS_120B = {
  architectures: ['GptOssForCausalLM'],
  attention_bias: true,
  attention_dropout: 0.0,
  eos_token_id: 200002,
  experts_per_token: 4,
  head_dim: 64,
  hidden_act: 'silu',
  hidden_size: 2880,
  initial_context_length: 4096,
  initializer_range: 0.02,
  intermediate_size: 2880,
  layer_types: Array.from({ length: 36 }, (_, i) => (i % 2 === 0 ? 'sliding_attention' : 'full_attention')),
  max_position_embeddings: 131072,
  model_type: 'gpt_oss',
  num_attention_heads: 64,
  num_experts_per_tok: 4,
  num_hidden_layers: 36,
  num_key_value_heads: 8,
  num_local_experts: 128,
  output_router_logits: false,
  pad_token_id: 199999,
  quantization_config: {
    modules_to_not_convert: ['model.layers.*.self_attn', 'model.layers.*.mlp.router', 'model.embed_tokens', 'lm_head'],
    quant_method: 'mxfp4',
  },
  rms_norm_eps: 1e-5,
  rope_scaling: {
    beta_fast: 32.0,
    beta_slow: 1.0,
    factor: 32.0,
    original_max_position_embeddings: 4096,
    rope_type: 'yarn',
    truncate: false,
  },
  rope_theta: 150000,
  router_aux_loss_coef: 0.9,
  sliding_window: 128,
  swiglu_limit: 7.0,
  tie_word_embeddings: false,
  transformers_version: '4.55.0.dev0',
  use_cache: true,
  vocab_size: 201088,
};

// https://huggingface.co/google/gemma-3-27b-pt/raw/main/config.json (transformers 4.50.0.dev0): the language model
// under text_config, without vocab_size or sliding_window_pattern (Gemma3TextConfig's defaults 262,208 and 6 apply).
const GEMMA3_27B_PT = {
  architectures: ['Gemma3ForConditionalGeneration'],
  boi_token_index: 255999,
  eoi_token_index: 256000,
  eos_token_id: [1, 106],
  image_token_index: 262144,
  initializer_range: 0.02,
  mm_tokens_per_image: 256,
  model_type: 'gemma3',
  text_config: {
    head_dim: 128,
    hidden_size: 5376,
    intermediate_size: 21504,
    model_type: 'gemma3_text',
    num_attention_heads: 32,
    num_hidden_layers: 62,
    num_key_value_heads: 16,
    query_pre_attn_scalar: 168,
    rope_scaling: { factor: 8.0, rope_type: 'linear' },
    sliding_window: 1024,
  },
  torch_dtype: 'bfloat16',
  transformers_version: '4.50.0.dev0',
  vision_config: {
    hidden_size: 1152,
    image_size: 896,
    intermediate_size: 4304,
    model_type: 'siglip_vision_model',
    num_attention_heads: 16,
    num_hidden_layers: 27,
    patch_size: 14,
    vision_use_head: false,
  },
};

// https://huggingface.co/mistralai/Mistral-7B-v0.1/raw/main/config.json (transformers 4.34.0.dev0).
const MISTRAL_7B_V01 = {
  architectures: ['MistralForCausalLM'],
  bos_token_id: 1,
  eos_token_id: 2,
  hidden_act: 'silu',
  hidden_size: 4096,
  initializer_range: 0.02,
  intermediate_size: 14336,
  max_position_embeddings: 32768,
  model_type: 'mistral',
  num_attention_heads: 32,
  num_hidden_layers: 32,
  num_key_value_heads: 8,
  rms_norm_eps: 1e-5,
  rope_theta: 10000.0,
  sliding_window: 4096,
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
  transformers_version: '4.34.0.dev0',
  use_cache: true,
  vocab_size: 32000,
};

function expectOk(result: HfImportResult): ModelJson {
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result.model;
}

/** An imported model must be a valid interchange `model`, window included. */
function parses(model: ModelJson): boolean {
  return parseDocument({ version: 1, model, training: { seqLen: 4096, globalBatch: 1 }, cluster: { gpu: 'h100-sxm' } }).ok;
}

describe('importHfConfig: sliding-window attention', () => {
  it('GPT-OSS 120B: window 128, its 36-entry layer_types kept as the 2-layer period it repeats', () => {
    const model = expectOk(importHfConfig(GPT_OSS_120B));
    expect(model).toMatchObject({ layers: 36, hidden: 2880, heads: 64, kvHeads: 8, headDim: 64, vocab: 201088, tiedEmbeddings: false });
    expect(model.moe).toMatchObject({ experts: 128, topK: 4, expertFfnHidden: 2880, denseLayers: 0 });
    expect(model.slidingWindow).toEqual({ window: 128, layerTypes: ['sliding_attention', 'full_attention'] });
    expect(parses(model)).toBe(true);
    // Without layer_types, GptOssConfig's own rule gives the same alternation.
    const { layer_types: _omit, ...bare } = GPT_OSS_120B;
    expect(expectOk(importHfConfig(bare)).slidingWindow).toEqual(model.slidingWindow);
  });

  it('Gemma 3 27B (pt): the text_config, window 1024, 5 sliding then 1 full (sliding_window_pattern 6 by default)', () => {
    const result = importHfConfig(GEMMA3_27B_PT);
    const model = expectOk(result);
    expect(model).toMatchObject({ layers: 62, hidden: 5376, heads: 32, kvHeads: 16, headDim: 128, ffnHidden: 21504, vocab: 262208 });
    expect(model.tiedEmbeddings).toBe(true);
    const five = Array<string>(5).fill('sliding_attention');
    expect(model.slidingWindow).toEqual({ window: 1024, layerTypes: [...five, 'full_attention'] });
    expect(parses(model)).toBe(true);
    // A stated pattern wins over the default; an explicit layer_types over both.
    const four = importHfConfig({ ...GEMMA3_27B_PT, text_config: { ...GEMMA3_27B_PT.text_config, sliding_window_pattern: 4 } });
    expect(expectOk(four).slidingWindow?.layerTypes).toEqual([...five.slice(0, 3), 'full_attention']);
  });

  it('Mistral 7B v0.1: window 4096 on every layer (no layerTypes)', () => {
    const model = expectOk(importHfConfig(MISTRAL_7B_V01));
    expect(model.slidingWindow).toEqual({ window: 4096 });
    expect(parses(model)).toBe(true);
    // Mistral 7B v0.2 and later set sliding_window null: no window.
    expect(expectOk(importHfConfig({ ...MISTRAL_7B_V01, sliding_window: null })).slidingWindow).toBeUndefined();
  });

  it('Qwen2: a window only with use_sliding_window, on layers from max_window_layers on', () => {
    const qwen = {
      architectures: ['Qwen2ForCausalLM'],
      hidden_size: 3584,
      intermediate_size: 18944,
      num_attention_heads: 28,
      num_hidden_layers: 28,
      num_key_value_heads: 4,
      vocab_size: 152064,
      sliding_window: 131072,
      max_window_layers: 28,
      use_sliding_window: false,
    };
    // Qwen2.5-7B's own config: use_sliding_window false.
    expect(expectOk(importHfConfig(qwen)).slidingWindow).toBeUndefined();
    // On, with max_window_layers = layers: no layer slides.
    expect(expectOk(importHfConfig({ ...qwen, use_sliding_window: true })).slidingWindow).toBeUndefined();
    const on = expectOk(importHfConfig({ ...qwen, use_sliding_window: true, sliding_window: 4096, max_window_layers: 24 }));
    expect(on.slidingWindow?.window).toBe(4096);
    expect(on.slidingWindow?.layerTypes?.length).toBe(28);
    expect(on.slidingWindow?.layerTypes?.filter((t) => t === 'sliding_attention').length).toBe(4);
    expect(on.slidingWindow?.layerTypes?.[24]).toBe('sliding_attention');
    expect(parses(on)).toBe(true);
  });

  it('architectures without a window ignore a sliding_window key; bad layer_types are named', () => {
    expect(
      expectOk(importHfConfig({ ...MISTRAL_7B_V01, architectures: ['LlamaForCausalLM'], model_type: 'llama' })).slidingWindow,
    ).toBeUndefined();
    const short = importHfConfig({ ...GPT_OSS_120B, layer_types: ['sliding_attention'] });
    expect(short.ok ? [] : short.errors).toEqual([
      'config.json layer_types: must list one attention kind for each of the 36 layers, got a list',
    ]);
    const chunked = importHfConfig({
      ...GPT_OSS_120B,
      layer_types: Array<string>(36).fill('chunked_attention').fill('sliding_attention', 0, 1),
    });
    expect(chunked.ok && chunked.warnings).toEqual(['config.json layer_types: "chunked_attention" counted as "full_attention"']);
    const bad = importHfConfig({ ...GEMMA3_27B_PT, text_config: { ...GEMMA3_27B_PT.text_config, sliding_window: 'wide' } });
    expect(bad.ok ? [] : bad.errors).toEqual(['config.json text_config.sliding_window: must be a whole number, got "wide"']);
  });

  it('keeps the shortest repeating period', () => {
    expect(shortestPeriod(['a', 'b', 'a', 'b', 'a'])).toEqual(['a', 'b']);
    expect(shortestPeriod(['a', 'a', 'b'])).toEqual(['a', 'a', 'b']);
    expect(shortestPeriod(['a'])).toEqual(['a']);
  });
});

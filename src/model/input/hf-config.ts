// Imports a Hugging Face transformers `config.json` into the interchange document's
// `model` object (docs/spec/interchange.md). Untrusted input: own properties
// only, every number checked, never throws; unknown keys are ignored silently
// because real configs carry dozens of generation and tokenizer settings.

import { MAX_INTEGER_FIELD, MAX_LAYERS, describe, isObject, own, type JsonObject } from './fields.ts';
import { readHfSlidingWindow, type WindowRule } from './hf-sliding-window.ts';
import type { FfnType, MlaConfig, ModelConfig, MoeConfig } from './types.ts';

/** The interchange `model` object as JSON: ModelConfig with headDim left to its default (hidden / heads). */
export type ModelJson = Omit<ModelConfig, 'headDim'> & { readonly headDim?: number };

export type HfImportResult =
  { readonly ok: true; readonly model: ModelJson; readonly warnings: string[] } | { readonly ok: false; readonly errors: string[] };

type Family = 'llama' | 'mixtral' | 'qwenMoe' | 'deepseek' | 'gpt2' | 'gptNeox' | 'gemma';

interface Architecture {
  readonly family: Family;
  readonly modelType: string;
  /** The transformers config class's default for tie_word_embeddings. */
  readonly tiedByDefault: boolean;
  /** Which layers slide when the config has a sliding_window (hf-sliding-window.ts); absent: none. */
  readonly window?: WindowRule;
  /** The text model's keys sit under `text_config` (multimodal checkpoints). */
  readonly textConfig?: true;
  /** The config class's default vocab_size, for configs that leave it out. */
  readonly vocabByDefault?: number;
}

/** Gemma3TextConfig's default vocab_size (transformers configuration_gemma3.py @008f5c8c: vocab_size=262_208), which gemma-3-*-pt configs leave out. */
const GEMMA3_VOCAB = 262_208;
const GEMMA3 = { family: 'gemma', tiedByDefault: true, window: 'pattern', vocabByDefault: GEMMA3_VOCAB } as const;

const ARCHITECTURES: ReadonlyMap<string, Architecture> = new Map<string, Architecture>([
  ['LlamaForCausalLM', { family: 'llama', modelType: 'llama', tiedByDefault: false }],
  ['MistralForCausalLM', { family: 'llama', modelType: 'mistral', tiedByDefault: false, window: 'every' }],
  ['Qwen2ForCausalLM', { family: 'llama', modelType: 'qwen2', tiedByDefault: false, window: 'qwen' }],
  ['Qwen3ForCausalLM', { family: 'llama', modelType: 'qwen3', tiedByDefault: false, window: 'qwen' }],
  ['MixtralForCausalLM', { family: 'mixtral', modelType: 'mixtral', tiedByDefault: false, window: 'every' }],
  ['GptOssForCausalLM', { family: 'mixtral', modelType: 'gpt_oss', tiedByDefault: false, window: 'alternate' }],
  ['Qwen2MoeForCausalLM', { family: 'qwenMoe', modelType: 'qwen2_moe', tiedByDefault: false, window: 'qwen' }],
  ['Qwen3MoeForCausalLM', { family: 'qwenMoe', modelType: 'qwen3_moe', tiedByDefault: false, window: 'qwen' }],
  ['DeepseekV2ForCausalLM', { family: 'deepseek', modelType: 'deepseek_v2', tiedByDefault: false }],
  ['DeepseekV3ForCausalLM', { family: 'deepseek', modelType: 'deepseek_v3', tiedByDefault: false }],
  ['GPT2LMHeadModel', { family: 'gpt2', modelType: 'gpt2', tiedByDefault: true }],
  ['GPTBigCodeForCausalLM', { family: 'gpt2', modelType: 'gpt_bigcode', tiedByDefault: true }],
  ['GPTNeoXForCausalLM', { family: 'gptNeox', modelType: 'gpt_neox', tiedByDefault: false }],
  ['GemmaForCausalLM', { family: 'gemma', modelType: 'gemma', tiedByDefault: true }],
  ['Gemma2ForCausalLM', { family: 'gemma', modelType: 'gemma2', tiedByDefault: true, window: 'alternate' }],
  ['Gemma3ForCausalLM', { ...GEMMA3, modelType: 'gemma3_text' }],
  ['Gemma3ForConditionalGeneration', { ...GEMMA3, modelType: 'gemma3', textConfig: true }],
]);

export const SUPPORTED_ARCHITECTURES: readonly string[] = [...ARCHITECTURES.keys()];

const BY_MODEL_TYPE: ReadonlyMap<string, string> = new Map([...ARCHITECTURES].map(([name, a]) => [a.modelType, name]));

/** Activations whose gated MLP is SwiGLU proper; other gated ones (GeGLU) have the same three matrices. */
const SWIGLU_ACTIVATIONS = ['silu', 'swish'];
const MAX_MTP_LAYERS = 64;
const MAX_NAME_LENGTH = 200;

/** Field-named readers over one config object; errors read `config.json hidden_size: is required`. */
class ConfigReader {
  readonly errors: string[] = [];
  readonly warnings: string[] = [];
  readonly raw: JsonObject;
  /** Where `raw` sits in config.json ('text_config.'), for the messages. */
  private readonly prefix: string;

  constructor(raw: JsonObject, prefix = '') {
    this.raw = raw;
    this.prefix = prefix;
  }

  error(key: string, message: string): void {
    this.errors.push(`config.json ${this.prefix}${key}: ${message}`);
  }

  warn(key: string, message: string): void {
    this.warnings.push(`config.json ${this.prefix}${key}: ${message}`);
  }

  /** The first of `keys` present (aliases across architectures); errors name keys[0]. */
  private present(keys: readonly string[]): { key: string; value: unknown } {
    for (const key of keys) {
      const value = own(this.raw, key);
      if (value !== undefined && value !== null) return { key, value };
    }
    return { key: keys[0] ?? '', value: undefined };
  }

  /** A whole number in [min, MAX_INTEGER_FIELD]; absent or null gives `fallback`, or an error when there is none. */
  integer(keys: string | readonly string[], fallback?: number, min = 1, max = MAX_INTEGER_FIELD): number {
    const { key, value } = this.present(typeof keys === 'string' ? [keys] : keys);
    if (value === undefined) {
      if (fallback === undefined) this.error(key, 'is required');
      return fallback ?? min;
    }
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      this.error(key, `must be a whole number, got ${describe(value)}`);
      return fallback ?? min;
    }
    if (value < min || value > max) {
      this.error(key, `must be between ${min} and ${max}, got ${value}`);
      return fallback ?? min;
    }
    return value;
  }

  has(key: string): boolean {
    const value = own(this.raw, key);
    return value !== undefined && value !== null;
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = own(this.raw, key);
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') {
      this.error(key, `must be true or false, got ${describe(value)}`);
      return fallback;
    }
    return value;
  }

  text(keys: readonly string[]): string | undefined {
    const { value } = this.present(keys);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  }
}

/** Reads `architectures[0]`, falling back to `model_type`; null with an error when neither is supported. */
function resolveArchitecture(r: ConfigReader): { name: string; arch: Architecture } | null {
  const list = own(r.raw, 'architectures');
  const first: unknown = Array.isArray(list) ? list[0] : undefined;
  const named = typeof first === 'string' ? first : undefined;
  const direct = named === undefined ? undefined : ARCHITECTURES.get(named);
  if (named !== undefined && direct) return { name: named, arch: direct };
  const modelType = own(r.raw, 'model_type');
  const viaType = typeof modelType === 'string' ? BY_MODEL_TYPE.get(modelType) : undefined;
  const arch = viaType === undefined ? undefined : ARCHITECTURES.get(viaType);
  if (viaType !== undefined && arch) {
    if (named !== undefined)
      r.warn('architectures', `${describe(named)} is not one this importer knows; read as model_type ${describe(modelType)} (${viaType})`);
    return { name: viaType, arch };
  }
  const given = named !== undefined ? describe(named) : list === undefined ? 'missing' : `${describe(list)} without a name`;
  const typeNote = typeof modelType === 'string' ? ` (model_type ${describe(modelType)})` : '';
  r.error('architectures', `${given}${typeNote} is not supported; supported: ${SUPPORTED_ARCHITECTURES.join(', ')}`);
  return null;
}

/**
 * Leading dense layers, from a per-layer "is this an MoE layer" rule. The interchange
 * format puts all dense layers first (DeepSeek's first_k_dense_replace); any other
 * pattern keeps the count, so parameters and FLOPs stay right, and warns.
 */
function denseLayerCount(r: ConfigReader, layers: number, isMoe: (layer: number) => boolean, keys: string): number {
  let dense = 0;
  let seenMoe = false;
  let interleaved = false;
  for (let layer = 0; layer < layers; layer++) {
    if (isMoe(layer)) seenMoe = true;
    else {
      dense++;
      interleaved ||= seenMoe;
    }
  }
  if (interleaved)
    r.warn(keys, `${dense} of ${layers} layers are dense but not all first; counted as the first ${dense} (totals unchanged)`);
  return dense;
}

function readMlpOnlyLayers(r: ConfigReader): ReadonlySet<number> {
  const list = own(r.raw, 'mlp_only_layers');
  if (list === undefined || list === null) return new Set();
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'number' && Number.isInteger(x))) {
    r.error('mlp_only_layers', `must be a list of layer indices, got ${describe(list)}`);
    return new Set();
  }
  return new Set(list as number[]);
}

function readQwenMoe(r: ConfigReader, layers: number): MoeConfig {
  const experts = r.integer('num_experts');
  const topK = r.integer('num_experts_per_tok');
  const expertFfnHidden = r.integer('moe_intermediate_size');
  // Qwen2-MoE has one shared expert of its own width; the interchange format counts shared width in expert units.
  const sharedWidth = r.integer('shared_expert_intermediate_size', 0, 0);
  const sharedExperts = Math.round(sharedWidth / expertFfnHidden);
  if (sharedExperts * expertFfnHidden !== sharedWidth) {
    r.warn(
      'shared_expert_intermediate_size',
      `${sharedWidth} is not a multiple of moe_intermediate_size=${expertFfnHidden}; counted as ${sharedExperts} expert widths`,
    );
  }
  const step = r.integer('decoder_sparse_step', 1);
  const mlpOnly = readMlpOnlyLayers(r);
  const denseLayers = denseLayerCount(r, layers, (i) => !mlpOnly.has(i) && (i + 1) % step === 0, 'decoder_sparse_step/mlp_only_layers');
  return { experts, topK, expertFfnHidden, sharedExperts, denseLayers };
}

function readDeepseekMoe(r: ConfigReader, layers: number): MoeConfig | null {
  if (!r.has('n_routed_experts')) return null;
  const experts = r.integer('n_routed_experts');
  const firstKDense = r.integer('first_k_dense_replace', 0, 0);
  const frequency = r.integer('moe_layer_freq', 1);
  const denseLayers = denseLayerCount(r, layers, (i) => i >= firstKDense && i % frequency === 0, 'first_k_dense_replace/moe_layer_freq');
  return {
    experts,
    topK: r.integer('num_experts_per_tok'),
    expertFfnHidden: r.integer('moe_intermediate_size'),
    sharedExperts: r.integer('n_shared_experts', 0, 0),
    denseLayers,
  };
}

function readMoe(r: ConfigReader, family: Family, layers: number): MoeConfig | null {
  if (family === 'qwenMoe') return readQwenMoe(r, layers);
  if (family === 'deepseek') return readDeepseekMoe(r, layers);
  if (family !== 'mixtral') return null;
  // Mixtral's experts are the Mistral FFN, intermediate_size wide, in every layer.
  const experts = r.integer('num_local_experts');
  return {
    experts,
    topK: r.integer('num_experts_per_tok'),
    expertFfnHidden: r.integer('intermediate_size'),
    sharedExperts: 0,
    denseLayers: 0,
  };
}

/** DeepSeek-V2 (arXiv 2405.04434, section 2.1.2) latent attention; a null q_lora_rank means uncompressed queries. */
function readMla(r: ConfigReader): MlaConfig {
  return {
    qLoraRank: r.integer('q_lora_rank', 0, 0),
    kvLoraRank: r.integer('kv_lora_rank'),
    qkNopeHeadDim: r.integer('qk_nope_head_dim'),
    qkRopeHeadDim: r.integer('qk_rope_head_dim'),
    vHeadDim: r.integer('v_head_dim'),
  };
}

function readFfnType(r: ConfigReader, family: Family): FfnType {
  if (family === 'gpt2' || family === 'gptNeox') return 'gelu';
  const key = r.has('hidden_activation') ? 'hidden_activation' : 'hidden_act';
  const activation = r.text([key]);
  if (activation !== undefined && !SWIGLU_ACTIVATIONS.includes(activation)) {
    r.warn(key, `${describe(activation)} gates a three-matrix MLP like SwiGLU; counted as ffnType "swiglu" (same shapes and FLOPs)`);
  }
  return 'swiglu';
}

function readModel(r: ConfigReader, name: string, arch: Architecture): ModelJson {
  const gptStyle = arch.family === 'gpt2';
  const layers = r.integer(gptStyle ? ['n_layer', 'num_hidden_layers'] : 'num_hidden_layers', undefined, 1, MAX_LAYERS);
  const hidden = r.integer(gptStyle ? ['n_embd', 'hidden_size'] : 'hidden_size');
  const heads = r.integer(gptStyle ? ['n_head', 'num_attention_heads'] : 'num_attention_heads');
  const vocab = r.integer('vocab_size', arch.vocabByDefault);
  const multiQuery = arch.modelType === 'gpt_bigcode' && r.boolean('multi_query', true);
  const kvHeads = multiQuery ? 1 : r.integer('num_key_value_heads', heads);
  const isMla = arch.family === 'deepseek';
  const mla = isMla ? readMla(r) : null;
  const headDim = isMla || !r.has('head_dim') ? undefined : r.integer('head_dim');
  // Cross-field rules only once the fields themselves are sound, so one bad value gives one error.
  const shapeRead = r.errors.length === 0;
  if (shapeRead && !isMla && headDim === undefined && hidden % heads !== 0) {
    r.error('head_dim', `is required when num_attention_heads=${heads} does not divide hidden_size=${hidden}`);
  }
  if (shapeRead && !isMla && (kvHeads > heads || heads % kvHeads !== 0)) {
    r.error('num_key_value_heads', `${kvHeads} must divide num_attention_heads=${heads}`);
  }

  const moe = readMoe(r, arch.family, layers);
  if (r.errors.length === 0 && moe && moe.topK > moe.experts)
    r.error('num_experts_per_tok', `${moe.topK} is more than the ${moe.experts} experts`);
  // An all-MoE model may omit the dense FFN width; the interchange format still wants one.
  const ffnFallback = moe && moe.denseLayers === 0 ? moe.expertFfnHidden : gptStyle ? 4 * hidden : undefined;
  const ffnHidden =
    arch.family === 'mixtral' && moe
      ? moe.expertFfnHidden
      : r.integer(gptStyle ? ['n_inner', 'intermediate_size'] : 'intermediate_size', ffnFallback);

  return {
    name,
    layers,
    hidden,
    heads,
    kvHeads: isMla ? heads : kvHeads,
    ...(headDim === undefined ? {} : { headDim }),
    ffnHidden,
    ffnType: readFfnType(r, arch.family),
    vocab,
    tiedEmbeddings: r.boolean('tie_word_embeddings', arch.tiedByDefault),
    moe,
    mla,
    mtpLayers: isMla ? r.integer('num_nextn_predict_layers', 0, 0, MAX_MTP_LAYERS) : 0,
    ...readHfSlidingWindow(r, arch.window ?? 'none', layers),
  };
}

/** The architecture class without the head it was saved with: "Qwen2ForCausalLM" → "Qwen2", "GPT2LMHeadModel" → "GPT2". */
function familyName(architecture: string): string {
  return architecture.replace(/(For(CausalLM|ConditionalGeneration|SequenceClassification)|LMHeadModel|Model)$/, '') || architecture;
}

/** A hub id stays as it is ("Qwen/Qwen2.5-7B"); a local path gives its last folder ("/data/ckpt/qwen2.5-7b/" → "qwen2.5-7b"). */
function readableNameOrPath(nameOrPath: string): string {
  const trimmed = nameOrPath.trim().replace(/[\\/]+$/, '');
  const local = /^([./~\\]|[A-Za-z]:[\\/])/.test(trimmed);
  return (local ? trimmed.split(/[\\/]/).pop() : trimmed) || nameOrPath;
}

/** A multimodal checkpoint's language model: its keys under `text_config` (errors still name config.json's keys). */
function textConfigReader(r: ConfigReader): ConfigReader | null {
  const text = own(r.raw, 'text_config');
  if (isObject(text)) return new ConfigReader(text, 'text_config.');
  r.error('text_config', `must be the language model's config object, got ${describe(text)}`);
  return null;
}

/** A Hugging Face config.json (already JSON-parsed) → the interchange `model` object, or field-named errors. */
export function importHfConfig(raw: unknown): HfImportResult {
  if (!isObject(raw)) return { ok: false, errors: [`config.json: must be a JSON object, got ${describe(raw)}`] };
  const r = new ConfigReader(raw);
  const resolved = resolveArchitecture(r);
  if (!resolved) return { ok: false, errors: r.errors };
  const nameOrPath = r.text(['_name_or_path', 'name_or_path']);
  const name = (nameOrPath === undefined ? `${familyName(resolved.name)} (imported config)` : readableNameOrPath(nameOrPath)).slice(
    0,
    MAX_NAME_LENGTH,
  );
  const text = resolved.arch.textConfig ? textConfigReader(r) : r;
  if (!text) return { ok: false, errors: r.errors };
  const model = readModel(text, name, resolved.arch);
  if (text.errors.length > 0) return { ok: false, errors: text.errors };
  return { ok: true, model, warnings: [...r.warnings, ...(text === r ? [] : text.warnings)] };
}

// The sliding window of a Hugging Face config.json, read into model.slidingWindow: the
// window is `sliding_window`; which layers slide is `layer_types` where the config lists
// it, otherwise the rule the architecture's transformers config class applies to build it:
// - GPT-OSS, Gemma 2: alternate from a sliding layer 0 (configuration_gpt_oss.py
//   @02b8f42b4: "sliding_attention" if bool((i + 1) % 2) else "full_attention");
// - Gemma 3: sliding_window_pattern − 1 sliding then one full, pattern 6 by default
//   (configuration_gemma3.py: bool((i + 1) % self._sliding_window_pattern));
// - Qwen2/Qwen3 (and their MoE): only with use_sliding_window, on layers from
//   max_window_layers on, 28 by default (configuration_qwen2.py @008e5743:
//   "sliding_attention" if self.sliding_window is not None and i >= self.max_window_layers);
// - Mistral: every layer (MistralConfig has no layer_types; sliding_window applies to all);
// - the others (Llama, Mixtral with sliding_window null, DeepSeek, GPT-2, GPT-NeoX, Gemma):
//   no window.
// The list is kept as its shortest repeating period (the field repeats it from layer 0).

import { describe, own, type JsonObject } from './fields.ts';
import { ATTENTION_LAYER_TYPES, type AttentionLayerType, type SlidingWindowConfig } from './types.ts';

export type WindowRule = 'none' | 'every' | 'alternate' | 'pattern' | 'qwen';

/** What of hf-config.ts's ConfigReader this file uses. */
export interface WindowConfigReader {
  readonly raw: JsonObject;
  integer(keys: string, fallback?: number, min?: number): number;
  boolean(key: string, fallback: boolean): boolean;
  has(key: string): boolean;
  warn(key: string, message: string): void;
  error(key: string, message: string): void;
}

/** Gemma3TextConfig's default sliding_window_pattern (configuration_gemma3.py: kwargs.get("sliding_window_pattern", 6)). */
const GEMMA3_PATTERN = 6;
/** Qwen2Config's default max_window_layers (configuration_qwen2.py @008e5743: max_window_layers: int = 28). */
const QWEN_MAX_WINDOW_LAYERS = 28;
const SLIDING: AttentionLayerType = 'sliding_attention';
const FULL: AttentionLayerType = 'full_attention';

export function readHfSlidingWindow(r: WindowConfigReader, rule: WindowRule, layers: number): { slidingWindow?: SlidingWindowConfig } {
  if (rule === 'none' || !r.has('sliding_window')) return {};
  if (rule === 'qwen' && !r.boolean('use_sliding_window', false)) return {};
  const window = r.integer('sliding_window');
  const types = r.has('layer_types') ? listedLayerTypes(r, layers) : ruleLayerTypes(r, rule, layers);
  if (types === null || !types.includes(SLIDING)) return {};
  const period = shortestPeriod(types);
  return { slidingWindow: period.every((t) => t === SLIDING) ? { window } : { window, layerTypes: period } };
}

function ruleLayerTypes(r: WindowConfigReader, rule: WindowRule, layers: number): readonly AttentionLayerType[] {
  if (rule === 'alternate') return [SLIDING, FULL];
  if (rule === 'pattern') {
    const pattern = r.integer('sliding_window_pattern', GEMMA3_PATTERN);
    return [...Array<AttentionLayerType>(pattern - 1).fill(SLIDING), FULL];
  }
  if (rule === 'qwen') {
    const fullLayers = r.integer('max_window_layers', QWEN_MAX_WINDOW_LAYERS, 0);
    return Array.from({ length: layers }, (_, i) => (i >= fullLayers ? SLIDING : FULL));
  }
  return [SLIDING];
}

/** `layer_types` as listed: one entry a layer; a kind other than sliding or full (chunked, linear) is counted as full attention, with a warning. */
function listedLayerTypes(r: WindowConfigReader, layers: number): readonly AttentionLayerType[] | null {
  const value = own(r.raw, 'layer_types');
  if (!Array.isArray(value) || value.length !== layers) {
    r.error('layer_types', `must list one attention kind for each of the ${layers} layers, got ${describe(value)}`);
    return null;
  }
  const others = new Set<string>();
  const types = (value as readonly unknown[]).map((item) => {
    const match = ATTENTION_LAYER_TYPES.find((t) => t === item);
    if (match === undefined) others.add(describe(item));
    return match ?? FULL;
  });
  if (others.size > 0) r.warn('layer_types', `${[...others].join(', ')} counted as "full_attention"`);
  return types;
}

/** The shortest list that, repeated from layer 0, gives `types` back. */
export function shortestPeriod<T>(types: readonly T[]): readonly T[] {
  for (let period = 1; period < types.length; period++) {
    if (types.every((t, i) => t === types[i % period])) return types.slice(0, period);
  }
  return types;
}

// model.slidingWindow (a project field, docs/document-fields.md): sliding-window attention
// on some or all layers, in Hugging Face transformers' own terms (`sliding_window`,
// `layer_types`). Read once here; the engine asks structure/attention-window.ts which
// layers slide and how many keys they count.

import { describe, own, type FieldReader, type JsonObject } from './fields.ts';
import { keysUnder } from './schema.ts';
import { ATTENTION_LAYER_TYPES, type AttentionLayerType, type ModelConfig, type SlidingWindowConfig } from './types.ts';

const PATH = 'model.slidingWindow';

/** Absent or null: full attention everywhere, and the key stays out of the config (older documents read exactly as before). */
export function readSlidingWindow(r: FieldReader, m: JsonObject): { slidingWindow?: SlidingWindowConfig } {
  const o = r.section(m, 'slidingWindow', PATH);
  if (!o) return {};
  r.unknownKeys(o, keysUnder(PATH), PATH);
  const window = r.integer(o, 'window', PATH, undefined);
  const layerTypes = readLayerTypes(r, o);
  return { slidingWindow: layerTypes ? { window, layerTypes } : { window } };
}

function readLayerTypes(r: FieldReader, o: JsonObject): readonly AttentionLayerType[] | undefined {
  const value = own(o, 'layerTypes');
  if (value === undefined || value === null) return undefined;
  const vocabulary = `"${ATTENTION_LAYER_TYPES.join('" or "')}"`;
  if (!Array.isArray(value) || value.length === 0) {
    r.error(`${PATH}.layerTypes`, `must be a non-empty list of ${vocabulary}, one a layer from layer 0, got ${describe(value)}`);
    return undefined;
  }
  const types: AttentionLayerType[] = [];
  for (const [index, item] of (value as readonly unknown[]).entries()) {
    const match = ATTENTION_LAYER_TYPES.find((t) => t === item);
    if (match === undefined) {
      r.error(`${PATH}.layerTypes`, `entry ${index} is ${describe(item)}, not ${vocabulary}`);
      return undefined;
    }
    types.push(match);
  }
  return types;
}

/** The rule between fields: a pattern longer than the model has layers names layers that do not exist. */
export function slidingWindowProblem(model: ModelConfig): string | null {
  const types = model.slidingWindow?.layerTypes;
  if (!types || types.length <= model.layers) return null;
  return `${PATH}.layerTypes: has ${types.length} entries, more than model.layers=${model.layers} (a shorter list repeats from layer 0)`;
}

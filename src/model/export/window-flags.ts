// model.slidingWindow as Megatron-LM flags (arguments.py @core_v0.15.0): `--window-size`
// is Transformer Engine's (left, right) window, query i attending keys i − left … i + right,
// so a Hugging Face window of w keys (the query included) is "w − 1,0", as Megatron-Bridge
// maps it (src/megatron/bridge/models/gpt_oss/gpt_oss_bridge.py @v0.5.0: window_size =
// (sliding_window − 1, 0)). `--window-attn-skip-freq` says which layers slide: N for full
// attention on every Nth layer (1-based), N − 1 sliding between, or a list expression with
// one entry a layer, 1 sliding (transformer_config.py @core_v0.15.0, window_attn_skip_freq);
// absent, every layer slides.

import type { Flag } from './common.ts';
import type { ModelConfig } from '../input/index.ts';

export function slidingWindowFlags(m: ModelConfig): Flag[] {
  const sw = m.slidingWindow;
  if (!sw) return [];
  const flags: Flag[] = [['--window-size', `"${sw.window - 1},0"`]];
  const types = sw.layerTypes;
  if (!types || types.every((t) => t === 'sliding_attention')) return flags;
  const bits = types.map((t) => (t === 'sliding_attention' ? 1 : 0));
  const last = bits.length - 1;
  if (bits[last] === 0 && bits.slice(0, last).every((b) => b === 1)) {
    return [...flags, ['--window-attn-skip-freq', bits.length]];
  }
  const repeats = Math.floor(m.layers / bits.length);
  const rest = bits.slice(0, m.layers % bits.length);
  const expression = `[${bits.join(',')}]*${repeats}${rest.length > 0 ? `+[${rest.join(',')}]` : ''}`;
  return [...flags, ['--window-attn-skip-freq', `"(${expression})"`]];
}

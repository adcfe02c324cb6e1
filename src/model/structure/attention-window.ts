// Which layers attend through a sliding window (model.slidingWindow), and how many keys a
// query's attention scores count there: the one rule that model FLOPs, MFU, selective
// recomputation and the attention kernels' time all read.

import type { ModelConfig } from '../input/index.ts';

/**
 * Whether layer `layerIndex` (0-based) slides: `layerTypes` read cyclically from layer 0
 * (Hugging Face `layer_types`; GPT-OSS "sliding_attention", "full_attention" × 18), every
 * layer when it is absent. The MTP modules' layers (index ≥ model.layers) attend in full:
 * no config says otherwise, and Megatron-Bridge's FLOP count leaves them out of the window
 * pattern too (src/megatron/bridge/training/utils/flop_utils.py @v0.6.0,
 * count_hybrid_swa_attention_layers).
 */
export function isSlidingWindowLayer(model: ModelConfig, layerIndex: number): boolean {
  const sw = model.slidingWindow;
  if (!sw || layerIndex >= model.layers) return false;
  const types = sw.layerTypes;
  return !types || types[layerIndex % types.length] === 'sliding_attention';
}

/** How many of the `model.layers` main layers slide. */
export function slidingWindowLayerCount(model: ModelConfig): number {
  const sw = model.slidingWindow;
  if (!sw) return 0;
  const types = sw.layerTypes;
  if (!types) return model.layers;
  let count = 0;
  for (let i = 0; i < model.layers; i++) if (types[i % types.length] === 'sliding_attention') count++;
  return count;
}

/**
 * Keys per query that a `window`-wide causal sliding window counts in a `seqLen`-token
 * sequence, in the engine's convention. That convention counts full attention at seqLen
 * keys a query, not the causal mask's mean (seqLen + 1) / 2 (Narayanan et al. 2021,
 * section 5.1; structure/flops.ts): twice the keys a causal query really sees. The same
 * factor on a window: query i (1-based) sees min(i, w) keys, a mean over the sequence of
 *   (w(w + 1)/2 + (s − w)·w) / s = w − w(w − 1)/(2s)            (w < s)
 * (Megatron-Bridge counts exactly this mean against s/2 for full attention:
 * src/megatron/bridge/training/utils/flop_utils.py @v0.5.0, `swa_context`, "Exact average
 * causal SWA context"), so the engine counts 2w − w(w − 1)/s, never more than seqLen; a
 * window as long as the sequence is full attention. GPT-OSS, w 128, s 4,096: 252.03 keys
 * against 4,096. The time model takes causalAttentionFraction (½) of this, the true mean.
 */
export function windowKeyTokens(window: number, seqLen: number): number {
  if (window >= seqLen) return seqLen;
  return Math.min(seqLen, 2 * window - (window * (window - 1)) / seqLen);
}

/** Keys per query layer `layerIndex` counts in the engine's convention: seqLen, or its window's (windowKeyTokens). */
export function attentionKeyTokens(model: ModelConfig, layerIndex: number, seqLen: number): number {
  const sw = model.slidingWindow;
  return sw && isSlidingWindowLayer(model, layerIndex) ? windowKeyTokens(sw.window, seqLen) : seqLen;
}

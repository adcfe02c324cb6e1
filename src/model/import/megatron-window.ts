// Megatron-LM's sliding-window flags → model.slidingWindow, the inverse of
// export/window-flags.ts (whose header cites arguments.py and transformer_config.py
// @core_v0.15.0): `--window-size "left,right"` is Transformer Engine's window, so a causal
// (w − 1, 0) is Hugging Face's w keys; `--window-attn-skip-freq` N puts full attention on
// every Nth layer, a list expression names each layer (1 sliding). -1 is "infinite".

import type { Draft } from './draft.ts';
import type { FlagTable } from './megatron-moe.ts';
import { shortestPeriod, type AttentionLayerType } from '../input/index.ts';

const S: AttentionLayerType = 'sliding_attention';
const F: AttentionLayerType = 'full_attention';

export function readSlidingWindow(d: Draft, f: FlagTable): void {
  const size = f.value('--window-size');
  const skip = f.value('--window-attn-skip-freq');
  if (size === undefined) return;
  const parts = size
    .replace(/[\s()"']/g, '')
    .split(',')
    .map(Number);
  const [left, right] = parts;
  if (parts.length !== 2 || !Number.isInteger(left) || !Number.isInteger(right) || left === undefined || right === undefined) {
    d.warn(`--window-size: ${size} is not "left,right"; no sliding window read`);
    return;
  }
  if (left < 0) return;
  if (right !== 0) d.warn(`--window-size: ${size} looks ${right} tokens ahead; the estimate counts a causal window of ${left + 1} keys`);
  const layerTypes = skip === undefined ? undefined : skipPattern(d, skip);
  d.model['slidingWindow'] = layerTypes ? { window: left + 1, layerTypes: [...shortestPeriod(layerTypes)] } : { window: left + 1 };
}

/** N, or the list expressions the export writes ("([1,0]*18)", "([0,1]*2+[0])"). */
function skipPattern(d: Draft, skip: string): AttentionLayerType[] | undefined {
  const text = skip.replace(/[\s"']/g, '');
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    if (n >= 1) return [...Array<AttentionLayerType>(n - 1).fill(S), F];
  }
  const list = /^\(?\[([01](?:,[01])*)\]\*(\d+)(?:\+\[([01](?:,[01])*)\])?\)?$/.exec(text);
  if (list?.[1] !== undefined && list[2] !== undefined) {
    const period = list[1].split(',');
    const tail = list[3] === undefined ? [] : list[3].split(',');
    return [...Array.from({ length: Number(list[2]) }, () => period).flat(), ...tail].map((b) => (b === '1' ? S : F));
  }
  d.warn(`--window-attn-skip-freq: ${skip} is neither N nor "([1,0,…]*k+[…])"; every layer is read as sliding`);
  return undefined;
}

// Which layers the engine prices alike: a layer's per-micro-batch time and saved tensors
// depend on its kind only (dense or MoE, full or sliding-window attention). The step time
// (time/step.ts sumLayers) caches by it and the layout search (search/pieces.ts) sums one
// figure per kind, so both read this one rule.

import type { ModelConfig } from '../input/index.ts';
import { isSlidingWindowLayer } from './attention-window.ts';
import { isMoeLayer } from './matrices.ts';

/** The kind of layer `layerIndex`: MoE or dense, sliding-window or full attention. */
export function layerKind(model: ModelConfig, layerIndex: number): string {
  return `${isMoeLayer(model, layerIndex)}/${isSlidingWindowLayer(model, layerIndex)}`;
}

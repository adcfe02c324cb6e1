import type { ModelJson } from '../input/index.ts';

// Builders of the interchange `model` object for the catalog's data files: a gated FFN
// (SwiGLU / GeGLU: 3 matrices) unless told otherwise, no MoE, no MLA, no MTP.

export interface ShapeExtras {
  readonly headDim?: number;
  readonly tied?: boolean;
  /** Two-matrix FFN (GELU, squared ReLU) rather than a gated one. */
  readonly ungated?: boolean;
}

export function denseShape(
  name: string,
  layers: number,
  hidden: number,
  heads: number,
  kvHeads: number,
  ffnHidden: number,
  vocab: number,
  x: ShapeExtras = {},
): ModelJson {
  return {
    name,
    layers,
    hidden,
    heads,
    kvHeads,
    ...(x.headDim === undefined ? {} : { headDim: x.headDim }),
    ffnHidden,
    ffnType: x.ungated ? 'gelu' : 'swiglu',
    vocab,
    tiedEmbeddings: x.tied ?? false,
    moe: null,
    mla: null,
    mtpLayers: 0,
  };
}

export interface MoeShape {
  readonly experts: number;
  readonly topK: number;
  readonly expertFfnHidden: number;
  readonly sharedExperts?: number;
  readonly denseLayers?: number;
}

export function moeShape(dense: ModelJson, moe: MoeShape, mla: ModelJson['mla'] = null, mtpLayers = 0): ModelJson {
  return { ...dense, moe: { sharedExperts: 0, denseLayers: 0, ...moe }, mla, mtpLayers };
}

/** Sliding-window attention (model.slidingWindow): HF sliding_window, and layer_types' repeating period (absent: every layer). */
export function slidingWindowShape(
  model: ModelJson,
  window: number,
  layerTypes?: NonNullable<ModelJson['slidingWindow']>['layerTypes'],
): ModelJson {
  return { ...model, slidingWindow: layerTypes ? { window, layerTypes } : { window } };
}

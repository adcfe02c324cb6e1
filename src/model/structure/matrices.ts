// The weight matrices of one transformer layer, as an inventory. Parameter counts
// (params.ts) and FLOPs (flops.ts) are both sums over this one list, so grouped-query
// attention, SwiGLU, MoE and MLA change both in step.

import type { FfnType, ModelConfig } from '../input/index.ts';

/** Which part of a layer a matrix belongs to; decides how it is split and how often it runs. */
export type MatrixGroup = 'attention' | 'mlp' | 'sharedExpert' | 'routedExpert' | 'router';

export interface WeightMatrix {
  readonly name: string;
  readonly group: MatrixGroup;
  readonly rows: number;
  readonly cols: number;
  /**
   * How many identical copies the layer holds (routed experts: one per expert).
   * Parameters count all copies; a token runs through `activeCopies` of them.
   */
  readonly copies: number;
  readonly activeCopies: number;
}

/** Matrices of one FFN of inner size `inner`: GELU has up and down; SwiGLU adds the gate (Shazeer 2020, arXiv 2002.05202). */
function ffnMatrices(
  hidden: number,
  inner: number,
  ffnType: FfnType,
  group: MatrixGroup,
  copies: number,
  activeCopies: number,
): WeightMatrix[] {
  const up: WeightMatrix[] = [{ name: 'up', group, rows: hidden, cols: inner, copies, activeCopies }];
  if (ffnType === 'swiglu') up.push({ name: 'gate', group, rows: hidden, cols: inner, copies, activeCopies });
  return [...up, { name: 'down', group, rows: inner, cols: hidden, copies, activeCopies }];
}

/** One attention projection: every layer has one copy, always active. */
const attentionMatrix = (name: string, rows: number, cols: number): WeightMatrix => ({
  name,
  group: 'attention',
  rows,
  cols,
  copies: 1,
  activeCopies: 1,
});

/** Multi-head (or grouped-query, Ainslie et al. 2023) attention projections. */
function standardAttention(m: ModelConfig): WeightMatrix[] {
  const q = m.heads * m.headDim;
  const kv = m.kvHeads * m.headDim;
  const one = attentionMatrix;
  return [one('q', m.hidden, q), one('k', m.hidden, kv), one('v', m.hidden, kv), one('o', q, m.hidden)];
}

/** Multi-head latent attention (DeepSeek-V2, arXiv 2405.04434, section 2.1.2; V3 config_671B.json). */
function latentAttention(m: ModelConfig): WeightMatrix[] {
  const a = m.mla;
  if (!a) return standardAttention(m);
  const qkHead = a.qkNopeHeadDim + a.qkRopeHeadDim;
  const one = attentionMatrix;
  const query =
    a.qLoraRank > 0
      ? [one('q_down', m.hidden, a.qLoraRank), one('q_up', a.qLoraRank, m.heads * qkHead)]
      : [one('q', m.hidden, m.heads * qkHead)];
  return [
    ...query,
    one('kv_down', m.hidden, a.kvLoraRank + a.qkRopeHeadDim),
    one('kv_up', a.kvLoraRank, m.heads * (a.qkNopeHeadDim + a.vHeadDim)),
    one('o', m.heads * a.vHeadDim, m.hidden),
  ];
}

export function isMoeLayer(m: ModelConfig, layerIndex: number): boolean {
  return m.moe !== null && layerIndex >= m.moe.denseLayers;
}

/**
 * Every layer is either dense or MoE, so a model has at most two distinct inventories:
 * built once per (frozen) model object and shared, since callers sum over every layer.
 */
const inventoryCache = new WeakMap<ModelConfig, { dense?: readonly WeightMatrix[]; moe?: readonly WeightMatrix[] }>();

/** Every weight matrix of layer `layerIndex` (0-based). */
export function layerMatrices(m: ModelConfig, layerIndex: number): readonly WeightMatrix[] {
  const moe = isMoeLayer(m, layerIndex);
  let entry = inventoryCache.get(m);
  if (!entry) {
    entry = {};
    inventoryCache.set(m, entry);
  }
  const cached = moe ? entry.moe : entry.dense;
  if (cached) return cached;
  const built = buildLayerMatrices(m, layerIndex);
  if (moe) entry.moe = built;
  else entry.dense = built;
  return built;
}

function buildLayerMatrices(m: ModelConfig, layerIndex: number): readonly WeightMatrix[] {
  const attention = m.mla ? latentAttention(m) : standardAttention(m);
  if (!m.moe || !isMoeLayer(m, layerIndex)) {
    return [...attention, ...ffnMatrices(m.hidden, m.ffnHidden, m.ffnType, 'mlp', 1, 1)];
  }
  const { experts, topK, expertFfnHidden, sharedExperts } = m.moe;
  return [
    ...attention,
    { name: 'router', group: 'router', rows: m.hidden, cols: experts, copies: 1, activeCopies: 1 },
    ...ffnMatrices(m.hidden, expertFfnHidden, m.ffnType, 'routedExpert', experts, topK),
    ...(sharedExperts > 0 ? ffnMatrices(m.hidden, expertFfnHidden * sharedExperts, m.ffnType, 'sharedExpert', 1, 1) : []),
  ];
}

/** Norm weights per layer: two RMSNorm/LayerNorm scales of size h (biases and MLA's small latent norms are below 0.01 %). */
export function layerNormParameters(m: ModelConfig): number {
  const latentNorms = m.mla ? m.mla.kvLoraRank + m.mla.qLoraRank : 0;
  return 2 * m.hidden + latentNorms;
}

/** Attention-score work that has no weights: per query token, the key length `keyTokens`, in multiply-adds. */
export function attentionScoreMacsPerToken(m: ModelConfig, keyTokens: number): number {
  const qkHead = m.mla ? m.mla.qkNopeHeadDim + m.mla.qkRopeHeadDim : m.headDim;
  const vHead = m.mla ? m.mla.vHeadDim : m.headDim;
  // QK^T then softmax(QK^T)·V, for every head (Narayanan et al. 2021, section 5.1: 2·s·h each).
  return m.heads * keyTokens * (qkHead + vHead);
}

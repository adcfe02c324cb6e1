// Floating-point operations of a training step, summed per matrix multiply over the
// weight-matrix inventory of matrices.ts, so that GQA, SwiGLU, MoE and MLA change the
// count the same way they change the parameters.
//
// Convention (Narayanan et al. 2021, arXiv 2104.04473, section 5.1): 2 FLOPs per
// multiply-add, backward = 2 × forward, attention scores over the full sequence
// (no halving for the causal mask), element-wise work (norms, softmax, activation)
// and the embedding lookup counted as 0. With a GPT (4h GELU MLP, multi-head
// attention) this reproduces the paper's 96·B·s·L·h²·(1 + s/6h + V/16Lh) with full
// recompute and, without it, Korthikanti et al. 2022 (arXiv 2205.05198) section 6's
// model FLOPs 72·B·s·L·h²·(1 + s/6h + V/12Lh), which MFU divides by. Sliding-window
// layers (model.slidingWindow) count their window's keys in the same convention
// (attention-window.ts windowKeyTokens).

import { attentionKeyTokens, slidingWindowLayerCount, windowKeyTokens } from './attention-window.ts';
import { attentionScoreMacsPerToken, isMoeLayer, layerMatrices, type MatrixGroup } from './matrices.ts';
import type { ModelConfig, Recompute, RunConfig } from '../input/index.ts';

/** Narayanan et al. 2021, section 5.1: one multiply-add is 2 FLOPs. */
export const FLOPS_PER_MULTIPLY_ADD = 2;
/** ibid.: the backward pass computes input and weight gradients, twice the forward work. */
export const BACKWARD_FLOPS_PER_FORWARD_FLOP = 2;
/** One forward plus one backward, in units of the forward. */
export const TRAINING_FLOPS_PER_FORWARD_FLOP = 1 + BACKWARD_FLOPS_PER_FORWARD_FLOP;
/**
 * DeepSeek-V3 (arXiv 2412.19437, section 2.2, eq. 21): each multi-token-prediction
 * module projects [RMSNorm(h); RMSNorm(Emb(t))] of width 2h back to h with M ∈ R^{h×2h}.
 */
export const MTP_PROJECTION_INPUT_WIDTHS = 2;

/** Forward FLOPs of one token through one transformer layer, by where the work runs. */
export interface LayerForwardFlops {
  /** Attention projections (Q, K, V, O; MLA's down/up projections). */
  readonly attentionMatmul: number;
  /** The dense FFN, or the shared experts of an MoE layer. */
  readonly mlpMatmul: number;
  /** The topK routed experts a token is sent to (active experts only). */
  readonly routedExpertMatmul: number;
  /** The router's h × experts logits. */
  readonly router: number;
  /** QK^T and softmax·V, which have no weights. */
  readonly attentionScores: number;
}

/** Forward FLOPs of one token through the whole model, by part. */
export interface ForwardFlopsPerToken {
  /** All `model.layers` transformer layers. */
  readonly layers: number;
  /** The output (logit) layer, V × h. */
  readonly outputLayer: number;
  /** Multi-token-prediction modules: projection + transformer layer + logits, each. */
  readonly mtp: number;
  readonly total: number;
}

interface WeightFlops {
  readonly attentionMatmul: number;
  readonly mlpMatmul: number;
  readonly routedExpertMatmul: number;
  readonly router: number;
}

interface WeightFlopsByLayerKind {
  readonly dense: WeightFlops;
  readonly moe: WeightFlops;
}

// Per-model memo: the weight part only depends on whether a layer is dense or MoE, and
// the time model asks for it once per layer per candidate layout. Keyed on the
// (immutable) ModelConfig object, so it never outlives or leaks between models.
const weightFlopsCache = new WeakMap<ModelConfig, WeightFlopsByLayerKind>();

function weightFlopsOfLayer(model: ModelConfig, layerIndex: number): WeightFlops {
  const byGroup: Record<MatrixGroup, number> = { attention: 0, mlp: 0, sharedExpert: 0, routedExpert: 0, router: 0 };
  for (const matrix of layerMatrices(model, layerIndex)) {
    byGroup[matrix.group] += FLOPS_PER_MULTIPLY_ADD * matrix.rows * matrix.cols * matrix.activeCopies;
  }
  return {
    attentionMatmul: byGroup.attention,
    mlpMatmul: byGroup.mlp + byGroup.sharedExpert,
    routedExpertMatmul: byGroup.routedExpert,
    router: byGroup.router,
  };
}

function weightFlops(model: ModelConfig, layerIndex: number): WeightFlops {
  let cached = weightFlopsCache.get(model);
  if (!cached) {
    const dense = weightFlopsOfLayer(model, 0);
    // Layer `denseLayers` is the first MoE layer (or, past the last layer, the MTP layer's kind).
    cached = { dense, moe: model.moe ? weightFlopsOfLayer(model, model.moe.denseLayers) : dense };
    weightFlopsCache.set(model, cached);
  }
  return isMoeLayer(model, layerIndex) ? cached.moe : cached.dense;
}

/**
 * Forward FLOPs of one token through layer `layerIndex` (0-based; indices from
 * `model.layers` on are the MTP modules' transformer layers) of a `seqLen`-token
 * sequence: its scores attend to the full sequence in Narayanan's convention, or to
 * its window's keys on a sliding-window layer (attention-window.ts).
 */
export function layerForwardFlopsPerToken(model: ModelConfig, layerIndex: number, seqLen: number): LayerForwardFlops {
  const w = weightFlops(model, layerIndex);
  return {
    attentionMatmul: w.attentionMatmul,
    mlpMatmul: w.mlpMatmul,
    routedExpertMatmul: w.routedExpertMatmul,
    router: w.router,
    attentionScores: scoreFlopsPerToken(model, attentionKeyTokens(model, layerIndex, seqLen)),
  };
}

function scoreFlopsPerToken(model: ModelConfig, keyTokens: number): number {
  return FLOPS_PER_MULTIPLY_ADD * attentionScoreMacsPerToken(model, keyTokens);
}

/** QKᵀ and softmax·V FLOPs of one token through the `model.layers` main layers: sliding-window ones count their window's keys. */
function mainLayersScoreFlopsPerToken(model: ModelConfig, seqLen: number): number {
  const sliding = slidingWindowLayerCount(model);
  const windowed =
    model.slidingWindow && sliding > 0 ? sliding * scoreFlopsPerToken(model, windowKeyTokens(model.slidingWindow.window, seqLen)) : 0;
  return (model.layers - sliding) * scoreFlopsPerToken(model, seqLen) + windowed;
}

/**
 * QKᵀ and softmax·V FLOPs of one token through every transformer layer, MTP layers
 * included (they attend in full), forward only: what selective recomputation reruns.
 */
export function attentionScoreFlopsPerToken(model: ModelConfig, seqLen: number): number {
  return mainLayersScoreFlopsPerToken(model, seqLen) + model.mtpLayers * scoreFlopsPerToken(model, seqLen);
}

/** Sum of one layer's forward FLOPs per token. */
export function layerForwardFlopsTotal(f: LayerForwardFlops): number {
  return f.attentionMatmul + f.mlpMatmul + f.routedExpertMatmul + f.router + f.attentionScores;
}

/** Forward FLOPs of one token through the output layer: logits = x·W, W of h × V (Narayanan 2021, section 5.1: 2·s·h·V per sequence). */
export function outputLayerForwardFlopsPerToken(model: ModelConfig): number {
  return FLOPS_PER_MULTIPLY_ADD * model.hidden * model.vocab;
}

/** Forward FLOPs of one token through one MTP module's projection (DeepSeek-V3 section 2.2). */
export function mtpProjectionForwardFlopsPerToken(model: ModelConfig): number {
  return FLOPS_PER_MULTIPLY_ADD * MTP_PROJECTION_INPUT_WIDTHS * model.hidden * model.hidden;
}

function weightFlopsTotal(w: WeightFlops): number {
  return w.attentionMatmul + w.mlpMatmul + w.routedExpertMatmul + w.router;
}

/** Forward FLOPs per token of the `model.layers` main transformer layers, and of one MTP module's transformer layer. */
function transformerLayersForwardFlopsPerToken(model: ModelConfig, seqLen: number): { main: number; mtpLayer: number } {
  const denseLayers = model.moe ? Math.min(model.moe.denseLayers, model.layers) : model.layers;
  const moeLayers = model.layers - denseLayers;
  const weights = (layerIndex: number) => weightFlopsTotal(weightFlops(model, layerIndex));
  const mtpLayer = model.mtpLayers > 0 ? layerForwardFlopsTotal(layerForwardFlopsPerToken(model, model.layers, seqLen)) : 0;
  const mainWeights = denseLayers * weights(0) + (moeLayers > 0 ? moeLayers * weights(model.layers - 1) : 0);
  return { main: mainWeights + mainLayersScoreFlopsPerToken(model, seqLen), mtpLayer };
}

/**
 * Forward FLOPs of one token through the whole model. The MTP modules run their own
 * transformer layer and the shared output head on every token (DeepSeek-V3 section
 * 2.2, eq. 22), so each is counted as a layer + its projection + one more logit layer.
 */
export function forwardFlopsPerToken(model: ModelConfig, seqLen: number): ForwardFlopsPerToken {
  const { main, mtpLayer } = transformerLayersForwardFlopsPerToken(model, seqLen);
  const outputLayer = outputLayerForwardFlopsPerToken(model);
  const mtp = model.mtpLayers * (mtpLayer + mtpProjectionForwardFlopsPerToken(model) + outputLayer);
  return { layers: main, outputLayer, mtp, total: main + outputLayer + mtp };
}

/**
 * Forward FLOPs per token done a second time because of activation recomputation
 * (what hardware FLOPs and HFU add; Chowdhery et al. 2022, PaLM, appendix B):
 * - full: every transformer layer (MTP layers included) runs its forward again before
 *   its backward (Narayanan 2021, section 5.1: "an extra forward pass"); the output
 *   layer and the MTP projections are not recomputed, which is why the logit term is
 *   V/16Lh in the 96·B·s·L·h² formula, not V/12Lh.
 * - selective: only QK^T, softmax and softmax·V (Korthikanti 2022, section 5).
 * - none: nothing.
 */
export function recomputeForwardFlopsPerToken(model: ModelConfig, seqLen: number, recompute: Recompute): number {
  if (recompute === 'none') return 0;
  if (recompute === 'selective') return attentionScoreFlopsPerToken(model, seqLen);
  const { main, mtpLayer } = transformerLayersForwardFlopsPerToken(model, seqLen);
  return main + model.mtpLayers * mtpLayer;
}

/** Model FLOPs (forward + backward, no recomputation) of one token of a `seqLen`-token sequence (MFU's numerator). */
export function modelFlopsPerToken(model: ModelConfig, seqLen: number): number {
  return TRAINING_FLOPS_PER_FORWARD_FLOP * forwardFlopsPerToken(model, seqLen).total;
}

/**
 * FLOPs of one optimizer step, whole cluster. modelPerStep has no recomputation (what
 * MFU counts, Korthikanti 2022 section 6); hardwarePerStep adds the recomputed forward
 * work (what HFU counts). Every token attends to the full seqLen keys (no causal halving),
 * or to its window's on a sliding-window layer.
 */
export function stepFlops(c: RunConfig): { modelPerStep: number; hardwarePerStep: number } {
  const { model, training } = c;
  const tokensPerStep = training.globalBatch * training.seqLen;
  const modelPerStep = tokensPerStep * modelFlopsPerToken(model, training.seqLen);
  const recomputedPerStep = tokensPerStep * recomputeForwardFlopsPerToken(model, training.seqLen, training.recompute);
  return { modelPerStep, hardwarePerStep: modelPerStep + recomputedPerStep };
}

// Compute time of one micro-batch on one GPU: matrix multiplies at a shape-dependent
// fraction of the dense peak, attention scores on the tensor cores and the softmax's
// exponentials on the special-function units, and memory-bound element-wise work from
// bytes moved over HBM bandwidth.

import { attentionKernelFactor, lowPrecisionCastScale } from './stack-time.ts';
import { calibration } from '../calibration.ts';
import {
  attentionScoreMacsPerToken,
  busiestExpertRankLoad,
  expertTensorParallel,
  isMoeLayer,
  isSlidingWindowLayer,
  layerMatrices,
  moeRouterOf,
  type WeightMatrix,
} from '../structure/index.ts';
import { windowKernelKeyTokens } from './attention-tiles.ts';
import { groupedGemmTileFill, moeDispatchReplicas, routedCopiesPerToken, tokensPerLocalExpert } from './moe-time.ts';
import { moeLayerHostSeconds } from './moe-host.ts';
import { moeDispatchBytesPerToken } from './moe-traffic.ts';
import type { GpuSpec, ModelConfig, Precision, RunConfig } from '../input/index.ts';
import { TERA } from '../input/index.ts';

/** Dense tensor-core peak for the precision, FLOP/s; formats a GPU lacks fall back to the fastest it has (fp4 → fp8 → bf16). */
export function peakFlopsPerSecond(gpu: GpuSpec, precision: Precision): number {
  const bf16 = gpu.bf16Tflops;
  const fp8 = gpu.fp8Tflops > 0 ? gpu.fp8Tflops : bf16;
  const fp4 = gpu.fp4Tflops > 0 ? gpu.fp4Tflops : fp8;
  const fp32 = gpu.fp32Tflops > 0 ? gpu.fp32Tflops : bf16 / 8;
  const table: Record<Precision, number> = { fp32, fp16: bf16, bf16, fp8, fp4 };
  return table[precision] * TERA;
}

/**
 * The tensor-core rate a GPU sustains under a long GEMM load: datasheet peaks assume the
 * boost clock, and the denser the FLOPs per watt of TDP, the further the clock drops
 * under power capping (A100 at 0.78 TFLOP/s per W keeps near peak; H100 at 1.4 and
 * Blackwell at 2+ do not). One fitted knee, `powerKneeTflopsPerWatt`, in 16-bit
 * FLOPs: an fp8 or fp4 FLOP spends `tensorEnergyPerFlopRelative` of a 16-bit one.
 */
export function sustainedPeakFlopsPerSecond(gpu: GpuSpec, precision: Precision): number {
  const peak = peakFlopsPerSecond(gpu, precision);
  if (gpu.tdpWatts <= 0) return peak;
  const K = calibration().time;
  const tflopsPerWatt = (peak * K.tensorEnergyPerFlopRelative[precision]) / TERA / gpu.tdpWatts;
  return peak / (1 + tflopsPerWatt / K.powerKneeTflopsPerWatt);
}

/**
 * Achievable fraction of peak for the multiply-accumulate work of an M×K by K×N GEMM:
 * a ceiling per precision times a saturation d/(d + d0) in each dimension (small GEMMs
 * cannot fill the tensor cores; small h/t runs worse, as the time-model issue asks).
 */
export function matmulEfficiency(precision: Precision, m: number, k: number, n: number): number {
  const K = calibration().time;
  const d0 = K.gemmHalfSaturationDim;
  const saturation = (m / (m + d0)) * (k / (k + d0)) * (n / (n + d0));
  return K.matmulEfficiencyCeiling[precision] * saturation;
}

/** Bytes of one GEMM operand element: fp8 and fp4 recipes feed the tensor cores 1 or 0.5 bytes (MXFP8/NVFP4). */
const OPERAND_BYTES: Readonly<Record<Precision, number>> = { fp32: 4, fp16: 2, bf16: 2, fp8: 1, fp4: 0.5 };

/** An M×K by K×N GEMM: M rows (tokens) of K inputs, times K×N weights. */
export interface GemmShape {
  readonly m: number;
  readonly k: number;
  readonly n: number;
}

/**
 * Time of one M×K by K×N GEMM on one GPU. An additive roofline: tensor-core time plus
 * the HBM time of its operands and 16-bit output, since loads and MMAs do not overlap
 * perfectly. Hopper's and Blackwell's tensor cores grew faster than their memory, so the
 * same GEMM reaches a lower fraction of peak there (machine balance, Williams et al.
 * 2009). fp8/fp4 recipes also cast and scale each input (amax, quantize, transpose):
 * extra 16-bit passes over both operands.
 */
export function gemmSeconds(gpu: GpuSpec, precision: Precision, shape: GemmShape, peakScale = 1, castPassesScale = 1): number {
  const { m, k, n } = shape;
  const flops = 2 * m * k * n;
  const compute = flops / (sustainedPeakFlopsPerSecond(gpu, precision) * peakScale * matmulEfficiency(precision, m, k, n));
  return compute + gemmTrafficSeconds(gpu, precision, 1, shape, castPassesScale);
}

/** The HBM side of the additive roofline for `groups` GEMMs of M×K by K×N: operands, 16-bit outputs and the fp8/fp4 cast passes. */
function gemmTrafficSeconds(gpu: GpuSpec, precision: Precision, groups: number, shape: GemmShape, castPassesScale: number): number {
  const { m, k, n } = shape;
  const operandBytes = groups * (OPERAND_BYTES[precision] * (m * k + k * n) + 2 * m * n);
  const K = calibration().time;
  const castBytes =
    precision === 'fp8' || precision === 'fp4' ? 2 * K.lowPrecisionCastPasses * castPassesScale * groups * (m * k + k * n) : 0;
  return (K.gemmTrafficFactor * operandBytes + castBytes) / (gpu.hbmGBps * 1e9);
}

/**
 * Rows × cols of a matrix on one GPU: column-parallel matrices split their output,
 * row-parallel (o, down) their input (Shoeybi et al. 2019, section 3), by tp, or by the
 * expert tensor-parallel degree for routed experts.
 */
export function shardedShape(matrix: WeightMatrix, tp: number, etp: number): Pick<GemmShape, 'k' | 'n'> {
  const rowParallel = matrix.name === 'o' || matrix.name === 'down';
  if (matrix.group === 'router') return { k: matrix.rows, n: matrix.cols };
  const split = matrix.group === 'routedExpert' ? etp : tp;
  return rowParallel ? { k: matrix.rows / split, n: matrix.cols } : { k: matrix.rows, n: matrix.cols / split };
}

/** Streaming multiprocessors of a custom GPU that does not say: H100 SXM's 132. */
const DEFAULT_SMS = 132;

/**
 * A grouped GEMM of `groups` experts, each M×K by K×N (Transformer Engine GroupedLinear,
 * CUTLASS grouped GEMM): the dense roofline of gemmSeconds, except that the M-efficiency
 * follows MOE_TIME.groupedGemmHalfSaturationTokens (far below a dense GEMM of the same
 * FLOPs at a few hundred tokens per expert) and partial tiles and the last partial wave
 * over the SMs idle tensor cores (moe-time.ts groupedGemmTileFill).
 */
export function groupedGemmSeconds(
  gpu: GpuSpec,
  precision: Precision,
  groups: number,
  shape: GemmShape,
  peakScale = 1,
  castPassesScale = 1,
): number {
  const { m, k, n } = shape;
  if (m <= 0) return 0;
  const { time: K, moe } = calibration();
  const d0 = K.gemmHalfSaturationDim;
  const m0 = moe.groupedGemmHalfSaturationTokens;
  const fill = groupedGemmTileFill(groups, m, n, gpu.sms ?? DEFAULT_SMS);
  const efficiency = K.matmulEfficiencyCeiling[precision] * (m / (m + m0)) * (k / (k + d0)) * (n / (n + d0)) * fill;
  const compute = (2 * groups * m * k * n) / (sustainedPeakFlopsPerSecond(gpu, precision) * peakScale * efficiency);
  return compute + gemmTrafficSeconds(gpu, precision, groups, shape, castPassesScale);
}

export interface LayerComputeSeconds {
  readonly matmulForward: number;
  readonly attentionForward: number;
  readonly attentionBackward: number;
  readonly elementwiseForward: number;
  /**
   * Host seconds of an eager MoE layer (moe-host.ts): what the forward waits after the dispatcher's synchronisation, and the
   * floor under its backward; 0 for dense layers and under whole-iteration graphs.
   */
  readonly hostForward: number;
  /** The part of hostForward the GPU idles whatever it has queued: the dispatcher's synchronisation stall (moe-host.ts). */
  readonly hostForwardStall: number;
  /** Host seconds before the dispatcher's synchronisation that the GPU cannot hide (DTensor dispatch, moe-host.ts); 0 if none. */
  readonly hostBeforeSync: number;
  readonly hostBackward: number;
  /** The routed experts' grouped GEMMs inside matmulForward: the GPU work issued after the synchronisation (moe-host.ts moeLayerForwardSeconds). */
  readonly expertMatmulForward: number;
}

/**
 * Forward time of one layer for `tokens` tokens on one GPU (tokens per micro-batch per
 * context-parallel rank), before communication. Routed experts: each GPU holds
 * experts/ep of them as one grouped GEMM per matrix, split etp ways, on the tokens its
 * expert group sends each expert (moe-time.ts tokensPerLocalExpert, balanced routing).
 */
export function layerForwardSeconds(c: RunConfig, layerIndex: number, tokens: number): LayerComputeSeconds {
  const { model, parallel, training, cluster } = c;
  const scale = c.calibration.computeEfficiencyScale;
  const castScale = lowPrecisionCastScale(c);
  const moe = model.moe && isMoeLayer(model, layerIndex) ? model.moe : null;
  const etp = moe ? expertTensorParallel(parallel) : 1;
  let matmulForward = 0;
  let expertMatmulForward = 0;
  // AutoModel's fake balanced gate has no gating GEMM (layers.py FakeBalancedGate: indices from torch.arange, no weight).
  const gate = moeRouterOf(c) !== 'fakeBalanced';
  for (const matrix of layerMatrices(model, layerIndex)) {
    if (matrix.group === 'router' && !gate) continue;
    const sharded = shardedShape(matrix, parallel.tp, etp);
    if (moe && matrix.group === 'routedExpert') {
      const localExperts = matrix.copies / parallel.ep;
      const shape = { m: tokensPerLocalExpert(c, moe, tokens), ...sharded };
      const expert = groupedGemmSeconds(cluster.gpu, training.precision, localExperts, shape, scale, castScale);
      matmulForward += expert;
      expertMatmulForward += expert;
    } else {
      matmulForward += gemmSeconds(cluster.gpu, training.precision, { m: tokens, ...sharded }, scale, castScale);
    }
  }
  return {
    matmulForward,
    expertMatmulForward,
    ...attentionSeconds(c, layerIndex, tokens),
    elementwiseForward: elementwiseForwardSeconds(c, layerIndex, tokens),
    ...hostSeconds(c, layerIndex),
  };
}

function hostSeconds(
  c: RunConfig,
  layerIndex: number,
): { hostBeforeSync: number; hostForward: number; hostForwardStall: number; hostBackward: number } {
  const h = moeLayerHostSeconds(c, layerIndex);
  return { hostBeforeSync: h.beforeSync, hostForward: h.afterSync, hostForwardStall: h.stall, hostBackward: h.backward };
}

/** Two units working on one kernel: the longer sets the pace, and `softmaxExposedFraction` of the shorter is not hidden under it. */
function overlapped(tensorSeconds: number, expSeconds: number): number {
  const K = calibration().time;
  return Math.max(tensorSeconds, expSeconds) + K.softmaxExposedFraction * Math.min(tensorSeconds, expSeconds);
}

/**
 * Attention scores of one layer for `tokens` query tokens on one GPU. The matmuls (QKᵀ
 * and P·V) run on the tensor cores in 16-bit even in fp8 recipes (Transformer Engine
 * keeps dot-product attention in bf16 by default); the softmax needs one exponential per
 * score on the special-function units, which next to the tensor cores are slow
 * (FlashAttention-3, arXiv 2407.08608, section 3: 3.9 T exponentials against 989
 * TFLOP/s on H100). Causal kernels skip the masked half: each query of a
 * context-parallel rank sees on average half the sequence; a sliding-window layer's
 * kernel runs the whole key tiles its window touches (kernelKeyTokens). The backward pass does 2.5×
 * the forward's matmul work and recomputes P, one more exponential per score (Dao
 * 2023, arXiv 2307.08691, algorithm 2).
 */
function attentionSeconds(c: RunConfig, layerIndex: number, tokens: number): { attentionForward: number; attentionBackward: number } {
  const { model, parallel, training, cluster } = c;
  const scale = c.calibration.computeEfficiencyScale;
  const peak16 = peakFlopsPerSecond(cluster.gpu, training.precision === 'fp32' ? 'fp32' : 'bf16') * scale;
  const K = calibration().time;
  const causalKeyTokens = kernelKeyTokens(model, layerIndex, training.seqLen);
  const flops = (2 * tokens * attentionScoreMacsPerToken(model, causalKeyTokens)) / parallel.tp;
  const fused = training.flashAttention ? 1 : K.unfusedAttentionSlowdown;
  const tensorForward = flops / (peak16 * K.attentionTensorEfficiency * fused * attentionKernelFactor(c));
  const scores = (tokens * model.heads * causalKeyTokens) / parallel.tp;
  const expPerSecond = cluster.gpu.expTeraOpsPerSecond * TERA * K.softmaxExpEfficiency * scale;
  const expForward = scores / expPerSecond;
  return {
    attentionForward: overlapped(tensorForward, expForward),
    attentionBackward: overlapped(tensorForward * K.attentionBackwardOverForward, expForward * K.backwardExpsPerScore),
  };
}

/**
 * Keys per query the attention kernels of layer `layerIndex` compute: half the sequence
 * under the causal mask (causalAttentionFraction), or on a sliding-window layer the key
 * tiles its window touches (attention-tiles.ts), never more than a full layer's.
 */
function kernelKeyTokens(model: ModelConfig, layerIndex: number, seqLen: number): number {
  const causal = seqLen * calibration().time.causalAttentionFraction;
  const sw = model.slidingWindow;
  if (!sw || !isSlidingWindowLayer(model, layerIndex)) return causal;
  return Math.min(causal, windowKernelKeyTokens(sw.window, seqLen));
}

/**
 * Memory-bound work (norms, residual adds, rotary, activation functions, dropout,
 * router softmax): a calibrated number of h-sized and FFN-sized 16-bit tensor passes
 * per token, over HBM bandwidth. Sequence parallelism splits the h-sized ones by t.
 * The fixed per-layer costs (kernel launches, MoE host synchronisation, per-expert
 * bookkeeping) are counted here too, since they recur wherever the layer's forward does.
 */
function elementwiseForwardSeconds(c: RunConfig, layerIndex: number, tokens: number): number {
  const { model, parallel } = c;
  const hiddenSplit = parallel.sequenceParallel ? parallel.tp : 1;
  const ffnActive = activeFfnWidth(c, layerIndex) / parallel.tp;
  // MoE routing, permutation and unpermutation as counted bytes (moe-traffic.ts).
  const moeBytes = model.moe && isMoeLayer(model, layerIndex) ? moeDispatchBytesPerToken(c, hiddenSplit / moeDispatchReplicas(c)) : 0;
  const K = calibration().time;
  const passes = (K.elementwiseHiddenPasses * model.hidden) / hiddenSplit + K.elementwiseFfnPasses * ffnActive;
  // An eager MoE layer's host time is not here: layerForwardSeconds keeps it apart as the layer's floor (moe-host.ts).
  return (tokens * (2 * passes + moeBytes)) / (c.cluster.gpu.hbmGBps * 1e9) + K.layerOverheadSeconds;
}

/** FFN width a token's element-wise passes cover: the routed copies at the busiest expert-parallel rank's load (moe-routing.ts), plus the shared experts. */
function activeFfnWidth(c: RunConfig, layerIndex: number): number {
  const model = c.model;
  if (!model.moe || !isMoeLayer(model, layerIndex)) return model.ffnHidden;
  return model.moe.expertFfnHidden * (routedCopiesPerToken(model.moe) * busiestExpertRankLoad(c) + model.moe.sharedExperts);
}

/** Output layer (logits) and loss for `tokens` tokens on one GPU: the vocabulary is split over tp. */
export function outputLayerForwardSeconds(c: RunConfig, tokens: number): number {
  const { model, parallel, training, cluster } = c;
  const vocabShard = model.vocab / parallel.tp;
  const precision = training.precision === 'fp32' ? 'fp32' : 'bf16';
  const matmul = gemmSeconds(cluster.gpu, precision, { m: tokens, k: model.hidden, n: vocabShard }, c.calibration.computeEfficiencyScale);
  // The fp32 logits are written, read by softmax/cross-entropy, and their gradient written (3 passes × 4 bytes).
  const lossBytes = 3 * 4 * tokens * vocabShard;
  return matmul + lossBytes / (cluster.gpu.hbmGBps * 1e9);
}

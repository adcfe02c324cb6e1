// Activation memory as an inventory of the tensors each operation saves for
// backward (Korthikanti et al. 2022, arXiv 2205.05198, section 4.1). Grouped-query
// attention, SwiGLU, dropout, flash attention, MoE and MLA change the list, and the
// GPT-3 table of section 4 (sbh(34 + 5as/h) and its parallel variants) falls out of it.

import { microBatchesPerStep } from '../input/index.ts';
import { LOSS_BACKWARD_FP32_LOGIT_COPIES, VOCAB_PARALLEL_LOSS_EXTRA_FP32_LOGIT_COPIES } from '../calibration.ts';
import { isMoeLayer } from '../structure/index.ts';
import { mtpLayerIndex, type PipelineStage } from '../structure/index.ts';
import type { ModelConfig, ParallelConfig, Recompute, RunConfig } from '../input/index.ts';
import { ACTIVATION_BYTES } from '../input/index.ts';

/**
 * What selective recomputation recomputes. 'attention': the core attention only
 * (Korthikanti section 5, Megatron-Core --recompute-modules core_attn): it drops the
 * s² score tensors, so with flash attention it saves almost nothing. 'elementwise':
 * also the cheap element-wise ops (norm outputs, the activation function's output),
 * keeping matrix-multiply outputs: Megatron-Core's layernorm/mlp-activation modules
 * and PyTorch selective activation checkpointing (torchtitan's "op" policy).
 */
export type SelectiveScope = 'attention' | 'elementwise';

/**
 * The engine's choices for what the interchange does not say. Dropout is off: the
 * modern recipes the calculator targets train without it (Llama 3, Qwen, DeepSeek-V3
 * configs: attention_dropout 0; Megatron-Bridge recipes hidden_dropout = attention_dropout = 0).
 * Selective recompute uses the element-wise scope: with flash attention the narrow one
 * is a no-op (Megatron-Bridge's Moonlight study in validation/: core_attn recompute
 * changes peak memory by −0.01 %), and what frameworks call "selective" recomputes
 * element-wise work too. It recomputes no matrix multiply, so its time cost stays the
 * core attention's (Korthikanti section 5).
 */
export const ENGINE_DROPOUT = false;
export const ENGINE_SELECTIVE_SCOPE: SelectiveScope = 'elementwise';

export interface ActivationSettings {
  /** Full sequence length, before context parallelism. */
  readonly seqLen: number;
  readonly microBatch: number;
  readonly tp: number;
  readonly sequenceParallel: boolean;
  readonly cp: number;
  readonly recompute: Recompute;
  readonly selectiveScope: SelectiveScope;
  readonly flashAttention: boolean;
  readonly dropout: boolean;
  /** Bytes of one saved activation element (2 for 16-bit). */
  readonly elementBytes: number;
}

/** 'tensor': split over tp ranks; 'sequence': split over tp only with sequence parallelism (section 4.2.2). */
type Shard = 'tensor' | 'sequence';
/** 'input' the layer input (kept by full recompute); 'scores' attention s² tensors; 'elementwise' outputs of cheap ops; 'kept' everything else. */
type Role = 'input' | 'scores' | 'elementwise' | 'kept';

interface SavedTensor {
  readonly name: string;
  readonly bytesPerToken: number;
  readonly shard: Shard;
  readonly role: Role;
}

const FP32_BYTES = 4;
/** Dropout masks are stored as one byte per element (Korthikanti section 4.1). */
const MASK_BYTES = 1;

const saved = (name: string, bytesPerToken: number, shard: Shard, role: Role): SavedTensor => ({ name, bytesPerToken, shard, role });

function attentionTensors(m: ModelConfig, s: ActivationSettings): SavedTensor[] {
  const w = s.elementBytes;
  const a = m.mla;
  const qkHead = a ? a.qkNopeHeadDim + a.qkRopeHeadDim : m.headDim;
  const vHead = a ? a.vHeadDim : m.headDim;
  // MLA up-projects a K and V per query head from the shared latent (arXiv 2405.04434, eq. 10-11).
  const kvHeads = a ? m.heads : m.kvHeads;
  const keyTokens = s.seqLen / s.cp;
  // Shared input of the Q, K, V projections: 2sbh.
  const list = [saved('attention.input', w * m.hidden, 'sequence', 'elementwise')];
  if (a) {
    if (a.qLoraRank > 0) list.push(saved('q_down.output', w * a.qLoraRank, 'sequence', 'kept'), saved('q_norm.output', w * a.qLoraRank, 'sequence', 'elementwise'));
    list.push(saved('kv_down.output', w * (a.kvLoraRank + a.qkRopeHeadDim), 'sequence', 'kept'), saved('kv_norm.output', w * a.kvLoraRank, 'sequence', 'elementwise'));
  }
  // QK^T keeps Q and K: 4sbh for multi-head attention, less K with grouped-query attention.
  list.push(saved('qk', w * (m.heads + kvHeads) * qkHead, 'tensor', 'kept'));
  if (s.flashAttention) {
    // FlashAttention-2 saves only the output and one fp32 log-sum-exp per query and head (Dao 2023, arXiv 2307.08691, algorithm 1).
    list.push(saved('flash.logsumexp', FP32_BYTES * m.heads, 'tensor', 'scores'));
  } else {
    // Softmax output 2as²b; with dropout also its mask as²b and output 2as²b (section 4.1).
    list.push(saved('softmax.output', w * m.heads * keyTokens, 'tensor', 'scores'));
    if (s.dropout) list.push(saved('softmax.dropoutMask', MASK_BYTES * m.heads * keyTokens, 'tensor', 'scores'), saved('softmax.dropoutOutput', w * m.heads * keyTokens, 'tensor', 'scores'));
  }
  // Attention over values keeps V (2sbh); the output projection keeps its input (2sbh).
  list.push(saved('v', w * kvHeads * vHead, 'tensor', 'kept'), saved('proj.input', w * m.heads * vHead, 'tensor', 'kept'));
  if (s.dropout) list.push(saved('attention.dropoutMask', MASK_BYTES * m.hidden, 'sequence', 'kept'));
  return list;
}

/** One FFN of inner size `inner`, run `copies` times per token. GELU keeps its input and output (8sbh each at 4h); SwiGLU keeps both branch outputs and the product. */
function ffnTensors(prefix: string, inner: number, m: ModelConfig, w: number, copies: number): SavedTensor[] {
  const size = w * inner * copies;
  const product = saved(`${prefix}.down.input`, size, 'tensor', 'elementwise');
  if (m.ffnType === 'swiglu') return [saved(`${prefix}.up.output`, size, 'tensor', 'kept'), saved(`${prefix}.gate.output`, size, 'tensor', 'kept'), product];
  return [saved(`${prefix}.activation.input`, size, 'tensor', 'kept'), product];
}

function mlpTensors(m: ModelConfig, layerIndex: number, s: ActivationSettings): SavedTensor[] {
  const w = s.elementBytes;
  // Input of the first linear layer (2sbh), shared by router, experts and shared experts.
  const list = [saved('mlp.input', w * m.hidden, 'sequence', 'elementwise')];
  if (m.moe && isMoeLayer(m, layerIndex)) {
    const { experts, topK, expertFfnHidden, sharedExperts } = m.moe;
    list.push(
      // Router scores in fp32 for the softmax/top-k backward (Megatron-Core moe_router_dtype fp32).
      saved('router.scores', FP32_BYTES * experts, 'sequence', 'kept'),
      // Every token goes to topK experts: the permuted copies are the expert inputs. The routing
      // weights are applied inside the experts (Megatron-Core's probability-weighted activation,
      // torchtitan's score_before_experts), so the combine keeps no expert outputs.
      saved('experts.dispatched', w * m.hidden * topK, 'tensor', 'kept'),
      ...ffnTensors('experts', expertFfnHidden, m, w, topK),
    );
    if (sharedExperts > 0) list.push(...ffnTensors('sharedExperts', expertFfnHidden * sharedExperts, m, w, 1));
  } else {
    list.push(...ffnTensors('mlp', m.ffnHidden, m, w, 1));
  }
  if (s.dropout) list.push(saved('mlp.dropoutMask', MASK_BYTES * m.hidden, 'sequence', 'kept'));
  return list;
}

/** Everything layer `layerIndex` saves for backward with no recomputation, per token. */
function layerTensors(m: ModelConfig, layerIndex: number, s: ActivationSettings): SavedTensor[] {
  const w = s.elementBytes;
  // The two norms keep their inputs (2 × 2sbh); the first one's input is the layer input.
  return [
    saved('norm1.input', w * m.hidden, 'sequence', 'input'),
    ...attentionTensors(m, s),
    saved('norm2.input', w * m.hidden, 'sequence', 'kept'),
    ...mlpTensors(m, layerIndex, s),
  ];
}

function keptByPolicy(t: SavedTensor, s: ActivationSettings): boolean {
  if (s.recompute === 'none') return true;
  if (s.recompute === 'full') return t.role === 'input';
  if (t.role === 'scores') return false;
  return !(s.selectiveScope === 'elementwise' && t.role === 'elementwise');
}

/** Tokens of one micro-batch on one GPU: context parallelism splits the sequence (Megatron-Core CP). */
function tokensPerMicroBatch(s: ActivationSettings): number {
  return (s.seqLen / s.cp) * s.microBatch;
}

function bytesOf(list: readonly SavedTensor[], s: ActivationSettings): number {
  const perToken = list.reduce((sum, t) => sum + t.bytesPerToken / (t.shard === 'tensor' || s.sequenceParallel ? s.tp : 1), 0);
  return tokensPerMicroBatch(s) * perToken;
}

/** Bytes layer `layerIndex` keeps for backward for one micro-batch on one GPU. */
export function activationBytesPerLayer(m: ModelConfig, layerIndex: number, s: ActivationSettings): number {
  return bytesOf(layerTensors(m, layerIndex, s).filter((t) => keptByPolicy(t, s)), s);
}

/** What recomputation rebuilds for one layer during its backward: the tensors the policy dropped. */
export function recomputeWorkingSetBytes(m: ModelConfig, layerIndex: number, s: ActivationSettings): number {
  return bytesOf(layerTensors(m, layerIndex, s).filter((t) => !keptByPolicy(t, s)), s);
}

/**
 * After the last layer (section 4.3): the final norm's input and the output layer's
 * input (2sbh/t each) and the fp32 logits for the loss (4sbV/t), i.e. 4sbh/t·(1 + V/h).
 */
function outputTensors(m: ModelConfig, s: ActivationSettings): SavedTensor[] {
  const w = s.elementBytes;
  return [
    saved('finalNorm.input', w * m.hidden, 'sequence', 'kept'),
    saved('output.input', w * m.hidden, 'sequence', 'kept'),
    saved('logits.fp32', FP32_BYTES * m.vocab, 'tensor', 'kept'),
  ];
}

/** One MTP module: enorm and hnorm inputs, the 2h projection input, its layer, its own output and loss (arXiv 2412.19437, section 2.2). */
function mtpBytes(m: ModelConfig, s: ActivationSettings): number {
  const w = s.elementBytes;
  const inputs = [saved('mtp.norms.input', 2 * w * m.hidden, 'sequence', 'kept'), saved('mtp.proj.input', 2 * w * m.hidden, 'sequence', 'kept')];
  return bytesOf([...inputs, ...outputTensors(m, s)], s) + activationBytesPerLayer(m, mtpLayerIndex(m), s);
}

/** Extra fp32 logits-sized buffers while the loss runs backward (see the calibration constant). */
function lossWorkingSetBytes(m: ModelConfig, s: ActivationSettings): number {
  const copies = LOSS_BACKWARD_FP32_LOGIT_COPIES + (s.tp > 1 ? VOCAB_PARALLEL_LOSS_EXTRA_FP32_LOGIT_COPIES : 0);
  return bytesOf([saved('loss.gradients', copies * FP32_BYTES * m.vocab, 'tensor', 'kept')], s);
}

/**
 * Micro-batches whose activations a stage holds at its peak, in units of all the
 * layers the stage holds. GPipe runs every forward first. 1F1B and ZB-H1 (Qi et al.
 * 2023, arXiv 2401.10241, section 3.1: same memory as 1F1B) hold pp − i on stage i.
 * Interleaved 1F1B warms up 2(p−i−1) + (v−1)p chunks before its first backward
 * (Megatron-Core schedules.py), which on stage 0 gives Korthikanti's factor
 * p·(1 + (p−1)/(p·v)) (section 4.2.3). DualPipe holds pp + 1 chunk-micro-batches over
 * its two chunks (arXiv 2412.19437, table 2).
 */
export function microBatchesInFlight(p: Pick<ParallelConfig, 'pp' | 'vpp' | 'schedule'>, stageIndex: number, microBatches: number): number {
  switch (p.schedule) {
    case 'gpipe':
      return microBatches;
    case 'interleaved-1f1b': {
      const chunks = 2 * (p.pp - stageIndex - 1) + (p.vpp - 1) * p.pp + 1;
      return Math.min(chunks, microBatches * p.vpp) / p.vpp;
    }
    case 'dualpipe':
      return Math.max(1, Math.min(p.pp + 1, microBatches) / 2);
    default:
      return Math.min(p.pp - stageIndex, microBatches);
  }
}

export function engineActivationSettings(c: RunConfig): ActivationSettings {
  return {
    seqLen: c.training.seqLen,
    microBatch: c.training.microBatch,
    tp: c.parallel.tp,
    sequenceParallel: c.parallel.sequenceParallel,
    cp: c.parallel.cp,
    recompute: c.training.recompute,
    selectiveScope: ENGINE_SELECTIVE_SCOPE,
    flashAttention: c.training.flashAttention,
    dropout: ENGINE_DROPOUT,
    elementBytes: ACTIVATION_BYTES[c.training.precision],
  };
}


/**
 * Peak activation bytes on one GPU of `stage`: the saved tensors of every micro-batch
 * in flight, plus the larger of one layer's recompute working set and the loss's
 * backward buffers (they do not overlap in time: the loss finishes its backward
 * before the last layer recomputes). Never more than keeping everything.
 */
export function stageActivationBytes(c: RunConfig, stage: PipelineStage, s: ActivationSettings = engineActivationSettings(c)): number {
  const m = c.model;
  const inFlight = microBatchesInFlight(c.parallel, stage.index, microBatchesPerStep(c.training, c.parallel));
  const everything: ActivationSettings = { ...s, recompute: 'none' };
  let kept = 0;
  let keptWithoutRecompute = 0;
  let workingSet = 0;
  for (const i of stage.layers) {
    kept += activationBytesPerLayer(m, i, s);
    keptWithoutRecompute += activationBytesPerLayer(m, i, everything);
    workingSet = Math.max(workingSet, recomputeWorkingSetBytes(m, i, s));
  }
  // Korthikanti section 4.3: the embedding's dropout mask, sbh/t per micro-batch in flight.
  const edges = (stage.embedding && s.dropout ? bytesOf([saved('embedding.dropoutMask', MASK_BYTES * m.hidden, 'sequence', 'kept')], s) : 0)
    + (stage.output ? bytesOf(outputTensors(m, s), s) + m.mtpLayers * mtpBytes(m, s) : 0);
  const loss = stage.output ? lossWorkingSetBytes(m, s) : 0;
  return peakActivationBytes(inFlight, kept, keptWithoutRecompute, edges, workingSet, loss);
}

/**
 * A stage's peak activation bytes from its per-micro-batch figures (the estimate and the
 * search both call it): `inFlight` micro-batches of saved tensors (`kept` under the
 * recompute policy, `keptWithoutRecompute` keeping everything) and the embedding/output
 * edges, plus the larger of a layer's recompute working set and the loss's backward
 * buffers. Never more than keeping everything.
 */
export function peakActivationBytes(inFlight: number, kept: number, keptWithoutRecompute: number, edges: number, workingSet: number, loss: number): number {
  const withRecompute = inFlight * (kept + edges) + Math.max(workingSet, loss);
  const withoutRecompute = inFlight * (keptWithoutRecompute + edges) + loss;
  return Math.min(withRecompute, withoutRecompute);
}

// Activation memory as an inventory of the tensors each operation saves for
// backward (Korthikanti et al. 2022, arXiv 2205.05198, section 4.1). Grouped-query
// attention, SwiGLU, dropout, flash attention, MoE and MLA change the list, and the
// GPT-3 table of section 4 (sbh(34 + 5as/h) and its parallel variants) falls out of it.

import { microBatchesPerStep } from '../input/index.ts';
import { chunkLossKind, eagerLossLogitsHoleBytes, lossBackwardFp32LogitCopies, lossChunks, sixteenBitCompiledLoss } from './loss.ts';
import { frameworkProfile } from '../input/index.ts';
import { busiestExpertRankLoad, expertTensorParallel, isMoeLayer, moeRouterOf, routedCopiesPerToken } from '../structure/index.ts';
import { mtpLayerIndex, type PipelineStage } from '../structure/index.ts';
import type { LossKind, ModelCode, ModelConfig, ParallelConfig, Recompute, RecomputeModule, RunConfig } from '../input/index.ts';
import { ACTIVATION_BYTES } from '../input/index.ts';
import { FP32_BYTES, saved, type SavedTensor, type Shard } from './saved-tensor.ts';
import { eagerNormCopies, eagerSiluOutput } from './model-code.ts';
import { adapterActivations, type AdapterActivations } from './adapter-matrices.ts';
import { moePermutationTensors, runMoePermutationSaves, type MoePermutationSaves } from './moe-permutation.ts';
import { lossBytesBeyondSaved, runCrossEntropyPeakBytesPerLogit } from './cross-entropy-copies.ts';

/**
 * What selective recomputation recomputes. 'attention': the core attention only
 * (Korthikanti section 5, Megatron-Core --recompute-modules core_attn): it drops the
 * s² score tensors, so with flash attention it saves almost nothing. 'elementwise':
 * also the cheap element-wise ops (norm outputs, the activation function's output),
 * keeping matrix-multiply outputs: Megatron-Core's layernorm/mlp-activation modules
 * and PyTorch selective activation checkpointing (torchtitan's "op" policy).
 */
export type SelectiveScope = 'attention' | 'elementwise' | 'modules' | 'op';

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
  /** With selectiveScope 'modules': Megatron-Core --recompute-modules (absent: core_attn). */
  readonly recomputeModules?: readonly RecomputeModule[];
  /** How the loss keeps its fp32 logits (absent: eager). */
  readonly loss?: LossKind;
  /** The loss runs over this many pieces of the tokens, one at a time (loss.ts lossChunks; absent: 1). */
  readonly lossChunks?: number;
  /** Stage-level policies (stageActivationBytes): every Nth layer fully recomputed (torchtitan selective_ac_option = N). */
  readonly layerFrequency?: number;
  /** Recompute "full" of this many layers per stage only (Megatron --recompute-num-layers with --recompute-method block); absent: all. */
  readonly fullRecomputeLayers?: number;
  /** Layers per stage whose saved activations go to host memory (Megatron --cpu-offloading-num-layers). */
  readonly offloadLayers?: number;
  /** Whose code builds the layers (model-code.ts; absent: fused). */
  readonly modelCode?: ModelCode;
  /** Bytes per element of the saved inputs of linear layers, when the framework keeps them quantized (fp8 with Transformer Engine: 1). */
  readonly linearInputBytes?: number;
  /**
   * The dense linear layers run torchao's NVFP4 training matmul (nvfp4LinearSaves): each keeps
   * its own input as NVFP4 codes and scales, and no 16-bit output, under the op-level policy.
   */
  readonly nvfp4Linears?: boolean;
  /**
   * torch.compile on the model (training.compile): AOTAutograd's min-cut partitioner
   * (torch/_functorch/partitioners.py min_cut_rematerialization_partition, the default for
   * the Inductor backend) recomputes pointwise ops in backward rather than saving their
   * outputs, and saves what only a matmul, attention or reduction produces
   * (torch._functorch.config.ban_recompute_reductions keeps reductions, such as a norm's
   * rstd, saved). The "elementwise" tensors of the inventory, norm outputs, the SwiGLU
   * product and the eager model code's fp32 and silu copies, are then rebuilt from the saved
   * inputs. Measured on one H200 (validation/gpu/h200-compile-2026-12-04.json): compile takes
   * the Llama 3.2 1B shape at seq 4096 from 20.52 to 15.09 GiB peak allocated.
   */
  readonly compiled?: boolean;
  /**
   * Expert tensor-parallel size (structure/params.ts expertTensorParallel; absent: 1). The
   * experts' input is gathered over it (expertInputGather), so each GPU's routed experts
   * read etp/tp of the micro-batch's routed copies, not 1/tp.
   */
  readonly expertTp?: number;
  /** A fine-tune with frozen base weights (adapter.ts adapterActivationSettings): absent for full training. */
  readonly adapter?: AdapterActivations;
  /** What an older Megatron-Core release's dispatcher saves beyond the inventory (moe-permutation.ts); absent: nothing. */
  readonly moePermutation?: MoePermutationSaves;
  /**
   * The busiest expert-parallel rank's routed tokens over the mean (structure/moe-routing.ts busiestExpertRankLoad), absent
   * 1: that rank receives and saves this many times the mean routed copies, and it is the one that runs out of memory.
   */
  readonly expertLoad?: number;
  /** AutoModel's fake balanced gate (training.moeRouter "fakeBalanced"): no router, so no fp32 scores saved. */
  readonly noRouter?: true;
  /**
   * Bytes per logit a stated Megatron-Core release's cross-entropy holds at its peak, the saved
   * softmax included (cross-entropy-copies.ts); absent: the loss's own buffers (loss.ts).
   */
  readonly crossEntropyPeakBytes?: number;
}

const FP8_BYTES = 1;
/**
 * One NVFP4 element as torchao keeps it for backward: a 4-bit E2M1 code and an E4M3 scale
 * per 16 elements (torchao nvfp4_training/nvfp4_linear.py: x_col_codes, x_col_sf).
 */
export const NVFP4_SAVED_BYTES = 0.5 + 1 / 16;
/** torchtitan's NVFP4 converter with fp4 compute: torchao's NVFP4 training linear (see nvfp4LinearSaves). */
function torchaoNvfp4Linears(c: RunConfig): boolean {
  return c.training.precision === 'fp4' && frameworkProfile(c.stack.framework).mechanisms.torchaoFloat8Casts;
}
/** The framework keeps linear inputs quantized for backward (input/frameworks.ts) and the run computes in fp8 or fp4. */
function fp8LinearInputs(c: RunConfig): boolean {
  const low = c.training.precision === 'fp8' || c.training.precision === 'fp4';
  return low && frameworkProfile(c.stack.framework).mechanisms.savesQuantizedLinearInputs;
}
/** Dropout masks are stored as one byte per element (Korthikanti section 4.1). */
const MASK_BYTES = 1;

function attentionTensors(m: ModelConfig, s: ActivationSettings): SavedTensor[] {
  const w = s.elementBytes;
  const a = m.mla;
  const qkHead = a ? a.qkNopeHeadDim + a.qkRopeHeadDim : m.headDim;
  const vHead = a ? a.vHeadDim : m.headDim;
  // MLA up-projects a K and V per query head from the shared latent (arXiv 2405.04434, eq. 10-11).
  const kvHeads = a ? m.heads : m.kvHeads;
  const keyTokens = s.seqLen / s.cp;
  // Shared input of the Q, K, V projections: 2sbh.
  // The input norm's output: Megatron's "layernorm" module recomputes it.
  const list = [saved('attention.input', w * m.hidden, 'sequence', 'elementwise', ['layernorm'])];
  if (a) {
    if (a.qLoraRank > 0)
      list.push(
        saved('q_down.output', w * a.qLoraRank, 'sequence', 'kept'),
        saved('q_norm.output', w * a.qLoraRank, 'sequence', 'elementwise', ['layernorm']),
      );
    list.push(
      saved('kv_down.output', w * (a.kvLoraRank + a.qkRopeHeadDim), 'sequence', 'kept'),
      saved('kv_norm.output', w * a.kvLoraRank, 'sequence', 'elementwise', ['layernorm']),
    );
  }
  // With MLA the up-projected Q, K, V are what "mla_up_proj" recomputes (Megatron-Core multi_latent_attention.py).
  const upProj: readonly RecomputeModule[] = a ? ['mla_up_proj'] : [];
  // QK^T keeps Q and K: 4sbh for multi-head attention, less K with grouped-query attention.
  list.push(saved('qk', w * (m.heads + kvHeads) * qkHead, 'tensor', 'kept', upProj));
  if (s.flashAttention) {
    // FlashAttention-2 saves only the output and one fp32 log-sum-exp per query and head (Dao 2023, arXiv 2307.08691, algorithm 1).
    list.push(saved('flash.logsumexp', FP32_BYTES * m.heads, 'tensor', 'scores', ['core_attn']));
  } else {
    // Softmax output 2as²b; with dropout also its mask as²b and output 2as²b (section 4.1).
    list.push(saved('softmax.output', w * m.heads * keyTokens, 'tensor', 'scores', ['core_attn']));
    if (s.dropout)
      list.push(
        saved('softmax.dropoutMask', MASK_BYTES * m.heads * keyTokens, 'tensor', 'scores', ['core_attn']),
        saved('softmax.dropoutOutput', w * m.heads * keyTokens, 'tensor', 'scores', ['core_attn']),
      );
  }
  // Attention over values keeps V (2sbh); the output projection keeps its input (2sbh).
  list.push(saved('v', w * kvHeads * vHead, 'tensor', 'kept', upProj), saved('proj.input', w * m.heads * vHead, 'tensor', 'kept'));
  if (s.dropout) list.push(saved('attention.dropoutMask', MASK_BYTES * m.hidden, 'sequence', 'kept'));
  return list;
}

/**
 * One FFN of inner size `inner`, run `copies` times per token. GELU keeps its input and output (8sbh each at 4h); SwiGLU keeps
 * both branch outputs and the product.
 */
function ffnTensors(
  prefix: string,
  inner: number,
  m: ModelConfig,
  s: ActivationSettings,
  copies: number,
  modules: readonly RecomputeModule[],
  actModules: readonly RecomputeModule[],
): SavedTensor[] {
  const size = s.elementBytes * inner * copies;
  const product = saved(`${prefix}.down.input`, size, 'tensor', 'elementwise', [...modules, ...actModules]);
  if (m.ffnType === 'swiglu') {
    return [
      saved(`${prefix}.up.output`, size, 'tensor', 'kept', modules),
      saved(`${prefix}.gate.output`, size, 'tensor', 'kept', modules),
      product,
      ...eagerSiluOutput(s.modelCode, prefix, size, [...modules, ...actModules]),
    ];
  }
  return [saved(`${prefix}.activation.input`, size, 'tensor', 'kept', modules), product];
}

function mlpTensors(m: ModelConfig, layerIndex: number, s: ActivationSettings): SavedTensor[] {
  const w = s.elementBytes;
  // Input of the first linear layer (2sbh), shared by router, experts and shared experts.
  const list = [saved('mlp.input', w * m.hidden, 'sequence', 'elementwise', ['layernorm'])];
  if (m.moe && isMoeLayer(m, layerIndex)) {
    const { experts, expertFfnHidden, sharedExperts } = m.moe;
    // Routed copies per token, padded to capacity under a capacity factor (structure/params.ts routedCopiesPerToken),
    // as the busiest expert-parallel rank receives them (s.expertLoad × the mean).
    const topK = routedCopiesPerToken(m.moe) * (s.expertLoad ?? 1);
    // Router scores in fp32 for the softmax/top-k backward (Megatron-Core moe_router_dtype fp32); the fake balanced gate has none.
    if (!s.noRouter) list.push(saved('router.scores', FP32_BYTES * experts, 'sequence', 'kept', ['moe']));
    list.push(
      // Every token goes to topK experts: the permuted copies are the expert inputs. The routing
      // weights are applied inside the experts (Megatron-Core's probability-weighted activation,
      // core_v0.13.0 moe/experts.py activation_func_with_probs; torchtitan's score_before_experts),
      // so the combine keeps no expert outputs. Earlier Megatron-Core releases multiply the
      // unpermuted outputs by the probabilities and save them (moe-permutation.ts, by release).
      // Under expert tensor parallelism the copies are gathered over the etp ranks first.
      saved('experts.dispatched', w * m.hidden * topK * (s.expertTp ?? 1), 'tensor', 'kept', ['moe']),
      ...ffnTensors('experts', expertFfnHidden, m, s, topK, ['moe'], ['moe_act']),
      ...moePermutationTensors(s.moePermutation, w, m.hidden),
    );
    if (sharedExperts > 0)
      list.push(...ffnTensors('sharedExperts', expertFfnHidden * sharedExperts, m, s, 1, ['moe', 'shared_experts'], []));
  } else {
    list.push(...ffnTensors('mlp', m.ffnHidden, m, s, 1, ['mlp'], []));
  }
  if (s.dropout) list.push(saved('mlp.dropoutMask', MASK_BYTES * m.hidden, 'sequence', 'kept'));
  return list;
}

/** Everything layer `layerIndex` saves for backward with no recomputation, per token. */
function layerTensors(m: ModelConfig, layerIndex: number, s: ActivationSettings): SavedTensor[] {
  const w = s.elementBytes;
  // The two norms keep their inputs (2 × 2sbh); the first one's input is the layer input.
  const list = [
    saved('norm1.input', w * m.hidden, 'sequence', 'input'),
    ...attentionTensors(m, s),
    saved('norm2.input', w * m.hidden, 'sequence', 'kept'),
    ...mlpTensors(m, layerIndex, s),
    ...eagerNormCopies(s.modelCode, m),
  ].filter((t) => !s.adapter?.frozenInputs.includes(t.name) && !(s.compiled && t.role === 'elementwise'));
  if (s.adapter) list.push(saved('adapter.xA', s.adapter.bytesPerToken, 'tensor', 'kept'));
  const quantized = s.linearInputBytes;
  if (quantized === undefined || quantized >= w) return list;
  return list.map((t) => (isLinearInput(t.name) ? { ...t, bytesPerToken: (t.bytesPerToken * quantized) / w } : t));
}

/**
 * The saved tensors that are the input of a linear layer: with fp8 Transformer Engine
 * keeps them only in their quantized form for the weight-gradient GEMM (Transformer
 * Engine v2 pytorch/module/linear.py and layernorm_linear.py save the quantized input
 * tensor; the 16-bit copy is freed), one byte per element instead of two.
 */
function isLinearInput(name: string): boolean {
  return LINEAR_INPUTS.has(name) || name.endsWith('.down.input');
}
const LINEAR_INPUTS = new Set(['attention.input', 'q_norm.output', 'kv_norm.output', 'proj.input', 'mlp.input', 'experts.dispatched']);

function keptByPolicy(t: SavedTensor, s: ActivationSettings): boolean {
  if (s.recompute === 'none') return true;
  if (s.recompute === 'full') return t.role === 'input';
  if (s.selectiveScope === 'modules') {
    const modules = s.recomputeModules ?? ['core_attn'];
    return !t.modules.some((module) => modules.includes(module));
  }
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
  if (s.recompute === 'selective' && s.selectiveScope === 'op') return bytesOf(opLevelSavedTensors(m, layerIndex, s), s);
  return bytesOf(
    layerTensors(m, layerIndex, s).filter((t) => keptByPolicy(t, s)),
    s,
  );
}

/** What recomputation rebuilds for one layer during its backward: the tensors the policy dropped. */
export function recomputeWorkingSetBytes(m: ModelConfig, layerIndex: number, s: ActivationSettings): number {
  if (s.recompute === 'selective' && s.selectiveScope === 'op') {
    return Math.max(0, activationBytesPerLayer(m, layerIndex, { ...s, recompute: 'none' }) - activationBytesPerLayer(m, layerIndex, s));
  }
  return bytesOf(
    layerTensors(m, layerIndex, s).filter((t) => !keptByPolicy(t, s)),
    s,
  );
}

/** A tensor's width per token and how it is split. */
interface Width {
  readonly size: number;
  readonly shard: Shard;
}
/** One matrix multiply of a block: its output's width and its input's. */
interface Matmul extends Width {
  readonly name: string;
  readonly input: Width;
}

/**
 * torchtitan's op-level selective activation checkpointing (torchtitan v0.1
 * torchtitan/distributed/activation_checkpoint.py, _apply_op_sac with the model's
 * _save_list): a block keeps its input, the outputs of the ops on the save list (every
 * aten.mm except every second one, counted in forward order, and the SDPA outputs: the
 * attention output and its fp32 log-sum-exp) and recomputes everything else. The matmul
 * outputs are listed in the order the block runs them.
 */
function opLevelSavedTensors(m: ModelConfig, layerIndex: number, s: ActivationSettings): SavedTensor[] {
  const w = s.elementBytes;
  const a = m.mla;
  const vHead = a ? a.vHeadDim : m.headDim;
  const fromHidden: Width = { size: m.hidden, shard: 'sequence' };
  const mm: Matmul[] = [];
  if (a) {
    if (a.qLoraRank > 0) mm.push({ name: 'q_down', size: a.qLoraRank, shard: 'sequence', input: fromHidden });
    const qInput: Width = a.qLoraRank > 0 ? { size: a.qLoraRank, shard: 'sequence' } : fromHidden;
    mm.push({ name: 'q_up', size: m.heads * (a.qkNopeHeadDim + a.qkRopeHeadDim), shard: 'tensor', input: qInput });
    mm.push({ name: 'kv_down', size: a.kvLoraRank + a.qkRopeHeadDim, shard: 'sequence', input: fromHidden });
    mm.push({
      name: 'kv_up',
      size: m.heads * (a.qkNopeHeadDim + a.vHeadDim),
      shard: 'tensor',
      input: { size: a.kvLoraRank, shard: 'sequence' },
    });
  } else {
    mm.push(
      { name: 'wq', size: m.heads * m.headDim, shard: 'tensor', input: fromHidden },
      { name: 'wk', size: m.kvHeads * m.headDim, shard: 'tensor', input: fromHidden },
      { name: 'wv', size: m.kvHeads * m.headDim, shard: 'tensor', input: fromHidden },
    );
  }
  mm.push({ name: 'wo', size: m.hidden, shard: 'sequence', input: { size: m.heads * vHead, shard: 'tensor' } });
  const ffn = (prefix: string, inner: number, copies: number) => {
    const width = inner * copies;
    if (m.ffnType === 'swiglu')
      mm.push(
        { name: `${prefix}.w1`, size: width, shard: 'tensor', input: fromHidden },
        { name: `${prefix}.w3`, size: width, shard: 'tensor', input: fromHidden },
      );
    else mm.push({ name: `${prefix}.fc1`, size: width, shard: 'tensor', input: fromHidden });
    mm.push({ name: `${prefix}.w2`, size: m.hidden * copies, shard: 'sequence', input: { size: width, shard: 'tensor' } });
  };
  if (m.moe && isMoeLayer(m, layerIndex)) {
    // The router's gate is force-recomputed and left out of the count
    // (ActivationCheckpoint.per_op_sac_force_recompute_mm_shapes_by_fqns defaults to
    // ["moe.router.gate"], torchtitan/config/job_config.py). The routed experts run as
    // torch._grouped_mm, which is not on the save list (torchtitan/models/qwen3/infra/
    // parallelize.py and llama4's _op_sac_save_list: aten.mm, the SDPA variants,
    // reduce_scatter, max, flex_attention), so their outputs, and the dispatched tokens
    // before them, are recomputed. Shared experts are plain nn.Linear (aten.mm) and count.
    if (m.moe.sharedExperts > 0) ffn('sharedExperts', m.moe.expertFfnHidden * m.moe.sharedExperts, 1);
  } else {
    ffn('mlp', m.ffnHidden, 1);
  }
  // "every second mm" is recomputed: the 1st, 3rd, 5th … are saved.
  const savedMm = s.nvfp4Linears
    ? nvfp4LinearSaves(mm)
    : mm.filter((_, i) => i % 2 === 0).map((o) => saved(`${o.name}.output`, w * o.size, o.shard, 'kept'));
  return [
    saved('block.input', w * m.hidden, 'sequence', 'input'),
    ...savedMm,
    saved('sdpa.output', w * m.heads * vHead, 'tensor', 'kept'),
    saved('sdpa.logsumexp', FP32_BYTES * m.heads, 'tensor', 'kept'),
  ];
}

/**
 * What the block's linear layers keep when they run torchao's NVFP4 training matmul
 * (torchtitan components/quantization/nvfp4.py NVFP4Linear → torchao
 * prototype/moe_training/nvfp4_training/nvfp4_linear.py nvfp4_mm_triton): the forward saves
 * "only FP4 codes+scales for backward", the input's columnwise NVFP4 codes for the
 * weight-gradient GEMM, NVFP4_SAVED_BYTES per element of each linear's own input (wq, wk
 * and wv each quantize theirs). Its matmul is F.scaled_mm, not the aten.mm / aten.linear
 * whose outputs torchtitan's op-level policy saves (activation_checkpoint.py @8d6877e1
 * SelectiveAC), so no 16-bit output is kept. torchtitan's nvfp4.md bears it out: at the same
 * batch, NVFP4 takes 34.25 GiB less than bf16 for Qwen3 8B and 63.5 GiB less for Llama 3 8B,
 * and "the bf16 tail costs … 8 GiB" for five Llama layers (this rule: 7.7 GiB).
 */
function nvfp4LinearSaves(mm: readonly Matmul[]): SavedTensor[] {
  return mm.map((o) => saved(`${o.name}.input.nvfp4`, NVFP4_SAVED_BYTES * o.input.size, o.input.shard, 'kept'));
}

/**
 * After the last layer (section 4.3): the final norm's input and the output layer's
 * input (2sbh/t each) and the fp32 logits for the loss (4sbV/t), i.e. 4sbh/t·(1 + V/h).
 */
function outputTensors(m: ModelConfig, s: ActivationSettings): SavedTensor[] {
  const w = s.elementBytes;
  const chunks = s.lossChunks ?? 1;
  // torchtitan's compiled loss keeps the 16-bit logits, not their fp32 log-probabilities (loss.ts sixteenBitCompiledLoss).
  const compiled = sixteenBitCompiledLoss(chunkLossKind(s.loss ?? 'eager', chunks), s.modelCode);
  const list = [
    saved('finalNorm.input', w * m.hidden, 'sequence', 'kept'),
    saved('output.input', w * m.hidden, 'sequence', 'kept'),
    compiled ? saved('logits', w * m.vocab, 'tensor', 'kept') : saved('logits.fp32', (FP32_BYTES * m.vocab) / chunks, 'tensor', 'kept'),
  ];
  // A chunked loss gathers the gradient of the hidden states in one fp32 [T, D] buffer (torchtitan GradAccumulator).
  if (chunks > 1) list.push(saved('loss.hiddenGradient', FP32_BYTES * m.hidden, 'sequence', 'kept'));
  return list;
}

/** One MTP module: enorm and hnorm inputs, the 2h projection input, its layer, its own output and loss (arXiv 2412.19437, section 2.2). */
function mtpBytes(m: ModelConfig, s: ActivationSettings): number {
  const w = s.elementBytes;
  const inputs = [
    saved('mtp.norms.input', 2 * w * m.hidden, 'sequence', 'kept'),
    saved('mtp.proj.input', 2 * w * m.hidden, 'sequence', 'kept'),
  ];
  return bytesOf([...inputs, ...outputTensors(m, s)], s) + activationBytesPerLayer(m, mtpLayerIndex(m), s);
}

function lossWorkingSetBytes(m: ModelConfig, s: ActivationSettings): number {
  const chunks = s.lossChunks ?? 1;
  const kind = chunkLossKind(s.loss ?? 'eager', chunks);
  const sixteenBit = sixteenBitCompiledLoss(kind, s.modelCode);
  const backward = lossBackwardFp32LogitCopies(kind, s.tp, sixteenBit) * FP32_BYTES + (sixteenBit ? s.elementBytes : 0);
  const perToken = lossBytesBeyondSaved(backward, sixteenBit ? s.elementBytes : FP32_BYTES, s.crossEntropyPeakBytes);
  return bytesOf([saved('loss.gradients', (perToken * m.vocab) / chunks, 'tensor', 'kept')], s);
}

/**
 * What the caching allocator reserves beyond the allocated peak on the output stage after an eager loss (loss.ts
 * eagerLossLogitsHoleBytes), bytes on one GPU.
 */
export function lossReserveBytes(c: RunConfig, stage: PipelineStage, s: ActivationSettings = engineActivationSettings(c)): number {
  if (!stage.output) return 0;
  const perLogit = eagerLossLogitsHoleBytes(s.loss ?? 'eager', s.lossChunks ?? 1, s.modelCode, s.elementBytes);
  return perLogit > 0 ? bytesOf([saved('logits.freedHole', perLogit * c.model.vocab, 'tensor', 'kept')], s) : 0;
}

/**
 * What a stated Megatron-Core release's cross-entropy copies add to the stage's activations
 * (cross-entropy-copies.ts), bytes on one GPU: 0 off the output stage, without a stated release,
 * or where the loss's own buffers or a layer's recompute working set are larger.
 */
export function crossEntropyCopiesBytes(c: RunConfig, stage: PipelineStage, s: ActivationSettings = engineActivationSettings(c)): number {
  if (!stage.output || s.crossEntropyPeakBytes === undefined) return 0;
  const { crossEntropyPeakBytes: _release, ...engine } = s;
  return stageActivationBytes(c, stage, s) - stageActivationBytes(c, stage, engine);
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
  const k = c.stack;
  const policy = k.selectivePolicy;
  // 'layer' keeps every tensor of the layers it does not recompute in full (stageActivationBytes).
  const layerPolicy = c.training.recompute === 'selective' && policy === 'layer';
  const scope: SelectiveScope = policy === 'elementwise' ? ENGINE_SELECTIVE_SCOPE : policy === 'op' ? 'op' : 'modules';
  const chunks = lossChunks(frameworkProfile(k.framework).mechanisms.fusedLossChunks, k.loss);
  return {
    seqLen: c.training.seqLen,
    microBatch: c.training.microBatch,
    tp: c.parallel.tp,
    sequenceParallel: c.parallel.sequenceParallel,
    cp: c.parallel.cp,
    recompute: layerPolicy ? 'none' : c.training.recompute,
    selectiveScope: scope,
    flashAttention: c.training.flashAttention,
    dropout: k.dropout,
    elementBytes: ACTIVATION_BYTES[c.training.precision],
    recomputeModules: k.recomputeModules,
    loss: k.loss,
    ...(chunks > 1 ? { lossChunks: chunks } : {}),
    ...(layerPolicy ? { layerFrequency: k.recomputeLayerFrequency } : {}),
    ...(c.training.recompute === 'full' && k.recomputeLayers !== null ? { fullRecomputeLayers: k.recomputeLayers } : {}),
    ...(k.activationOffloadLayers > 0 ? { offloadLayers: k.activationOffloadLayers } : {}),
    ...(fp8LinearInputs(c) ? { linearInputBytes: FP8_BYTES } : {}),
    ...(torchaoNvfp4Linears(c) ? { nvfp4Linears: true, linearInputBytes: NVFP4_SAVED_BYTES } : {}),
    ...(k.modelCode === 'fused' ? {} : { modelCode: k.modelCode }),
    ...(k.compile ? { compiled: true } : {}),
    ...expertInputGather(c),
    ...expertRouting(c),
    ...releaseMoePermutation(c),
    ...releaseCrossEntropy(c),
    ...(c.training.adapter
      ? { adapter: adapterActivations(c.model, c.training.adapter, ACTIVATION_BYTES[c.training.precision], k.modelCode) }
      : {}),
  };
}

/** The busiest expert-parallel rank's load and the router (structure/moe-routing.ts), where they differ from balanced learned routing. */
function expertRouting(c: RunConfig): { readonly expertLoad?: number; readonly noRouter?: true } {
  if (!c.model.moe) return {};
  const load = busiestExpertRankLoad(c);
  return { ...(load === 1 ? {} : { expertLoad: load }), ...(moeRouterOf(c) === 'fakeBalanced' ? { noRouter: true as const } : {}) };
}

function releaseMoePermutation(c: RunConfig): { readonly moePermutation?: MoePermutationSaves } {
  const saves = runMoePermutationSaves(c);
  return saves ? { moePermutation: saves } : {};
}

function releaseCrossEntropy(c: RunConfig): { readonly crossEntropyPeakBytes?: number } {
  const peak = runCrossEntropyPeakBytesPerLogit(c);
  return peak === null ? {} : { crossEntropyPeakBytes: peak };
}

/**
 * Megatron-Core gathers the routed tokens over the expert tensor-parallel group before
 * the experts run (core_v0.14.0 megatron/core/transformer/moe/token_dispatcher.py: the
 * all-to-all dispatcher's dispatch_postprocess calls gather_from_sequence_parallel_region
 * over self.tp_group = expt_tp when tp_size > 1; the all-gather dispatcher's
 * token_dispatch gathers over tp_ep_group): a GPU's experts take the copies of etp
 * tensor-parallel ranks, each with its own slice of the expert FFN, and save that whole
 * input for the weight gradient. With etp = 1 it is the engine's 1/tp share.
 */
function expertInputGather(c: RunConfig): { readonly expertTp?: number } {
  const etp = c.model.moe ? expertTensorParallel(c.parallel) : 1;
  return etp > 1 ? { expertTp: etp } : {};
}

/**
 * Which policy layer `position` (0-based within its stage) runs under. Every Nth layer of
 * torchtitan's layer policy is fully checkpointed (activation_checkpoint.py: a block is
 * wrapped when its running count is divisible by N); Megatron's block method recomputes
 * the first --recompute-num-layers layers of a stage and keeps the rest.
 */
export function layerSettings(s: ActivationSettings, position: number): ActivationSettings {
  if (s.layerFrequency !== undefined) return (position + 1) % s.layerFrequency === 0 ? { ...s, recompute: 'full' } : s;
  if (s.fullRecomputeLayers !== undefined && s.recompute === 'full')
    return position < s.fullRecomputeLayers ? s : { ...s, recompute: 'none' };
  return s;
}

/**
 * Activation offload (Megatron --cpu-offloading-num-layers): the saved tensors of a stage's
 * first N layers live in host memory; `position` is 0-based within the stage.
 */
export function isOffloadedPosition(s: ActivationSettings, position: number): boolean {
  return position < (s.offloadLayers ?? 0);
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
  stage.layers.forEach((i, position) => {
    const layer = layerSettings(s, position);
    const offloaded = isOffloadedPosition(s, position);
    kept += offloaded ? 0 : activationBytesPerLayer(m, i, layer);
    keptWithoutRecompute += offloaded ? 0 : activationBytesPerLayer(m, i, everything);
    workingSet = Math.max(workingSet, recomputeWorkingSetBytes(m, i, layer));
  });
  // Korthikanti section 4.3: the embedding's dropout mask, sbh/t per micro-batch in flight.
  const edges =
    (stage.embedding && s.dropout ? bytesOf([saved('embedding.dropoutMask', MASK_BYTES * m.hidden, 'sequence', 'kept')], s) : 0) +
    (stage.output ? bytesOf(outputTensors(m, s), s) + m.mtpLayers * mtpBytes(m, s) : 0);
  const loss = stage.output ? lossWorkingSetBytes(m, s) : 0;
  return peakActivationBytes(inFlight, kept, keptWithoutRecompute, edges, workingSet, loss);
}

/**
 * What activation offload (training.activationOffloadLayers: Megatron-Core --cpu-offloading
 * --cpu-offloading-num-layers, activations only) keeps in host memory for one GPU of `stage`,
 * bytes: the saved tensors of the stage's first N layers (the ones stageActivationBytes leaves
 * off the GPU) for every micro-batch in flight. Megatron-Core hands them to Transformer
 * Engine's get_cpu_offload_context (core_v0.13.0 transformer/transformer_block.py), whose
 * offload handler copies each saved tensor into a pinned CPU tensor of its own at the end of
 * its layer's forward and frees it when the backward has reloaded it (TE v2.5
 * transformer_engine/pytorch/cpu_offload.py: SynchronizedGroupOffloadHandler.offload's pinned
 * torch.empty per tensor, AsyncDoubleBufferGroupOffloadHandler), so the host holds the
 * offloaded layers of the micro-batches between forward and backward.
 */
export function offloadedActivationBytes(c: RunConfig, stage: PipelineStage, s: ActivationSettings = engineActivationSettings(c)): number {
  const offloaded = Math.min(s.offloadLayers ?? 0, stage.layers.length);
  if (offloaded === 0) return 0;
  const inFlight = microBatchesInFlight(c.parallel, stage.index, microBatchesPerStep(c.training, c.parallel));
  let bytes = 0;
  stage.layers.slice(0, offloaded).forEach((i, position) => {
    bytes += activationBytesPerLayer(c.model, i, layerSettings(s, position));
  });
  return inFlight * bytes;
}

/**
 * A stage's peak activation bytes from its per-micro-batch figures (the estimate and the
 * search both call it): `inFlight` micro-batches of saved tensors (`kept` under the
 * recompute policy, `keptWithoutRecompute` keeping everything) and the embedding/output
 * edges, plus the larger of a layer's recompute working set and the loss's backward
 * buffers. Never more than keeping everything.
 */
export function peakActivationBytes(
  inFlight: number,
  kept: number,
  keptWithoutRecompute: number,
  edges: number,
  workingSet: number,
  loss: number,
): number {
  const withRecompute = inFlight * (kept + edges) + Math.max(workingSet, loss);
  const withoutRecompute = inFlight * (keptWithoutRecompute + edges) + loss;
  return Math.min(withRecompute, withoutRecompute);
}

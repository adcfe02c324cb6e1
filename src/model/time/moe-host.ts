// The host-bound floor of an eager mixture-of-experts layer (issue 32, item 1): the GPU
// cannot run a layer faster than the host issues its operators. Dropless MoE copies the
// per-expert token counts to the host and synchronises once per layer (Megatron-Core
// megatron/core/transformer/moe/token_dispatcher.py @d98e8a64 (core_v0.15.0rc7-2333),
// MoEAlltoAllTokenDispatcher._maybe_dtoh_and_synchronize; DeepEP's dispatch waits for its
// host-mapped receive counts; torchtitan torchtitan/distributed/expert_parallel.py @f3748d8e9
// `.tolist()` of the all-to-all splits), so the host cannot run ahead across layers: per
// layer the longer of the GPU's work and the host's issuing sets the pace. CUDA graphs
// replay captured operators without the host: per-module graphs capture attention and the
// router (Megatron-Core transformer_config.py cuda_graph_scope "attn", "moe_router",
// "moe_preprocess"), whole-iteration graphs everything (cuda_graph_scope "full_iteration").

import { calibration } from '../calibration.ts';
import { isMoeLayer, moeRouterOf } from '../structure/index.ts';
import { frameworkProfile, type Fp8Recipe, type MoeDispatcher, type RunConfig } from '../input/index.ts';

/**
 * Eager operators one MoE layer issues in forward, by module, counted at the granularity
 * the host pays for (a PyTorch operator or a Transformer Engine module call, each one or a
 * few kernel launches), from Megatron-Core @d98e8a64:
 * - attention: the layer's attention block — TE LayerNormLinear (norm + QKV), fused rotary
 *   for q and k, TE DotProductAttention, the output projection, the fused bias-dropout-add,
 *   the pre-MLP norm: 8;
 * - router (moe/router.py TopKRouter.forward): the gating GEMM, the score function, top-k,
 *   the scatter of probabilities and the routing map, and the load-balancing loss
 *   (moe_utils.py switch_load_balancing_loss_func: tokens-per-expert sum, score sum, the
 *   product and its sum, MoEAuxLossAutoScaler, the all-reduce of counts): 12;
 * - dispatch and combine by dispatcher (token_dispatcher.py): all-to-all — preprocess's
 *   routing-map sum, split sizes and their gather over the EP group (5), the device-to-host
 *   copies of tokens_per_expert, input/output splits and num_out_tokens (5), the fused
 *   permute (2), the all-to-alls of tokens and probabilities (2), sort_chunks_by_idxs of both
 *   (2); combine's sort back, all-to-all and unpermute (3): 19. DeepEP (_DeepepManager):
 *   top-k of the map, the dropped-token mask, the fp32 cast of probabilities (3), the layout
 *   and the fused dispatch (2), the multi-hot map (1, fused), the permute (2); combine's
 *   unpermute and fused combine (2): 10. HybridEP (_HybridEPManager) permutes inside its
 *   dispatch kernel (moe_permute_fusion_into_hybridep): the fp32 cast, the fused dispatch
 *   with its preprocessing (2), the int64 cast and sum of the counts (2), the fused combine
 *   (1): 7 (one fewer with the cast already fp32; counted as 7).
 *   All-gather (MoEAllGatherTokenDispatcher): gathers of tokens and routing map (2), permute
 *   (2); unpermute and reduce-scatter (2): 6;
 * - experts (experts.py TEGroupedMLP): per local expert one GEMM for fc1 and one for fc2
 *   (Transformer Engine GroupedLinear issues one cuBLAS GEMM per expert), plus the fused
 *   activation-times-probabilities and the split of the input: 2 fixed.
 */
export const MOE_EAGER_OPS = {
  attention: 8,
  router: 12,
  dispatch: { alltoall: 19, allgather: 6, deepep: 10, hybridep: 7 } as Readonly<Record<MoeDispatcher, number>>,
  expertsFixed: 2,
  perLocalExpert: 2,
  /** A shared expert: fc1, activation, fc2 and the add onto the routed output. */
  sharedExpert: 4,
} as const;

/**
 * Operators AutoModel's fake balanced gate issues in place of the router, counted from
 * NVIDIA-NeMo/Automodel nemo_automodel/components/moe/layers.py @36044ad3 FakeBalancedGate.forward
 * (noise 0): torch.ones and the division by k for the weights (2), torch.arange, the remainder by
 * the experts and the add of skip_first_n_experts for the indices (3; the view launches nothing),
 * and the weights' type_as (1): 6, with no gating GEMM, score function, top-k or load-balancing loss.
 */
export const FAKE_BALANCED_GATE_OPS = 6;

/** Router operators of one eager MoE layer's forward: the learned router's, or the fake balanced gate's. */
function routerOps(c: RunConfig): number {
  return moeRouterOf(c) === 'fakeBalanced' ? FAKE_BALANCED_GATE_OPS : MOE_EAGER_OPS.router;
}

/**
 * Autograd issues about two operators per forward one (input and weight gradients of each GEMM; each element-wise op's gradient):
 * the adapters' count (adapter-time.ts ADAPTER_EAGER_OPS).
 */
export const BACKWARD_EAGER_OPS_PER_FORWARD = 2;

/**
 * Operators of one MoE layer's forward that the host issues eagerly under the run's CUDA-graph scope, before and after the
 * dispatcher's host synchronisation.
 */
export function moeEagerOps(c: RunConfig, layerIndex: number): { beforeSync: number; afterSync: number } {
  const moe = c.model.moe;
  if (!moe || !isMoeLayer(c.model, layerIndex) || c.stack.cudaGraph === 'full') return { beforeSync: 0, afterSync: 0 };
  const localExperts = moe.experts / c.parallel.ep;
  const experts =
    MOE_EAGER_OPS.expertsFixed + MOE_EAGER_OPS.perLocalExpert * localExperts + (moe.sharedExperts > 0 ? MOE_EAGER_OPS.sharedExpert : 0);
  // Per-module graphs capture the attention block and the router; the dispatcher's dynamic shapes keep the rest eager (moe/README.md, "CUDA graph").
  const beforeSync = c.stack.cudaGraph === 'partial' ? 0 : MOE_EAGER_OPS.attention + routerOps(c);
  return {
    beforeSync,
    afterSync: dispatchOps(c) + experts + alltoallPeerCalls(c) + expertQuantizeOps(c, localExperts),
  };
}

/**
 * Capacity-padded all-to-all dispatch (drop_and_pad, --moe-pad-expert-input-to-capacity)
 * knows its split sizes in advance: preprocess returns before the routing-map sum, the split
 * sizes and their gather over the EP group (5), and _maybe_dtoh_and_synchronize skips the
 * device-to-host copies (5) (Megatron-Core token_dispatcher.py @d98e8a64,
 * MoEAlltoAllTokenDispatcher.preprocess and _maybe_dtoh_and_synchronize, "if not
 * self.drop_and_pad").
 */
export const ALLTOALL_SPLIT_SIZE_OPS = 10;

function dispatchOps(c: RunConfig): number {
  const ops = MOE_EAGER_OPS.dispatch[c.stack.moeDispatcher];
  return c.stack.moeDispatcher === 'alltoall' && c.model.moe?.capacityFactor != null ? ops - ALLTOALL_SPLIT_SIZE_OPS : ops;
}

/**
 * Kernels Transformer Engine launches to quantize one expert's tensor for an fp8/fp4
 * GEMM, by recipe (TransformerEngine @d0067d0d transformer_engine/pytorch/csrc/quantizer.cpp):
 * current scaling (Megatron --fp8-recipe tensorwise) computes the amax, the scale from it
 * and then casts (Float8CurrentScalingQuantizer::quantize_impl: nvte_compute_amax_with_config,
 * nvte_compute_scale_from_amax, nvte_quantize_v2): 3; MXFP8 and blockwise cast with their
 * scales in one kernel (MXFP8Quantizer / Float8BlockQuantizer::quantize): 1; NVFP4 takes
 * the amax first: 2. Delayed scaling (the Megatron default, also 'auto') has a fused
 * multi-tensor cast-transpose over every expert at once (csrc/extensions/cast.cpp
 * multi_tensor_quantize_impl, "only have fused kernel for FP8 delayed scaling"): none per
 * expert, one per grouped call. torchao's rowwise is not a Transformer Engine recipe
 * (torchtitan quantizes the grouped tensor whole): 0.
 */
export const TE_QUANTIZE_KERNELS_PER_EXPERT_TENSOR: Readonly<Record<Fp8Recipe, number>> = {
  auto: 0,
  delayed: 0,
  tensorwise: 3,
  rowwise: 0,
  blockwise: 1,
  mxfp8: 1,
  nvfp4: 2,
};

/**
 * Tensors Transformer Engine's GroupedLinear quantizes per direction: forward, the inputs of
 * fc1 and of fc2, split per expert (module/grouped_linear.py _GroupedLinear.forward,
 * _split_quantize of inputmats); backward, the output gradients of fc2 and fc1 (backward,
 * _split_quantize of grad_output). The weights are quantized on the first micro-batch only
 * (is_first_microbatch, update_workspace). The graph-safe grouped-tensor path that
 * quantizes all experts in one call (use_grouped_tensor, 2026-05) is opt-in and off here.
 */
export const QUANTIZED_EXPERT_TENSORS_PER_DIRECTION = 2;

/**
 * The fp8/fp4 quantize kernels one eager MoE layer issues per direction over its local
 * experts (item 3 of issue 32): each is a C++ launch with its output's allocation, counted
 * as one eager operator. Transformer Engine frameworks only (not torchao's casts).
 */
export function expertQuantizeOps(c: RunConfig, localExperts: number): number {
  const precision = c.training.precision;
  if ((precision !== 'fp8' && precision !== 'fp4') || frameworkProfile(c.stack.framework).mechanisms.torchaoFloat8Casts) return 0;
  const perExpert = TE_QUANTIZE_KERNELS_PER_EXPERT_TENSOR[c.stack.fp8Recipe];
  // Delayed scaling: one fused multi-tensor cast-transpose per quantized tensor group.
  const kernels = perExpert > 0 ? perExpert * localExperts : 1;
  return QUANTIZED_EXPERT_TENSORS_PER_DIRECTION * kernels * calibration().moe.nativeCallOpShare;
}

/**
 * The all-to-all dispatcher's NCCL calls: torch.distributed all_to_all_single with split
 * sizes runs one ncclSend and one ncclRecv per peer of the EP group inside a group call
 * (PyTorch torch/csrc/cuda/nccl.cpp all2all_single_unequal_split), each a host-side call.
 * Megatron-Core's dispatcher exchanges the tokens and their probabilities in dispatch and
 * the expert output in combine (token_dispatcher.py token_dispatch, token_combine), as does
 * torchtitan's (distributed/expert_parallel.py all_to_all_single_autograd for tokens,
 * output): 3 exchanges × 2 calls × ep peers per layer forward, each counted as
 * MOE_TIME.ncclPeerCallOpShare of an eager operator. DeepEP and HybridEP exchange in one fused
 * kernel each way.
 */
export function alltoallPeerCalls(c: RunConfig): number {
  if (c.stack.moeDispatcher !== 'alltoall' || c.parallel.ep <= 1) return 0;
  return MOE_ALLTOALL_EXCHANGES * 2 * c.parallel.ep * calibration().moe.ncclPeerCallOpShare;
}

/** all_to_all_single calls per MoE layer forward: tokens and probabilities in dispatch, the expert output in combine. */
export const MOE_ALLTOALL_EXCHANGES = 3;

/** Every eager operator of one MoE layer's forward. */
export function moeEagerOpsForward(c: RunConfig, layerIndex: number): number {
  const ops = moeEagerOps(c, layerIndex);
  return ops.beforeSync + ops.afterSync;
}

/**
 * Host seconds of one eager MoE layer (MOE_TIME.eagerOpHostSeconds per operator).
 * `afterSync`: forward. A dropless dispatcher synchronises with the GPU before its
 * exchange (token_dispatcher.py _maybe_dtoh_and_synchronize), which drains the queue: the
 * host issues what follows — the exchange, the experts' per-expert GEMMs, the combine —
 * while the GPU waits, so that issuing adds to the layer's forward. Capacity-padded
 * dispatch (drop_and_pad) has static shapes and skips the synchronisation.
 * `backward`: autograd's operators for the whole layer, with no synchronisation (the
 * splits are already on the host): a floor under the layer's backward (hostBound).
 */
export function moeLayerHostSeconds(
  c: RunConfig,
  layerIndex: number,
): { beforeSync: number; afterSync: number; stall: number; backward: number } {
  const ops = moeEagerOps(c, layerIndex);
  const dropAndPad = c.model.moe?.capacityFactor != null;
  const MOE_TIME = calibration().moe;
  const synchronises = !dropAndPad && ops.afterSync > 0;
  const stall = synchronises ? MOE_TIME.syncStallSeconds : 0;
  const afterSync = synchronises ? ops.afterSync * MOE_TIME.eagerOpHostSeconds + stall : 0;
  const dtensor = dtensorLayerForwardSeconds(c, layerIndex);
  const beforeSync = synchronises ? dtensor : 0;
  // Autograd doubles the computing operators, not the exchanges and casts: each all_to_all_single's backward is one
  // all_to_all_single, and backward quantizes as many expert tensors as forward (moeEagerOpsOncePerDirection).
  const once = ops.beforeSync + ops.afterSync === 0 ? 0 : moeEagerOpsOncePerDirection(c, layerIndex);
  const backwardOps = (ops.beforeSync + ops.afterSync - once) * BACKWARD_EAGER_OPS_PER_FORWARD + once;
  const backward = backwardOps * MOE_TIME.eagerOpHostSeconds + dtensor * BACKWARD_EAGER_OPS_PER_FORWARD;
  return { beforeSync, afterSync, stall, backward };
}

/**
 * The NCCL peer calls and fp8/fp4 expert casts of one MoE layer's forward: the operators backward issues once more, not
 * BACKWARD_EAGER_OPS_PER_FORWARD times.
 */
export function moeEagerOpsOncePerDirection(c: RunConfig, layerIndex: number): number {
  const moe = c.model.moe;
  if (!moe || !isMoeLayer(c.model, layerIndex) || c.stack.cudaGraph === 'full') return 0;
  return alltoallPeerCalls(c) + expertQuantizeOps(c, moe.experts / c.parallel.ep);
}

/**
 * A MoE layer's forward under the host-bound floor. Before the dispatcher's synchronisation
 * the host runs ahead (attention, router); at it the queue drains and the GPU idles for the
 * stall; after it the host issues the exchange, the per-expert GEMMs and the combine one by
 * one while the GPU runs each as soon as it is issued, so that part takes the longer of the
 * routed experts' GPU time and the host's issuing (issue 32, item 1: "the step takes the
 * larger of the two per layer").
 */
export function moeLayerForwardSeconds(
  gpuSeconds: number,
  expertGpuSeconds: number,
  host: { beforeSync?: number; afterSync: number; stall: number },
): number {
  return (
    hostBound(gpuSeconds - expertGpuSeconds, host.beforeSync ?? 0) + host.stall + hostBound(expertGpuSeconds, host.afterSync - host.stall)
  );
}

/** A layer's time under the host-bound floor: the longer of its GPU work and the host's issuing of it. */
export function hostBound(gpuSeconds: number, hostSeconds: number): number {
  return Math.max(gpuSeconds, hostSeconds);
}

/**
 * DTensor operators one torchtitan MoE layer's forward dispatches eagerly under tensor
 * parallelism, counted from torchtitan @f3748d8e9 (models/qwen3/infra/parallelize.py
 * apply_non_moe_tp, models/llama4/infra/parallelize.py apply_moe_ep_tp,
 * models/qwen3/model/model.py Attention.forward). wq, wk and wv are ColwiseParallel with
 * use_local_output=False, so everything between them and wo runs on DTensors:
 * - the three projections, each aten t, view, mm, _unsafe_view: 12; their views to heads: 3;
 * - q_norm and k_norm (SequenceParallel(sequence_dim=2), RMSNorm's pow, mean, add, rsqrt,
 *   mul, mul): 12;
 * - rotary on q and k (apply_rotary_emb: mul, the two slices, neg and cat of rotate_half,
 *   mul, add, type_as): 16;
 * - repeat_kv of k and v (unsqueeze, expand, clone, view): 8; three transposes: 3;
 *   scaled-dot-product attention: 1; transpose, contiguous, view: 3;
 * - wo (RowwiseParallel, output Shard(1)): t, view, mm, _unsafe_view and the
 *   reduce-scatter's redistribute: 5;
 * - around them: attention's input redistribute to Replicate (1), attention_norm and
 *   ffn_norm (SequenceParallel RMSNorm, 6 each: 12), the two residual adds (2), the MoE's
 *   PrepareModuleInputOutput (to_local of the gathered input, from_local and
 *   redistribute of the Partial output: 3) and the router gate (NoParallel: from_local,
 *   t, view, mm, _unsafe_view, to_local: 6).
 * The routed experts run on local tensors (GroupedExperts converts its DTensor weights
 * with to_local; distributed/expert_parallel.py ExpertTensorParallel).
 */
export const TORCHTITAN_TP_DTENSOR_OPS_PER_MOE_LAYER = 12 + 3 + 12 + 16 + 8 + 3 + 1 + 3 + 5 + 1 + 12 + 2 + 3 + 6;

/**
 * Host seconds of one DTensor operator beyond a plain aten one: DTensor's
 * __torch_dispatch__ (torch/distributed/tensor/_dispatch.py OpDispatcher.dispatch) unwraps
 * the arguments, looks up the cached sharding propagation, redistributes what needs it,
 * runs the local op and wraps the result. PyTorch's own benchmark of it expects 90 µs for
 * an add with the sharding-propagation cache hit (pytorch/pytorch
 * test/distributed/tensor/test_dtensor_dispatch_overhead.py @01f9ef32,
 * expected_dispatch_time = 90, in µs). NOT FITTED.
 */
export const DTENSOR_DISPATCH_SECONDS = 90e-6;

/**
 * Host seconds of one torchtitan MoE layer's forward spent in DTensor dispatch: eager
 * (no torch.compile: compile traces DTensor into one graph) torchtitan under tensor
 * parallelism, without whole-iteration CUDA graphs; 0 otherwise.
 */
export function dtensorLayerForwardSeconds(c: RunConfig, layerIndex: number): number {
  if (c.stack.framework !== 'torchtitan' || c.parallel.tp <= 1 || c.stack.compile || c.stack.cudaGraph === 'full') return 0;
  if (!c.model.moe || !isMoeLayer(c.model, layerIndex)) return 0;
  return TORCHTITAN_TP_DTENSOR_OPS_PER_MOE_LAYER * DTENSOR_DISPATCH_SECONDS;
}

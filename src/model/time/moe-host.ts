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
import { isMoeLayer } from '../structure/index.ts';
import type { MoeDispatcher, RunConfig } from '../input/index.ts';

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
  const beforeSync = c.stack.cudaGraph === 'partial' ? 0 : MOE_EAGER_OPS.attention + MOE_EAGER_OPS.router;
  return { beforeSync, afterSync: MOE_EAGER_OPS.dispatch[c.stack.moeDispatcher] + experts + alltoallPeerCalls(c) };
}

/**
 * The all-to-all dispatcher's NCCL calls: torch.distributed all_to_all_single with split
 * sizes runs one ncclSend and one ncclRecv per peer of the EP group inside a group call
 * (PyTorch torch/csrc/cuda/nccl.cpp all2all_single_unequal_split), each a host-side call.
 * Megatron-Core's dispatcher exchanges the tokens and their probabilities in dispatch and
 * the expert output in combine (token_dispatcher.py token_dispatch, token_combine), as does
 * torchtitan's (distributed/expert_parallel.py all_to_all_single_autograd for tokens,
 * output): 3 exchanges × 2 calls × ep peers per layer forward, each counted as
 * MOE_TIME.peerCallOpShare of an eager operator. DeepEP and HybridEP exchange in one fused
 * kernel each way.
 */
export function alltoallPeerCalls(c: RunConfig): number {
  if (c.stack.moeDispatcher !== 'alltoall' || c.parallel.ep <= 1) return 0;
  const MOE_TIME = calibration().moe;
  return MOE_ALLTOALL_EXCHANGES * 2 * c.parallel.ep * MOE_TIME.peerCallOpShare;
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
export function moeLayerHostSeconds(c: RunConfig, layerIndex: number): { afterSync: number; backward: number } {
  const ops = moeEagerOps(c, layerIndex);
  const dropAndPad = c.model.moe?.capacityFactor != null;
  const MOE_TIME = calibration().moe;
  const afterSync = dropAndPad || ops.afterSync === 0 ? 0 : ops.afterSync * MOE_TIME.eagerOpHostSeconds + MOE_TIME.syncStallSeconds;
  return { afterSync, backward: (ops.beforeSync + ops.afterSync) * BACKWARD_EAGER_OPS_PER_FORWARD * MOE_TIME.eagerOpHostSeconds };
}

/** A layer's time under the host-bound floor: the longer of its GPU work and the host's issuing of it. */
export function hostBound(gpuSeconds: number, hostSeconds: number): number {
  return Math.max(gpuSeconds, hostSeconds);
}

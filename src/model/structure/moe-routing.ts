// How routed tokens spread over the expert-parallel ranks (issue 32 item 4): the one rule that
// compute, communication and memory read for the busiest rank's load (training.moeLoadImbalance)
// and the router (training.moeRouter). Parsed at the edge in input/moe-routing.ts.
//
// Why the busiest rank sets the pace, Megatron-Core core_v0.15.0
// megatron/core/transformer/moe/token_dispatcher.py: MoEAlltoAllTokenDispatcher.preprocess counts
// each rank's tokens (num_global_tokens_per_rank → output_splits), token_dispatch exchanges them with
// all_to_all(ep_group, …, output_splits, input_splits), the experts run on what arrived, and
// token_combine's all_to_all sends the outputs back: every rank's combine waits for the busiest
// rank's experts, and that rank receives, computes and holds load × the mean tokens. DeepEP and
// HybridEP (_DeepepManager, _HybridEPManager, fused_a2a.py) exchange in one collective kernel each
// way, with the same wait. Balanced routing is what --moe-router-force-load-balancing forces
// (router.py TopKRouter.forward: apply_random_logits, moe_utils.py RandomSTE; arguments.py: "for
// benchmarking purposes only").

import type { MoeRouter, RunConfig } from '../input/index.ts';
import { routedCopiesPerToken } from './params.ts';

type RoutingView = Pick<RunConfig, 'model' | 'training'>;

/** The run's router: training.moeRouter, absent 'learned'. */
export function moeRouterOf(c: Pick<RunConfig, 'training'>): MoeRouter {
  return c.training.moeRouter ?? 'learned';
}

/**
 * The busiest expert-parallel rank's routed tokens over the mean that compute, the all-to-all and
 * memory take for every rank: training.moeLoadImbalance (absent 1). It is 1 for a dense model, for
 * AutoModel's fake balanced gate (every expert the same tokens by construction), and under a
 * capacity factor, where every expert is padded or dropped to capacity = c × its mean share
 * (moe_utils.py get_capacity with --moe-pad-expert-input-to-capacity; routedCopiesPerToken already
 * counts c). Otherwise the stated value at any EP, so the layout search, which keeps the document's
 * routing on every layout it tries, prices each as the engine does; above EP (more than every
 * routed token on one rank) the document gets a warning (input/moe-routing.ts moeLoadAboveEpProblem).
 */
export function busiestExpertRankLoad(c: RoutingView): number {
  const moe = c.model.moe;
  if (!moe || moe.capacityFactor != null || moeRouterOf(c) === 'fakeBalanced') return 1;
  return c.training.moeLoadImbalance ?? 1;
}

/** Routed copies per token of the mean that the busiest expert-parallel rank computes, receives and holds. */
export function busiestRankCopiesPerToken(c: RoutingView): number {
  return c.model.moe ? routedCopiesPerToken(c.model.moe) * busiestExpertRankLoad(c) : 0;
}

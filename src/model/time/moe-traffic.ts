// The memory-bound work of a mixture-of-experts layer as HBM traffic (issue 32, item 2),
// counted from Megatron-Core @d98e8a64 (megatron/core/transformer/moe/): what it reads
// and writes beyond the GEMMs, per token of one micro-batch in forward. The SwiGLU over
// tokens × top-k × expert FFN is the element-wise FFN passes of compute.ts
// (elementwiseFfnPasses over the routed copies' FFN width), shared with dense layers.

import { busiestExpertRankLoad, moeRouterOf, routedCopiesPerToken } from '../structure/index.ts';
import type { RunConfig } from '../input/index.ts';

/**
 * 16-bit h-sized reads and writes per routed copy of a token: permute reads the token and
 * writes its copy (2), unpermute reads each copy and writes the weighted sum (2)
 * (moe_utils.py permute / unpermute, fused or not, move the same bytes).
 */
export const PERMUTE_UNPERMUTE_PASSES_PER_COPY = 4;

/**
 * More per copy for the all-to-all dispatcher's chunk sort with more than one local
 * expert (token_dispatcher.py sort_chunks_by_idxs after dispatch and before combine: a
 * read and a write of every received copy each way): 4. torchtitan permutes with an index
 * kernel in place of it (models/moe/utils.py).
 */
export const SORT_CHUNKS_PASSES_PER_COPY = 4;

/**
 * fp32 expert-sized values per token the router reads and writes: the logits written by
 * the gating GEMM, the score function's read and write, top-k's read, the load-balancing
 * loss's read of the scores (router.py TopKRouter.routing, moe_utils.py
 * switch_load_balancing_loss_func): 5 passes of experts × 4 bytes.
 */
export const ROUTER_FP32_PASSES = 5;

/**
 * HBM bytes per token of one MoE layer's forward for routing, permutation and unpermutation on the busiest expert-parallel
 * rank (hidden-sized rows split by `hiddenSplit` under sequence parallelism). What runs on the experts' side moves
 * structure/moe-routing.ts busiestExpertRankLoad × the mean copies: the chunk sort after the all-to-all, and the permute and
 * unpermute of every dispatcher but the all-to-all one, which permutes the rank's own tokens before sending them and unpermutes
 * them after the combine (token_dispatcher.py: MoEAlltoAllTokenDispatcher.dispatch_preprocess / combine_postprocess; the flex
 * dispatchers permute after the dispatch, the all-gather one after the gather). AutoModel's fake balanced gate has no router
 * to read or write: its k expert indices and weights per token are nothing beside the router's 5 × experts fp32 passes.
 */
export function moeDispatchBytesPerToken(c: RunConfig, hiddenSplit: number): number {
  const moe = c.model.moe;
  if (!moe) return 0;
  const copies = routedCopiesPerToken(moe);
  const load = busiestExpertRankLoad(c);
  const localExperts = moe.experts / c.parallel.ep;
  const sorts = c.stack.moeDispatcher === 'alltoall' && localExperts > 1 && c.stack.framework !== 'torchtitan';
  const permuteLoad = c.stack.moeDispatcher === 'alltoall' ? 1 : load;
  const passes = PERMUTE_UNPERMUTE_PASSES_PER_COPY * permuteLoad + (sorts ? SORT_CHUNKS_PASSES_PER_COPY * load : 0);
  const router = moeRouterOf(c) === 'fakeBalanced' ? 0 : (ROUTER_FP32_PASSES * 4 * moe.experts) / hiddenSplit;
  return (2 * passes * copies * c.model.hidden) / hiddenSplit + router;
}

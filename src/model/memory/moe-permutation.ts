// What Megatron-Core's token dispatchers save for backward around the experts, by release
// (training.frameworkRelease, input/framework-release.ts). The engine's inventory
// (activations.ts mlpTensors) counts core_v0.13.0 and later: the permutations save indices only
// and the routing probabilities are applied inside the expert activation
// (megatron/core/transformer/moe/experts.py@core_v0.13.0 activation_func_with_probs), so the
// combine keeps nothing. Older releases keep more, 16-bit, per MoE layer:
//
// - before core_v0.7.0 the all-gather dispatcher permutes with torch.gather, whose autograd
//   saves its input (PyTorch tools/autograd/derivatives.yaml: gather → gather_backward(grad,
//   self, dim, index, sparse_grad)), twice (token_dispatcher.py@core_v0.6.0
//   MoEAllGatherTokenDispatcher.token_permutation): the tokens gathered over TP × EP
//   (global_hidden_states), and the top-k copies of the local experts' tokens
//   (local_hidden_states, the input of the second gather). Its all-to-all dispatcher permutes
//   with index_select (moe_utils.py@core_v0.6.0 permute), which saves the index only.
// - core_v0.7.0 replaced both gathers with moe_gather / moe_scatter (moe_utils.py@core_v0.7.0,
//   saving the index only), but up to core_v0.12.x every dispatcher multiplies the experts'
//   outputs by the probabilities before the combine, and the product saves them: all-gather
//   `unpermuted_local_hidden * scores` (token_dispatcher.py@core_v0.6.0, @core_v0.7.0),
//   `hidden_states * permuted_probs` (token_dispatcher.py@core_v0.12.0); all-to-all and flex
//   `unpermute(…, probs=…)` → `permuted_tokens * permuted_probs` (moe_utils.py@core_v0.6.0,
//   @core_v0.12.0; the fused Transformer Engine unpermute saves its input for the probability
//   gradient too).
//
// The all-gather and flex dispatchers hold these whole on every expert-TP rank, as they hold
// the experts' input (activations.ts experts.dispatched); the all-to-all dispatcher holds its
// combine input split over TP (the sp2hp all-to-all at core_v0.6.0, the reduce-scatter over
// the TP group at core_v0.12.0).

import { megatronCoreVersion, olderThan, type CoreVersion, type MoeDispatcher, type RunConfig } from '../input/index.ts';
import { busiestRankCopiesPerToken, expertTensorParallel } from '../structure/index.ts';
import { saved, type SavedTensor } from './saved-tensor.ts';

const GATHER_TO_MOE_GATHER: CoreVersion = [0, 7, 0];
const PROBS_IN_ACTIVATION: CoreVersion = [0, 13, 0];

/**
 * Extra saved 16-bit tensors of one MoE layer, each in hidden-size elements per token of the
 * micro-batch before the tensor-parallel split (the inventory divides 'tensor' tensors by tp).
 */
export interface MoePermutationSaves {
  /** The tokens gathered over the TP × EP group, saved by the first torch.gather (before core_v0.7.0). */
  readonly gatheredTokens: number;
  /** The local experts' top-k token copies, saved by the second torch.gather (before core_v0.7.0). */
  readonly topKCopies: number;
  /** The experts' outputs, saved by the probability multiply before the combine (before core_v0.13.0). */
  readonly expertOutputs: number;
}

export interface MoePermutationShape {
  /** Routed copies per token (structure/params.ts routedCopiesPerToken). */
  readonly topK: number;
  /** Expert tensor-parallel size (structure/params.ts expertTensorParallel). */
  readonly etp: number;
  readonly ep: number;
  readonly sequenceParallel: boolean;
}

/** What release `release` of Megatron-Core saves beyond the engine's inventory; null when nothing (absent, unknown or core_v0.13.0+). */
export function moePermutationSaves(release: string | null, dispatcher: MoeDispatcher, s: MoePermutationShape): MoePermutationSaves | null {
  const version = release === null ? null : megatronCoreVersion(release);
  if (version === null || !olderThan(version, PROBS_IN_ACTIVATION)) return null;
  const expertOutputs = dispatcher === 'alltoall' ? s.topK : s.topK * s.etp;
  if (dispatcher !== 'allgather' || !olderThan(version, GATHER_TO_MOE_GATHER)) return { gatheredTokens: 0, topKCopies: 0, expertOutputs };
  // Without sequence parallelism and with EP 1 nothing is gathered: the first torch.gather
  // (top-k > 1) or the second (top-k 1) takes the layer's own input, which the inventory holds already.
  const gathers = s.sequenceParallel || s.ep > 1;
  return {
    gatheredTokens: gathers ? s.etp * s.ep : 0,
    topKCopies: gathers || s.topK > 1 ? s.topK * s.etp : 0,
    expertOutputs,
  };
}

/** The run's extra MoE saves (Megatron-LM with a stated release only). */
export function runMoePermutationSaves(c: RunConfig): MoePermutationSaves | null {
  if (!c.model.moe || c.stack.framework !== 'megatron') return null;
  return moePermutationSaves(c.stack.frameworkRelease, c.stack.moeDispatcher, {
    // The busiest expert-parallel rank's copies (structure/moe-routing.ts): the one that runs out of memory.
    topK: busiestRankCopiesPerToken(c),
    etp: expertTensorParallel(c.parallel),
    ep: c.parallel.ep,
    sequenceParallel: c.parallel.sequenceParallel,
  });
}

/** The saves as inventory entries of `elementBytes` per element; Megatron's "moe" recompute module drops them with the layer. */
export function moePermutationTensors(saves: MoePermutationSaves | undefined, elementBytes: number, hidden: number): SavedTensor[] {
  if (!saves) return [];
  const entries: [string, number][] = [
    ['dispatcher.gatheredTokens', saves.gatheredTokens],
    ['dispatcher.topKCopies', saves.topKCopies],
    ['combine.expertOutputs', saves.expertOutputs],
  ];
  return entries.filter(([, n]) => n > 0).map(([name, n]) => saved(name, elementBytes * hidden * n, 'tensor', 'kept', ['moe']));
}

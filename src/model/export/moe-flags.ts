// The mixture-of-experts stack fields as Megatron-LM flags (issue 20). Names and choices
// from NVIDIA/Megatron-LM megatron/training/arguments.py (main after core_r0.14, the
// release that added --cuda-graph-impl and the flex dispatcher's backend):
//   --moe-token-dispatcher-type allgather|alltoall|flex, with --moe-flex-dispatcher-backend
//     deepep|hybridep for flex (Megatron-Core's default is allgather, so it is always written);
//   --overlap-moe-expert-parallel-comm (combined 1F1B EP overlap);
//   --cuda-graph-impl none|local|transformer_engine with --cuda-graph-scope: per-module
//     scopes (attn, moe_router, moe_preprocess …) "are only supported with
//     --cuda-graph-impl=transformer_engine", and "full_iteration scope is only supported with
//     --cuda-graph-impl=local" (the flag's help text): a whole-iteration graph is
//     --cuda-graph-impl local --cuda-graph-scope full_iteration, not an impl of its own;
//   --moe-expert-capacity-factor c with --moe-pad-expert-input-to-capacity ("effective only
//     after the --moe-expert-capacity-factor is set").
// The partial scope is the one Megatron-Bridge's MoE recipes use (DeepSeek-V3's
// "--cuda-graph-scope attn moe_router moe_preprocess").
// What the estimate assumes of every MoE plan, written so the run matches it (issue 36),
// with names, defaults and help texts from arguments.py at core_v0.15.0:
//   --moe-grouped-gemm (default off): the time model runs a stage's local experts as one
//     grouped GEMM per matrix (time/compute.ts groupedGemmSeconds); Megatron-Core also
//     refuses the moe_act recompute module without it (transformer_config.py: "moe_act in
//     recompute_modules is only supported with moe_grouped_gemm");
//   --moe-router-load-balancing-type aux_loss --moe-aux-loss-coeff 1e-2: the engine assumes
//     balanced routing (structure/params.ts routedCopiesPerToken); Megatron's coefficient
//     defaults to 0.0, i.e. no balancing pressure at all, and its help text recommends "a
//     starting value of 1e-2", the value examples/mixtral/train_mixtral_8x7b_distributed.sh
//     passes with the same load-balancing type;
//   --overlap-moe-expert-parallel-comm (default off) when the estimate overlapped the
//     expert-parallel all-to-all (stack.overlap.epComm, time/moe-time.ts), only with ep > 1:
//     transformer_config.py asserts "overlap_moe_expert_parallel_comm is only supported with
//     expert model parallelism".

import type { Flag } from './common.ts';
import type { CudaGraphScope, MoeDispatcher, RunConfig } from '../input/index.ts';
import { busiestExpertRankLoad, moeRouterOf } from '../structure/index.ts';

/** The flex dispatcher's backends, by the document's dispatcher name. */
const FLEX_BACKENDS: Readonly<Partial<Record<MoeDispatcher, string>>> = { deepep: 'deepep', hybridep: 'hybridep' };

/** The per-module scope written for "partial" and read back as it. */
export const PARTIAL_GRAPH_SCOPE = ['attn', 'moe_router', 'moe_preprocess'] as const;

export function dispatcherFlags(dispatcher: MoeDispatcher): Flag[] {
  const backend = FLEX_BACKENDS[dispatcher];
  if (backend)
    return [
      ['--moe-token-dispatcher-type', 'flex'],
      ['--moe-flex-dispatcher-backend', backend],
    ];
  return [['--moe-token-dispatcher-type', dispatcher]];
}

export function cudaGraphFlags(scope: CudaGraphScope): Flag[] {
  if (scope === 'partial')
    return [
      ['--cuda-graph-impl', 'transformer_engine'],
      ['--cuda-graph-scope', PARTIAL_GRAPH_SCOPE.join(' ')],
    ];
  if (scope === 'full')
    return [
      ['--cuda-graph-impl', 'local'],
      ['--cuda-graph-scope', 'full_iteration'],
    ];
  return [];
}

/** The router's balancing loss the launch writes for every MoE plan (see the opening comment). */
export const MOE_LOAD_BALANCING = { type: 'aux_loss', auxLossCoeff: 1e-2 } as const;

/**
 * What the estimate assumed of routing, for the launch's notes (training.moeLoadImbalance and training.moeRouter,
 * structure/moe-routing.ts). Megatron-LM has no flag for an imbalance, nor AutoModel's fake balanced gate; its
 * --moe-router-force-load-balancing (random logits, arguments.py "for benchmarking purposes only") is load 1.
 */
export function routingNote(c: RunConfig): string {
  if (moeRouterOf(c) === 'fakeBalanced')
    return (
      "routing: the estimate assumes NeMo AutoModel's fake balanced gate (fake_balanced_gate: true: no router, each token " +
      'to k consecutive experts, 1 or 2 expert-parallel ranks); Megatron-LM has no such gate, and its nearest, ' +
      '--moe-router-force-load-balancing ("for benchmarking purposes only"), still runs the router and sends a token to ' +
      'k experts at random'
    );
  const load = busiestExpertRankLoad(c);
  if (load > 1)
    return (
      `routing: the estimate assumes the busiest expert-parallel rank gets ${load} × the mean share of the routed tokens ` +
      '(training.moeLoadImbalance); Megatron-LM has no flag for it: the aux loss pulls learned routing toward 1, and ' +
      '--moe-router-force-load-balancing forces 1 for a benchmark (Megatron-LM: "for benchmarking purposes only")'
    );
  return (
    'routing: the estimate assumes every expert gets an even share of the tokens (balanced ' +
    'routing); the aux loss keeps learned routing near it, and --moe-router-force-load-balancing ' +
    'forces it for a benchmark (Megatron-LM: "for benchmarking purposes only")'
  );
}

/**
 * The MoE stack flags after the dispatcher (which the model's flags carry, where the
 * export always wrote it); none for a dense plan, where the fields mean nothing.
 */
export function megatronMoeStackFlags(c: RunConfig, notes: string[] = []): Flag[] {
  const moe = c.model.moe;
  if (!moe) return [];
  const k = c.stack;
  const flags: Flag[] = [
    ['--moe-grouped-gemm'],
    ['--moe-router-load-balancing-type', MOE_LOAD_BALANCING.type],
    ['--moe-aux-loss-coeff', MOE_LOAD_BALANCING.auxLossCoeff],
  ];
  notes.push(routingNote(c));
  if (k.overlap.epComm && c.parallel.ep > 1) flags.push(['--overlap-moe-expert-parallel-comm']);
  if (moe.capacityFactor != null) flags.push(['--moe-expert-capacity-factor', moe.capacityFactor], ['--moe-pad-expert-input-to-capacity']);
  flags.push(...cudaGraphFlags(k.cudaGraph));
  return flags;
}

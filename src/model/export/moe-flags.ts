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

import type { Flag } from './common.ts';
import type { CudaGraphScope, MoeDispatcher, RunConfig } from '../input/index.ts';

/** The flex dispatcher's backends, by the document's dispatcher name. */
const FLEX_BACKENDS: Readonly<Partial<Record<MoeDispatcher, string>>> = { deepep: 'deepep', hybridep: 'hybridep' };

/** The per-module scope written for "partial" and read back as it. */
export const PARTIAL_GRAPH_SCOPE = ['attn', 'moe_router', 'moe_preprocess'] as const;

export function dispatcherFlags(dispatcher: MoeDispatcher): Flag[] {
  const backend = FLEX_BACKENDS[dispatcher];
  if (backend) return [['--moe-token-dispatcher-type', 'flex'], ['--moe-flex-dispatcher-backend', backend]];
  return [['--moe-token-dispatcher-type', dispatcher]];
}

export function cudaGraphFlags(scope: CudaGraphScope): Flag[] {
  if (scope === 'partial') return [['--cuda-graph-impl', 'transformer_engine'], ['--cuda-graph-scope', PARTIAL_GRAPH_SCOPE.join(' ')]];
  if (scope === 'full') return [['--cuda-graph-impl', 'local'], ['--cuda-graph-scope', 'full_iteration']];
  return [];
}

/**
 * The MoE stack flags after the dispatcher (which the model's flags carry, where the
 * export always wrote it); none for a dense plan, where the fields mean nothing.
 */
export function megatronMoeStackFlags(c: RunConfig): Flag[] {
  const moe = c.model.moe;
  if (!moe) return [];
  const k = c.stack;
  const flags: Flag[] = [];
  if (k.overlap.epComm) flags.push(['--overlap-moe-expert-parallel-comm']);
  if (moe.capacityFactor != null) flags.push(['--moe-expert-capacity-factor', moe.capacityFactor], ['--moe-pad-expert-input-to-capacity']);
  flags.push(...cudaGraphFlags(k.cudaGraph));
  return flags;
}

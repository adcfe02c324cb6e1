// The mixture-of-experts terms inside the step time (issue 20), said beside the step-time
// formula: the host-bound floor of eager MoE layers (in "compute": each layer takes the
// longer of its GPU work and the host's issuing of it) and the share of the dispatch/combine left exposed (in "exposed EP
// communication"). The values are the engine's own (time/moe-time.ts), read, not recomputed;
// the sources are those cited there.

import { expertParallelExposedFraction, moeEagerOpsForward, moeLayerHostSeconds } from '../time/index.ts';
import type { RunConfig } from '../input/index.ts';
import { busiestExpertRankLoad, moeRouterOf } from '../structure/index.ts';

const GRAPH_WORDS = { none: 'no CUDA graphs', partial: 'per-module CUDA graphs', full: 'whole-iteration CUDA graphs' } as const;

export function moeStepNotes(c: RunConfig): string[] {
  if (!c.model.moe) return [];
  const k = c.stack;
  const layer = c.model.moe.denseLayers;
  const host = moeLayerHostSeconds(c, layer);
  const syncNote =
    host.afterSync === 0 && host.backward === 0
      ? `Host-bound floor: none, ${GRAPH_WORDS[k.cudaGraph]} replay the MoE layers without the host (Megatron-Core moe/README.md, "CUDA graph").`
      : `Host-bound floor, inside "compute": each MoE layer's ` +
        (host.beforeSync > 0
          ? `forward waits ${(host.beforeSync * 1e3).toFixed(2)} ms for torchtitan's DTensor dispatch before the router, `
          : '') +
        `forward stalls ${(host.stall * 1e3).toFixed(2)} ` +
        `ms per micro-batch at the dispatcher's synchronisation (Megatron-Core ` +
        `token_dispatcher.py), then runs its experts no faster than the host issues what follows ` +
        `(${((host.afterSync - host.stall) * 1e3).toFixed(2)} ms); its backward takes at least ` +
        `${(host.backward * 1e3).toFixed(2)} ms, ${Math.round(moeEagerOpsForward(c, layer))} ` +
        `eager operators forward (${k.moeDispatcher} dispatcher, ${GRAPH_WORDS[k.cudaGraph]}).`;
  const how =
    c.parallel.schedule === 'dualpipe'
      ? 'DualPipe (DeepSeek-V3 report, arXiv 2412.19437, §3.2)'
      : k.overlap.epComm
        ? 'overlapped with another micro-batch (--overlap-moe-expert-parallel-comm; Megatron-Bridge moe-comm-overlap skill card)'
        : 'not overlapped';
  const exposedNote =
    `Exposed EP communication: ${Math.round(expertParallelExposedFraction(c) * 100)} ` +
    `% of the token dispatch and combine stays on the critical path, ${how}.`;
  return [syncNote, exposedNote, ...routingNotes(c)];
}

/** What the document states of routing (structure/moe-routing.ts), said only where it departs from balanced learned routing. */
function routingNotes(c: RunConfig): string[] {
  if (moeRouterOf(c) === 'fakeBalanced')
    return [
      "Routing: AutoModel's fake balanced gate (no router GEMM, k consecutive experts a token, every expert the same share; " +
        'DeepEP and HybridEP send a token to 1 or 2 ranks; NeMo AutoModel layers.py FakeBalancedGate).',
    ];
  const load = busiestExpertRankLoad(c);
  if (load === 1) return [];
  return [
    `Routing: the busiest expert-parallel rank takes ${load} × the mean routed tokens (training.moeLoadImbalance); every ` +
      'dispatch and combine waits for it, so its expert GEMMs, its share of the exchange and its saved expert activations ' +
      'are that much larger (Megatron-Core token_dispatcher.py, all_to_all over the EP group).',
  ];
}

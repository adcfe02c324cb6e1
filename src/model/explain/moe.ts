// The mixture-of-experts terms inside the step time (issue 20), said beside the step-time
// formula: the dispatcher's host synchronisation (in "compute": it is a wait inside each
// MoE layer's forward) and the share of the dispatch/combine left exposed (in "exposed EP
// communication"). The values are the engine's own (time/moe-time.ts), read, not recomputed;
// the sources are those cited there.

import { expertParallelExposedFraction, moeHostSyncSeconds } from '../time/index.ts';
import type { RunConfig } from '../input/index.ts';

const GRAPH_WORDS = { none: 'no CUDA graphs', partial: 'per-module CUDA graphs', full: 'whole-iteration CUDA graphs' } as const;

export function moeStepNotes(c: RunConfig): string[] {
  if (!c.model.moe) return [];
  const k = c.stack;
  const sync = moeHostSyncSeconds(c);
  const syncNote = sync === 0
    ? `Dispatcher host synchronisation: none, ${GRAPH_WORDS[k.cudaGraph]} run the MoE layers sync-free (Megatron-Core moe/README.md, "CUDA graph").`
    : `Dispatcher host synchronisation, inside "compute": ${(sync * 1e3).toFixed(2)} ms per MoE layer per micro-batch forward (${k.moeDispatcher} dispatcher, ${GRAPH_WORDS[k.cudaGraph]}); Megatron-Core token_dispatcher.py copies the per-expert token counts to the host before the exchange (fitted on the validation set).`;
  const how = c.parallel.schedule === 'dualpipe' ? 'DualPipe (DeepSeek-V3 report, arXiv 2412.19437, §3.2)'
    : k.overlap.epComm ? 'overlapped with another micro-batch (--overlap-moe-expert-parallel-comm; Megatron-Bridge moe-comm-overlap skill card)'
      : 'not overlapped';
  const exposedNote = `Exposed EP communication: ${Math.round(expertParallelExposedFraction(c) * 100)} % of the token dispatch and combine stays on the critical path, ${how}.`;
  return [syncNote, exposedNote];
}

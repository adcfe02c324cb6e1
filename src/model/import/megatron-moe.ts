// The mixture-of-experts stack flags of a Megatron-LM launch → the document (issue 20);
// the export writes them in export/moe-flags.ts, whose header cites arguments.py.
// Defaults when a flag is absent are the framework profile's, so nothing is written then.
// Megatron-Core's megatron/core/transformer/transformer_config.py: moe_flex_dispatcher_backend
// default "deepep"; the older --moe-enable-deepep means flex with DeepEP. --enable-cuda-graph
// (deprecated) is --cuda-graph-impl local, --external-cuda-graph is transformer_engine;
// without --cuda-graph-scope, either captures whole Transformer layers: per-module graphs.

import type { Draft } from './draft.ts';

/** What this reader needs of megatron.ts's flag table (has/value/values mark a flag read). */
export interface FlagTable {
  has(name: string): boolean;
  value(name: string): string | undefined;
  values(name: string): readonly string[] | undefined;
  given(name: string): boolean;
}

/** Capacity factors a file may give: above 0, and far below every expert taking every token (experts / topK). */
const MAX_CAPACITY_FACTOR = 1e4;

function readDispatcher(d: Draft, f: FlagTable): void {
  const type = f.value('--moe-token-dispatcher-type');
  const backend = f.value('--moe-flex-dispatcher-backend');
  const deepep = f.has('--moe-enable-deepep');
  if (type === undefined && !deepep) return;
  // alltoall_seq: the older sequence-parallel all-to-all, the same NCCL exchange.
  const t = type === undefined ? 'flex' : d.choice('--moe-token-dispatcher-type', type, ['alltoall', 'allgather', 'flex', 'alltoall_seq']);
  if (t === undefined) return;
  if (t !== 'flex') {
    d.training['moeDispatcher'] = t === 'alltoall_seq' ? 'alltoall' : t;
    return;
  }
  const b = backend === undefined ? 'deepep' : d.choice('--moe-flex-dispatcher-backend', backend, ['deepep', 'hybridep']);
  if (b !== undefined) d.training['moeDispatcher'] = b;
}

function readCudaGraph(d: Draft, f: FlagTable): void {
  const impl = f.value('--cuda-graph-impl');
  const scope = f.values('--cuda-graph-scope') ?? [];
  const local = f.has('--enable-cuda-graph');
  const te = f.has('--external-cuda-graph');
  f.value('--cuda-graph-warmup-steps');
  if (impl === undefined && !local && !te) {
    if (scope.length > 0) d.warn('--cuda-graph-scope: without --cuda-graph-impl no graph is captured; read as no CUDA graphs');
    return;
  }
  const i =
    impl === undefined
      ? local
        ? 'local'
        : 'transformer_engine'
      : d.choice('--cuda-graph-impl', impl, ['none', 'local', 'transformer_engine']);
  if (i === undefined) return;
  d.training['cudaGraph'] = i === 'none' ? 'none' : scope.includes('full_iteration') ? 'full' : 'partial';
}

function readCapacity(d: Draft, f: FlagTable): void {
  const raw = f.value('--moe-expert-capacity-factor');
  const padded = f.has('--moe-pad-expert-input-to-capacity');
  if (!f.given('--moe-expert-capacity-factor')) return;
  const c = raw === undefined ? Number.NaN : Number(raw.trim());
  if (!(Number.isFinite(c) && c > 0 && c <= MAX_CAPACITY_FACTOR)) {
    d.error(
      `--moe-expert-capacity-factor: needs a number above 0 and at most ${MAX_CAPACITY_FACTOR}, got ${raw === undefined ? 'nothing' : JSON.stringify(raw)}`,
    );
    return;
  }
  if (!padded)
    d.warn(
      `--moe-expert-capacity-factor ${c} without --moe-pad-expert-input-to-capacity: the planner pads every expert to capacity (its upper bound)`,
    );
  const moe = d.model['moe'];
  if (moe && typeof moe === 'object') (moe as Record<string, unknown>)['capacityFactor'] = c;
  else d.warn('--moe-expert-capacity-factor: the file trains no experts (--num-experts); ignored');
}

/** Reads the dispatcher, EP overlap, CUDA graphs, capacity factor and expert TP; after the model, overlap and parallel flags. */
export function readMegatronMoeStack(d: Draft, f: FlagTable): void {
  readDispatcher(d, f);
  readCudaGraph(d, f);
  readCapacity(d, f);
  if (f.has('--overlap-moe-expert-parallel-comm')) {
    const overlap = d.training['overlap'];
    d.training['overlap'] = { ...(overlap && typeof overlap === 'object' ? overlap : {}), epComm: true };
  }
  if (f.given('--expert-tensor-parallel-size')) {
    const etp = d.count('--expert-tensor-parallel-size', f.value('--expert-tensor-parallel-size'));
    if (etp !== undefined) d.parallel['etp'] = etp;
  }
}

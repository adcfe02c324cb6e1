// The mixture-of-experts part of the software stack (issue 20; interchange
// training.moeDispatcher, training.cudaGraph, training.overlap.epComm, model.moe.capacityFactor;
// training.moeLoadImbalance and training.moeRouter in MoeRoutingFields.tsx;
// expert TP sits beside EP in the parallelism section). Shown only for a MoE model: on a
// dense one these fields change nothing, so one line says where they went. An untouched
// control writes nothing, so a link without these keys keeps its meaning.

import { FRAMEWORK_PROFILES } from '../../model/input/index.ts';
import { CUDA_GRAPH_SCOPES, MOE_DISPATCHERS, type Framework } from '../../model/input/index.ts';
import { getAt, isPlainObject } from '../../state/doc.ts';
import { usePlanner } from '../../state/react.ts';
import type { Help } from '../help.ts';
import { CheckField, HINT, NumberField } from './fields.tsx';
import { MoeRoutingFields } from './MoeRoutingFields.tsx';
import { StackFieldControl, type StackField } from './StackFieldControl.tsx';

const DISPATCHER: StackField = {
  key: 'moeDispatcher',
  choices: MOE_DISPATCHERS,
  labels: { alltoall: 'all-to-all (NCCL)', allgather: 'all-gather', deepep: 'DeepEP', hybridep: 'HybridEP' },
  help: {
    label: 'Token dispatcher',
    explain:
      'How tokens travel to their experts and back. All-to-all waits for the host to learn how many tokens each expert gets, ' +
      'once per MoE layer; DeepEP and HybridEP send a token once per node it visits, not once per expert.',
    source:
      'Megatron-Core --moe-token-dispatcher-type (token_dispatcher.py) and --moe-flex-dispatcher-backend; deepseek-ai/DeepEP performance tables',
  },
};

const CUDA_GRAPHS: StackField = {
  key: 'cudaGraph',
  choices: CUDA_GRAPH_SCOPES,
  labels: { none: 'none', partial: 'per module (attention, router)', full: 'whole iteration' },
  help: {
    label: 'CUDA graphs',
    explain:
      "Replaying captured kernels saves launch time. Per-module graphs leave the dispatcher's host wait in place; a " +
      'whole-iteration graph removes it, since nothing waits for the host.',
    source:
      'Megatron-LM --cuda-graph-impl transformer_engine with --cuda-graph-scope attn moe_router moe_preprocess, or local with ' +
      'full_iteration; Megatron-Bridge cuda-graphs skill card (Qwen3-30B-A3B 623 → 484 ms per iteration)',
  },
};

const HELP_EP_OVERLAP: Help = {
  label: 'Overlap expert-parallel communication',
  explain: "Hide one micro-batch's token exchange behind another's computation (DualPipe does this on its own).",
  source:
    'Megatron-LM --overlap-moe-expert-parallel-comm; Megatron-Bridge moe-comm-overlap skill card (Qwen3-30B-A3B on 16 H100: 24.71 → 20.99 s per step)',
};

const HELP_CAPACITY: Help = {
  label: 'Expert capacity factor',
  explain:
    'Empty: dropless, every token reaches its experts. A number such as 1.25: each expert takes at most 1.25 × its fair share ' +
    'of tokens, drops the rest, and pads its input up to that size.',
  formula: 'tokens per expert = capacity factor × tokens × top-k / experts',
  source: 'Megatron-LM --moe-expert-capacity-factor with --moe-pad-expert-input-to-capacity',
};

export function MoeStackFields({ framework }: { framework: Framework }) {
  const moe = usePlanner((s) => isPlainObject(getAt(s.document, ['model', 'moe'])));
  if (!moe) {
    return (
      <p className={HINT}>
        Mixture-of-experts settings (token dispatcher, CUDA graphs, expert-parallel overlap, capacity factor, load imbalance, router) appear
        here for a model with experts.
      </p>
    );
  }
  return (
    <fieldset className="flex flex-col gap-3 rounded border border-gray-300 p-3 dark:border-gray-600">
      <legend className="px-1 text-sm font-semibold text-gray-900 dark:text-gray-100">Mixture of experts</legend>
      {/* Wide enough for the longest option, "profile default (all-to-all (NCCL))", unclipped. */}
      <div className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,17rem),1fr))] gap-3">
        <StackFieldControl field={DISPATCHER} framework={framework} />
        <StackFieldControl field={CUDA_GRAPHS} framework={framework} />
        <NumberField path={['model', 'moe', 'capacityFactor']} help={HELP_CAPACITY} optional placeholder="dropless" />
        <MoeRoutingFields />
      </div>
      <CheckField
        path={['training', 'overlap', 'epComm']}
        help={HELP_EP_OVERLAP}
        fallback={FRAMEWORK_PROFILES[framework].defaults.overlap.epComm}
      />
    </fieldset>
  );
}

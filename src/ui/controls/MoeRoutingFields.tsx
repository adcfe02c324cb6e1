// training.moeLoadImbalance and training.moeRouter (issue 32 item 4; the engine's rule:
// model/structure/moe-routing.ts), inside the mixture-of-experts fieldset. An empty box and the
// default option leave the keys out of the document, so a link without them keeps its meaning.

import { MOE_ROUTERS } from '../../model/input/index.ts';
import { getAt, type FieldPath } from '../../state/doc.ts';
import { usePlanner } from '../../state/react.ts';
import type { Help } from '../help.ts';
import { FieldSelect, NumberField } from './fields.tsx';

const IMBALANCE_PATH: FieldPath = ['training', 'moeLoadImbalance'];
const ROUTER_PATH: FieldPath = ['training', 'moeRouter'];
const DEFAULT_VALUE = '__default__';

const HELP_IMBALANCE: Help = {
  label: 'Expert load imbalance (busiest EP rank ÷ mean)',
  explain:
    "The busiest expert-parallel rank's routed tokens over the mean. 1 = perfectly balanced (benchmarks force it). Above 1, " +
    'every dispatch and combine waits for that rank: its expert GEMMs, the tokens it receives and the activations it holds ' +
    'grow by this factor, and memory is judged on it. At most EP (every routed token on one rank); a capacity factor or the ' +
    'fake balanced gate holds it at 1.',
  formula: 'busiest rank: tokens per local expert = imbalance × tokens × top-k ÷ experts',
  source:
    'Megatron-Core core_v0.15.0 moe/token_dispatcher.py (all_to_all over output_splits per rank) and router.py ' +
    '(--moe-router-force-load-balancing: random logits, "for benchmarking purposes only")',
};

const HELP_ROUTER: Help = {
  label: 'Router',
  explain:
    "Learned: each token's top-k of the router's scores, taken as k experts at random. Fake balanced gate (NeMo AutoModel " +
    'fake_balanced_gate: true): no router; token t goes to the k consecutive experts from t·k, so a token reaches 1 or 2 ' +
    'expert-parallel ranks, not up to k, and DeepEP/HybridEP send fewer rows.',
  source: 'NVIDIA-NeMo/Automodel nemo_automodel/components/moe/layers.py FakeBalancedGate (commit 36044ad3)',
};

const ROUTER_LABELS: Readonly<Record<string, string>> = { learned: 'learned (top-k)', fakeBalanced: 'fake balanced gate (AutoModel)' };

function RouterSelect() {
  const value = usePlanner((s) => getAt(s.document, ROUTER_PATH));
  const current = MOE_ROUTERS.find((r) => r === value);
  const options = [
    { value: DEFAULT_VALUE, label: `default (${ROUTER_LABELS['learned'] ?? 'learned'})` },
    ...MOE_ROUTERS.map((r) => ({ value: r, label: ROUTER_LABELS[r] ?? r })),
  ];
  if (value !== undefined && current === undefined) options.push({ value: String(value), label: `${String(value)} (not valid)` });
  const write = (v: string) => (v === DEFAULT_VALUE ? undefined : MOE_ROUTERS.find((r) => r === v));
  return (
    <FieldSelect
      path={ROUTER_PATH}
      help={HELP_ROUTER}
      value={value === undefined ? DEFAULT_VALUE : String(value)}
      options={options}
      write={write}
    />
  );
}

export function MoeRoutingFields() {
  return (
    <>
      <NumberField path={IMBALANCE_PATH} help={HELP_IMBALANCE} optional placeholder="1 = perfectly balanced" />
      <RouterSelect />
    </>
  );
}

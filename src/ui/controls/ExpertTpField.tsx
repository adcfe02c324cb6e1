// Expert tensor parallelism (parallel.etp), beside the EP slider: "default" leaves the key
// out of the document (the engine's rule: TP when the expert group fits the stage, else 1,
// as Megatron-Core takes tp when --expert-tensor-parallel-size is unset); a number is
// written as the user picked it and stays, with the engine's reason, if a later change of
// TP, DP or EP makes it invalid. Which values are offered: src/state/options.ts etpChoices.

import { getAt, type FieldPath } from '../../state/doc.ts';
import { etpChoices } from '../../state/options.ts';
import { usePlanner } from '../../state/react.ts';
import { messageInWords } from '../errorWords.ts';
import type { Help } from '../help.ts';
import { FieldSelect } from './fields.tsx';

const PATH: FieldPath = ['parallel', 'etp'];
const DEFAULT_VALUE = '__default__';

const HELP_ETP: Help = {
  label: 'Expert tensor parallel (ETP)',
  explain:
    "Splits each expert's weights over ETP GPUs, as TP splits the dense layers. 1 keeps every expert whole on one GPU, which most MoE recipes choose.",
  formula: 'EP × ETP must divide TP × DP × CP; ETP must divide the expert FFN width',
  source:
    'Megatron-LM --expert-tensor-parallel-size (Megatron-Core: tp when unset, model_parallel_config.py); Megatron-Bridge MoE recipes set 1',
};

export function ExpertTpField() {
  const doc = usePlanner((s) => s.document);
  const value = getAt(doc, PATH);
  const choices = etpChoices(doc);
  if (!choices) return null;
  const options = [
    { value: DEFAULT_VALUE, label: `default (= TP when it fits): ${choices.fallback}` },
    ...choices.options.map((o) => ({
      value: String(o.value),
      label: String(o.value),
      disabledReason: o.problem && messageInWords(o.problem),
    })),
  ];
  if (value != null && !choices.options.some((o) => o.value === value))
    options.push({ value: String(value), label: `${String(value)} (not valid)`, disabledReason: null });
  const write = (v: string) => (v === DEFAULT_VALUE ? undefined : Number(v));
  return <FieldSelect path={PATH} help={HELP_ETP} value={value == null ? DEFAULT_VALUE : String(value)} options={options} write={write} />;
}

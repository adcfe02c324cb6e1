// The software stack (interchange "The software stack"): the framework, whose profile
// (input/frameworks.ts) sets every stack field's default, and the stack fields under
// it (activation offload sits with the other memory savers). Each field offers "profile default (value)", which leaves the field out of the
// document, or an explicit value, which wins over the profile.

import { FRAMEWORK_PROFILES } from '../../model/input/index.ts';
import {
  ATTENTION_KERNELS,
  FP8_RECIPES,
  FRAMEWORKS,
  LOSS_KINDS,
  MODEL_CODES,
  SELECTIVE_POLICIES,
  STATE_DTYPES,
} from '../../model/input/index.ts';
import { getAt, type FieldPath } from '../../state/doc.ts';
import { usePlanner } from '../../state/react.ts';
import { HELP } from '../help.ts';
import { FieldSelect, TextField } from './fields.tsx';
import { ForwardHostSyncField } from './ForwardHostSyncField.tsx';
import { MoeStackFields } from './MoeStackFields.tsx';
import { Section } from './Section.tsx';
import { StackFieldControl, type StackField } from './StackFieldControl.tsx';

const ON_OFF = [false, true] as const;
const ON_OFF_LABELS = { false: 'off', true: 'on' };

const STACK_FIELDS: readonly StackField[] = [
  { key: 'loss', choices: LOSS_KINDS, help: HELP.loss },
  {
    key: 'selectivePolicy',
    choices: SELECTIVE_POLICIES,
    labels: { modules: 'modules', op: 'op-level', layer: 'every Nth layer', elementwise: 'element-wise' },
    help: HELP.selectivePolicy,
  },
  { key: 'dropout', choices: ON_OFF, labels: ON_OFF_LABELS, help: HELP.dropout },
  { key: 'optimizerStateDtype', choices: STATE_DTYPES, help: HELP.optimizerStateDtype },
  { key: 'attentionKernel', choices: ATTENTION_KERNELS, help: HELP.attentionKernel },
  { key: 'fp8Recipe', choices: FP8_RECIPES, help: HELP.fp8Recipe },
  { key: 'fp8ParamGather', choices: ON_OFF, labels: ON_OFF_LABELS, help: HELP.fp8ParamGather },
  { key: 'modelCode', choices: MODEL_CODES, labels: { fused: 'fused', transformers: 'HF transformers' }, help: HELP.modelCode },
  { key: 'compile', choices: ON_OFF, labels: ON_OFF_LABELS, help: HELP.compile },
];

export function FrameworkSection() {
  const raw = usePlanner((s) => getAt(s.document, ['training', 'framework']));
  const release = usePlanner((s) => getAt(s.document, ['training', 'frameworkRelease']));
  const framework = FRAMEWORKS.find((f) => f === raw) ?? 'generic';
  const path: FieldPath = ['training', 'framework'];
  const options: { value: string; label: string }[] = FRAMEWORKS.map((f) => ({ value: f, label: FRAMEWORK_PROFILES[f].label }));
  if (raw !== undefined && FRAMEWORKS.every((f) => f !== raw)) options.push({ value: String(raw), label: `${String(raw)} (not valid)` });
  const write = (v: string) => (v === 'generic' ? undefined : v);
  return (
    <Section title="Software stack" id="stack">
      <FieldSelect path={path} help={HELP.framework} value={raw === undefined ? 'generic' : String(raw)} options={options} write={write} />
      <div className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,17rem),1fr))] gap-3">
        {STACK_FIELDS.map((field) => (
          <StackFieldControl key={field.key} field={field} framework={framework} />
        ))}
      </div>
      {/* Only Megatron-LM's releases are modeled (input/framework-release.ts); a stated one stays visible with its error. */}
      {framework === 'megatron' || (release !== undefined && release !== null && release !== '') ? (
        <TextField path={['training', 'frameworkRelease']} help={HELP.frameworkRelease} />
      ) : null}
      <ForwardHostSyncField framework={framework} />
      <MoeStackFields framework={framework} />
    </Section>
  );
}

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
import type { Help } from '../help.ts';
import { FieldSelect } from './fields.tsx';
import { MoeStackFields } from './MoeStackFields.tsx';
import { Section } from './Section.tsx';
import { StackFieldControl, type StackField } from './StackFieldControl.tsx';

const HELP_FRAMEWORK: Help = {
  label: 'Framework',
  explain: 'The training stack: it sets the defaults below (loss, recompute policy, kernels, what the allocator and optimizer keep).',
  source: "Each default cites the framework's own source file and flag (src/input/frameworks.ts)",
};

const STACK_FIELDS: readonly StackField[] = [
  {
    key: 'loss',
    choices: LOSS_KINDS,
    help: {
      label: 'Loss kernel',
      explain: 'How cross-entropy keeps fp32 logits: eager keeps three copies at its peak, fused one, compiled two.',
    },
  },
  {
    key: 'selectivePolicy',
    choices: SELECTIVE_POLICIES,
    labels: { modules: 'modules', op: 'op-level', layer: 'every Nth layer', elementwise: 'element-wise' },
    help: {
      label: 'Selective recompute policy',
      explain: 'What "selective" recomputation drops: named modules, every second matmul and all element-wise ops, or whole layers.',
    },
  },
  {
    key: 'dropout',
    choices: [false, true],
    labels: { false: 'off', true: 'on' },
    help: { label: 'Dropout', explain: 'Dropout masks kept for backward (GPT-3-era recipes).' },
  },
  {
    key: 'optimizerStateDtype',
    choices: STATE_DTYPES,
    help: { label: 'Adam moment dtype', explain: 'bf16 moments: 8 instead of 12 bytes per parameter with fp32 master weights.' },
  },
  {
    key: 'attentionKernel',
    choices: ATTENTION_KERNELS,
    help: { label: 'Attention kernel', explain: 'The fused attention implementation (auto: what the GPU runs best).' },
  },
  {
    key: 'fp8Recipe',
    choices: FP8_RECIPES,
    help: { label: 'FP8 recipe', explain: 'How fp8 tensors are scaled (with fp8/fp4 precision).' },
  },
  {
    key: 'modelCode',
    choices: MODEL_CODES,
    labels: { fused: 'fused', transformers: 'HF transformers' },
    help: {
      label: 'Model code',
      explain:
        'Whose layers the run trains: fused (Megatron-Core, Transformer Engine) or Hugging Face transformers run eagerly, whose ' +
        'RMSNorm keeps an fp32 copy of the hidden state and its SwiGLU one more tensor per layer.',
      source: 'transformers models/llama/modeling_llama.py LlamaRMSNorm and LlamaMLP (src/model/memory/model-code.ts)',
    },
  },
  {
    key: 'compile',
    choices: [false, true],
    labels: { false: 'off', true: 'on' },
    help: { label: 'torch.compile', explain: 'The model compiled with torch.compile.' },
  },
];

export function FrameworkSection() {
  const raw = usePlanner((s) => getAt(s.document, ['training', 'framework']));
  const framework = FRAMEWORKS.find((f) => f === raw) ?? 'generic';
  const path: FieldPath = ['training', 'framework'];
  const options: { value: string; label: string }[] = FRAMEWORKS.map((f) => ({ value: f, label: FRAMEWORK_PROFILES[f].label }));
  if (raw !== undefined && FRAMEWORKS.every((f) => f !== raw)) options.push({ value: String(raw), label: `${String(raw)} (not valid)` });
  const write = (v: string) => (v === 'generic' ? undefined : v);
  return (
    <Section title="Software stack" id="stack">
      <FieldSelect path={path} help={HELP_FRAMEWORK} value={raw === undefined ? 'generic' : String(raw)} options={options} write={write} />
      <div className="grid grid-cols-[repeat(auto-fill,minmax(min(100%,17rem),1fr))] gap-3">
        {STACK_FIELDS.map((field) => (
          <StackFieldControl key={field.key} field={field} framework={framework} />
        ))}
      </div>
      <MoeStackFields framework={framework} />
    </Section>
  );
}

// The training run: batch, sequence, token budget, number formats, optimizer, recomputation, offload.

import { GRAD_DTYPES, OPTIMIZERS, PRECISIONS, RECOMPUTES } from '../../model/input/index.ts';
import { getAt } from '../../state/doc.ts';
import { usePlanner } from '../../state/react.ts';
import { HELP } from '../help.ts';
import { CheckField, ChoiceField, NumberField } from './fields.tsx';
import { Section } from './Section.tsx';

const training = (key: string) => ['training', key];

export function TrainingSection() {
  const zero = usePlanner((s) => getAt(s.document, ['parallel', 'zero']));
  return (
    <Section title="Training" id="training">
      <div className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-3">
        <NumberField path={training('globalBatch')} help={HELP.globalBatch} />
        <NumberField path={training('seqLen')} help={HELP.seqLen} />
      </div>
      <NumberField path={training('tokens')} help={HELP.tokens} />
      <ChoiceField path={training('precision')} help={HELP.precision} choices={PRECISIONS}
        labels={{ fp32: 'FP32', fp16: 'FP16 (mixed)', bf16: 'BF16 (mixed)', fp8: 'FP8 (mixed)', fp4: 'FP4 (mixed)' }} />
      <ChoiceField path={training('optimizer')} help={HELP.optimizer} choices={OPTIMIZERS}
        labels={{ adam: 'Adam / AdamW', adam8bit: '8-bit Adam', sgd: 'SGD with momentum' }} />
      <CheckField path={training('masterWeights')} help={HELP.masterWeights} fallback />
      <ChoiceField path={training('gradDtype')} help={HELP.gradDtype} choices={GRAD_DTYPES} labels={{ fp32: 'FP32', bf16: 'BF16' }} />
      <ChoiceField path={training('recompute')} help={HELP.recompute} choices={RECOMPUTES}
        labels={{ none: 'None', selective: 'Selective (attention)', full: 'Full (every layer)' }} />
      <CheckField path={training('flashAttention')} help={HELP.flashAttention} fallback />
      <CheckField path={['training', 'offload', 'optimizer']} help={HELP.offloadOptimizer} fallback={false} />
      <CheckField path={['training', 'offload', 'parameters']} help={HELP.offloadParameters} fallback={false}
        disabledReason={zero === 3 ? null : 'parameter offload needs ZeRO stage 3'} />
    </Section>
  );
}

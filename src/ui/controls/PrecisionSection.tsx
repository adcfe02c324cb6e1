// Number formats and the optimizer: the precision of the matmuls, the optimizer and
// its states, master weights and the gradients' format.

import { useMemo } from 'react';
import { ABSENT_CHOICE, GRAD_DTYPES, OPTIMIZERS, PRECISIONS } from '../../model/input/index.ts';
import { pathUnder, type KeyOf } from '../../state/doc.ts';
import { precisionChoices } from '../../state/options.ts';
import { usePlanner } from '../../state/react.ts';
import { HELP } from '../help.ts';
import { CheckField, ChoiceField } from './fields.tsx';
import { Section } from './Section.tsx';

const training = (key: KeyOf<'training'>) => pathUnder('training', key);

export function PrecisionSection() {
  const doc = usePlanner((s) => s.document);
  // A precision the GPU has no tensor cores for is not offered, with the reason (issue 36).
  const unavailable = useMemo(() => precisionChoices(doc), [doc]);
  return (
    <Section title="Number formats and optimizer" id="precision">
      <ChoiceField
        path={training('precision')}
        help={HELP.precision}
        choices={PRECISIONS}
        disabledReasons={unavailable}
        labels={{ fp32: 'FP32', fp16: 'FP16 (mixed)', bf16: 'BF16 (mixed)', fp8: 'FP8 (mixed)', fp4: 'FP4 (mixed)' }}
        absent={ABSENT_CHOICE['training.precision']}
      />
      <ChoiceField
        path={training('optimizer')}
        help={HELP.optimizer}
        choices={OPTIMIZERS}
        labels={{ adam: 'Adam / AdamW', adam8bit: '8-bit Adam', sgd: 'SGD with momentum' }}
        absent={ABSENT_CHOICE['training.optimizer']}
      />
      <CheckField path={training('masterWeights')} help={HELP.masterWeights} fallback />
      <ChoiceField
        path={training('gradDtype')}
        help={HELP.gradDtype}
        choices={GRAD_DTYPES}
        labels={{ fp32: 'FP32', bf16: 'BF16' }}
        absent={ABSENT_CHOICE['training.gradDtype']}
      />
    </Section>
  );
}

// Parallelism: how the GPUs split the model and the batch. One slider per degree offers
// only the values the engine's rules allow; sequence parallel goes with TP.

import { countAt, getAt, type FieldPath } from '../../state/doc.ts';
import { DEGREE_PATHS, evenPipelineLayoutText } from '../../state/options.ts';
import { usePlanner } from '../../state/react.ts';
import { HELP } from '../help.ts';
import { DegreeSlider, useLayoutChoices } from './DegreeSlider.tsx';
import { ExpertTpField } from './ExpertTpField.tsx';
import { CheckField, TextField } from './fields.tsx';
import { Section } from './Section.tsx';

const LAYOUT_PATH: FieldPath = ['parallel', 'pipelineLayout'];

export function ParallelSection() {
  const choices = useLayoutChoices();
  const tp = usePlanner((s) => countAt(s.document, DEGREE_PATHS.tp) ?? 1);
  const pp = usePlanner((s) => countAt(s.document, DEGREE_PATHS.pp) ?? 1);
  const layout = usePlanner((s) => getAt(s.document, LAYOUT_PATH));
  const even = usePlanner((s) => evenPipelineLayoutText(s.document));
  return (
    <Section title="Parallelism" id="parallel">
      <DegreeSlider degree="tp" choices={choices.tp} />
      <DegreeSlider degree="pp" choices={choices.pp} />
      <DegreeSlider degree="dp" choices={choices.dp} />
      <DegreeSlider degree="cp" choices={choices.cp} />
      <DegreeSlider degree="ep" choices={choices.ep} />
      <ExpertTpField />
      <CheckField
        path={['parallel', 'sequenceParallel']}
        help={HELP.sequenceParallel}
        fallback={tp > 1}
        disabledReason={tp === 1 ? 'it has no effect with TP = 1' : null}
      />
      {/* Megatron's layer layout (model/input/pipeline-layout.ts): shown with a pipeline, or while a stated one stays with its error. */}
      {pp > 1 || (typeof layout === 'string' && layout !== '') ? (
        <TextField path={LAYOUT_PATH} help={HELP.pipelineLayout} placeholder={even ?? undefined} />
      ) : null}
    </Section>
  );
}

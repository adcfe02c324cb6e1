// The run's frame (ux.md principle 10): what anyone changes first — the model, the GPU
// type, how many GPUs, the token budget and the price — opens the controls, a few Tab
// presses from the top. The layout knobs come after it.

import { DEFAULT_TOKENS, defaultUsdPerGpuHour } from '../../state/catalog.ts';
import { getAt } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { FRAME_SECTION_ID } from '../frame/jump.ts';
import { formatTokenCount } from '../format.ts';
import { HELP } from '../help.ts';
import { NumberField } from './fields.tsx';
import { GpuPicker } from './HardwareSection.tsx';
import { ModelSummaryLine, PresetPicker } from './ModelSection.tsx';
import { Section } from './Section.tsx';
import { TrainingMethod } from './TrainingMethod.tsx';

export function FrameSection() {
  const store = usePlannerStore();
  // Absent price and token budget read as these (document.ts, document-cluster.ts): the empty box says which.
  const price = usePlanner((s) => defaultUsdPerGpuHour(getAt(s.document, ['cluster', 'gpu'])));
  return (
    <Section title="Run: model, GPUs, budget" id={FRAME_SECTION_ID}>
      <PresetPicker />
      <ModelSummaryLine />
      <GpuPicker />
      <div className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-3">
        <NumberField path={['cluster', 'gpus']} help={HELP.gpus} commitOnBlur onCommit={(v) => store.getState().setGpuCount(v)} />
        <NumberField
          path={['cost', 'usdPerGpuHour']}
          help={HELP.usdPerGpuHour}
          optional
          placeholder={price === null ? '' : `${price} (the GPU's list price)`}
        />
      </div>
      <NumberField
        path={['training', 'tokens']}
        help={HELP.tokens}
        readable={formatTokenCount}
        placeholder={`${DEFAULT_TOKENS.toExponential().replace('+', '')} (default: ${formatTokenCount(DEFAULT_TOKENS)})`}
      />
      <TrainingMethod />
    </Section>
  );
}

// Money, energy and reliability inputs.

import { HELP, type HelpKey } from '../help.ts';
import { NumberField } from './fields.tsx';
import { Section } from './Section.tsx';

// The price per GPU-hour is in the run's frame (FrameSection).
const COST_FIELDS: readonly HelpKey[] = ['pue', 'gridKgCo2PerKwh', 'gpuMtbfHours', 'checkpointWriteGBps'];

export function CostSection() {
  return (
    <Section title="Cost and reliability" id="cost">
      <div className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-3">
        {COST_FIELDS.map((key) => <NumberField key={key} path={['cost', key]} help={HELP[key]} optional />)}
      </div>
    </Section>
  );
}

// Money, energy and reliability inputs, and the capacity the run gets (on-demand or spot).

import { CAPACITIES } from '../../model/input/index.ts';
import { getAt, pathUnder, type KeyOf } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { HELP, type HelpKey } from '../help.ts';
import { CheckField, ChoiceField, FieldShell, INPUT, NumberField, controlId, describedBy, useFieldError } from './fields.tsx';
import { Section } from './Section.tsx';

// The price per GPU-hour is in the run's frame (FrameSection).
const COST_FIELDS: readonly (HelpKey & KeyOf<'cost'>)[] = [
  'pue',
  'gridKgCo2PerKwh',
  'gpuMtbfHours',
  'checkpointWriteGBps',
  'restartMinutes',
];
const SPOT_FIELDS: readonly (HelpKey & KeyOf<'cost'>)[] = ['spotUsdPerGpuHour', 'preemptionsPerNodeDay'];
const CAPACITY_LABELS = { 'on-demand': 'On-demand', spot: 'Spot' };

export function CostSection() {
  const spot = usePlanner((s) => getAt(s.document, ['cost', 'capacity']) === 'spot');
  return (
    <Section title="Cost and reliability" id="cost">
      <div className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-3">
        {COST_FIELDS.map((key) => (
          <NumberField key={key} path={pathUnder('cost', key)} help={HELP[key]} optional />
        ))}
        <ChoiceField path={['cost', 'capacity']} help={HELP.capacity} choices={CAPACITIES} labels={CAPACITY_LABELS} />
        {spot && SPOT_FIELDS.map((key) => <NumberField key={key} path={pathUnder('cost', key)} help={HELP[key]} optional />)}
        <StartDateField />
        <CheckField path={['cost', 'elastic']} help={HELP.elastic} fallback={false} />
      </div>
    </Section>
  );
}

const START_DATE = ['cost', 'startDate'] as const;

/** The run's first day as typed; an empty box removes the field (no dated end). */
function StartDateField() {
  const store = usePlannerStore();
  const value = usePlanner((s) => getAt(s.document, START_DATE));
  const error = useFieldError(START_DATE);
  const id = controlId(START_DATE);
  return (
    <FieldShell id={id} help={HELP.startDate} error={error}>
      <input
        id={id}
        type="text"
        className={INPUT}
        value={typeof value === 'string' ? value : ''}
        placeholder="2027-01-04"
        maxLength={10}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
        onChange={(e) => store.getState().setField(START_DATE, e.target.value.trim() === '' ? undefined : e.target.value.trim())}
      />
    </FieldShell>
  );
}

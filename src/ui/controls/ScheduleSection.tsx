// The schedule of a step: global batch and sequence length (the token budget is in the run's frame), the
// micro-batch and how many of them a step runs, the pipeline schedule and its virtual stages.

import { useMemo } from 'react';
import { SCHEDULES, type ScheduleKind } from '../../model/input/index.ts';
import { countAt, getAt, pathUnder, type KeyOf } from '../../state/doc.ts';
import { microBatchesPerStep, scheduleChoices, SCHEDULE_PATH } from '../../state/options.ts';
import { seqLenNote } from '../../state/choices.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { HELP } from '../help.ts';
import { DegreeSlider, useLayoutChoices } from './DegreeSlider.tsx';
import { HINT, NumberField, SelectField, controlId } from './fields.tsx';
import { Section } from './Section.tsx';

const SCHEDULE_LABELS: Readonly<Record<ScheduleKind, string>> = {
  gpipe: 'GPipe',
  '1f1b': '1F1B',
  'interleaved-1f1b': 'Interleaved 1F1B',
  'zero-bubble': 'Zero bubble',
  dualpipe: 'DualPipe',
};
const training = (key: KeyOf<'training'>) => pathUnder('training', key);

function ScheduleField() {
  const store = usePlannerStore();
  const doc = usePlanner((s) => s.document);
  const choices = useMemo(() => scheduleChoices(doc), [doc]);
  const value = usePlanner((s) => getAt(s.document, SCHEDULE_PATH));
  const current = SCHEDULES.find((s) => s === value) ?? '1f1b';
  return (
    <SelectField
      id={controlId(SCHEDULE_PATH)}
      help={HELP.schedule}
      value={current}
      errorPath={SCHEDULE_PATH}
      options={choices.map((c) => ({ value: c.schedule, label: SCHEDULE_LABELS[c.schedule], disabledReason: c.problem }))}
      onChange={(v) => {
        const picked = SCHEDULES.find((s) => s === v);
        if (picked) store.getState().setSchedule(picked);
      }}
    />
  );
}

function MicroBatchCount() {
  const doc = usePlanner((s) => s.document);
  const m = microBatchesPerStep(doc);
  const globalBatch = countAt(doc, ['training', 'globalBatch']);
  return (
    <p className={HINT} data-testid="micro-batch-count">
      Micro-batches per step (m) = GBS / (MBS × DP) = {m === null ? `not a whole number (GBS ${globalBatch ?? '—'})` : m}
    </p>
  );
}

export function ScheduleSection() {
  const choices = useLayoutChoices();
  const seqLenWarning = usePlanner((s) => seqLenNote(s.document));
  return (
    <Section title="Schedule" id="schedule">
      <div className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-3">
        <NumberField path={training('globalBatch')} help={HELP.globalBatch} />
        <NumberField path={training('seqLen')} help={HELP.seqLen} warning={seqLenWarning} />
      </div>
      <DegreeSlider degree="microBatch" choices={choices.microBatch} />
      <MicroBatchCount />
      <ScheduleField />
      <DegreeSlider degree="vpp" choices={choices.vpp} />
    </Section>
  );
}

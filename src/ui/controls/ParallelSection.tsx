// Parallelism: one slider per degree offering only the values the engine's rules
// allow (src/state/options.ts asks them), plus schedule, ZeRO and sequence parallel.

import { memo, useMemo } from 'react';
import { SCHEDULES, ZERO_STAGES, type ScheduleKind } from '../../model/input/index.ts';
import { countAt, getAt } from '../../state/doc.ts';
import { layoutChoices, microBatchesPerStep, scheduleChoices, DEGREE_PATHS, SCHEDULE_PATH, type DegreeChoices, type DegreeKey } from '../../state/options.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { messageInWords } from '../errorWords.ts';
import { HELP } from '../help.ts';
import { CheckField, ChoiceField, ERROR_TEXT, FieldShell, HINT, SelectField, controlId, describedBy, useFieldError } from './fields.tsx';
import { Section } from './Section.tsx';

const SCHEDULE_LABELS: Readonly<Record<ScheduleKind, string>> = {
  gpipe: 'GPipe', '1f1b': '1F1B', 'interleaved-1f1b': 'Interleaved 1F1B', 'zero-bubble': 'Zero bubble', dualpipe: 'DualPipe',
};
const ZERO_LABELS = { '0': '0: off', '1': '1: optimizer states', '2': '2: + gradients', '3': '3: + weights (FSDP)' };

function sameChoices(a: DegreeChoices, b: DegreeChoices): boolean {
  return a.current === b.current && a.rule === b.rule && a.currentProblem === b.currentProblem
    && a.values.length === b.values.length && a.values.every((v, i) => v === b.values[i])
    && a.excluded.length === b.excluded.length && a.excluded.every((e, i) => e.value === b.excluded[i]?.value && e.reason === b.excluded[i]?.reason);
}

/** Memoized on what it shows: layoutChoices builds new objects on every change, and most moves leave most sliders as they were. */
const DegreeSlider = memo(function DegreeSlider({ degree, choices }: { degree: DegreeKey; choices: DegreeChoices }) {
  const store = usePlannerStore();
  const path = DEGREE_PATHS[degree];
  const error = useFieldError(path);
  const id = controlId(path);
  const { values, current, rule, excluded, currentProblem } = choices;
  const index = Math.max(0, values.indexOf(current));
  const help = HELP[degree];
  return (
    <FieldShell id={id} help={help} error={error}
      aside={<output htmlFor={id} className="text-sm font-semibold tabular-nums text-gray-900 dark:text-gray-100">{current}</output>}
      extra={
        <>
          <p className={HINT}>Offered: {messageInWords(rule)}{values.length > 1 ? `: ${values.join(', ')}` : ''}.</p>
          {excluded.length > 0 && <p className={HINT}>Not offered: {excluded.map((e) => `${e.value} (${messageInWords(e.reason)})`).join('; ')}.</p>}
          {currentProblem && !error && <p className={ERROR_TEXT}>{current} is not valid here: {currentProblem}.</p>}
        </>
      }>
      <input
        id={id} type="range" min={0} max={Math.max(0, values.length - 1)} step={1} value={index}
        disabled={values.length < 2} aria-valuetext={String(current)} aria-describedby={describedBy(id, error)}
        aria-invalid={error ? true : undefined}
        className="w-full accent-blue-700 disabled:opacity-60 dark:accent-blue-300"
        onChange={(e) => {
          const picked = values[Number(e.target.value)];
          if (picked !== undefined && picked !== current) store.getState().setDegree(degree, picked);
        }}
      />
    </FieldShell>
  );
}, (a, b) => a.degree === b.degree && sameChoices(a.choices, b.choices));

function ScheduleField() {
  const store = usePlannerStore();
  const doc = usePlanner((s) => s.document);
  const choices = useMemo(() => scheduleChoices(doc), [doc]);
  const value = usePlanner((s) => getAt(s.document, SCHEDULE_PATH));
  const current = SCHEDULES.find((s) => s === value) ?? '1f1b';
  return (
    <SelectField id={controlId(SCHEDULE_PATH)} help={HELP.schedule} value={current} errorPath={SCHEDULE_PATH}
      options={choices.map((c) => ({ value: c.schedule, label: SCHEDULE_LABELS[c.schedule], disabledReason: c.problem }))}
      onChange={(v) => {
        const picked = SCHEDULES.find((s) => s === v);
        if (picked) store.getState().setSchedule(picked);
      }} />
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

export function ParallelSection() {
  const doc = usePlanner((s) => s.document);
  const choices = useMemo(() => layoutChoices(doc), [doc]);
  const tp = countAt(doc, DEGREE_PATHS.tp) ?? 1;
  return (
    <Section title="Parallelism" id="parallel">
      <DegreeSlider degree="tp" choices={choices.tp} />
      <DegreeSlider degree="pp" choices={choices.pp} />
      <DegreeSlider degree="dp" choices={choices.dp} />
      <DegreeSlider degree="cp" choices={choices.cp} />
      <DegreeSlider degree="ep" choices={choices.ep} />
      <DegreeSlider degree="microBatch" choices={choices.microBatch} />
      <MicroBatchCount />
      <ScheduleField />
      <DegreeSlider degree="vpp" choices={choices.vpp} />
      <ChoiceField path={['parallel', 'zero']} help={HELP.zero} choices={ZERO_STAGES} labels={ZERO_LABELS} />
      <CheckField path={['parallel', 'sequenceParallel']} help={HELP.sequenceParallel} fallback={tp > 1}
        disabledReason={tp === 1 ? 'it has no effect with TP = 1' : null} />
    </Section>
  );
}

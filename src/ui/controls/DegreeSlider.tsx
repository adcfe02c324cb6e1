// One slider per parallel degree (and micro-batch, virtual stages), offering only the
// values the engine's rules allow (src/state/options.ts asks them).

import { memo } from 'react';
import type { Doc } from '../../state/doc.ts';
import { layoutChoices, DEGREE_PATHS, type DegreeChoices, type DegreeKey } from '../../state/options.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { messageInWords } from '../errorWords.ts';
import { HELP } from '../help.ts';
import { ERROR_TEXT, FieldShell, HINT, controlId, describedBy, useFieldError } from './fields.tsx';

type LayoutChoices = ReturnType<typeof layoutChoices>;
/** One layoutChoices per document, shared by the sections that show its sliders (it asks every rule of the engine). */
const CHOICES_BY_DOC = new WeakMap<Doc, LayoutChoices>();

export function useLayoutChoices(): LayoutChoices {
  const doc = usePlanner((s) => s.document);
  return choicesFor(doc);
}

function choicesFor(doc: Doc): LayoutChoices {
  const cached = CHOICES_BY_DOC.get(doc);
  if (cached) return cached;
  const computed = layoutChoices(doc);
  CHOICES_BY_DOC.set(doc, computed);
  return computed;
}

function sameChoices(a: DegreeChoices, b: DegreeChoices): boolean {
  return (
    a.current === b.current &&
    a.rule === b.rule &&
    a.currentProblem === b.currentProblem &&
    a.values.length === b.values.length &&
    a.values.every((v, i) => v === b.values[i]) &&
    a.excluded.length === b.excluded.length &&
    a.excluded.every((e, i) => e.value === b.excluded[i]?.value && e.reason === b.excluded[i]?.reason)
  );
}

/** Memoized on what it shows: layoutChoices builds new objects on every change, and most moves leave most sliders as they were. */
export const DegreeSlider = memo(
  function DegreeSlider({ degree, choices }: { degree: DegreeKey; choices: DegreeChoices }) {
    const store = usePlannerStore();
    const path = DEGREE_PATHS[degree];
    const error = useFieldError(path);
    const id = controlId(path);
    const { values, current, rule, excluded, currentProblem } = choices;
    const index = Math.max(0, values.indexOf(current));
    const help = HELP[degree];
    return (
      <FieldShell
        id={id}
        help={help}
        error={error}
        aside={
          <output htmlFor={id} className="text-sm font-semibold tabular-nums text-gray-900 dark:text-gray-100">
            {current}
          </output>
        }
        extra={
          <>
            <p className={HINT}>
              Offered: {messageInWords(rule)}
              {values.length > 1 ? `: ${values.join(', ')}` : ''}.
            </p>
            {excluded.length > 0 && (
              <p className={HINT}>Not offered: {excluded.map((e) => `${e.value} (${messageInWords(e.reason)})`).join('; ')}.</p>
            )}
            {currentProblem && !error && (
              <p className={ERROR_TEXT}>
                {current} is not valid here: {messageInWords(currentProblem)}.
              </p>
            )}
          </>
        }
      >
        <input
          id={id}
          type="range"
          min={0}
          max={Math.max(0, values.length - 1)}
          step={1}
          value={index}
          disabled={values.length < 2}
          aria-valuetext={String(current)}
          aria-describedby={describedBy(id, error)}
          aria-invalid={error ? true : undefined}
          className="w-full accent-blue-700 disabled:opacity-60 dark:accent-blue-300"
          onChange={(e) => {
            const picked = values[Number(e.target.value)];
            if (picked !== undefined && picked !== current) store.getState().setDegree(degree, picked);
          }}
        />
      </FieldShell>
    );
  },
  (a, b) => a.degree === b.degree && sameChoices(a.choices, b.choices),
);

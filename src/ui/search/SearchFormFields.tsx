// The search's settings: what it answers (the best layout for this cluster, or the
// cluster's size), objective, how many layouts to list, the memory kept free, even layer
// splits, tensor parallelism kept inside a node, the degrees held at their current value,
// and the GPU and dollar limits; when sizing, the GPU types, GPU range and day limit.

import { useId } from 'react';
import { SEARCH_OBJECTIVES, type SearchObjective } from '../../model/search/index.ts';
import type { Doc } from '../../state/doc.ts';
import { INPUT } from '../controls/fields.tsx';
import { CheckRow, Field, LABEL, toggled, TypedNumberFields, type TypedNumber } from '../controls/SettingField.tsx';
import { FIXABLE, OBJECTIVE_LABELS, currentDegree, type FixableKey, type SearchMode } from './searchRequest.ts';
import { SizingFields, type SizingText } from './SizingFields.tsx';
import { formatPercent } from '../format.ts';
import { defaultMarginPercent, fitAssessment, tightFromShare } from '../uncertainty/memoryVerdict.ts';
import { usePlanner } from '../../state/react.ts';

export interface FormText {
  readonly mode: SearchMode;
  readonly objective: SearchObjective;
  /** The objective when sizing: least cost by default. */
  readonly sizingObjective: SearchObjective;
  readonly topK: string;
  readonly tpWithinNode: boolean;
  readonly fixed: readonly FixableKey[];
  readonly maxGpus: string;
  readonly maxUsd: string;
  /** Percent of each GPU's memory kept free. */
  readonly margin: string;
  readonly unevenLayers: boolean;
  readonly sizing: SizingText;
}

const MODES: readonly { readonly mode: SearchMode; readonly label: string }[] = [
  { mode: 'layout', label: 'Best layout for this cluster' },
  { mode: 'sizing', label: 'Size the cluster' },
];

/**
 * The page's one "tight" threshold (memoryVerdict.ts), so the form and the strip name the same share: the current
 * run's, by the memory range of its own segment of published runs (issue 35); the validation set's before any answer.
 */
function marginHint(tight: number): string {
  return (
    `Of each GPU's memory, 0 to 90. The page calls this run tight above ${formatPercent(tight)} used: keep ${defaultMarginPercent()} % free ` +
    "(the default, or more where a layout's own published runs ask for it) to list only safe layouts"
  );
}

/** The limits: the GPU count (not when sizing: the sizing range is), the budget and the memory kept free. */
function limitFields(sizing: boolean, clusterGpus: number | null, tight: number): TypedNumber<'maxGpus' | 'maxUsd' | 'margin'>[] {
  const gpus: TypedNumber<'maxGpus'> = {
    key: 'maxGpus',
    suffix: 'gpus',
    label: 'Max GPUs',
    hint: `Empty: ${clusterGpus ?? 'the cluster size'} only. Else GPUs per node × 2^k up to it, and it`,
    inputMode: 'numeric',
    placeholder: clusterGpus === null ? '' : String(clusterGpus),
  };
  return [
    ...(sizing ? [] : [gpus]),
    { key: 'maxUsd', suffix: 'usd', label: 'Budget ($)', hint: 'Optional: leave out runs that cost more', inputMode: 'decimal' },
    { key: 'margin', suffix: 'margin', label: 'Memory kept free (%)', hint: marginHint(tight), inputMode: 'decimal' },
  ];
}

export function SearchFormFields(props: {
  form: FormText;
  document: Doc;
  clusterGpus: number | null;
  disabled: boolean;
  onChange: (form: FormText) => void;
}) {
  const { form, document, clusterGpus, disabled, onChange } = props;
  const id = useId();
  // A number, not the output: the form redraws only when the share changes, not on every answer.
  const tight = usePlanner((s) => (s.output && s.output.errors.length === 0 ? fitAssessment(s.output).tightFromShare : tightFromShare()));
  const set = (patch: Partial<FormText>) => onChange({ ...form, ...patch });
  const setFixed = (key: FixableKey, fixed: boolean) => set({ fixed: toggled(form.fixed, key, fixed) });
  const sizing = form.mode === 'sizing';
  const objectiveKey = sizing ? 'sizingObjective' : 'objective';
  return (
    <fieldset disabled={disabled} className="flex flex-col gap-3">
      <legend className="sr-only">Search settings</legend>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1" data-testid="search-mode">
        <legend className={`${LABEL} mb-1`}>Question</legend>
        {MODES.map(({ mode, label }) => (
          <div key={mode} className="flex items-center gap-2">
            <input
              id={`${id}-mode-${mode}`}
              type="radio"
              name={`${id}-mode`}
              className="h-4 w-4"
              checked={form.mode === mode}
              onChange={() => set({ mode })}
            />
            <label htmlFor={`${id}-mode-${mode}`} className="text-sm text-gray-900 dark:text-gray-100">
              {label}
            </label>
          </div>
        ))}
      </fieldset>
      <div className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] items-start gap-3">
        <Field id={`${id}-objective`} label="Objective">
          <select
            id={`${id}-objective`}
            className={INPUT}
            value={form[objectiveKey]}
            onChange={(e) => set({ [objectiveKey]: e.target.value as SearchObjective })}
          >
            {SEARCH_OBJECTIVES.map((o) => (
              <option key={o} value={o}>
                {OBJECTIVE_LABELS[o]}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${id}-top`} label="Layouts to list" hint="The best K different layouts (1 to 50)">
          <input
            id={`${id}-top`}
            type="number"
            min={1}
            max={50}
            className={INPUT}
            value={form.topK}
            aria-describedby={`${id}-top-hint`}
            onChange={(e) => set({ topK: e.target.value })}
          />
        </Field>
        <TypedNumberFields
          id={id}
          fields={limitFields(sizing, clusterGpus, tight)}
          values={form}
          onChange={(key, text) => set({ [key]: text })}
        />
      </div>
      {sizing && <SizingFields id={`${id}-sizing`} sizing={form.sizing} onChange={(s) => set({ sizing: s })} />}
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <CheckRow id={`${id}-node`} checked={form.tpWithinNode} labelClass={LABEL} onChange={(tpWithinNode) => set({ tpWithinNode })}>
          Keep tensor parallelism within a node
        </CheckRow>
        <CheckRow id={`${id}-uneven`} checked={form.unevenLayers} labelClass={LABEL} onChange={(unevenLayers) => set({ unevenLayers })}>
          Allow uneven layer splits (Megatron-LM: --pipeline-model-parallel-layout)
        </CheckRow>
      </div>
      <fieldset className="grid grid-cols-[repeat(auto-fill,minmax(8rem,1fr))] gap-3">
        <legend className={`${LABEL} mb-1`}>Each degree: searched, or fixed at its current value</legend>
        {FIXABLE.map(({ key, label }) => {
          const current = currentDegree(document, key);
          const fixed = current !== undefined && form.fixed.includes(key);
          return (
            <Field key={key} id={`${id}-fix-${key}`} label={label}>
              <select
                id={`${id}-fix-${key}`}
                className={INPUT}
                value={fixed ? 'fixed' : 'any'}
                disabled={current === undefined}
                onChange={(e) => setFixed(key, e.target.value === 'fixed')}
              >
                <option value="any">any</option>
                {current !== undefined && <option value="fixed">fixed at {String(current)}</option>}
              </select>
            </Field>
          );
        })}
      </fieldset>
    </fieldset>
  );
}

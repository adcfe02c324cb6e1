// The search's settings: objective, how many layouts to list, tensor parallelism kept
// inside a node, the degrees held at their current value, and the GPU and dollar limits.

import { useId, type ReactNode } from 'react';
import { SEARCH_OBJECTIVES, type SearchObjective } from '../../model/search/index.ts';
import type { Doc } from '../../state/doc.ts';
import { HINT, INPUT } from '../controls/fields.tsx';
import { FIXABLE, OBJECTIVE_LABELS, currentDegree, type FixableKey } from './searchRequest.ts';

export interface FormText {
  readonly objective: SearchObjective;
  readonly topK: string;
  readonly tpWithinNode: boolean;
  readonly fixed: readonly FixableKey[];
  readonly maxGpus: string;
  readonly maxUsd: string;
}

const LABEL = 'text-sm font-medium text-gray-900 dark:text-gray-100';

function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className={LABEL}>{label}</label>
      {children}
      {hint && <p id={`${id}-hint`} className={HINT}>{hint}</p>}
    </div>
  );
}

export function SearchFormFields(props: { form: FormText; document: Doc; clusterGpus: number | null; disabled: boolean; onChange: (form: FormText) => void }) {
  const { form, document, clusterGpus, disabled, onChange } = props;
  const id = useId();
  const set = (patch: Partial<FormText>) => onChange({ ...form, ...patch });
  const setFixed = (key: FixableKey, fixed: boolean) =>
    set({ fixed: fixed ? [...form.fixed.filter((k) => k !== key), key] : form.fixed.filter((k) => k !== key) });
  return (
    <fieldset disabled={disabled} className="flex flex-col gap-3">
      <legend className="sr-only">Search settings</legend>
      <div className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] items-start gap-3">
        <Field id={`${id}-objective`} label="Objective">
          <select id={`${id}-objective`} className={INPUT} value={form.objective} onChange={(e) => set({ objective: e.target.value as SearchObjective })}>
            {SEARCH_OBJECTIVES.map((o) => <option key={o} value={o}>{OBJECTIVE_LABELS[o]}</option>)}
          </select>
        </Field>
        <Field id={`${id}-top`} label="Layouts to list" hint="The best K (1 to 50)">
          <input id={`${id}-top`} type="number" min={1} max={50} className={INPUT} value={form.topK}
            aria-describedby={`${id}-top-hint`} onChange={(e) => set({ topK: e.target.value })} />
        </Field>
        <Field id={`${id}-gpus`} label="Max GPUs" hint={`Empty: ${clusterGpus ?? 'the cluster size'} only. Else GPUs per node × 2^k up to it, and it`}>
          <input id={`${id}-gpus`} inputMode="numeric" className={INPUT} value={form.maxGpus} placeholder={clusterGpus === null ? '' : String(clusterGpus)}
            aria-describedby={`${id}-gpus-hint`} onChange={(e) => set({ maxGpus: e.target.value })} />
        </Field>
        <Field id={`${id}-usd`} label="Budget ($)" hint="Optional: leave out runs that cost more">
          <input id={`${id}-usd`} inputMode="decimal" className={INPUT} value={form.maxUsd}
            aria-describedby={`${id}-usd-hint`} onChange={(e) => set({ maxUsd: e.target.value })} />
        </Field>
      </div>
      <div className="flex items-center gap-2">
        <input id={`${id}-node`} type="checkbox" className="h-4 w-4" checked={form.tpWithinNode} onChange={(e) => set({ tpWithinNode: e.target.checked })} />
        <label htmlFor={`${id}-node`} className={LABEL}>Keep tensor parallelism within a node</label>
      </div>
      <fieldset className="grid grid-cols-[repeat(auto-fill,minmax(8rem,1fr))] gap-3">
        <legend className={`${LABEL} mb-1`}>Each degree: searched, or fixed at its current value</legend>
        {FIXABLE.map(({ key, label }) => {
          const current = currentDegree(document, key);
          const fixed = current !== undefined && form.fixed.includes(key);
          return (
            <Field key={key} id={`${id}-fix-${key}`} label={label}>
              <select id={`${id}-fix-${key}`} className={INPUT} value={fixed ? 'fixed' : 'any'} disabled={current === undefined}
                onChange={(e) => setFixed(key, e.target.value === 'fixed')}>
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

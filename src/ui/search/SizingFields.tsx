// "Size the cluster": the GPU types compared and the range of GPU counts searched, and
// the day limit; the search answers which GPU, how many, and which layout.

import type { ReactNode } from 'react';
import { GPU_PRESETS } from '../../state/catalog.ts';
import { HINT, INPUT } from '../controls/fields.tsx';

export interface SizingText {
  readonly gpuTypes: readonly string[];
  readonly minGpus: string;
  readonly maxGpus: string;
  readonly maxDays: string;
}

export const INITIAL_SIZING: SizingText = { gpuTypes: ['a100-80gb', 'h100-sxm', 'h200'], minGpus: '8', maxGpus: '1024', maxDays: '60' };

const LABEL = 'text-sm font-medium text-gray-900 dark:text-gray-100';

function Field({ id, label, hint, children }: { id: string; label: string; hint: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className={LABEL}>
        {label}
      </label>
      {children}
      <p id={`${id}-hint`} className={HINT}>
        {hint}
      </p>
    </div>
  );
}

export function SizingFields({ id, sizing, onChange }: { id: string; sizing: SizingText; onChange: (sizing: SizingText) => void }) {
  const set = (patch: Partial<SizingText>) => onChange({ ...sizing, ...patch });
  const toggle = (gpu: string, on: boolean) =>
    set({ gpuTypes: on ? [...sizing.gpuTypes.filter((g) => g !== gpu), gpu] : sizing.gpuTypes.filter((g) => g !== gpu) });
  return (
    <div className="flex flex-col gap-3" data-testid="sizing-fields">
      <div className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] items-start gap-3">
        <Field id={`${id}-min`} label="Fewest GPUs" hint="Every whole-node count from here…">
          <input
            id={`${id}-min`}
            inputMode="numeric"
            className={INPUT}
            value={sizing.minGpus}
            aria-describedby={`${id}-min-hint`}
            onChange={(e) => set({ minGpus: e.target.value })}
          />
        </Field>
        <Field id={`${id}-max`} label="Most GPUs" hint="…to here that the layout rules allow">
          <input
            id={`${id}-max`}
            inputMode="numeric"
            className={INPUT}
            value={sizing.maxGpus}
            aria-describedby={`${id}-max-hint`}
            onChange={(e) => set({ maxGpus: e.target.value })}
          />
        </Field>
        <Field id={`${id}-days`} label="Max days" hint="Train the token budget within this; empty: no limit">
          <input
            id={`${id}-days`}
            inputMode="decimal"
            className={INPUT}
            value={sizing.maxDays}
            aria-describedby={`${id}-days-hint`}
            onChange={(e) => set({ maxDays: e.target.value })}
          />
        </Field>
      </div>
      <fieldset className="grid grid-cols-[repeat(auto-fill,minmax(13rem,1fr))] gap-x-3 gap-y-1">
        <legend className={`${LABEL} mb-1`}>
          GPU types to compare (each at its preset price; the document’s own GPU at the document’s)
        </legend>
        {GPU_PRESETS.map((g) => (
          <div key={g.id} className="flex items-center gap-2">
            <input
              id={`${id}-gpu-${g.id}`}
              type="checkbox"
              className="h-4 w-4"
              checked={sizing.gpuTypes.includes(g.id)}
              onChange={(e) => toggle(g.id, e.target.checked)}
            />
            <label htmlFor={`${id}-gpu-${g.id}`} className="text-sm text-gray-900 dark:text-gray-100">
              {g.name}
            </label>
          </div>
        ))}
      </fieldset>
    </div>
  );
}

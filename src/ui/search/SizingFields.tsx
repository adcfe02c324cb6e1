// "Size the cluster": the GPU types compared and the range of GPU counts searched, and
// the day limit; the search answers which GPU, how many, and which layout.

import { GPU_PRESETS } from '../../state/catalog.ts';
import { CheckRow, LABEL, toggled, TypedNumberFields, type TypedNumber } from '../controls/SettingField.tsx';

export interface SizingText {
  readonly gpuTypes: readonly string[];
  readonly minGpus: string;
  readonly maxGpus: string;
  readonly maxDays: string;
}

export const INITIAL_SIZING: SizingText = { gpuTypes: ['a100-80gb', 'h100-sxm', 'h200'], minGpus: '8', maxGpus: '1024', maxDays: '60' };

const RANGE: readonly TypedNumber<'minGpus' | 'maxGpus' | 'maxDays'>[] = [
  { key: 'minGpus', suffix: 'min', label: 'Fewest GPUs', hint: 'Every whole-node count from here…', inputMode: 'numeric' },
  { key: 'maxGpus', suffix: 'max', label: 'Most GPUs', hint: '…to here that the layout rules allow', inputMode: 'numeric' },
  { key: 'maxDays', suffix: 'days', label: 'Max days', hint: 'Train the token budget within this; empty: no limit', inputMode: 'decimal' },
];

export function SizingFields({ id, sizing, onChange }: { id: string; sizing: SizingText; onChange: (sizing: SizingText) => void }) {
  const set = (patch: Partial<SizingText>) => onChange({ ...sizing, ...patch });
  return (
    <div className="flex flex-col gap-3" data-testid="sizing-fields">
      <div className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] items-start gap-3">
        <TypedNumberFields id={id} fields={RANGE} values={sizing} onChange={(key, text) => set({ [key]: text })} />
      </div>
      <fieldset className="grid grid-cols-[repeat(auto-fill,minmax(13rem,1fr))] gap-x-3 gap-y-1">
        <legend className={`${LABEL} mb-1`}>
          GPU types to compare (each at its preset price; the document’s own GPU at the document’s)
        </legend>
        {GPU_PRESETS.map((g) => (
          <CheckRow
            key={g.id}
            id={`${id}-gpu-${g.id}`}
            checked={sizing.gpuTypes.includes(g.id)}
            labelClass="text-sm text-gray-900 dark:text-gray-100"
            onChange={(on) => set({ gpuTypes: toggled(sizing.gpuTypes, g.id, on) })}
          >
            {g.name}
          </CheckRow>
        ))}
      </fieldset>
    </div>
  );
}

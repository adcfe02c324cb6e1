// The pieces of the forms that read typed settings (the search's, the sizing's, the calibration's): a labelled setting with its
// hint, a labelled text box for a typed number, and a check box with its label.

import type { ReactNode } from 'react';
import { HINT, INPUT } from './fields.tsx';

export const LABEL = 'text-sm font-medium text-gray-900 dark:text-gray-100';

/** Label on top, the control, then the hint (`${id}-hint`, for the control's aria-describedby). */
export function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className={LABEL}>
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className={HINT}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** A number typed as text ("1024", "2.5"), read when the search is asked: which one, and its words. */
export interface TypedNumber<Key extends string> {
  readonly key: Key;
  /** The box's id after the form's own. */
  readonly suffix: string;
  readonly label: string;
  readonly hint: string;
  readonly inputMode: 'numeric' | 'decimal';
  readonly placeholder?: string;
}

/** A labelled text box for each typed number, with its hint. */
export function TypedNumberFields<Key extends string>(props: {
  id: string;
  fields: readonly TypedNumber<Key>[];
  values: Readonly<Record<Key, string>>;
  onChange: (key: Key, text: string) => void;
}) {
  const { id, fields, values, onChange } = props;
  return fields.map((f) => (
    <Field key={f.key} id={`${id}-${f.suffix}`} label={f.label} hint={f.hint}>
      <input
        id={`${id}-${f.suffix}`}
        inputMode={f.inputMode}
        className={INPUT}
        value={values[f.key]}
        placeholder={f.placeholder}
        aria-describedby={`${id}-${f.suffix}-hint`}
        onChange={(e) => onChange(f.key, e.target.value)}
      />
    </Field>
  ));
}

/** A check box and its label, side by side. */
export function CheckRow(props: {
  id: string;
  checked: boolean;
  labelClass: string;
  children: ReactNode;
  onChange: (on: boolean) => void;
}) {
  const { id, checked, labelClass, children, onChange } = props;
  return (
    <div className="flex items-center gap-2">
      <input id={id} type="checkbox" className="h-4 w-4" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <label htmlFor={id} className={labelClass}>
        {children}
      </label>
    </div>
  );
}

/** The list with `item` in it (at the end) when `on`, without it otherwise. */
export function toggled<T>(list: readonly T[], item: T, on: boolean): T[] {
  const without = list.filter((x) => x !== item);
  return on ? [...without, item] : without;
}

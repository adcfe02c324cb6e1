// One stack field's select: "profile default (value)", which leaves the field out of the
// document, or an explicit value, which wins over the profile (interchange "The software stack").

import { stackFieldDefault, type StackDefaults } from '../../model/input/index.ts';
import type { Framework } from '../../model/input/index.ts';
import { getAt, type FieldPath } from '../../state/doc.ts';
import { usePlanner } from '../../state/react.ts';
import type { Help } from '../help.ts';
import { FieldSelect } from './fields.tsx';

const DEFAULT_VALUE = '__profile__';

export interface StackField {
  readonly key: keyof StackDefaults;
  readonly help: Help;
  readonly choices: readonly (string | boolean)[];
  readonly labels?: Readonly<Record<string, string>>;
}

function label(field: StackField, value: unknown): string {
  const text = String(value);
  return field.labels?.[text] ?? text;
}

export function StackFieldControl({ field, framework }: { field: StackField; framework: Framework }) {
  const path: FieldPath = ['training', field.key];
  const value = usePlanner((s) => getAt(s.document, path));
  const recipe = usePlanner((s) => getAt(s.document, ['training', 'fp8Recipe']));
  const profileValue = stackFieldDefault(framework, field.key, recipe);
  const profileText = Array.isArray(profileValue) ? profileValue.join(', ') : String(profileValue);
  const shownDefault = label(field, profileText);
  const current = field.choices.find((c) => c === value);
  const options = [
    { value: DEFAULT_VALUE, label: `profile default (${shownDefault})` },
    ...field.choices.map((c) => ({ value: String(c), label: label(field, c) })),
  ];
  if (value !== undefined && current === undefined) options.push({ value: String(value), label: `${String(value)} (not valid)` });
  const write = (v: string) => (v === DEFAULT_VALUE ? undefined : field.choices.find((c) => String(c) === v));
  return (
    <FieldSelect
      path={path}
      help={field.help}
      value={value === undefined ? DEFAULT_VALUE : String(value)}
      options={options}
      write={write}
    />
  );
}

// What differs between the pinned and the current configuration, field by field:
// every leaf of the two interchange documents whose values are not equal.

import { fieldSpec } from '../../model/input/index.ts';
import { gpuName } from '../../state/catalog.ts';
import { isPlainObject, type Doc } from '../../state/doc.ts';
import { formatTokenCount } from '../format.ts';
import { HELP, type HelpKey } from '../help.ts';

export interface FieldDifference {
  /** Dotted field name, as the engine's errors write it ("parallel.tp"). */
  readonly field: string;
  /** The name people know the field by. */
  readonly label: string;
  readonly pinnedText: string;
  readonly currentText: string;
}

/** A field's name: the field table's comparison label, else as its control labels it (help.ts, keyed by the field's last segment), else the dotted name. */
function labelOf(field: string): string {
  const explicit = fieldSpec(field)?.compareLabel;
  if (explicit) return explicit;
  const key = field.slice(field.lastIndexOf('.') + 1);
  return Object.prototype.hasOwnProperty.call(HELP, key) ? HELP[key as HelpKey].label : field;
}

function leaves(value: unknown, path: string, out: Map<string, unknown>): void {
  if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) leaves(child, path ? `${path}.${key}` : key, out);
    return;
  }
  out.set(path, value);
}

/** Field values people read by name: a GPU preset's id is shown as the GPU's name ("NVIDIA H100 SXM5 80GB", not "h100-sxm"). */
const NAMED: Readonly<Record<string, (value: unknown) => string>> = {
  'cluster.gpu': gpuName,
  // "1 trillion tokens → 524 billion tokens", not "1000000000000 → 524288000000" (ux.md principle 9).
  'training.tokens': (value) => (typeof value === 'number' ? formatTokenCount(value) : JSON.stringify(value)),
};

function text(field: string, value: unknown): string {
  if (value === undefined) return '(default)';
  const named = NAMED[field];
  if (named) return named(value);
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Fields whose values differ, in the current document's order, then fields only the pinned one has. */
export function configDifferences(pinned: Doc, current: Doc): readonly FieldDifference[] {
  const a = new Map<string, unknown>();
  const b = new Map<string, unknown>();
  leaves(pinned, '', a);
  leaves(current, '', b);
  const fields = [...b.keys(), ...[...a.keys()].filter((k) => !b.has(k))];
  return fields
    .filter((field) => JSON.stringify(a.get(field)) !== JSON.stringify(b.get(field)))
    .map((field) => ({ field, label: labelOf(field), pinnedText: text(field, a.get(field)), currentText: text(field, b.get(field)) }));
}

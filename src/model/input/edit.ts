// Editing an interchange document as JSON, without mutating anything: every edit gives a
// new document. The page's store edits its configuration with these (state/doc.ts), and
// the sweep builds each value's document with the same functions, so a point the page
// applies is the very document the curve was computed for.

import type { FieldPath } from './schema.ts';

export type Doc = { readonly [key: string]: unknown };
/** Any path into a JSON object; a field of the interchange document is a FieldPath (schema.ts), which the compiler checks. */
export type JsonPath = readonly string[];

/** One interchange field set to one value (`parallel.tp` = 16 is ['parallel', 'tp'], 16). */
export interface FieldChange {
  readonly path: FieldPath;
  readonly value: number | string | boolean;
}

export function isPlainObject(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own properties only, so `__proto__` and inherited names are never read through. */
function ownValue(obj: Doc, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

export function getAt(doc: Doc, path: JsonPath): unknown {
  let node: unknown = doc;
  for (const key of path) {
    if (!isPlainObject(node)) return undefined;
    node = ownValue(node, key);
  }
  return node;
}

/** A copy of `doc` with `path` set to `value` (objects on the way are created or copied). `undefined` removes the field. */
export function setAt(doc: Doc, path: JsonPath, value: unknown): Doc {
  const [key, ...rest] = path;
  if (key === undefined) return isPlainObject(value) ? value : doc;
  const child = ownValue(doc, key);
  const next = rest.length === 0 ? value : setAt(isPlainObject(child) ? child : {}, rest, value);
  const copy: Record<string, unknown> = { ...doc };
  if (next === undefined) delete copy[key];
  else copy[key] = next;
  return copy;
}

/** The document with every change applied, in order. */
export function withFieldChanges(doc: Doc, changes: readonly FieldChange[]): Doc {
  return changes.reduce((d, change) => setAt(d, change.path, change.value), doc);
}

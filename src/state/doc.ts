// The configuration the page edits is the interchange document itself (a JSON
// object, ../shared/spec/interchange.md). These helpers read and replace one field
// of it without mutating anything, so every edit gives a new document.

export type Doc = { readonly [key: string]: unknown };
export type FieldPath = readonly string[];

export function isPlainObject(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own properties only, so `__proto__` and inherited names are never read through. */
function ownValue(obj: Doc, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

export function getAt(doc: Doc, path: FieldPath): unknown {
  let node: unknown = doc;
  for (const key of path) {
    if (!isPlainObject(node)) return undefined;
    node = ownValue(node, key);
  }
  return node;
}

/** A copy of `doc` with `path` set to `value` (objects on the way are created or copied). `undefined` removes the field. */
export function setAt(doc: Doc, path: FieldPath, value: unknown): Doc {
  const [key, ...rest] = path;
  if (key === undefined) return isPlainObject(value) ? value : doc;
  const child = ownValue(doc, key);
  const next = rest.length === 0 ? value : setAt(isPlainObject(child) ? child : {}, rest, value);
  const copy: Record<string, unknown> = { ...doc };
  if (next === undefined) delete copy[key];
  else copy[key] = next;
  return copy;
}

/** The field as a finite number, or `fallback` when it is absent or not a finite number. */
export function numberAt(doc: Doc, path: FieldPath, fallback: number): number {
  const value = getAt(doc, path);
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** The field as a positive whole number, or null. */
export function countAt(doc: Doc, path: FieldPath): number | null {
  const value = getAt(doc, path);
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : null;
}

export function stringAt(doc: Doc, path: FieldPath, fallback: string): string {
  const value = getAt(doc, path);
  return typeof value === 'string' ? value : fallback;
}

export function booleanAt(doc: Doc, path: FieldPath, fallback: boolean): boolean {
  const value = getAt(doc, path);
  return typeof value === 'boolean' ? value : fallback;
}

/** The dotted name the engine's errors use for a field (`parallel.tp`). */
export function fieldName(path: FieldPath): string {
  return path.join('.');
}

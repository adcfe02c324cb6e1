// The configuration the page edits is the interchange document itself (a JSON
// object, docs/spec/interchange.md). These helpers read and replace one field
// of it without mutating anything, so every edit gives a new document.

// The document type and the field editing live with the engine's input (model/input/edit.ts),
// so that the sweep's points and the page's edits are built by one function.
import { getAt, type Doc, type FieldPath } from '../model/input/index.ts';

export {
  getAt,
  isPlainObject,
  pathUnder,
  setAt,
  withFieldChanges,
  type Doc,
  type FieldChange,
  type FieldPath,
  type KeyOf,
} from '../model/input/index.ts';

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

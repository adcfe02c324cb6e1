import { readModelObject, type ModelConfig, type ModelRead } from '../input/index.ts';
import type { CatalogEntry } from './types.ts';

/**
 * The model as the engine reads it (every default filled, the model's own rules checked),
 * from a catalog entry id (among `entries`), a document (its `model`) or a `model` object alone.
 */
export function readModel(source: unknown, entries: readonly CatalogEntry[] = []): ModelRead {
  if (typeof source === 'string') {
    const entry = entries.find((e) => e.id === source);
    return entry ? readModelObject(entry.model) : { ok: false, errors: [`model: no catalog entry is named ${source}`], warnings: [] };
  }
  const isDocument = typeof source === 'object' && source !== null && 'model' in source && !('layers' in source);
  return readModelObject(isDocument ? (source as { model: unknown }).model : source);
}

/** readModel's model, or null when the engine rejects it. */
export function readModelOrNull(source: unknown, entries: readonly CatalogEntry[] = []): ModelConfig | null {
  const read = readModel(source, entries);
  return read.ok ? read.model : null;
}

// catalog/: the models, as data. The presets the page opens with (presets.ts), the open
// models people train (open-models.ts, loaded lazily: loadCatalog), Hugging Face Hub id
// resolution (hub-id.ts) and readModel, the engine's one way to read a model from a catalog
// id, a document or a model object. This file is the wing's face; all.ts is its second face,
// the whole catalog for what loads it in full (the importers, the command line).

import type { CatalogEntry } from './types.ts';

export { MODEL_PRESETS, findModelPreset } from './presets.ts';
export { hubModelName, resolveHubId, type HubResolution } from './hub-id.ts';
export { readModel, readModelOrNull } from './read.ts';
export type { CatalogEntry, ModelPreset } from './types.ts';

/** The whole catalog (presets first), loaded on demand: a chunk of its own on the page. */
export async function loadCatalog(): Promise<readonly CatalogEntry[]> {
  return (await import('./all.ts')).CATALOG;
}

// catalog/: the models, as data: the presets (presets.ts) and the open models people train
// (open-models.ts), Hugging Face Hub id resolution (hub-id.ts) and readModel, the engine's
// one way to read a model from a catalog id, a document or a model object. This face holds
// no data, so the page's first JavaScript carries none: it loads the catalog with
// loadCatalog (a chunk of its own). all.ts, the second face, is the whole catalog for what
// loads it in full (the importers, the command line, tests).

import type { CatalogEntry } from './types.ts';

export { expandCitation } from './citations.ts';
export { hubModelName, resolveHubId, type HubResolution } from './hub-id.ts';
export { readModel, readModelOrNull } from './read.ts';
export { denseShape, moeShape, type MoeShape, type ShapeExtras } from './shape.ts';
export type { CatalogEntry, ModelPreset } from './types.ts';

/** The whole catalog (the presets first), loaded on demand: a chunk of its own on the page. */
export async function loadCatalog(): Promise<readonly CatalogEntry[]> {
  return (await import('./all.ts')).CATALOG;
}

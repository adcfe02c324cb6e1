// The whole catalog: the presets and the open models beyond them. The wing's second face,
// for what may load it in full (the importers, the command line, tests, and the page
// lazily through loadCatalog), so the page's first JavaScript carries no model data.

import { OPEN_MODELS } from './open-models.ts';
import { MODEL_PRESETS, findModelPreset } from './presets.ts';
import { resolveHubId, type HubResolution } from './hub-id.ts';
import { readModel as readModelIn } from './read.ts';
import type { ModelRead } from '../input/index.ts';
import type { CatalogEntry } from './types.ts';

export const CATALOG: readonly CatalogEntry[] = [...MODEL_PRESETS, ...OPEN_MODELS];

/** The catalog entry with this id, or undefined. */
export function findCatalogEntry(id: string): CatalogEntry | undefined {
  return CATALOG.find((entry) => entry.id === id);
}

/** The catalog entry a Hugging Face Hub id names (instruct, chat, base and dated variants included), and the id it matched. */
export function resolveModelByHubId(hubId: string): HubResolution | null {
  return resolveHubId(hubId, CATALOG);
}

/** The model as the engine reads it, from a catalog id (any entry), a document or a model object. */
export function readCatalogModel(source: unknown): ModelRead {
  return readModelIn(source, CATALOG);
}

export { MODEL_PRESETS, findModelPreset };
export type { CatalogEntry, HubResolution };
export type { ModelPreset } from './types.ts';

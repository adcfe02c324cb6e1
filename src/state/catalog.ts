// The GPU presets, the model catalog once loaded (a chunk of its own: the page's first
// JavaScript carries no model data), and which entry (if any) a document's model or GPU is.
// The page reaches the catalog through here; the engine (model/catalog) holds the data.

import { loadCatalog as loadEngineCatalog, readModelOrNull, resolveHubId } from '../model/catalog/index.ts';
import type { CatalogEntry, HubResolution, ModelPreset } from '../model/catalog/index.ts';
import type { ModelConfig } from '../model/input/index.ts';
import {
  DEFAULT_TOKENS,
  GPU_PRESETS,
  defaultHostMemoryGBps,
  defaultUsdPerGpuHour,
  defaultHostMemoryGiB,
  findGpuPreset,
  type GpuPreset,
} from '../model/input/index.ts';

export { DEFAULT_TOKENS, GPU_PRESETS, defaultHostMemoryGBps, defaultHostMemoryGiB, defaultUsdPerGpuHour, findGpuPreset };

export type { CatalogEntry, GpuPreset, HubResolution, ModelPreset };

let loaded: readonly CatalogEntry[] | null = null;

/** Loads the whole model catalog (a chunk of its own, fetched once). */
export async function loadCatalog(): Promise<readonly CatalogEntry[]> {
  loaded ??= await loadEngineCatalog();
  return loaded;
}

const NONE: readonly CatalogEntry[] = [];

/** The catalog as far as it is loaded: every entry once loadCatalog has resolved, none before. */
export function catalogEntries(): readonly CatalogEntry[] {
  return loaded ?? NONE;
}

/** The entry with this id among those loaded, or undefined. */
export function findModelPreset(id: string): CatalogEntry | undefined {
  return catalogEntries().find((entry) => entry.id === id);
}

/** The entry a Hugging Face Hub id names (instruct, chat and dated variants included), among those loaded. */
export function resolveLoadedHubId(hubId: string): HubResolution | null {
  return resolveHubId(hubId, catalogEntries());
}

/** The model as the engine reads it (every default filled in), or null when the engine rejects it. */
export function readModel(model: unknown): ModelConfig | null {
  return readModelOrNull(model, catalogEntries());
}

const entryModels = new Map<readonly CatalogEntry[], ReadonlyMap<string, string>>();

/** The catalog entry whose model this is (same name, same dimensions once defaults are filled in), if any. */
export function matchModelPreset(model: unknown): CatalogEntry | undefined {
  const read = readModel(model);
  if (!read) return undefined;
  const entries = catalogEntries();
  let byModel = entryModels.get(entries);
  if (!byModel) {
    byModel = new Map(entries.map((p) => [JSON.stringify(readModel(p.model)), p.id]));
    entryModels.set(entries, byModel);
  }
  const id = byModel.get(JSON.stringify(read));
  return id === undefined ? undefined : findModelPreset(id);
}

/** The display name of the document's GPU (a preset's name, a custom GPU's own name). */
export function gpuName(gpu: unknown): string {
  if (typeof gpu === 'string') return findGpuPreset(gpu)?.name ?? gpu;
  if (typeof gpu === 'object' && gpu !== null && typeof (gpu as { name?: unknown }).name === 'string')
    return (gpu as { name: string }).name;
  return 'custom GPU';
}

export interface CatalogMatch {
  readonly entry: CatalogEntry;
  /** Set when the model is the entry's shape under a Hugging Face id of its own (an import): the id, and how it resolved. */
  readonly hub?: { readonly id: string; readonly resolution: HubResolution };
}

const sameShape = (a: ModelConfig | null, b: ModelConfig | null) =>
  a !== null && b !== null && JSON.stringify({ ...a, name: '' }) === JSON.stringify({ ...b, name: '' });

/** The catalog entry a document's model is: the same model, or the shape of the entry its name (a Hub id) resolves to. */
export function catalogMatch(model: unknown): CatalogMatch | undefined {
  const same = matchModelPreset(model);
  if (same) return { entry: same };
  const name = typeof model === 'object' && model !== null ? (model as { name?: unknown }).name : undefined;
  if (typeof name !== 'string') return undefined;
  const resolution = resolveLoadedHubId(name);
  if (!resolution || !sameShape(readModel(model), readModel(resolution.entry.model))) return undefined;
  return { entry: resolution.entry, hub: { id: name, resolution } };
}

export interface Found {
  readonly entry: CatalogEntry;
  readonly how: string;
}

/** The entry a typed text names: its display name or id, else a Hub id (exact, or a variant of one). */
export function findTyped(text: string, entries: readonly CatalogEntry[]): Found | null {
  const wanted = text.trim().toLowerCase();
  if (wanted === '') return null;
  const named = entries.find((e) => e.model.name.toLowerCase() === wanted || e.id === wanted);
  if (named) return { entry: named, how: 'by name' };
  const hub = resolveHubId(text, entries);
  if (!hub) return null;
  return {
    entry: hub.entry,
    how: hub.exact ? `by its Hugging Face id ${hub.matched}` : `as ${hub.matched}, the Hugging Face id of the same shape`,
  };
}

// The presets the pickers offer, and which preset (if any) a document's model or GPU
// is. The page reaches the presets through here, never through src/presets directly.

import { parseDocument } from '../model/input/index.ts';
import type { ModelConfig } from '../model/input/index.ts';
import { GPU_PRESETS, defaultHostMemoryGiB, findGpuPreset, type GpuPreset } from '../model/input/index.ts';
import { MODEL_PRESETS, findModelPreset, type ModelPreset } from '../presets/models.ts';

export { GPU_PRESETS, MODEL_PRESETS, defaultHostMemoryGiB, findGpuPreset, findModelPreset };
export type { GpuPreset, ModelPreset };

/** The model as the engine reads it (every default filled in), or null when the engine rejects it. */
export function readModel(model: unknown): ModelConfig | null {
  const parsed = parseDocument({ version: 1, model, training: { seqLen: 1, globalBatch: 1 }, cluster: { gpu: 'h100-sxm' } });
  return parsed.ok ? parsed.config.model : null;
}

let presetModels: ReadonlyMap<string, string> | undefined;

/** The preset whose model this is (same name, same dimensions once defaults are filled in), if any. */
export function matchModelPreset(model: unknown): ModelPreset | undefined {
  const read = readModel(model);
  if (!read) return undefined;
  presetModels ??= new Map(MODEL_PRESETS.map((p) => [JSON.stringify(readModel(p.model)), p.id]));
  const id = presetModels.get(JSON.stringify(read));
  return id === undefined ? undefined : findModelPreset(id);
}

/** The display name of the document's GPU (a preset's name, a custom GPU's own name). */
export function gpuName(gpu: unknown): string {
  if (typeof gpu === 'string') return findGpuPreset(gpu)?.name ?? gpu;
  if (typeof gpu === 'object' && gpu !== null && typeof (gpu as { name?: unknown }).name === 'string') return (gpu as { name: string }).name;
  return 'custom GPU';
}

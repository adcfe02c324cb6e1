// A model named by its Hugging Face Hub id, read into the import's draft: the one place every
// importer (axolotl, LLaMA-Factory, NeMo AutoModel) resolves a Hub id. Today it resolves through
// presetForHubId below (the Llama and Qwen2.5 presets); the model catalog with Hub-id
// resolution (issue 38 item 2) replaces that lookup here, and every importer follows.

import { findModelPreset } from '../../presets/models.ts';
import type { Draft } from './draft.ts';

/** Fills the draft's model from the preset a Hub id names and says which entry it used; otherwise warns that the model is the user's to give. */
export function readHubModel(d: Draft, id: string): void {
  const preset = presetForHubId(id);
  const found = preset === null ? undefined : findModelPreset(preset);
  if (found) {
    Object.assign(d.model, found.model, { name: id });
    d.warn(`model: ${id} read as the preset ${found.id} (${found.model.name})`);
  } else d.warn(`model: the recipe names ${id} on the Hugging Face Hub; give its config.json for the model`);
}

/** A Hub id's preset: "NousResearch/Meta-Llama-3-8B-Instruct" → llama3-8b, "meta-llama/Llama-3.1-70B" → llama3.1-70b. */
export function presetForHubId(id: string): string | null {
  const name = (id.split('/').pop() ?? '').toLowerCase();
  const llama = /^(?:meta-)?llama-?(\d(?:\.\d)?)-(\d+)b(?:-|$)/.exec(name);
  if (llama) {
    const preset = `llama${llama[1]}-${llama[2]}b`;
    return findModelPreset(preset) ? preset : null;
  }
  const qwen = /^qwen2\.5-(\d+)b(?:-|$)/.exec(name);
  if (qwen) return findModelPreset(`qwen2.5-${qwen[1]}b`) ? `qwen2.5-${qwen[1]}b` : null;
  return null;
}


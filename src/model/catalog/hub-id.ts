import type { CatalogEntry } from './types.ts';

// A Hugging Face Hub id to its catalog entry. Instruct, chat, base, reasoning and dated
// variants of a model share its shape (config.json), so the id is matched on its model name
// with those suffixes taken off: "Qwen/Qwen3-4B-Instruct-2507" → qwen3-4b, whatever the
// organisation ("NousResearch/Meta-Llama-3-8B-Instruct" → llama3-8b). An exact id of an
// entry wins over a name match. Versions (v0.1, v0.3, 3.1) are kept: their shapes differ.

/** Suffixes that name a variant of the same weights' shape, not another shape. */
const VARIANT_SUFFIX =
  /-(?:instruct|chat|hf|base|it|pt|sft|dpo|thinking|reasoning|fp8|fp16|bf16|fp32|int4|int8|awq|gptq|gguf|bnb-4bit|4bit|8bit|unsloth|\d{4})$/;

/** The model name of a Hub id, lower case, without its variant suffixes or a "meta-" prefix ("Meta-Llama-3-8B-Instruct" → "llama3-8b"). */
export function hubModelName(hubId: string): string {
  let name = (hubId.trim().split('/').pop() ?? '').toLowerCase().replace(/_/g, '-');
  for (let before = ''; before !== name;) {
    before = name;
    name = name.replace(VARIANT_SUFFIX, '');
  }
  return name.replace(/^meta-(?=llama)/, '').replace(/^llama-(?=\d)/, 'llama');
}

export interface HubResolution {
  readonly entry: CatalogEntry;
  /** The catalog's Hub id the given id was matched to. */
  readonly matched: string;
  /** True when the id is one the entry lists; false when matched by its name with variant suffixes taken off. */
  readonly exact: boolean;
}

/** The catalog entry a Hub id names, with the id it matched, or null when no entry has that shape. */
export function resolveHubId(hubId: string, entries: readonly CatalogEntry[]): HubResolution | null {
  const wanted = hubId.trim().toLowerCase();
  if (wanted === '') return null;
  for (const entry of entries) {
    const matched = entry.hubIds.find((id) => id.toLowerCase() === wanted);
    if (matched) return { entry, matched, exact: true };
  }
  const name = hubModelName(wanted);
  for (const entry of entries) {
    const matched = entry.hubIds.find((id) => hubModelName(id) === name);
    if (matched) return { entry, matched, exact: false };
  }
  return null;
}

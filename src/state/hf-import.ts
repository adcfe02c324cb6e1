// A Hugging Face config.json, as text someone pasted or uploaded, to the interchange
// model object (src/model/hf-config.ts does the reading).

import { importHfConfig, type ModelJson } from '../model/input/index.ts';

export type HfTextImport =
  | { readonly ok: true; readonly model: ModelJson; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly errors: readonly string[] };

/** The largest config.json accepted (real ones are a few kB). */
export const MAX_CONFIG_CHARS = 1_000_000;

export function importHfText(text: string): HfTextImport {
  if (text.trim() === '') return { ok: false, errors: ["config.json: is empty; paste the file's text or choose the file"] };
  if (text.length > MAX_CONFIG_CHARS)
    return { ok: false, errors: [`config.json: is larger than ${MAX_CONFIG_CHARS / 1e6} MB; this is not a model config`] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'parse error';
    return { ok: false, errors: [`config.json: is not valid JSON (${detail.slice(0, 120)})`] };
  }
  return importHfConfig(raw);
}

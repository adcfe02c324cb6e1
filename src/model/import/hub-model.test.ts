import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimate } from '../estimate.ts';
import { findCatalogEntry } from '../catalog/all.ts';
import { importLaunchFile } from './index.ts';

// A recipe that names its model by Hugging Face Hub id only (no config.json beside it)
// takes the catalog entry's shape (issue 38 items 1 and 2), says which entry it used, and estimates.
const fixture = (path: string) => readFileSync(new URL(`../../../scripts/fixtures/import/yaml/${path}`, import.meta.url), 'utf8');

function importedDocument(text: string, gpus: number) {
  const result = importLaunchFile(text, { gpu: 'h100-sxm', gpus });
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result;
}

describe('a recipe naming a catalog model by its Hub id', () => {
  it(
    'LLaMA-Factory train_lora/qwen3_lora_sft_ds3.yaml (Qwen/Qwen3-4B-Instruct-2507): ' +
      'the Qwen3 4B shape, named by the id, and an estimate without errors',
    () => {
      const result = importedDocument(fixture('llamafactory_qwen3_lora_sft_ds3.yaml'), 4);
      const model = (result.document as { model: Record<string, unknown> }).model;
      const entry = findCatalogEntry('qwen3-4b');
      expect(model).toEqual({ ...entry?.model, name: 'Qwen/Qwen3-4B-Instruct-2507' });
      expect(result.warnings).toContain('model: Qwen/Qwen3-4B-Instruct-2507 read as the catalog entry qwen3-4b (Qwen3 4B)');
      const output = estimate(result.document);
      expect(output.errors).toEqual([]);
      expect(output.model?.parameters).toBeGreaterThan(3.9e9);
    },
  );

  it('an unlisted variant is matched by name and the note names the id it matched', () => {
    const recipe =
      'model_name_or_path: someone/Qwen3-8B-Instruct-2507-FP8\nstage: sft\nfinetuning_type: ' +
      'lora\ncutoff_len: 4096\nper_device_train_batch_size: 1\ngradient_accumulation_steps: 8\nbf16: true\n';
    const result = importedDocument(recipe, 8);
    expect(result.warnings).toContain(
      'model: someone/Qwen3-8B-Instruct-2507-FP8 read as the catalog entry qwen3-8b (Qwen3 8B) (matched as Qwen/Qwen3-8B)',
    );
    expect(estimate(result.document).errors).toEqual([]);
  });

  it('a model the catalog does not hold asks for its config.json', () => {
    const recipe = 'model_name_or_path: someone/brand-new-model-3B\nstage: sft\nfinetuning_type: lora\ncutoff_len: 2048\n';
    const result = importLaunchFile(recipe, { gpu: 'h100-sxm', gpus: 1 });
    expect(result.warnings).toContain(
      'model: the recipe names someone/brand-new-model-3B on the Hugging Face Hub, which the catalog does not hold; give its config.json for the model',
    );
  });
});

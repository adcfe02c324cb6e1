// The validation files the uncertainty tables are computed from, and their one fingerprint.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export const VALIDATION_FILES = ['validation/published-runs.json', 'validation/finetune-runs.json'] as const;

/** sha256 over the files' bytes, in VALIDATION_FILES order. */
export function validationDataSha256(root: URL = new URL('../', import.meta.url)): string {
  const hash = createHash('sha256');
  for (const path of VALIDATION_FILES) hash.update(readFileSync(new URL(path, root)));
  return hash.digest('hex');
}

// The engine cites docs/spec/ (the interchange document and the model reference) so a reader
// of this repository finds what the code names without the sibling ../shared folder. The copy
// must say what the original says: this test fails as soon as one drifts, and names the file.
// Refresh with: cp ../shared/spec/*.md docs/spec/
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const shared = resolve(root, '../shared/spec');
const files = ['interchange.md', 'model-reference.md'];

describe('docs/spec is the shared spec, word for word', () => {
  for (const file of files) {
    it.runIf(existsSync(shared))(`docs/spec/${file} equals ../shared/spec/${file}`, () => {
      const copy = readFileSync(resolve(root, 'docs/spec', file), 'utf8');
      const original = readFileSync(resolve(shared, file), 'utf8');
      expect(copy === original, `docs/spec/${file} differs from ../shared/spec/${file}: cp ../shared/spec/*.md docs/spec/`).toBe(true);
    });
  }
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deepImports, engineLeaks, importCycles, readImports, starExports } from './check-imports.ts';

let root: string | null = null;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = null;
});

/** A throw-away repository with these files. */
function repo(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'check-imports-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('the import check', () => {
  it('finds a type-only cycle and names the files around it', () => {
    const dir = repo({
      'src/state/a.ts': "import type { B } from './b.ts';\nexport type A = B;\n",
      'src/state/b.ts': "import { a } from './c.ts';\nexport type B = typeof a;\n",
      'src/state/c.ts': "import type { A } from './a.ts';\nexport const a: A | null = null;\n",
      'src/state/d.ts': "import { a } from './c.ts';\nexport const d = a;\n",
    });
    expect(importCycles(readImports(dir))).toEqual([['src/state/a.ts', 'src/state/b.ts', 'src/state/c.ts', 'src/state/a.ts']]);
  });

  it('finds a deep import into a wing from outside it, and lets the wing import itself', () => {
    const dir = repo({
      'src/model/input/index.ts': "export { parse } from './parse.ts';\n",
      'src/model/input/parse.ts': "import { helper } from './helper.ts';\nexport const parse = helper;\n",
      'src/model/input/helper.ts': 'export const helper = 1;\n',
      'src/model/memory/memory.ts':
        "import { parse } from '../input/index.ts';\nimport { helper } from '../input/helper.ts';\nexport const m = parse + helper;\n",
      'scripts/tool.ts': "import { parse } from '../src/model/input/index.ts';\nexport const t = parse;\n",
    });
    expect(deepImports(readImports(dir)).map((e) => `${e.from}:${e.line} ${e.specifier}`)).toEqual([
      'src/model/memory/memory.ts:2 ../input/helper.ts',
    ]);
  });

  it("finds an engine file importing from outside src/model, and lets the catalog's second face be imported", () => {
    const dir = repo({
      'src/model/import/read.ts':
        "import { find } from '../catalog/all.ts';\nimport { preset } from '../../presets/models.ts';\nexport const r = find + preset;\n",
      'src/model/catalog/all.ts': 'export const find = 1;\n',
      'src/presets/models.ts': 'export const preset = 1;\n',
      'src/model/import/read.test.ts': "import { preset } from '../../presets/models.ts';\nexport const t = preset;\n",
    });
    const edges = readImports(dir);
    expect(engineLeaks(edges).map((e) => `${e.from}:${e.line} ${e.specifier}`)).toEqual([
      'src/model/import/read.ts:2 ../../presets/models.ts',
    ]);
    expect(deepImports(edges)).toEqual([]);
  });

  it("finds export * in a wing's face", () => {
    const dir = repo({
      'src/model/run/index.ts': "// run/\nexport { a } from './a.ts';\nexport * from './b.ts';\n",
      'src/model/run/a.ts': 'export const a = 1;\n',
      'src/model/run/b.ts': 'export const b = 1;\n',
    });
    expect(starExports(dir)).toEqual([{ file: 'src/model/run/index.ts', line: 3, text: "export * from './b.ts';" }]);
  });
});

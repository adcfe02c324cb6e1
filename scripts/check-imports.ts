// The house rules on imports, checked in `npm run lint` (issue 25), each failure printed
// as the file, the import and the rule it breaks:
//
// 1. No import cycles, value or type: the modules under src/ form a directed acyclic
//    graph, so each can be read (and tested) after the ones it builds on.
// 2. No deep imports across wings: code outside src/model/<wing>/ imports the wing only
//    through its face, src/model/<wing>/index.ts.
//    A wing may have one second face for what loads lazily: src/model/catalog/all.ts,
//    the whole model catalog (the page's first JavaScript carries none of it).
// 3. No `export *` in a wing's face: the face names what it offers, one export at a time,
//    so a wing's public surface is what its index.ts lists and nothing more.
// 4. The engine is sealed: a source file under src/model/ imports only files under src/model/
//    (its tests may also use the shared fixtures of src/testing/ and the page's defaults).
//
// Imports are read with TypeScript's own pre-processor (every `import`, `import type`,
// `export … from` and `import()` of a relative path); nothing is compiled.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
/** Where the rules apply: the app and engine, and what imports them from outside (scripts, end-to-end tests). */
const SCANNED = ['src', 'scripts', 'e2e'];
const MODEL = 'src/model/';

export interface ImportEdge {
  /** Both as paths from the repository root, with forward slashes. */
  readonly from: string;
  readonly to: string;
  /** The import as written. */
  readonly specifier: string;
  readonly line: number;
}

const toPosix = (path: string) => path.split(sep).join('/');

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names (written with its extension, or as a folder's index), or null for anything else. */
function resolveSpecifier(fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile() && /\.tsx?$/.test(candidate)) return candidate;
  }
  return null;
}

/** Every relative import of every scanned file. */
export function readImports(root = ROOT): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of SCANNED.flatMap((dir) => sourceFiles(join(root, dir)))) {
    const text = readFileSync(file, 'utf8');
    const info = ts.preProcessFile(text, true, true);
    for (const imported of info.importedFiles) {
      const target = resolveSpecifier(file, imported.fileName);
      if (!target) continue;
      const line = text.slice(0, imported.pos).split('\n').length;
      edges.push({ from: toPosix(relative(root, file)), to: toPosix(relative(root, target)), specifier: imported.fileName, line });
    }
  }
  return edges;
}

/** The wing a path lies in (`src/model/<wing>/…`), or null. */
export function wingOf(path: string): string | null {
  if (!path.startsWith(MODEL)) return null;
  const rest = path.slice(MODEL.length);
  const slash = rest.indexOf('/');
  return slash > 0 ? rest.slice(0, slash) : null;
}

/** The second faces: a wing's whole data, loaded lazily by the page (rule 2). */
export const SECOND_FACES: readonly string[] = [`${MODEL}catalog/all.ts`];

/** Imports from outside a wing that bypass its face. */
export function deepImports(edges: readonly ImportEdge[]): ImportEdge[] {
  return edges.filter((e) => {
    const wing = wingOf(e.to);
    return wing !== null && wingOf(e.from) !== wing && e.to !== `${MODEL}${wing}/index.ts` && !SECOND_FACES.includes(e.to);
  });
}

/** Imports from the engine's source (src/model/, tests aside) of anything outside it. */
export function engineLeaks(edges: readonly ImportEdge[]): ImportEdge[] {
  return edges.filter((e) => e.from.startsWith(MODEL) && !/\.test\.tsx?$/.test(e.from) && !e.to.startsWith(MODEL));
}

/** Each import cycle once, as the files around it (the first repeated at the end), found by Tarjan's strongly connected components. */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) components.push(component);
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  // One concrete loop through each component, for the message: the shortest way back to its first file.
  return components.map((component) => {
    const inside = new Set(component);
    const start = [...component].sort()[0] ?? '';
    const previous = new Map<string, string>();
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      const v = queue[i] ?? '';
      for (const w of next.get(v) ?? []) {
        if (!inside.has(w)) continue;
        if (w === start) {
          const path = [v];
          while (path[0] !== start) path.unshift(previous.get(path[0] ?? '') ?? start);
          return [...path, start];
        }
        if (!previous.has(w)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    return [start, start];
  });
}

/** The wings' faces that re-export a whole module (`export * from`), with the line. */
export function starExports(root = ROOT): { file: string; line: number; text: string }[] {
  const model = join(root, MODEL);
  return readdirSync(model)
    .map((name) => join(model, name, 'index.ts'))
    .filter((face) => existsSync(face))
    .flatMap((face) =>
      readFileSync(face, 'utf8')
        .split('\n')
        .flatMap((text, i) =>
          /^\s*export\s*\*/.test(text) ? [{ file: toPosix(relative(root, face)), line: i + 1, text: text.trim() }] : [],
        ),
    );
}

function main(): void {
  const edges = readImports();
  const problems: string[] = [];
  for (const cycle of importCycles(edges)) {
    problems.push(
      `import cycle: ${cycle.join(' → ')}\n  rule: no import cycles, value or type; move the shared types to a module both can import.`,
    );
  }
  for (const e of deepImports(edges)) {
    const wing = wingOf(e.to) ?? '';
    problems.push(
      `${e.from}:${e.line}: imports '${e.specifier}' (${e.to})\n  rule: code outside ` +
        `${MODEL}${wing}/ imports the wing only through ${MODEL}${wing}/index.ts; export the name there.`,
    );
  }
  for (const e of engineLeaks(edges)) {
    problems.push(
      `${e.from}:${e.line}: imports '${e.specifier}' (${e.to})\n  rule: the engine ` +
        `(${MODEL}) imports only files under ${MODEL}; move what it needs into the engine.`,
    );
  }
  for (const s of starExports()) {
    problems.push(
      `${s.file}:${s.line}: ${s.text}\n  rule: a wing's face names each export (export { a, type B } from './x.ts'), no export *.`,
    );
  }
  if (problems.length === 0) {
    console.log(
      `check-imports: ${edges.length} imports, no cycle, no deep import across wings, no import out of the engine, no export * in a wing's face.`,
    );
    return;
  }
  console.error(problems.join('\n'));
  console.error(`check-imports: ${problems.length} problem${problems.length === 1 ? '' : 's'}.`);
  process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) main();

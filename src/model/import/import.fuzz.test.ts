import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FuzzCounter, ensure, fuzzRuns, prototypeIsClean } from '../../testing/fuzz.ts';
import { parseDocument } from '../input/index.ts';
import { importLaunchFile } from './index.ts';

// Fuzzing the launch-file importer (issue 15): launch files of all three kinds, as their
// authors publish them and as `npm run launch` writes them, cut, doubled and spliced with
// the characters that break shells, TOML and JSON. The importer never throws, never hangs,
// and answers either a document whose own check does not throw, or errors in words.

const counter = new FuzzCounter('launch import');
const [runs] = fuzzRuns('launch import', process.env['FUZZ_RUNS'], [1]);
const kinds = { megatron: 0, torchtitan: 0, deepspeed: 0, nemo: 0, automodel: 0, axolotl: 0, 'llama-factory': 0, unknown: 0 };
let slowestMs = 0;

function seedsIn(folder: URL): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(sh|toml|json|yaml)$/.test(e.name) && !e.name.endsWith('.document.json'))
    .map((e) => readFileSync(`${e.parentPath}/${e.name}`, 'utf8'));
}

const seeds = [
  ...seedsIn(new URL('../export/__golden__/launch/', import.meta.url)),
  ...seedsIn(new URL('../../../scripts/fixtures/import/', import.meta.url)),
  '--num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --global-batch-size 8 --vocab-size 100',
  '[model]\nname = "llama3"\nflavor = "8B"\n[parallelism]\ntensor_parallel_degree = 2\n',
  '{"train_batch_size": 8, "train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 2, "zero_optimization": {"stage": 3}}',
];

const SPLICES = [
  '"',
  "'",
  '$',
  '${',
  '${X:-',
  '$((',
  '$(',
  '`',
  '\\\n',
  '\\',
  '[',
  '[[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '=',
  '#',
  '\n',
  ' ',
  '<<EOF\n',
  "<<'EOF'\n",
  'EOF\n',
  '--num-layers',
  '--num-layers=',
  ' -1',
  ' 0',
  ' 1e999',
  ' NaN',
  '__proto__',
  '\u0000',
  '\uFEFF',
  ',',
  'eval $run',
  'if [ 1 -gt 0 ]; then',
  'else',
  'fi',
  'A=(',
  ')',
  '+=',
  '"""',
  "'''",
  '0x',
  '[[a.b]]',
  'x.y.z = ',
  '{"a":',
  '\t',
  ';',
  '&&',
  '|',
];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ kind: fc.constant('double' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 400 }) }),
  fc.record({ kind: fc.constant('splice' as const), at: fc.nat(), text: fc.constantFrom(...SPLICES) }),
  fc.record({ kind: fc.constant('noise' as const), at: fc.nat(), text: fc.string({ maxLength: 8 }) }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(text: string, mutations: readonly Mutation[]): string {
  let out = text;
  for (const m of mutations) {
    const at = out.length === 0 ? 0 : m.at % (out.length + 1);
    if (m.kind === 'delete') out = out.slice(0, at) + out.slice(at + m.length);
    else if (m.kind === 'double') out = out.slice(0, at + m.length) + out.slice(at, at + m.length) + out.slice(at + m.length);
    else out = out.slice(0, at) + m.text + out.slice(at);
  }
  return out;
}

function check(text: string): void {
  counter.hit();
  const start = performance.now();
  const result = importLaunchFile(text, text.length % 7 === 0 ? { hfConfig: text } : {});
  slowestMs = Math.max(slowestMs, performance.now() - start);
  kinds[result.kind ?? 'unknown'] += 1;
  if (result.ok) {
    ensure(
      typeof result.document === 'object' && result.warnings.every((w) => typeof w === 'string' && w.length > 0),
      () => 'a document without words',
    );
    parseDocument(JSON.parse(JSON.stringify(result.document)));
  } else {
    ensure(
      result.errors.length > 0 && result.errors.every((e) => typeof e === 'string' && e.length > 0 && !e.includes('undefined')),
      () => `errors not in words: ${JSON.stringify(result.errors)}`,
    );
  }
}

describe('launch import fuzz: importLaunchFile() on mutated launch files', () => {
  afterAll(() => {
    console.log(
      counter.line(
        `megatron ${kinds.megatron}, torchtitan ${kinds.torchtitan}, deepspeed ${kinds.deepspeed}, nemo ` +
          `${kinds.nemo}, automodel ${kinds.automodel}, unknown ` +
          `${kinds.unknown}; slowest ${slowestMs.toFixed(0)} ms`,
      ),
    );
    expect(prototypeIsClean()).toBe(true);
  });

  it(`${seeds.length} seed files of all three kinds, mutated: no exception, every answer in words`, () => {
    expect(seeds.length).toBeGreaterThan(15);
    fc.assert(
      fc.property(fc.constantFrom(...seeds), fc.array(mutation, { minLength: 1, maxLength: 4 }), (seed, mutations) => {
        check(mutate(seed, mutations));
      }),
      { numRuns: runs },
    );
    expect(counter.count).toBeGreaterThanOrEqual(Math.min(runs, 10_000));
    for (const kind of ['megatron', 'torchtitan', 'deepspeed'] as const) expect(kinds[kind]).toBeGreaterThan(runs / 20);
  });
});

// Shared pieces of the fuzz tests (*.fuzz.test.ts, issue "Hardening"): how many
// inputs each target gets, generators of hostile JSON, and mutations of valid
// documents. Test support only: nothing in the app imports this file.

import fc from 'fast-check';

/** Inputs across the whole fuzz set when FUZZ_RUNS is not set (the issue asks for at least 100,000; the shares below add up to more). */
export const DEFAULT_FUZZ_TOTAL = 100_000;

/**
 * Each target's share of the total. An estimate costs milliseconds (tens for the
 * extreme layouts), the codec, validator, importer and slider rules tens of
 * microseconds, so most of the volume goes to the cheap targets and the whole set
 * stays well under two minutes on two cores.
 */
export const FUZZ_SHARES = {
  'url codec': 0.3,
  'document validator': 0.38,
  'hf config import': 0.25,
  'page layout rules': 0.04,
  engine: 0.03,
  // Mutated launch files (Megatron-LM scripts, torchtitan TOML, DeepSpeed JSON): 12,000 by default (issue 15 asks ≥ 10,000).
  'launch import': 0.12,
} as const;
export type FuzzTarget = keyof typeof FUZZ_SHARES;

/** `FUZZ_RUNS` (the suite's total) as a number, or the default when unset or not a positive number. */
export function fuzzTotal(envValue: string | undefined): number {
  const n = Number(envValue);
  return envValue !== undefined && Number.isFinite(n) && n >= 1 ? Math.floor(n) : DEFAULT_FUZZ_TOTAL;
}

/** This target's inputs, split over `parts` properties (weights): one numRuns per part, at least 1 each. */
export function fuzzRuns<const P extends readonly number[]>(
  target: FuzzTarget,
  envValue: string | undefined,
  parts: P,
): { readonly [K in keyof P]: number } {
  const total = Math.ceil(fuzzTotal(envValue) * FUZZ_SHARES[target]);
  const weight = parts.reduce((a, b) => a + b, 0);
  return parts.map((p) => Math.max(1, Math.ceil((total * p) / weight))) as unknown as { readonly [K in keyof P]: number };
}

/** Counts the inputs a target really received, to print once its file is done. */
export class FuzzCounter {
  readonly target: FuzzTarget;
  count = 0;
  constructor(target: FuzzTarget) {
    this.target = target;
  }
  hit(): void {
    this.count += 1;
  }
  line(extra = ''): string {
    return `[fuzz] ${this.target}: ${this.count.toLocaleString('en-US')} inputs${extra ? ` (${extra})` : ''}`;
  }
}

/** Keys that reach Object.prototype or shadow its methods when code reads objects carelessly. */
export const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'length',
  '',
];

/** Numbers at the edges: zero and negative zero, denormals, 2^53, the field cap 1e9 and one past it, overflow-prone and non-integers. */
export const EDGE_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  1.5,
  3.000000001,
  5e-324,
  -5e-324,
  1e-300,
  1e-9,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  999_999_999,
  1e9,
  1e9 + 1,
  1e12,
  1e15,
  1e18,
  1e18 + 1e3,
  1e21,
  1e300,
  -1e300,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  1_000_000,
  1_048_576,
  10_000,
  10_000_000,
  1024,
];

/** Values structured clone carries but JSON cannot: what a store field set as typed may hold. */
export const NON_JSON_VALUES: readonly unknown[] = [Number.NaN, Infinity, -Infinity, undefined];

export const edgeNumber = fc.constantFrom(...EDGE_NUMBERS);

const key = fc.oneof(
  { arbitrary: fc.constantFrom(...HOSTILE_KEYS), weight: 2 },
  { arbitrary: fc.string({ maxLength: 12 }), weight: 3 },
  {
    arbitrary: fc.constantFrom(
      'version',
      'model',
      'training',
      'parallel',
      'cluster',
      'cost',
      'calibration',
      'layers',
      'hidden',
      'gpu',
      'moe',
      'mla',
    ),
    weight: 2,
  },
);

const leaf = fc.oneof(
  { arbitrary: edgeNumber, weight: 3 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 2 },
  { arbitrary: fc.integer(), weight: 2 },
  { arbitrary: fc.string({ maxLength: 30 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 1 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      '<script>window.__xss=1</script>',
      '<img src=x onerror="window.__xss=2">',
      'h100-sxm',
      'swiglu',
      'bf16',
      '1f1b',
    ),
    weight: 1,
  },
);

/** Own-property object from entries: `__proto__` becomes a real key, as JSON.parse makes it, never the prototype. */
export function objectFromEntries(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out;
}

/** Any JSON value, hostile keys included, nesting up to `depth`. */
export function wildJson(depth = 4): fc.Arbitrary<unknown> {
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth: depth },
      leaf,
      fc.array(tie('value'), { maxLength: 5 }),
      fc.array(fc.tuple(key, tie('value')), { maxLength: 6 }).map(objectFromEntries),
    ),
  }));
  return value;
}

/** `value` inside `depth` levels of lists or objects: deep nesting. */
export function nest(value: unknown, depth: number, asList: boolean): unknown {
  let node = value;
  for (let i = 0; i < depth; i++) node = asList ? [node] : { x: node };
  return node;
}

/** A value that replaces a field: wrong types, edge numbers, long text, deep nesting, or (when `cloneable`) NaN, ±Infinity, undefined. */
export function replacement(cloneable: boolean): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: edgeNumber, weight: 12 },
    { arbitrary: wildJson(2), weight: 8 },
    { arbitrary: fc.constantFrom(201, 1e3, 1e5).map((n) => 'x'.repeat(n)), weight: 1 },
    { arbitrary: fc.tuple(fc.constantFrom(20, 200, 1000), fc.boolean()).map(([d, list]) => nest(1, d, list)), weight: 1 },
    { arbitrary: fc.constantFrom(...(cloneable ? NON_JSON_VALUES : [null])), weight: cloneable ? 6 : 2 },
  );
}

type Path = readonly (string | number)[];

/** Paths deeper than this are not offered to mutations (a document is 3 levels deep; nested junk may be thousands). */
const MAX_MUTATION_DEPTH = 8;

/** Every path to a value inside `doc` (the root included) down to MAX_MUTATION_DEPTH, in a stable order. */
export function pathsOf(doc: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (prefix.length >= MAX_MUTATION_DEPTH) return out;
  if (Array.isArray(doc)) doc.forEach((v, i) => out.push(...pathsOf(v, [...prefix, i])));
  else if (doc !== null && typeof doc === 'object') for (const [k, v] of Object.entries(doc)) out.push(...pathsOf(v, [...prefix, k]));
  return out;
}

export interface Mutation {
  readonly pathIndex: number;
  readonly op: 'replace' | 'delete' | 'add' | 'wrap';
  readonly key: string;
  readonly value: unknown;
}

export function mutation(cloneable: boolean): fc.Arbitrary<Mutation> {
  return fc.record({
    pathIndex: fc.nat(),
    op: fc.constantFrom('replace', 'replace', 'replace', 'delete', 'add', 'wrap'),
    key: key,
    value: replacement(cloneable),
  });
}

/** `doc` with the mutations applied in order: objects on each mutated path are copied, so the input is never changed. */
export function mutate(doc: unknown, mutations: readonly Mutation[]): unknown {
  let root = doc;
  for (const m of mutations) {
    const paths = pathsOf(root);
    const path = paths[m.pathIndex % paths.length] ?? [];
    root = applyAt(root, path, m);
  }
  return root;
}

function applyOne(node: unknown, m: Mutation): unknown {
  if (m.op === 'replace') return m.value;
  if (m.op === 'wrap') return [node];
  if (m.op === 'add' && node !== null && typeof node === 'object' && !Array.isArray(node)) {
    return objectFromEntries([...Object.entries(node), [m.key, m.value]]);
  }
  return m.op === 'delete' ? undefined : m.value;
}

function applyAt(node: unknown, path: Path, m: Mutation): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return applyOne(node, m);
  if (Array.isArray(node) && typeof head === 'number') {
    const copy = node.slice();
    const next = applyAt(copy[head], rest, m);
    if (next === undefined && rest.length === 0) copy.splice(head, 1);
    else copy[head] = next;
    return copy;
  }
  if (node !== null && typeof node === 'object' && typeof head === 'string') {
    const entries = Object.entries(node).flatMap(([k, v]): Array<[string, unknown]> => {
      if (k !== head) return [[k, v]];
      const next = applyAt(v, rest, m);
      return next === undefined && rest.length === 0 ? [] : [[k, next]];
    });
    return objectFromEntries(entries);
  }
  return node;
}

/** Every number anywhere inside `value`, with its path. */
export function numbersIn(value: unknown, path = '', out: Array<[string, number]> = []): Array<[string, number]> {
  if (typeof value === 'number') out.push([path, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => numbersIn(v, `${path}[${i}]`, out));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) numbersIn(v, path ? `${path}.${k}` : k, out);
  return out;
}

/** The first number in `value` that is not finite, as "path = value", or null. */
export function firstNonFinite(value: unknown): string | null {
  const bad = numbersIn(value).find(([, n]) => !Number.isFinite(n));
  return bad ? `${bad[0]} = ${bad[1]}` : null;
}

/** "field.path: message", the form of every error the engine and the importer give. */
export const FIELD_NAMED = /^[A-Za-z_$][\w$]*(\.[^\s:]+)*( [\w$]+(\/[\w$]+)*)?: \S/;

/** Object.prototype carries no property it did not have before the test (no prototype pollution). */
export function prototypeIsClean(): boolean {
  const probe: Record<string, unknown> = {};
  return (
    Object.keys(Object.prototype).length === 0 &&
    probe['x'] === undefined &&
    probe['polluted'] === undefined &&
    typeof Object.prototype.toString === 'function' &&
    typeof Object.prototype.hasOwnProperty === 'function'
  );
}

/**
 * Throws when `condition` is false. The fuzz properties check with this rather than
 * vitest's expect(), which costs tens of microseconds a call: a failure still fails
 * the property, and fast-check prints the shrunk input with this message.
 */
export function ensure(condition: boolean, message: () => string): void {
  if (!condition) throw new Error(message());
}

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { VALID_DOCUMENTS, validDocument } from '../../testing/documents.ts';
import {
  FIELD_NAMED,
  FuzzCounter,
  HOSTILE_KEYS,
  ensure,
  firstNonFinite,
  fuzzRuns,
  mutate,
  mutation,
  objectFromEntries,
  prototypeIsClean,
  wildJson,
} from '../../testing/fuzz.ts';
import { parseDocument, type ParseResult } from './document.ts';

// Fuzzing the document validator (issue "Hardening", part 1): documents as links and
// files deliver them (JSON text, parsed) and as the page's store holds them (NaN,
// Infinity, undefined), mutated from valid ones or made up. parseDocument() never
// throws; it gives a configuration whose numbers are all finite, or errors that each
// start with the field they are about, and it never lets a key reach Object.prototype.

const counter = new FuzzCounter('document validator');
const [jsonRuns, cloneRuns, wildRuns, sectionRuns] = fuzzRuns('document validator', process.env['FUZZ_RUNS'], [4, 3, 2, 1]);
let accepted = 0;

function check(raw: unknown): ParseResult {
  counter.hit();
  const result = parseDocument(raw);
  if (result.ok) {
    accepted += 1;
    const bad = firstNonFinite(result.config);
    ensure(bad === null, () => `an accepted configuration has a number that is not finite: ${bad}`);
    const { model, parallel, cluster } = result.config;
    for (const n of [model.layers, model.hidden, model.heads, parallel.tp, parallel.pp, parallel.dp, cluster.gpus]) {
      ensure(Number.isInteger(n) && n >= 1, () => `a count of the accepted configuration is ${n}`);
    }
  } else {
    ensure(result.errors.length > 0, () => 'refused without an error');
    for (const error of result.errors) ensure(FIELD_NAMED.test(error), () => `error does not name its field: ${error}`);
  }
  for (const warning of result.warnings) ensure(typeof warning === 'string', () => 'a warning is not text');
  return result;
}

describe('validator fuzz: parseDocument() on hostile documents', () => {
  afterAll(() => {
    console.log(counter.line(`${accepted.toLocaleString('en-US')} accepted`));
    expect(prototypeIsClean()).toBe(true);
  });

  it('accepts every valid starting document (the mutations below start from these)', () => {
    for (const doc of VALID_DOCUMENTS) expect(check(doc).ok).toBe(true);
  });

  it('mutated documents as JSON text delivers them (wrong types, edge numbers, missing and extra fields, deep nesting, long text)', () => {
    fc.assert(
      fc.property(validDocument, fc.array(mutation(false), { minLength: 1, maxLength: 5 }), (doc, mutations) => {
        const text = JSON.stringify(mutate(doc, mutations)) ?? 'null';
        check(JSON.parse(text));
      }),
      { numRuns: jsonRuns },
    );
  });

  it('mutated documents as structured clone delivers them (NaN, ±Infinity, undefined as well)', () => {
    fc.assert(
      fc.property(validDocument, fc.array(mutation(true), { minLength: 1, maxLength: 3 }), (doc, mutations) => {
        check(mutate(doc, mutations));
      }),
      { numRuns: cloneRuns },
    );
  });

  it('arbitrary JSON values', () => {
    fc.assert(
      fc.property(wildJson(6), (raw) => {
        check(raw);
      }),
      { numRuns: wildRuns },
    );
  });

  it('every section replaced by an object of hostile keys, parsed from text so __proto__ is a real key', () => {
    const sections = [
      'model',
      'training',
      'parallel',
      'cluster',
      'cost',
      'calibration',
      'model.moe',
      'model.mla',
      'cluster.gpu',
      'training.offload',
    ];
    const hostile = fc
      .array(fc.tuple(fc.constantFrom(...HOSTILE_KEYS), wildJson(2)), { minLength: 1, maxLength: 4 })
      .map(objectFromEntries);
    fc.assert(
      fc.property(validDocument, fc.constantFrom(...sections), hostile, fc.boolean(), (doc, section, junk, merge) => {
        const copy = JSON.parse(JSON.stringify(doc)) as Record<string, Record<string, unknown>>;
        const [outer, inner] = section.split('.') as [string, string | undefined];
        const parent = inner ? (copy[outer] ?? {}) : copy;
        const key = inner ?? outer;
        const current = parent[key];
        parent[key] = merge && current && typeof current === 'object' ? { ...current, ...junk } : junk;
        check(JSON.parse(JSON.stringify(copy)));
      }),
      { numRuns: sectionRuns },
    );
  });

  it('regression: model.layers above 100,000 is refused by name (10^6 layers kept the page worker busy for over 10 s)', () => {
    const base = VALID_DOCUMENTS[0] as { model: Record<string, unknown> };
    const refused = check({ ...base, model: { ...base.model, layers: 1_000_000 } });
    expect(refused.ok ? [] : refused.errors).toEqual(['model.layers: must be between 1 and 100000, got 1000000']);
    // 100,000 = 4 stages × 25,000 layers: still accepted.
    expect(check({ ...base, model: { ...base.model, layers: 100_000 } }).ok).toBe(true);
  });

  it('regression: a "__proto__" key from JSON text is read as an unknown field, never as the prototype', () => {
    const raw = JSON.parse(
      '{"version":1,"__proto__":{"polluted":1},"model":{"__proto__":{"layers":4},"layers":2,"hidden":64,"heads":4,"vocab":100},' +
        '"training":{"seqLen":8,"globalBatch":1},"cluster":{"gpu":"h100-sxm","__proto__":null}}',
    ) as unknown;
    const result = check(raw);
    expect(result.ok).toBe(true);
    expect(result.warnings).toContain('document.__proto__: unknown field, ignored');
    expect(result.ok && result.config.model.layers).toBe(2);
    expect(prototypeIsClean()).toBe(true);
  });
});

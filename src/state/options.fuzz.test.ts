import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { extremeDocument, validDocument } from '../testing/documents.ts';
import { EDGE_NUMBERS, FuzzCounter, ensure, fuzzRuns, mutate, mutation } from '../testing/fuzz.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { isPlainObject } from './doc.ts';
import { divisors, layoutChoices, repairLayout, scheduleChoices, withDegree, DEGREE_KEYS } from './options.ts';

// Fuzzing the page's own reading of a document (issue "Hardening", parts 1 and 5): the
// slider choices run on the main thread for whatever document a link or an edit
// brings, so they must never throw and never take long. The per-call bound here is
// loose (a loaded test machine); the e2e extreme-input test measures the 50 ms budget.

const counter = new FuzzCounter('page layout rules');
const [runs] = fuzzRuns('page layout rules', process.env['FUZZ_RUNS'], [1]);
/** Far above the 50 ms main-thread budget, so only a loop over a huge count trips it (10^15 took 2.5 s), not a busy machine's pauses. */
const SLOW_MS = 1000;
let slowestMs = 0;

function check(doc: unknown): void {
  counter.hit();
  if (!isPlainObject(doc)) return;
  const start = performance.now();
  const choices = layoutChoices(doc);
  scheduleChoices(doc);
  const repaired = repairLayout(doc);
  const moved = withDegree(doc, 'tp', 1);
  const ms = performance.now() - start;
  slowestMs = Math.max(slowestMs, ms);
  ensure(ms < SLOW_MS, () => `the slider choices took ${ms.toFixed(0)} ms`);
  ensure(isPlainObject(repaired) && isPlainObject(moved), () => 'a layout edit gave no document');
  for (const key of DEGREE_KEYS) ensure(choices[key].values.length >= 1, () => `${key} offers no value`);
}

describe('page layout rules fuzz: slider choices and layout repair on hostile documents', () => {
  afterAll(() => console.log(counter.line(`slowest ${slowestMs.toFixed(1)} ms`)));

  it('never throw and stay fast on mutated and extreme documents', () => {
    fc.assert(
      fc.property(fc.oneof(validDocument, extremeDocument), fc.array(mutation(true), { maxLength: 3 }), (doc, mutations) => {
        check(mutate(doc, mutations));
      }),
      { numRuns: runs },
    );
  });

  it('regression: a link with globalBatch or cluster.gpus of 10^15 offers no divisors instead of looping 3·10^7 times', () => {
    expect(divisors(1e15)).toEqual([]);
    expect(divisors(1e9)).toHaveLength(100); // 10^9 = 2^9 · 5^9: (9 + 1)(9 + 1) divisors
    const base = DEFAULT_DOCUMENT as { training: object; cluster: object };
    for (const huge of EDGE_NUMBERS.filter((n) => n > 1e9)) {
      check({ ...base, training: { ...base.training, globalBatch: huge } });
      check({ ...base, cluster: { ...base.cluster, gpus: huge } });
    }
  });
});

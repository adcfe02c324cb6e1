import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_MS } from '../worker/client.ts';
import { EVERY_FIELD_DOCUMENT, extremeDocument, validDocument } from '../testing/documents.ts';
import {
  FIELD_NAMED,
  FuzzCounter,
  ensure,
  firstNonFinite,
  fuzzRuns,
  mutate,
  mutation,
  prototypeIsClean,
  wildJson,
} from '../testing/fuzz.ts';
import { estimate } from './estimate.ts';
import type { EstimateOutput } from './input/index.ts';

// Fuzzing the engine's front door (issue "Hardening", part 1): whatever document
// arrives (the page's worker receives structured clones, so NaN, Infinity and
// undefined too), estimate() never throws and gives either errors that name what is
// wrong or a report whose numbers are all finite, within the worker's timeout.

const counter = new FuzzCounter('engine');
const [extremeRuns, mutatedRuns, wildRuns] = fuzzRuns('engine', process.env['FUZZ_RUNS'], [5, 8, 2]);
let slowestMs = 0;
let answered = 0;

/** The engine refuses a configuration whose figures overflow with this sentence (estimate.ts), naming the figures. */
const NOT_FINITE_REFUSAL = /^the figures \S.* cannot be computed for this configuration \(not finite\)$/;

function check(input: unknown): EstimateOutput {
  counter.hit();
  const before = JSON.stringify(input);
  const start = performance.now();
  const output = estimate(input);
  slowestMs = Math.max(slowestMs, performance.now() - start);
  ensure(JSON.stringify(input) === before, () => 'the input was changed');
  const bad = firstNonFinite(output);
  ensure(bad === null, () => `a number of the output is not finite: ${bad}`);
  if (output.errors.length > 0) {
    for (const error of output.errors)
      ensure(FIELD_NAMED.test(error) || NOT_FINITE_REFUSAL.test(error), () => `error names neither a field nor the figures: ${error}`);
    ensure(output.throughput === null, () => 'figures alongside errors');
  } else {
    answered += 1;
    ensure(output.throughput !== null && output.time !== null, () => 'no errors and no figures');
  }
  return output;
}

describe('engine fuzz: estimate() on hostile documents', () => {
  afterAll(() => {
    console.log(counter.line(`${answered.toLocaleString('en-US')} answered with figures, slowest ${slowestMs.toFixed(0)} ms`));
    expect(prototypeIsClean()).toBe(true);
  });

  it('valid layouts at the edges (1M GPUs, 10k layers, 10M-token sequences, 1,024 experts, tiny and huge hardware figures)', () => {
    fc.assert(
      fc.property(extremeDocument, (doc) => {
        check(doc);
      }),
      { numRuns: extremeRuns },
    );
  });

  it('valid documents with fields deleted, added, wrapped or replaced by wrong types, edge numbers, NaN, Infinity, long text', () => {
    fc.assert(
      fc.property(fc.oneof(validDocument, extremeDocument), fc.array(mutation(true), { minLength: 1, maxLength: 4 }), (doc, mutations) => {
        check(mutate(doc, mutations));
      }),
      { numRuns: mutatedRuns },
    );
  });

  it('arbitrary JSON values and objects with prototype-pollution keys', () => {
    fc.assert(
      fc.property(wildJson(5), (raw) => {
        check(raw);
      }),
      { numRuns: wildRuns },
    );
  });

  it("answers within the worker timeout on the issue's extreme inputs", () => {
    const big = (patch: (d: typeof EVERY_FIELD_DOCUMENT) => unknown) => patch(EVERY_FIELD_DOCUMENT);
    const cases = [
      // 1,048,576 GPUs = TP 2 × PP 4 × CP 2 × DP 65,536; 4 micro-batches per step, Megatron-LM's interleaving needs M ≥ PP (capabilities.ts).
      big((d) => ({
        ...d,
        parallel: { ...d.parallel, dp: 65_536 },
        cluster: { ...d.cluster, gpus: 1_048_576 },
        training: { ...d.training, globalBatch: 2 * 4 * 65_536 },
      })),
      big((d) => ({ ...d, model: { ...d.model, layers: 10_000 } })),
      // 10,000,000 tokens, the longest the engine reads (document.ts MAX_SEQ_LEN): divisible by 2 × CP = 4; 32 sequences over
      // DP 8 are 4 micro-batches, PP 4's interleaving minimum.
      big((d) => ({ ...d, training: { ...d.training, seqLen: 10_000_000, globalBatch: 32, microBatch: 1 } })),
      big((d) => ({ ...d, model: { ...d.model, moe: { ...d.model.moe, experts: 1024 } } })),
    ];
    for (const doc of cases) {
      const start = performance.now();
      const output = check(doc);
      expect(performance.now() - start).toBeLessThan(DEFAULT_TIMEOUT_MS);
      expect(output.errors).toEqual([]);
    }
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScript } from './run-script.ts';

// The command line of the interchange spec: `estimate FILE` prints the output JSON and
// exits 0 even for invalid documents; only unreadable or non-JSON input exits non-zero.

const VALID = {
  version: 1,
  model: { name: 'm', layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 },
  training: { seqLen: 4096, globalBatch: 64, microBatch: 1 },
  parallel: { tp: 2, pp: 2, dp: 2 },
  cluster: { gpu: 'h100-sxm', gpus: 8 },
};

type Doc = Record<string, Record<string, unknown>>;
const clone = (): Doc => JSON.parse(JSON.stringify(VALID)) as Doc;

/** One way to break a valid document, and the field its error must name. */
const breakages: Array<fc.Arbitrary<{ doc: Doc; field: string }>> = [
  // Wrong types.
  fc
    .record({
      section: fc.constantFrom('model', 'training', 'parallel'),
      value: fc.oneof(
        fc.string(),
        fc.boolean(),
        fc.constant(null).map(() => [1]),
      ),
    })
    .map(({ section, value }) => {
      const key = { model: 'layers', training: 'seqLen', parallel: 'tp' }[section] as string;
      const doc = clone();
      (doc[section] as Record<string, unknown>)[key] = value;
      return { doc, field: `${section}.${key}` };
    }),
  // Zeros and negatives.
  fc
    .record({ key: fc.constantFrom('hidden', 'heads', 'vocab', 'layers'), value: fc.integer({ min: -1000, max: 0 }) })
    .map(({ key, value }) => {
      const doc = clone();
      (doc.model as Record<string, unknown>)[key] = value;
      return { doc, field: `model.${key}` };
    }),
  // TP that does not divide the heads.
  fc.constantFrom(3, 5, 6, 7).map((tp) => {
    const doc = clone();
    doc.parallel = { tp, pp: 1, dp: 1 };
    doc.cluster = { gpu: 'h100-sxm', gpus: tp };
    return { doc, field: 'parallel.tp' };
  }),
  // Product of degrees ≠ gpus.
  fc.integer({ min: 9, max: 10_000 }).map((gpus) => {
    const doc = clone();
    doc.cluster = { gpu: 'h100-sxm', gpus };
    return { doc, field: 'cluster.gpus' };
  }),
  // Unknown enum values and unknown GPU ids.
  fc
    .string({ minLength: 1, maxLength: 12 })
    .filter((s) => !['fp32', 'fp16', 'bf16', 'fp8', 'fp4'].includes(s))
    .map((precision) => {
      const doc = clone();
      doc.training = { ...doc.training, precision };
      return { doc, field: 'training.precision' };
    }),
  fc.string({ minLength: 1, maxLength: 12 }).map((gpu) => {
    const doc = clone();
    doc.cluster = { gpu: `x-${gpu}`, gpus: 8 };
    return { doc, field: 'cluster.gpu' };
  }),
  // The software stack: an unknown framework or recipe, a module Megatron does not have,
  // more offloaded layers than a stage holds (32 layers over pp 2), a negative frequency.
  fc
    .constantFrom(
      { key: 'framework', value: 'jax' },
      { key: 'fp8Recipe', value: 'fancy' },
      { key: 'recomputeModules', value: ['attention'] },
      { key: 'activationOffloadLayers', value: 17 },
      { key: 'recomputeLayerFrequency', value: -2 },
      { key: 'loss', value: 'chunked' },
    )
    .map(({ key, value }) => {
      const doc = clone();
      doc.training = { ...doc.training, [key]: value };
      return { doc, field: `training.${key}` };
    }),
];

describe('estimate command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'estimate-'));
  const run = (args: string[], input?: string) => runScript('scripts/estimate.ts', args, input);

  it('answers 200 random invalid documents with field-named errors, exit 0 and no stack trace', () => {
    const cases = fc.sample(fc.oneof(...breakages), { numRuns: 200, seed: 20261202 });
    const file = join(dir, 'invalid.json');
    writeFileSync(file, JSON.stringify(cases.map((c) => c.doc)));
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/estimate.ts', file], {
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
    });
    const outputs = JSON.parse(stdout) as Array<{ errors: string[] }>;
    expect(outputs).toHaveLength(200);
    outputs.forEach((output, i) => {
      const field = cases[i]?.field ?? '';
      expect(output.errors.length, JSON.stringify(cases[i]?.doc)).toBeGreaterThan(0);
      expect(
        output.errors.some((e) => e.startsWith(`${field}:`)),
        `${field} in ${output.errors.join(' | ')}`,
      ).toBe(true);
    });
    expect(stdout).not.toMatch(/\n\s+at /);
  });

  it("prints a valid document's output with every figure", () => {
    const result = run(['-'], JSON.stringify(VALID));
    expect(result.status).toBe(0);
    const output = JSON.parse(result.stdout) as { errors: string[]; throughput: { stepSeconds: number } };
    expect(output.errors).toEqual([]);
    expect(output.throughput.stepSeconds).toBeGreaterThan(0);
  });

  it('exits non-zero with one line on stderr when the input is not JSON or cannot be read', () => {
    const notJson = run(['-'], '{ not json');
    expect(notJson.status).not.toBe(0);
    expect(notJson.stderr.trim().split('\n')).toHaveLength(1);
    const missing = run([join(dir, 'missing.json')]);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toMatch(/cannot read/);
  });

  it('answers --help with usage on stdout and exit 0, for estimate and search', () => {
    for (const script of ['scripts/estimate.ts', 'scripts/search.ts']) {
      const help = runScript(script, ['--help']);
      expect(help.status, script).toBe(0);
      expect(help.stdout, script).toMatch(/^usage: npm run --silent (estimate|search) -- FILE/);
      expect(help.stderr, script).toBe('');
    }
  });

  it('prints whole-number byte counts', () => {
    const output = JSON.parse(run(['-'], JSON.stringify(VALID)).stdout) as {
      memory: { perGpu: Record<string, number>; stages: Array<Record<string, number>>; capacity: number };
    };
    const bytes = [
      ...Object.values(output.memory.perGpu),
      ...output.memory.stages.flatMap((s) => Object.values(s)),
      output.memory.capacity,
    ];
    expect(bytes.length).toBeGreaterThan(12);
    for (const b of bytes) expect(Number.isInteger(b), String(b)).toBe(true);
  });

  it("prints the model summary: VALID is Llama 3 8B's shape, 8.0e9 parameters (Meta config.json)", () => {
    const output = JSON.parse(run(['-'], JSON.stringify(VALID)).stdout) as {
      model: { parameters: number; activeParameters: number; flopsPerToken: number };
    };
    // 32 layers × 218,112,000 + embedding and output 2·128256·4096 + final norm 4096 (structure/summary.test.ts).
    expect(output.model.parameters).toBe(8_030_261_248);
    expect(Math.abs(output.model.parameters / 8.0e9 - 1)).toBeLessThan(0.02);
    expect(output.model.activeParameters).toBe(output.model.parameters);
    // 6 × 7,504,658,432 (all but embedding and norms) + attention 12·32·4096·4096 at seqLen 4096 = 51,470,401,536.
    expect(output.model.flopsPerToken).toBe(51_470_401_536);
  });

  it('--summary prints the short table: model, fits, memory per stage, step, tokens/s, MFU, days, dollars', () => {
    const result = run(['-', '--summary'], JSON.stringify(VALID));
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('m');
    expect(lines[1]).toMatch(/^ {2}model\s+8\.03 B parameters · 8\.03 B active · 5\.1e10 FLOPs\/token$/);
    // VALID has pp = 2: two stages on the memory line.
    expect(result.stdout).toMatch(/memory \/ GPU\s+stage 1: [\d.]+ GiB · stage 2: [\d.]+ GiB/);
    for (const row of ['fits', 'step', 'tokens/s', 'MFU', 'days', 'dollars'])
      expect(result.stdout).toMatch(new RegExp(`^  ${row}\\s`, 'm'));
    expect(lines.length).toBeLessThan(24);
  });

  it('--summary says which token budget it used and where it came from; --tokens reads 15T as 1.5e13', () => {
    // VALID has no training.tokens: the parser's default, 1e12 (model/input/document.ts DEFAULT_TOKENS).
    const fallback = run(['-', '--summary'], JSON.stringify(VALID));
    expect(fallback.stdout).toMatch(/^ {2}tokens\s+1e12 \(1 T\) tokens, the planner's default: the document has no training.tokens/m);
    const stated = run(['-', '--summary'], JSON.stringify({ ...VALID, training: { ...VALID.training, tokens: 3e11 } }));
    expect(stated.stdout).toMatch(/^ {2}tokens\s+3e11 \(300 B\) tokens, from training.tokens in the document$/m);
    const flag = run(['-', '--summary', '--tokens', '15T'], JSON.stringify(VALID));
    expect(flag.stdout).toMatch(/^ {2}tokens\s+1.5e13 \(15 T\) tokens, from --tokens 15T$/m);
    // 15 times the default budget: 15 times the days (the step and its rate do not change).
    const days = (out: string) => Number(/^ {2}days\s+([\d,.]+)$/m.exec(out)?.[1]?.replace(/,/g, ''));
    expect(days(flag.stdout) / days(fallback.stdout)).toBeCloseTo(15, 1);
    const json = JSON.parse(run(['-', '--tokens', '1.5e13'], JSON.stringify(VALID)).stdout) as { time: { days: number } };
    expect(json.time.days).toBeCloseTo(days(flag.stdout), 0);
    const bad = run(['-', '--tokens', 'lots'], JSON.stringify(VALID));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--tokens: needs a token budget such as 15T, 300B or 1.5e13, got lots');
  });

  it('prints the figures a schedule is planned with: rates, interruptions, the end as a range and dated, on-demand beside spot', () => {
    const doc = {
      ...VALID,
      cost: { usdPerGpuHour: 3, capacity: 'spot', spotUsdPerGpuHour: 1.2, preemptionsPerNodeDay: 0.5, startDate: '2027-01-04' },
    };
    const json = JSON.parse(run(['-'], JSON.stringify(doc)).stdout) as {
      time: { tokensPerDay: number };
      cost: { usdPerMillionTokens: number };
      reliability: { expectedInterruptions: number; completion: { days: { p50: number }; endDate: { p50: string }; basis: string } };
    };
    expect(json.time.tokensPerDay).toBeGreaterThan(0);
    expect(json.cost.usdPerMillionTokens).toBeGreaterThan(0);
    expect(json.reliability.expectedInterruptions).toBeGreaterThan(0);
    expect(json.reliability.completion.endDate.p50).toMatch(/^2027-\d\d-\d\d$/);
    expect(json.reliability.completion.basis).toMatch(/1,000 simulated runs/);
    const summary = run(['-', '--summary'], JSON.stringify(doc)).stdout;
    for (const row of ['tokens/day', '\\$ / M tokens', 'interruptions', 'end, days', 'end, dollars', 'end date', 'on demand, days']) {
      expect(summary).toMatch(new RegExp(`^  ${row}\\s`, 'm'));
    }
    expect(summary).toMatch(/end, days\s+[\d.,]+ \(p10 [\d.,]+, p90 [\d.,]+\)/);
  });

  it('prints memory.host for the example offload document: 22 bytes × 405,853,388,800 parameters on one 8-GPU node against 2 TiB', () => {
    // src/model/memory/host.test.ts derives the figure; here the command line carries it.
    const result = run(['examples/llama3-405b-zero3-offload-8-h100.json']);
    const output = JSON.parse(result.stdout) as { memory: { fits: boolean; host: { perNode: number; capacity: number } } };
    expect(output.memory.host).toMatchObject({ perNode: 22 * 405_853_388_800, capacity: 2 ** 41 });
    expect(output.memory.fits).toBe(false);
    expect(run(['examples/llama3-405b-zero3-offload-8-h100.json', '--summary']).stdout).toMatch(
      /^ {2}host \/ node\s+does not fit: 8315\.6 GiB of 2048\.0 GiB CPU memory$/m,
    );
  });

  it('reports every error of a document, not only the first', () => {
    const doc = clone();
    (doc.model as Record<string, unknown>).layers = 'many';
    (doc.training as Record<string, unknown>).seqLen = -1;
    (doc.parallel as Record<string, unknown>).tp = 0;
    const output = JSON.parse(run(['-'], JSON.stringify(doc)).stdout) as { errors: unknown[] };
    const text = JSON.stringify(output.errors);
    for (const field of ['model.layers', 'training.seqLen', 'parallel.tp']) expect(text).toContain(field);
  });
});

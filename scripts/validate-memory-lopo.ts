// Leave-one-publisher-out memory block of npm run validate (issue 34). Memory has one
// fitted part: "other" (the caching allocator's reserve, calibration.ts
// ALLOCATOR_RESERVE_FRACTION = 0.10 fitted on torchtitan's Table 2 rows, and the device
// terms outside the allocator, device.ts), which the document-level
// calibration.memoryOverheadScale scales as one. For each publisher that scale is refitted
// on every other publisher's rows (the least median |error| over 0.50 … 2.50 in steps of
// 0.05) and the publisher's own rows are predicted with it. Every other memory term is a
// mechanism read from framework code and fits nothing.
import { parseDocument } from '../src/model/input/index.ts';
import { stageMemoryDetails, stageMemoryForMetric } from '../src/model/memory/index.ts';
import type { ValidationCase } from '../src/model/validation/index.ts';

const SCALES = Array.from({ length: 41 }, (_, i) => 0.5 + 0.05 * i);

/** "github pytorch/torchtitan …" → "pytorch/torchtitan"; otherwise the source's first two words. */
export function publisherOf(source: string): string {
  const words = source.split(/\s+/);
  return words[0] === 'github' ? (words[1] ?? source) : words.slice(0, 2).join(' ');
}

function withScale(input: unknown, scale: number): unknown {
  const doc = input as Record<string, unknown>;
  const calibration = (doc['calibration'] as Record<string, unknown> | undefined) ?? {};
  return { ...doc, calibration: { ...calibration, memoryOverheadScale: scale } };
}

/**
 * Each stage's measured figure at scales 0 and 1: the scale multiplies "other" only, so a stage's figure is linear in it
 * (validate.ts predictedMemoryForMetric picks the stage).
 */
function stageLines(c: ValidationCase): { readonly at0: number[]; readonly at1: number[] } | null {
  const figures = (scale: number) => {
    const parsed = parseDocument(withScale(c.input, scale));
    return parsed.ok ? stageMemoryDetails(parsed.config).map((s) => stageMemoryForMetric(s, c.expected.memoryMetric)) : null;
  };
  const at0 = figures(0);
  const at1 = figures(1);
  return at0 && at1 ? { at0, at1 } : null;
}

function predictedAt(lines: { readonly at0: number[]; readonly at1: number[] }, scale: number, measuredStage: string | null): number {
  const values = lines.at0.map((v, i) => v + scale * ((lines.at1[i] ?? v) - v));
  if (measuredStage === 'first') return values[0] ?? NaN;
  if (measuredStage === 'last') return values[values.length - 1] ?? NaN;
  return Math.max(...values);
}

interface Row {
  readonly publisher: string;
  readonly errors: readonly number[];
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length / 2;
  return s.length === 0 ? 0 : s.length % 2 === 1 ? (s[Math.floor(m)] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
const p90 = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : (s[Math.min(s.length - 1, Math.ceil(0.9 * s.length) - 1)] ?? 0);
};

export function printMemoryLeaveOnePublisherOut(cases: readonly ValidationCase[]): void {
  const rows: Row[] = cases.flatMap((c) => {
    const published = c.expected.memoryBytesPerGpu;
    if (published === null || published <= 0) return [];
    const lines = stageLines(c);
    if (!lines) return [];
    const errors = SCALES.map((s) => (predictedAt(lines, s, c.expected.measuredStage ?? null) - published) / published);
    return errors.some(Number.isNaN) ? [] : [{ publisher: publisherOf(c.source), errors }];
  });
  const at = (subset: readonly Row[], k: number) => subset.map((r) => r.errors[k] ?? 0);
  const unit = SCALES.findIndex((s) => Math.abs(s - 1) < 1e-9);
  const pct = (x: number) => `${(x * 100).toFixed(1).padStart(6)}%`;
  const line = (label: string, errors: readonly number[], note: string) => {
    const abs = errors.map(Math.abs);
    console.log(
      `${label.padEnd(52)} rows ${String(errors.length).padStart(3)}  median |error| ` +
        `${pct(median(abs))}  p90 ${pct(p90(abs))}  worst under ${pct(Math.min(0, ...errors))}  ${note}`,
    );
  };
  console.log(
    '\nMemory, leave-one-publisher-out (fitted: the scale of "other", i.e. allocator reserve 0.10 and device terms; every other term is a mechanism)',
  );
  const pooled: number[] = [];
  for (const publisher of [...new Set(rows.map((r) => r.publisher))].sort()) {
    const own = rows.filter((r) => r.publisher === publisher);
    const rest = rows.filter((r) => r.publisher !== publisher);
    let best = unit;
    for (let k = 0; k < SCALES.length; k++) if (median(at(rest, k).map(Math.abs)) < median(at(rest, best).map(Math.abs))) best = k;
    line(`  ${publisher}, in the fit`, at(own, unit), '');
    line(`  ${publisher}, held out`, at(own, best), `(scale ${(SCALES[best] ?? 1).toFixed(2)} fitted on the others)`);
    pooled.push(...at(own, best));
  }
  line('  every publisher held out, pooled', pooled, '');
}

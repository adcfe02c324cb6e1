import { describe, it, expect } from 'vitest';
import type { ValidationRow } from '../../model/validation/index.ts';
import type { CaseResult } from '../../model/validation/index.ts';
import {
  facetOptions,
  facetText,
  figureText,
  filterCases,
  groupSummaries,
  signedPercentText,
  spreadOf,
  summaries,
  NO_FILTERS,
} from './validationView.ts';

function row(id: string, figure: ValidationRow['figure'], error: number | null): ValidationRow {
  const predicted = error === null ? null : 100 * (1 + error);
  return { id, source: 's', gpu: 'g', framework: 'generic', figure, published: 100, predicted, error, errors: [], fits: true };
}

function testCase(id: string, gpu: string, precision: string, gpus: number, rows: ValidationRow[]): CaseResult {
  return {
    id,
    source: `github o/${gpu}-repo x`,
    sourceGroup: `${gpu}-repo`,
    where: '',
    reliability: 'primary',
    model: 'm',
    gpu,
    precision,
    gpus,
    rows,
  };
}

// Throughput errors +10 %, −20 %, +40 % and one not predicted; one memory error +5 %.
const CASES = [
  testCase('a', 'h100', 'bf16', 8, [row('a', 'tokensPerSecondPerGpu', 0.1), row('a', 'memoryBytesPerGpu', 0.05)]),
  testCase('b', 'h100', 'fp8', 64, [row('b', 'tokensPerSecondPerGpu', -0.2)]),
  testCase('c', 'a100', 'bf16', 1024, [row('c', 'mfu', 0.4)]),
  testCase('d', 'a100', 'bf16', 16, [row('d', 'tokensPerSecondPerGpu', null)]),
];

describe('validation view', () => {
  it('summarizes throughput and memory apart, as scripts/validate.ts does', () => {
    const s = summaries(CASES);
    // |errors| 0.1, 0.2, 0.4: median 0.2, 90th percentile 0.2 + 0.8 × (0.4 − 0.2) = 0.36; one not predicted.
    expect(s.throughput.cases).toBe(4);
    expect(s.throughput.invalid).toBe(1);
    expect(s.throughput.medianAbsError).toBeCloseTo(0.2, 12);
    expect(s.throughput.p90AbsError).toBeCloseTo(0.36, 12);
    expect(s.throughput.worstUnderPrediction).toBeCloseTo(-0.2, 12);
    expect(s.memory.cases).toBe(1);
    expect(s.memory.medianAbsError).toBeCloseTo(0.05, 12);
  });

  it('filters by every facet at once and counts the options', () => {
    expect(filterCases(CASES, NO_FILTERS)).toHaveLength(4);
    expect(filterCases(CASES, { ...NO_FILTERS, gpu: 'a100', precision: 'bf16' }).map((c) => c.id)).toEqual(['c', 'd']);
    expect(filterCases(CASES, { ...NO_FILTERS, scale: 'over 512 GPUs' }).map((c) => c.id)).toEqual(['c']);
    expect(facetOptions(CASES, 'precision')).toEqual([
      { value: 'bf16', cases: 3 },
      { value: 'fp8', cases: 1 },
    ]);
  });

  it("groups by GPU with each group's own summary", () => {
    const groups = groupSummaries(CASES, 'gpu');
    expect(groups.map((g) => [g.value, g.cases, g.throughput.cases])).toEqual([
      ['a100', 2, 2],
      ['h100', 2, 2],
    ]);
    expect(groups[1]?.throughput.medianAbsError).toBeCloseTo(0.15, 12);
  });

  it('counts the spread around the diagonal', () => {
    const spread = spreadOf(CASES.flatMap((c) => c.rows).filter((r) => r.figure !== 'memoryBytesPerGpu'));
    expect(spread).toEqual({
      predicted: 3,
      within: [
        { limit: 0.1, count: 1 },
        { limit: 0.25, count: 2 },
        { limit: 0.5, count: 3 },
      ],
      over: 2,
      under: 1,
    });
  });

  it('writes numbers as the script does', () => {
    expect(signedPercentText(-0.6553)).toBe('−65.5 %');
    expect(signedPercentText(0.1234)).toBe('+12.3 %');
    expect(signedPercentText(0)).toBe('0.0 %');
    expect(figureText(2 ** 30 * 61.25, 'memoryBytesPerGpu')).toBe('61.3 GiB');
    expect(figureText(12345.6, 'tokensPerSecondPerGpu')).toBe('12,346 tok/s');
    expect(figureText(0.413, 'mfu')).toBe('41.3 % MFU');
  });
});

describe('facet values in words', () => {
  it('names a GPU by its preset name, not its id; other facets are already words', () => {
    expect(facetText('gpu', 'h100-sxm')).toBe('NVIDIA H100 SXM5 80GB');
    expect(facetText('gpu', 'not-a-preset')).toBe('not-a-preset');
    expect(facetText('precision', 'bf16')).toBe('bf16');
  });
});

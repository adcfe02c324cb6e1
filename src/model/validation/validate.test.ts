import { describe, expect, it } from 'vitest';
import { fitVerdicts, validateCase, type ValidationCase } from './validate.ts';

// A 2-layer model on one GPU: it fits an 80 GB GPU and not a 1 GiB one.
function runOn(id: string, memoryGiB: number, memoryMetric: string | null): ValidationCase {
  return {
    id,
    source: 's',
    reliability: 'primary',
    input: {
      version: 1,
      model: { name: 'm', layers: 2, hidden: 1024, heads: 8, vocab: 32000 },
      training: { seqLen: 2048, globalBatch: 8, microBatch: 1 },
      parallel: { tp: 1, pp: 1, dp: 1 },
      cluster: { gpu: { name: 'g', memoryGiB, bf16Tflops: 100, hbmGBps: 1000, intraNodeGBps: 100, interNodeGBps: 10 } },
    },
    expected: { tokensPerSecondPerGpu: 1000, mfu: null, tflopsPerGpu: null, memoryBytesPerGpu: memoryMetric ? 1e9 : null, memoryMetric },
  };
}

describe('fitVerdicts', () => {
  it('counts each run once, leaves analytical figures out, and counts a run predicted not to fit as a false alarm', () => {
    const rows = [runOn('fits', 80, 'peak reserved'), runOn('too-small', 1, null), runOn('paper', 1, 'analytical model states')].flatMap(
      (c) => validateCase(c),
    );
    // 'fits' has a throughput row and a memory row; 'paper' is not a run.
    expect(rows.filter((r) => r.id === 'fits')).toHaveLength(2);
    expect(fitVerdicts(rows)).toEqual({ runs: 2, predictedToFit: 1, falseAlarms: 1 });
  });
});

describe('the calibration set (issue 20 floors)', () => {
  it('dense tokens/s stay within median 6 % and p90 16.5 %; MoE within median 8 %', async () => {
    const { readFileSync } = await import('node:fs');
    const { readValidationCases, summarize } = await import('./index.ts');
    const { parseDocument } = await import('../input/index.ts');
    const file = JSON.parse(readFileSync(new URL('../../../validation/published-runs.json', import.meta.url), 'utf8')) as unknown;
    const cases = readValidationCases(file);
    const moeIds = new Set(
      cases
        .filter((c) => {
          const parsed = parseDocument(c.input);
          return parsed.ok && parsed.config.model.moe !== null;
        })
        .map((c) => c.id),
    );
    const throughput = cases.flatMap((c) => validateCase(c)).filter((r) => r.figure !== 'memoryBytesPerGpu');
    const dense = summarize(throughput.filter((r) => !moeIds.has(r.id)));
    const moe = summarize(throughput.filter((r) => moeIds.has(r.id)));
    expect(dense.medianAbsError).toBeLessThanOrEqual(0.06);
    expect(dense.p90AbsError).toBeLessThanOrEqual(0.165);
    expect(moe.medianAbsError).toBeLessThanOrEqual(0.08);
  });
});

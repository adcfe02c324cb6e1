import { describe, it, expect } from 'vitest';
import { caseResult, scaleBand, sourceGroup } from './report.ts';
import type { ValidationCase } from './validate.ts';

describe('sourceGroup', () => {
  it("names the publisher's repository, paper or site", () => {
    expect(sourceGroup('github NVIDIA-NeMo/Megatron-Bridge docs/performance-summary-archive.md (HEAD)')).toBe('Megatron-Bridge');
    expect(sourceGroup('github mosaicml/llm-foundry scripts/train/benchmarking/README.md (HEAD 495218376)')).toBe('llm-foundry');
    expect(sourceGroup('arXiv 2104.04473 Table 1 (Narayanan et al. 2021), as reproduced in …')).toBe('arXiv 2104.04473');
    expect(sourceGroup('docs.nvidia.com/nemo-framework/user-guide/latest/performance/performance-summary.html')).toBe(
      'NeMo Framework docs',
    );
    expect(sourceGroup('somewhere else (note)')).toBe('somewhere');
  });
});

describe('scaleBand', () => {
  it('puts a node of 8 in the first band and 64, 512 at the top of theirs', () => {
    expect(scaleBand(8)).toBe('1–8 GPUs');
    expect(scaleBand(9)).toBe('9–64 GPUs');
    expect(scaleBand(64)).toBe('9–64 GPUs');
    expect(scaleBand(512)).toBe('65–512 GPUs');
    expect(scaleBand(513)).toBe('over 512 GPUs');
  });
});

describe('caseResult', () => {
  it("keeps the case's facets and its validation rows", () => {
    const c = {
      id: 'hand-case',
      source: 'github pytorch/torchtitan docs/performance.md',
      where: 'Table 2, row 1',
      reliability: 'primary',
      input: {
        version: 1,
        model: { name: 'Small', layers: 2, hidden: 256, heads: 4, ffnHidden: 1024, vocab: 1000 },
        training: { seqLen: 512, globalBatch: 8, microBatch: 1, precision: 'fp8' },
        parallel: { tp: 1, pp: 1, dp: 8 },
        cluster: { gpu: 'h100-sxm', gpus: 8 },
      },
      expected: { tokensPerSecondPerGpu: 1000, mfu: null, tflopsPerGpu: null, memoryBytesPerGpu: 2 ** 30, memoryMetric: null },
    } satisfies ValidationCase & { where: string };
    const r = caseResult(c);
    expect([r.id, r.sourceGroup, r.where, r.model, r.gpu, r.precision, r.gpus]).toEqual([
      'hand-case',
      'torchtitan',
      'Table 2, row 1',
      'Small',
      'h100-sxm',
      'fp8',
      8,
    ]);
    // One throughput row and one memory row, each against its published figure.
    expect(r.rows.map((row) => [row.figure, row.published])).toEqual([
      ['tokensPerSecondPerGpu', 1000],
      ['memoryBytesPerGpu', 2 ** 30],
    ]);
    expect(r.rows.every((row) => row.predicted !== null && row.error === (row.predicted - row.published) / row.published)).toBe(true);
  });
});

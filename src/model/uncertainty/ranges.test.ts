import { describe, expect, it } from 'vitest';
import { bandOf } from './band.ts';
import { chooseBand, MIN_SEGMENT_RUNS, wideningFactor } from './ranges.ts';
import { segmentChain, segmentWords } from './segments.ts';
import type { SegmentBand, SegmentTable } from './table.ts';

const band = (runs: number, lowerError: number, upperError: number, minError = lowerError, maxError = upperError): SegmentBand => ({
  runs,
  lowerError,
  upperError,
  minError,
  maxError,
  p90AbsError: Math.max(-lowerError, upperError),
});
const entry = (tokens: SegmentBand | null) => ({
  tokensPerSecond: tokens,
  memory: null,
  maxGpus: 1024,
  maxExperts: 256,
  gpuNames: [],
  precisions: ['bf16'],
});

describe('bandOf', () => {
  it('reads the 5th and 95th percentiles outward: a segment of 8 keeps its extremes, one of 21 drops one each side', () => {
    const eight = bandOf([0.3, -0.2, 0.1, 0, 0.05, -0.1, 0.2, -0.05]);
    expect(eight?.lowerError).toBe(-0.2);
    expect(eight?.upperError).toBe(0.3);
    // 21 errors −0.10 … +0.10 by 0.01: rank floor(20 · 0.05) = 1 and ceil(20 · 0.95) = 19.
    const errors = Array.from({ length: 21 }, (_, i) => (i - 10) / 100);
    const b = bandOf(errors);
    expect(b?.lowerError).toBeCloseTo(-0.09, 12);
    expect(b?.upperError).toBeCloseTo(0.09, 12);
    expect(b?.runs).toBe(21);
    expect(bandOf([])).toBeNull();
  });
});

describe('chooseBand', () => {
  const traits = { kind: 'moe', fineTune: null, generation: 'blackwell', framework: 'megatron' } as const;
  const chain = segmentChain(traits);

  it('takes the narrowest segment with 8 runs, and says so', () => {
    const table: SegmentTable = {
      dataSha256: '',
      dataCommit: '',
      lowerQuantile: 0.05,
      upperQuantile: 0.95,
      segments: { [chain[0] ?? '']: entry(band(MIN_SEGMENT_RUNS, -0.1, 0.2)), [chain[1] ?? '']: entry(band(30, -0.3, 0.4)) },
    };
    const chosen = chooseBand(chain, table, 'tokensPerSecond');
    expect(chosen?.segment).toBe(chain[0]);
    expect(chosen?.basis).toBe('MoE on Blackwell with Megatron: 8 published runs');
  });

  it("falls back to the wider segment, widened to hold the narrower one's own errors", () => {
    const table: SegmentTable = {
      dataSha256: '',
      dataCommit: '',
      lowerQuantile: 0.05,
      upperQuantile: 0.95,
      segments: { [chain[0] ?? '']: entry(band(3, -0.5, 0.1)), [chain[1] ?? '']: entry(band(23, -0.2, 0.3)) },
    };
    const chosen = chooseBand(chain, table, 'tokensPerSecond');
    expect(chosen?.segment).toBe(chain[1]);
    // Lower: min(−0.2, −0.5) = −0.5; upper: max(0.3, 0.1) = 0.3.
    expect(chosen?.lowerError).toBe(-0.5);
    expect(chosen?.upperError).toBe(0.3);
    expect(chosen?.basis).toBe(
      'MoE on Blackwell, all frameworks: 23 published runs (MoE on Blackwell with ' +
        'Megatron: only 3 published runs, fewer than 8; the range also holds their errors)',
    );
  });
});

describe('the words and the widening rule', () => {
  it('names segments in words', () => {
    expect(segmentWords('pretrain|fine-grained-moe|hopper|torchtitan')).toBe('fine-grained MoE on Hopper with torchtitan');
    expect(segmentWords('finetune|qlora|*|*')).toBe('QLoRA fine-tuning, all GPUs');
    expect(segmentWords('all')).toBe('all published runs');
  });

  it('widens 10 % per step: two doublings past the data, 1.1² = 1.21', () => {
    expect(wideningFactor(2)).toBeCloseTo(1.21, 12);
    expect(wideningFactor(0)).toBe(1);
    expect(wideningFactor(-1)).toBe(1);
  });
});

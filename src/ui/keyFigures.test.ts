import { describe, it, expect } from 'vitest';
import { keyFigures, memoryCapacityNote } from './keyFigures.ts';
import { partialOutput, sampleOutput } from './testOutputs.ts';
import { invalidOutput } from '../model/estimate.ts';

describe('keyFigures', () => {
  it('formats the sample run: stage 0 holds 20+20+30+20+2 = 92 GiB allocated, 92 × 1.1 + 1.5 = 102.7 GiB on the device, of an 80 GiB GPU', () => {
    const figures = new Map(keyFigures(sampleOutput()).map((f) => [f.id, f]));
    // One memory figure, the one the verdict judges; allocated and reserved are named as layers inside it.
    expect(figures.get('memory-total')?.text).toBe('103 GiB');
    expect(figures.get('memory-total')?.value).toBeCloseTo((92 * 1.1 + 1.5) * 2 ** 30, 0);
    expect(figures.get('memory-allocated')?.value).toBe(92 * 2 ** 30);
    expect(figures.get('memory-reserved')?.value).toBeCloseTo(92 * 1.1 * 2 ** 30, 0);
    expect(figures.has('memory-device-used')).toBe(false);
    expect(figures.get('mfu')?.text).toBe('41.3 %');
    expect(figures.get('step-time')?.text).toBe('5.21 s');
    expect(figures.get('bubble-fraction')?.text).toBe('9.6 %');
    // tflopsPerGpu 128.9 TFLOP/s is stored in FLOP/s.
    expect(figures.get('tflops-per-gpu')?.value).toBeCloseTo(128.9e12, 0);
    expect(figures.get('tflops-per-gpu')?.text).toBe('129 TFLOP/s');
    expect(memoryCapacityNote(sampleOutput())).toEqual({
      capacityText: 'of 80 GiB',
      oomText: 'Out of memory: needs 103 GiB per GPU (of which 101 GiB reserved by the allocator, 92 GiB allocated), the GPU has 80 GiB',
    });
  });

  it('MFU names the peak it divides by, and shows the BF16-peak figure beside it (issue 36)', () => {
    const base = sampleOutput();
    const t = base.throughput;
    if (!t) throw new Error('sample has a throughput');
    const output = { ...base, throughput: { ...t, mfu: 0.41, mfuPeak: { precision: 'fp8' as const, tflopsPerGpu: 1979 }, mfuBf16: 0.82 } };
    const figures = new Map(keyFigures(output).map((f) => [f.id, f]));
    expect(figures.get('mfu')?.label).toBe('MFU of FP8 peak');
    expect(figures.get('mfu')?.explanation).toContain('FP8 peak (1,979 TFLOP/s)');
    expect(figures.get('mfu-bf16')?.text).toBe('82 %');
    expect(figures.get('mfu-bf16')?.headline).toBe(false);
  });

  it('a BF16 run shows its MFU once: "MFU of BF16 peak", no second BF16-peak row', () => {
    const base = sampleOutput();
    const t = base.throughput;
    if (!t) throw new Error('sample has a throughput');
    const output = { ...base, throughput: { ...t, mfu: 0.41, mfuPeak: { precision: 'bf16' as const, tflopsPerGpu: 989 }, mfuBf16: 0.41 } };
    const labels = keyFigures(output)
      .map((f) => f.label)
      .filter((label) => label.startsWith('MFU'));
    expect(labels).toEqual(['MFU of BF16 peak']);
  });

  it('gives every figure a label and an explanation, and ids unique', () => {
    const figures = keyFigures(sampleOutput());
    expect(new Set(figures.map((f) => f.id)).size).toBe(figures.length);
    for (const f of figures) {
      expect(f.label.length).toBeGreaterThan(0);
      expect(f.explanation.length).toBeGreaterThan(10);
      expect(f.unavailableReason).toBeNull();
    }
  });

  it('shows a dash and the reason when the time model has not run', () => {
    const figures = new Map(keyFigures(partialOutput()).map((f) => [f.id, f]));
    expect(figures.get('memory-total')?.text).toBe('63.1 GiB');
    for (const id of ['mfu', 'step-time', 'bubble-fraction']) {
      expect(figures.get(id)?.text).toBe('—');
      expect(figures.get(id)?.unavailableReason).toBe('time model not computed');
    }
    expect(figures.get('training-days')?.unavailableReason).toBe('training time not computed');
    expect(figures.get('goodput')?.unavailableReason).toBe('reliability model not computed');
  });

  it('shows nothing as meaningful for an invalid document', () => {
    const figures = keyFigures(invalidOutput(['parallel.tp: 3 does not divide model.heads=32'], []));
    for (const f of figures) {
      expect(f.text).toBe('—');
      expect(f.unavailableReason).toBe('the configuration is invalid');
    }
  });

  it('hides a non-finite value behind the dash', () => {
    const base = sampleOutput();
    const throughput = base.throughput;
    if (!throughput) throw new Error('sample has throughput');
    const output = { ...base, throughput: { ...throughput, mfu: Number.NaN } };
    const mfu = keyFigures(output).find((f) => f.id === 'mfu');
    expect(mfu?.text).toBe('—');
    expect(mfu?.value).toBeNull();
  });
});

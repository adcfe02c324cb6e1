import { describe, expect, it } from 'vitest';
import { crossEntropyPeakBytesPerLogit } from './cross-entropy-copies.ts';
import { stageMemoryDetails } from './stages.ts';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { llama3_8bMegatronTp8 } from '../../testing/documents.ts';

// Megatron-Core's vocab-parallel cross-entropy by release (cross-entropy-copies.ts), on
// Llama 3 8B (vocab 128,256) at TP 8 with sequence parallelism, PP 1, sequence 8192,
// micro-batch 1, no recompute: the logits on one GPU are 8192 tokens × 128,256 / 8 =
// 8192 × 16,032 = 131,334,144.
const LOGITS_PER_GPU = 8192 * (128_256 / 8);

function config(training: Record<string, unknown> = {}): RunConfig {
  const parsed = parseDocument(llama3_8bMegatronTp8(training));
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}
const activations = (training: Record<string, unknown> = {}) => stageMemoryDetails(config(training))[0]?.breakdown.activations ?? NaN;

describe('bytes per logit at the loss, by Megatron-Core release', () => {
  it('core_v0.6.0 and core_v0.7.0: 16-bit logits 2 + fp32 copy 4 + out-of-place shift 4 = 10', () => {
    // language_module.py@core_v0.6.0 `logits.float()`; cross_entropy.py@core_v0.6.0 `vocab_parallel_logits - logits_max`.
    expect(crossEntropyPeakBytesPerLogit('core_v0.6.0', 2)).toBe(10);
    expect(crossEntropyPeakBytesPerLogit('core_r0.7.0', 2)).toBe(10);
  });
  it('core_v0.8.0 onwards: the shift in place, 2 + 4 = 6 forward, fp32 gradient 4 + its bf16 cast 2 = 6 backward', () => {
    for (const release of ['core_v0.8.0', '0.12.0', 'core_v0.14.0', 'core_v0.19.0rc1'])
      expect(crossEntropyPeakBytesPerLogit(release, 2)).toBe(6);
  });
  it('fp32 logits have no upcast copy: 4 + 4 before core_v0.8.0, 4 after', () => {
    expect(crossEntropyPeakBytesPerLogit('core_v0.6.0', 4)).toBe(8);
    expect(crossEntropyPeakBytesPerLogit('core_v0.8.0', 4)).toBe(4);
  });
  it('no release, or text that is not one: null (the engine as it was)', () => {
    expect(crossEntropyPeakBytesPerLogit(null, 2)).toBeNull();
    expect(crossEntropyPeakBytesPerLogit('latest', 2)).toBeNull();
  });
});

describe('the loss copies in the output stage activations (Llama 3 8B TP8, s 8192, mb 1)', () => {
  const base = activations();
  it('core_v0.6.0: +6 bytes per logit beyond the saved fp32 softmax: 6 × 8192 × 128,256 / 8 = 788,004,864 bytes', () => {
    expect(LOGITS_PER_GPU).toBe(131_334_144);
    expect(activations({ frameworkRelease: 'core_v0.6.0' }) - base).toBeCloseTo(6 * LOGITS_PER_GPU, 0);
    expect(6 * LOGITS_PER_GPU).toBe(788_004_864);
  });
  it('core_v0.14.0: +2 bytes per logit, 262,668,288 bytes', () => {
    expect(activations({ frameworkRelease: 'core_v0.14.0' }) - base).toBeCloseTo(262_668_288, 0);
  });
  it('the eager loss already counts more at the loss (4 fp32 copies at TP > 1, 16 bytes ≥ 6): unchanged', () => {
    expect(activations({ loss: 'eager', frameworkRelease: 'core_v0.6.0' })).toBe(activations({ loss: 'eager' }));
  });
  it('under full recompute only what exceeds one layer’s recompute working set is added', () => {
    // The loss and a layer's recompute do not overlap in time (activations.ts peakActivationBytes): the larger counts.
    const full = activations({ recompute: 'full' });
    const added = activations({ recompute: 'full', frameworkRelease: 'core_v0.6.0' }) - full;
    expect(added).toBeGreaterThan(0);
    expect(added).toBeLessThanOrEqual(6 * LOGITS_PER_GPU);
  });
  it('no stated release: the figures are the engine’s own (absent = null)', () => {
    expect(activations({ frameworkRelease: null })).toBe(base);
  });
});

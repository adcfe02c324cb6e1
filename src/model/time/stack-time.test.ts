import { describe, expect, it } from 'vitest';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { estimateConfig } from '../estimate.ts';
import { attentionKernelFactor } from './stack-time.ts';

function config(gpu: string, training: Record<string, unknown>): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: { layers: 4, hidden: 1024, heads: 8, vocab: 32000 },
    training: { seqLen: 8192, globalBatch: 8, microBatch: 1, ...training },
    parallel: { dp: 8 },
    cluster: { gpu },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('attention kernel in the time model', () => {
  it('generic ("auto") keeps the fitted rate; on Hopper FlashAttention-2 runs at 0.6 and cuDNN at 1.15 of it (ratio 0.52, arXiv 2407.08608 fig. 5)', () => {
    expect(attentionKernelFactor(config('h100-sxm', {}))).toBe(1);
    expect(attentionKernelFactor(config('h100-sxm', { attentionKernel: 'flash2' }))).toBe(0.6);
    expect(attentionKernelFactor(config('h100-sxm', { framework: 'megatron' }))).toBe(1.15);
    expect(0.6 / 1.15).toBeCloseTo(0.52, 2);
  });
  it('off Hopper every kernel counts as auto', () => {
    expect(attentionKernelFactor(config('a100-80gb', { attentionKernel: 'flash2' }))).toBe(1);
  });
  it('a slower kernel makes the step slower', () => {
    const fast = estimateConfig(config('h100-sxm', { attentionKernel: 'cudnn' })).throughput?.stepSeconds ?? 0;
    const slow = estimateConfig(config('h100-sxm', { attentionKernel: 'flash2' })).throughput?.stepSeconds ?? 0;
    expect(slow).toBeGreaterThan(fast);
  });
});

describe('overlap flags', () => {
  it('no gradient-reduce overlap exposes the whole data-parallel sync; no prefetch exposes the ZeRO-3 gathers', () => {
    const overlapped = estimateConfig(config('h100-sxm', {})).throughput;
    const exposed = estimateConfig(config('h100-sxm', { overlap: { tpComm: false, dpGrad: false, dpParam: true } })).throughput;
    expect(exposed?.breakdown.dp ?? 0).toBeGreaterThan(overlapped?.breakdown.dp ?? 0);
    expect(exposed?.stepSeconds ?? 0).toBeGreaterThan(overlapped?.stepSeconds ?? 0);
  });
});

describe('fp8 recipe', () => {
  it('torchao rowwise scaling is slower than tensorwise; Transformer Engine recipes keep the fitted cast passes', () => {
    const step = (training: Record<string, unknown>) =>
      estimateConfig(config('h100-sxm', { precision: 'fp8', ...training })).throughput?.stepSeconds ?? 0;
    expect(step({ framework: 'torchtitan', fp8Recipe: 'rowwise' })).toBeGreaterThan(
      step({ framework: 'torchtitan', fp8Recipe: 'tensorwise' }),
    );
    // 16-bit weights on both sides: fp8ParamGather (Megatron's tensorwise default) moves fp8 weights in the data-parallel gather (comm.ts).
    expect(step({ framework: 'megatron', fp8Recipe: 'tensorwise', fp8ParamGather: false, attentionKernel: 'auto' })).toBe(
      step({ attentionKernel: 'auto' }),
    );
  });
});

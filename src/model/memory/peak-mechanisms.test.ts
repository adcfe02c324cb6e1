import { describe, expect, it } from 'vitest';
import { activationBytesPerLayer, engineActivationSettings, stageActivationBytes } from './activations.ts';
import { lossBackwardFp32LogitCopies, sixteenBitCompiledLoss } from './loss.ts';
import { gradientBytesAtPeak, gradientsFreedAtActivationPeak, modelStateBytes } from './memory.ts';
import { stageMemoryDetails } from './stages.ts';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { VOCAB_PARALLEL_LOSS_EXTRA_FP32_LOGIT_COPIES } from '../calibration.ts';
import { pipelineLayout, stageGpuParameters } from '../structure/index.ts';

// Issue 34: what the frameworks hold at the activation peak, each value worked out by hand.

/** Llama 3 8B under torchtitan's FSDP2 on 8 GPUs, seq 8192, local batch 1, per-op selective AC. */
function titan(training: Record<string, unknown> = {}, framework = 'torchtitan'): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: { layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256, tiedEmbeddings: false },
    training: {
      seqLen: 8192,
      globalBatch: 8,
      microBatch: 1,
      precision: 'bf16',
      optimizer: 'adam',
      masterWeights: true,
      gradDtype: 'fp32',
      recompute: 'selective',
      flashAttention: true,
      framework,
      ...training,
    },
    parallel: { tp: 1, pp: 1, dp: 8, zero: 3 },
    cluster: { gpu: 'h100-sxm', gpus: 8 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('gradients at the activation peak', () => {
  it('the peak holds max(activations, gradients): gradients count only beyond the activations when freed', () => {
    expect(gradientBytesAtPeak(4, 20, true)).toBe(0);
    expect(gradientBytesAtPeak(30, 20, true)).toBe(10);
    expect(gradientBytesAtPeak(4, 20, false)).toBe(4);
  });

  it('torchtitan with one micro-batch per step frees them; with accumulation, or under Megatron, they stay', () => {
    expect(gradientsFreedAtActivationPeak(titan())).toBe(true);
    // globalBatch 16 = 2 micro-batches × dp 8: the second forward runs over the first one's gradients.
    expect(gradientsFreedAtActivationPeak(titan({ globalBatch: 16 }))).toBe(false);
    expect(gradientsFreedAtActivationPeak(titan({}, 'megatron'))).toBe(false);
    expect(gradientsFreedAtActivationPeak(titan({}, 'deepspeed'))).toBe(false);
  });

  it('the Llama 3 8B stage holds no gradient at its peak: 4 · 8.03e9 / 8 ≈ 4.0 GB of fp32 shards against ~20 GB of activations', () => {
    const c = titan();
    const [stage] = stageMemoryDetails(c);
    const held = modelStateBytes(c, stageGpuParameters(c.model, c.parallel)[0] ?? { dense: 0, expert: 0 });
    expect(held.gradients / 1e9).toBeCloseTo(4.015, 2);
    expect(stage?.breakdown.gradients).toBe(0);
    expect(stage?.breakdown.total).toBeCloseTo(
      held.parameters + held.optimizer + (stage?.breakdown.activations ?? 0) + (stage?.breakdown.other ?? 0),
      0,
    );
    // Megatron's persistent buffer: all of them.
    const m = titan({}, 'megatron');
    expect(stageMemoryDetails(m)[0]?.breakdown.gradients).toBe(
      modelStateBytes(m, stageGpuParameters(m.model, m.parallel)[0] ?? { dense: 0, expert: 0 }).gradients,
    );
  });
});

describe('torchtitan compiles its loss with the model', () => {
  it('an unstated loss follows training.compile under torchtitan; a stated one wins; other frameworks keep their default', () => {
    expect(titan({ compile: true }).stack.loss).toBe('compiled');
    expect(titan({ compile: false }).stack.loss).toBe('eager');
    expect(titan({ compile: true, loss: 'eager' }).stack.loss).toBe('eager');
    expect(titan({ compile: true }, 'fsdp').stack.loss).toBe('eager');
  });

  it('the compiled loss keeps the bf16 logits and writes one bf16 gradient: 2 × (2 · 128,256 · 8,192) bytes over the eager 3 × (4 · 128,256 · 8,192)', () => {
    const logits = 128256 * 8192;
    const eager = titan({ compile: true, loss: 'eager' });
    const compiled = titan({ compile: true });
    const [stage] = pipelineLayout(compiled.model, compiled.parallel);
    if (!stage) throw new Error('no stage');
    // Same layers (op-level policy), so the difference is the output's logits and the loss's backward buffers.
    const layers = activationBytesPerLayer(compiled.model, 0, engineActivationSettings(compiled));
    expect(layers).toBe(activationBytesPerLayer(eager.model, 0, engineActivationSettings(eager)));
    const difference = stageActivationBytes(eager, stage) - stageActivationBytes(compiled, stage);
    expect(difference).toBe((4 + 2 * 4) * logits - (2 + 2) * logits);
  });

  it('Hugging Face models keep the fp32 accounting of a compiled loss; a vocabulary split over TP keeps its fp32 extras', () => {
    expect(sixteenBitCompiledLoss('compiled', 'transformers')).toBe(false);
    expect(sixteenBitCompiledLoss('compiled', undefined)).toBe(true);
    expect(sixteenBitCompiledLoss('eager', undefined)).toBe(false);
    expect(lossBackwardFp32LogitCopies('compiled', 1, true)).toBe(0);
    expect(lossBackwardFp32LogitCopies('compiled', 1, false)).toBe(1);
    expect(lossBackwardFp32LogitCopies('compiled', 2, true)).toBe(VOCAB_PARALLEL_LOSS_EXTRA_FP32_LOGIT_COPIES);
  });
});

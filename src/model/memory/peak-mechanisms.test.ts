import { describe, expect, it } from 'vitest';
import { activationBytesPerLayer, engineActivationSettings, lossReserveBytes, stageActivationBytes } from './activations.ts';
import { eagerLossLogitsHoleBytes, lossBackwardFp32LogitCopies, sixteenBitCompiledLoss } from './loss.ts';
import { gradientBytesAtPeak, gradientsFreedAtActivationPeak, modelStateBytes } from './memory.ts';
import { stageMemoryDetails } from './stages.ts';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { ALLOCATOR_RESERVE_FRACTION, VOCAB_PARALLEL_LOSS_EXTRA_FP32_LOGIT_COPIES } from '../calibration.ts';
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

describe('the eager loss leaves its 16-bit logits as a hole the fp32 backward cannot reuse', () => {
  // Llama 3 8B, 8,192 tokens, vocabulary 128,256: L = 2 · 128,256 · 8,192 = 2,101,346,304 bytes of
  // bf16 logits. Forward: logits (L), fp32 copy (2L), saved log-probabilities (2L); logits and
  // copy freed; backward's two fp32 gradients (2L each): one reuses 2L of the hole, the other a
  // new block. Reserved 7L against an allocated peak of 6L: one L more.
  const hole = 2 * 128256 * 8192;

  it('reserves one 16-bit logits tensor beyond the allocated peak on the output stage, only for a whole eager loss outside Hugging Face code', () => {
    const c = titan({ loss: 'eager' });
    const [stage] = pipelineLayout(c.model, c.parallel);
    if (!stage) throw new Error('no stage');
    expect(lossReserveBytes(c, stage)).toBe(hole);
    expect(lossReserveBytes(titan({ compile: true }), stage)).toBe(0);
    // torchtitan's fused loss is chunked (8 pieces): no fp32 copy of the whole logits.
    expect(lossReserveBytes(titan({ loss: 'fused' }), stage)).toBe(0);
    expect(eagerLossLogitsHoleBytes('eager', 1, 'transformers', 2)).toBe(0);
    expect(eagerLossLogitsHoleBytes('eager', 1, undefined, 2)).toBe(2);
    expect(eagerLossLogitsHoleBytes('eager', 8, undefined, 2)).toBe(0);
  });

  it('is reserve, not allocated: the allocated peak is unchanged and the reserve grows by the hole', () => {
    const c = titan({ loss: 'eager' });
    const [s] = stageMemoryDetails(c);
    if (!s) throw new Error('no stage');
    expect(c.calibration.memoryOverheadScale).toBe(1);
    expect(s.other.allocatorReserve - ALLOCATOR_RESERVE_FRACTION * s.breakdown.total).toBeCloseTo(hole, -2);
    expect(s.reserved - s.breakdown.total).toBeCloseTo(s.other.allocatorReserve, -2);
  });
});

describe('experts read their input gathered over expert tensor parallelism', () => {
  /** Mixtral 8x7B layer under Megatron, TP 8, EP 1, seq 4096, one sequence, nothing recomputed. */
  function mixtral(etp: number | null): RunConfig {
    const parsed = parseDocument({
      version: 1,
      model: {
        layers: 32,
        hidden: 4096,
        heads: 32,
        kvHeads: 8,
        ffnHidden: 14336,
        ffnType: 'swiglu',
        vocab: 32768,
        tiedEmbeddings: false,
        moe: { experts: 8, topK: 2, expertFfnHidden: 14336, sharedExperts: 0, denseLayers: 0 },
      },
      training: {
        seqLen: 4096,
        globalBatch: 2,
        microBatch: 1,
        precision: 'bf16',
        optimizer: 'adam',
        masterWeights: true,
        gradDtype: 'fp32',
        recompute: 'none',
        flashAttention: true,
        framework: 'megatron',
      },
      parallel: { tp: 8, pp: 1, dp: 2, ep: 1, etp, sequenceParallel: true, zero: 1 },
      cluster: { gpu: 'h100-sxm', gpus: 16 },
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    return parsed.config;
  }

  it(
    'etp 8 (the default when ep divides dp) keeps all 4,096 · 2 routed copies ' +
      'of 4,096 bf16 values, etp 1 an eighth: 7/8 · 67,108,864 bytes more per layer',
    () => {
      const gathered = mixtral(null);
      const whole = mixtral(1);
      expect(engineActivationSettings(gathered).expertTp).toBe(8);
      expect(engineActivationSettings(whole).expertTp).toBeUndefined();
      const perLayer = (c: RunConfig) => activationBytesPerLayer(c.model, 0, engineActivationSettings(c));
      expect(perLayer(gathered) - perLayer(whole)).toBe((7 / 8) * (2 * 4096 * 2 * 4096));
    },
  );
});

import { describe, expect, it } from 'vitest';
import {
  activationBytesPerLayer,
  microBatchesInFlight,
  recomputeWorkingSetBytes,
  stageActivationBytes,
  type ActivationSettings,
} from './activations.ts';
import { LOSS_BACKWARD_FP32_LOGIT_COPIES } from '../calibration.ts';
import { parseDocument } from '../input/index.ts';
import { pipelineLayout } from '../structure/index.ts';
import type { ModelConfig, RunConfig } from '../input/index.ts';

function model(o: Partial<ModelConfig>): ModelConfig {
  return {
    name: 'test',
    layers: 4,
    hidden: 64,
    heads: 4,
    kvHeads: 4,
    headDim: 16,
    ffnHidden: 256,
    ffnType: 'gelu',
    vocab: 1000,
    tiedEmbeddings: false,
    moe: null,
    mla: null,
    mtpLayers: 0,
    ...o,
  };
}

// GPT-3 175B as in Korthikanti et al. 2022 (arXiv 2205.05198), section 4: s = 2048, b = 1, h = 12288, a = 96, t = 8,
// 16-bit activations, dropout on, no flash attention (the paper predates it).
const gpt3 = model({ layers: 96, hidden: 12288, heads: 96, kvHeads: 96, headDim: 128, ffnHidden: 4 * 12288, vocab: 51200 });
const korthikanti: ActivationSettings = {
  seqLen: 2048,
  microBatch: 1,
  tp: 1,
  sequenceParallel: false,
  cp: 1,
  recompute: 'none',
  selectiveScope: 'attention',
  flashAttention: false,
  dropout: true,
  elementBytes: 2,
};

describe('Korthikanti et al. 2022, section 4: GPT-3 175B bytes per layer, to the byte', () => {
  // sbh = 2048 · 12288 = 25,165,824; 5as²b = 5 · 96 · 2048² = 2,013,265,920.
  it('no parallelism: sbh(34 + 5as/h)', () => {
    // 25,165,824 · 34 + 2,013,265,920 = 2,868,903,936.
    expect(activationBytesPerLayer(gpt3, 0, korthikanti)).toBe(2_868_903_936);
  });

  it('tensor parallel: sbh(10 + 24/t + 5as/(ht))', () => {
    // 25,165,824 · (10 + 3) + 2,013,265,920 / 8 = 327,155,712 + 251,658,240 = 578,813,952.
    expect(activationBytesPerLayer(gpt3, 0, { ...korthikanti, tp: 8 })).toBe(578_813_952);
  });

  it('tensor + sequence parallel: sbh/t · (34 + 5as/h)', () => {
    // 2,868,903,936 / 8 = 358,612,992.
    expect(activationBytesPerLayer(gpt3, 0, { ...korthikanti, tp: 8, sequenceParallel: true })).toBe(358_612_992);
  });

  it('tensor + sequence parallel + selective recompute: sbh · 34/t', () => {
    // 25,165,824 · 34 / 8 = 106,954,752.
    expect(activationBytesPerLayer(gpt3, 0, { ...korthikanti, tp: 8, sequenceParallel: true, recompute: 'selective' })).toBe(106_954_752);
  });

  it('full recompute: 2sbh, or 2sbh/t with sequence parallelism', () => {
    expect(activationBytesPerLayer(gpt3, 0, { ...korthikanti, tp: 8, recompute: 'full' })).toBe(50_331_648);
    expect(activationBytesPerLayer(gpt3, 0, { ...korthikanti, tp: 8, sequenceParallel: true, recompute: 'full' })).toBe(6_291_456);
  });
});

describe('the inventory beyond GPT-3', () => {
  const small: ActivationSettings = { ...korthikanti, seqLen: 128, dropout: false, flashAttention: true };
  // Tiny model h = 64, a = 4, d = 16, f = 256, s = 128, b = 1, 2-byte elements.

  it('flash attention, no dropout: 32h + 4a bytes per token (the two h-sized masks and every s² tensor go, the fp32 log-sum-exp comes)', () => {
    // 34h − 2 masks (1h each) = 32h = 2048; log-sum-exp 4 bytes · 4 heads = 16 → 2064 · 128 tokens.
    expect(activationBytesPerLayer(model({}), 0, small)).toBe(2064 * 128);
  });

  it('grouped-query attention keeps smaller K and V', () => {
    // kvHeads 1: K and V shrink from 2·64 to 2·16 bytes each per token → 2064 − 2·96 = 1872.
    expect(activationBytesPerLayer(model({ kvHeads: 1 }), 0, small)).toBe(1872 * 128);
  });

  it('SwiGLU keeps three f-sized tensors instead of two', () => {
    // One more 2f = 512 bytes per token.
    expect(activationBytesPerLayer(model({ ffnType: 'swiglu' }), 0, small)).toBe((2064 + 512) * 128);
  });

  it('MoE keeps every routed copy: topK dispatched inputs and expert internals, plus router scores', () => {
    const moe = model({ moe: { experts: 8, topK: 2, expertFfnHidden: 32, sharedExperts: 0, denseLayers: 0 } });
    // Dense MLP part (2f + 2f = 1024) replaced by: router 4·8 = 32, dispatched 2·64·2 = 256,
    // GELU internals 2 · (2·32·2) = 256 → 2064 − 1024 + 544 = 1584.
    expect(activationBytesPerLayer(moe, 0, small)).toBe(1584 * 128);
  });

  it('MLA keeps its latent tensors and per-head K, V', () => {
    const mla = model({ mla: { qLoraRank: 32, kvLoraRank: 16, qkNopeHeadDim: 16, qkRopeHeadDim: 8, vHeadDim: 16 } });
    // Attention: input 128, q latent 2·32·2 = 128, kv latent 2·24 + 2·16 = 80, Q and K 2·(4+4)·24 = 384,
    // LSE 16, V 128, projection input 128; norms 256; MLP 128 + 1024 → 2400.
    expect(activationBytesPerLayer(mla, 0, small)).toBe(2400 * 128);
  });

  it('context parallelism divides the tokens', () => {
    expect(activationBytesPerLayer(model({}), 0, { ...small, cp: 2 })).toBe(2064 * 64);
  });

  it('selective recompute with the element-wise scope drops norm outputs and the activation output', () => {
    // Drops attention input 128, MLP input 128, GELU output 512 and the log-sum-exp 16: 2064 − 784 = 1280.
    const selective = { ...small, recompute: 'selective' as const, selectiveScope: 'elementwise' as const };
    expect(activationBytesPerLayer(model({}), 0, selective)).toBe(1280 * 128);
    expect(recomputeWorkingSetBytes(model({}), 0, selective)).toBe(784 * 128);
  });
});

describe('micro-batches in flight', () => {
  const p = { pp: 4, vpp: 1, schedule: '1f1b' as const };
  it('1F1B and ZB-H1: min(p − i, m)', () => {
    expect([0, 1, 2, 3].map((i) => microBatchesInFlight(p, i, 16))).toEqual([4, 3, 2, 1]);
    expect(microBatchesInFlight(p, 0, 2)).toBe(2);
    expect(microBatchesInFlight({ ...p, schedule: 'zero-bubble' }, 1, 16)).toBe(3);
  });

  it('GPipe keeps all m', () => {
    expect(microBatchesInFlight({ ...p, schedule: 'gpipe' }, 3, 16)).toBe(16);
  });

  it('interleaved 1F1B: stage 0 holds p(1 + (p−1)/(p·v)) (Korthikanti section 4.2.3)', () => {
    // p = 4, v = 2: 4 · (1 + 3/8) = 5.5.
    expect(microBatchesInFlight({ pp: 4, vpp: 2, schedule: 'interleaved-1f1b' }, 0, 64)).toBe(5.5);
  });

  it('DualPipe: p + 1 chunk-micro-batches over the two chunks (DeepSeek-V3 report, table 2)', () => {
    expect(microBatchesInFlight({ pp: 4, vpp: 1, schedule: 'dualpipe' }, 0, 64)).toBe(2.5);
  });
});

describe('stage activations', () => {
  function config(pp: number): RunConfig {
    const parsed = parseDocument({
      version: 1,
      model: { layers: 4, hidden: 64, heads: 4, ffnHidden: 256, vocab: 1000 },
      training: { seqLen: 128, globalBatch: 16, microBatch: 1, recompute: 'none', flashAttention: true, precision: 'bf16' },
      parallel: { tp: 1, pp, dp: 1 },
      cluster: { gpu: 'h100-sxm' },
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    return parsed.config;
  }
  const perLayer = 2064 * 128;

  it('the first 1F1B stage holds p micro-batches of its layers; the last adds the output layer and the loss', () => {
    const c = config(2);
    const [first, last] = pipelineLayout(c.model, c.parallel).map((s) => stageActivationBytes(c, s));
    expect(first).toBe(2 * 2 * perLayer);
    // Korthikanti section 4.3: 4sbh(1 + V/h) = 128 · (256 + 4000); the loss backward adds copies of the fp32 logits.
    const output = 128 * (4 * 64 + 4 * 1000);
    const loss = LOSS_BACKWARD_FP32_LOGIT_COPIES * 128 * 4 * 1000;
    expect(last).toBe(2 * perLayer + output + loss);
  });
});

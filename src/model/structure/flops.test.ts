import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { parseDocument } from '../input/index.ts';
import {
  forwardFlopsPerToken,
  layerForwardFlopsPerToken,
  layerForwardFlopsTotal,
  modelFlopsPerToken,
  outputLayerForwardFlopsPerToken,
  recomputeForwardFlopsPerToken,
  stepFlops,
} from './flops.ts';
import { layerMatrices } from './matrices.ts';
import type { ModelConfig, Recompute, RunConfig } from '../input/index.ts';

type ModelJson = Record<string, unknown>;

function config(model: ModelJson, training: Record<string, unknown>, parallel: Record<string, unknown> = {}): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model,
    training: { microBatch: 1, ...training },
    parallel,
    cluster: { gpu: 'a100-80gb' },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

function modelOf(model: ModelJson): ModelConfig {
  return config(model, { seqLen: 2048, globalBatch: 1 }).model;
}

const relative = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

describe('Narayanan et al. 2021 (arXiv 2104.04473), 1T GPT of Table 1', () => {
  // Table 1, last row: 128 layers, h = 25600, 160 heads, batch size 3072 on 3072 GPUs
  // (t = 8, p = 64, so d = 6); section 5.1 uses V = 51200 and s = 2048.
  const L = 128;
  const h = 25600;
  const V = 51200;
  const s = 2048;
  const B = 3072;
  const gpt1t = { layers: L, hidden: h, heads: 160, vocab: V, tiedEmbeddings: true };
  const run = (recompute: Recompute) => stepFlops(config(gpt1t, { seqLen: s, globalBatch: B, recompute }, { tp: 8, pp: 64, dp: 6 }));

  it('model FLOPs per step = 72·B·s·L·h²·(1 + s/6h + V/12Lh) (Korthikanti 2022, section 6)', () => {
    const expected = 72 * B * s * L * h ** 2 * (1 + s / (6 * h) + V / (12 * L * h));
    expect(relative(run('none').modelPerStep, expected)).toBeLessThan(1e-12);
    // Recomputation never changes model FLOPs.
    expect(relative(run('full').modelPerStep, expected)).toBeLessThan(1e-12);
  });

  it('hardware FLOPs with full recompute = 96·B·s·L·h²·(1 + s/6h + V/16Lh) (section 5.1)', () => {
    const expected = 96 * B * s * L * h ** 2 * (1 + s / (6 * h) + V / (16 * L * h));
    expect(relative(run('full').hardwarePerStep, expected)).toBeLessThan(1e-12);
  });

  it('selective recompute adds one forward of the attention scores: 4·s·h FLOPs per token per layer', () => {
    // QK^T and softmax·V are each s·h multiply-adds per token per layer (section 5.1), 2 FLOPs each.
    const extra = B * s * L * (2 * 2 * s * h);
    expect(relative(run('selective').hardwarePerStep - run('selective').modelPerStep, extra)).toBeLessThan(1e-12);
    expect(run('none').hardwarePerStep).toBe(run('none').modelPerStep);
  });
});

describe('per-layer forward FLOPs from the matrix inventory', () => {
  it('grouped-query attention lowers the attention projections by 2·(2h² − 2·h·kv·d) per token', () => {
    // h = 1024, 16 heads of 64. MHA: q, k, v, o all h×h → 4h² multiply-adds.
    // GQA with 4 KV heads: k and v are h × (4·64) = h × 256 → 2h² + 2·256·h.
    // Difference: 2·1024² − 512·1024 = 1,572,864 multiply-adds = 3,145,728 FLOPs.
    const base = { layers: 2, hidden: 1024, heads: 16, vocab: 1000, ffnType: 'swiglu', ffnHidden: 2816 };
    const mha = layerForwardFlopsPerToken(modelOf(base), 0, 512);
    const gqa = layerForwardFlopsPerToken(modelOf({ ...base, kvHeads: 4 }), 0, 512);
    expect(mha.attentionMatmul).toBe(2 * 4 * 1024 ** 2);
    expect(mha.attentionMatmul - gqa.attentionMatmul).toBe(3_145_728);
    // Scores still run over all 16 query heads: 2 · 16 · 512 · (64 + 64) FLOPs.
    expect(gqa.attentionScores).toBe(mha.attentionScores);
    expect(gqa.attentionScores).toBe(2 * 16 * 512 * 128);
  });

  it('SwiGLU with ffn = 8h/3 equals a 4h GELU MLP: 3·h·(8h/3) = 2·h·4h = 8h² multiply-adds', () => {
    const h = 3072;
    const gelu = layerForwardFlopsPerToken(modelOf({ layers: 1, hidden: h, heads: 24, vocab: 100 }), 0, 1);
    const swiglu = layerForwardFlopsPerToken(
      modelOf({ layers: 1, hidden: h, heads: 24, vocab: 100, ffnType: 'swiglu', ffnHidden: (8 * h) / 3 }),
      0,
      1,
    );
    expect(gelu.mlpMatmul).toBe(2 * 8 * h ** 2);
    expect(swiglu.mlpMatmul).toBe(gelu.mlpMatmul);
  });

  it('MoE counts the topK routed experts, the shared expert and the router only', () => {
    // h = 64, 8 experts of inner size 128 (SwiGLU: 3 matrices of 64×128), top-2, one shared
    // expert, first layer dense with ffn 256.
    // Routed: 2 experts · 3 · 64 · 128 = 49,152 MACs = 98,304 FLOPs (not 8 experts' 393,216).
    // Shared: 3 · 64 · 128 = 24,576 MACs = 49,152 FLOPs. Router: 64 · 8 = 512 MACs = 1,024 FLOPs.
    // Dense layer 0: 3 · 64 · 256 = 49,152 MACs = 98,304 FLOPs.
    const m = modelOf({
      layers: 3,
      hidden: 64,
      heads: 4,
      vocab: 100,
      ffnType: 'swiglu',
      ffnHidden: 256,
      moe: { experts: 8, topK: 2, expertFfnHidden: 128, sharedExperts: 1, denseLayers: 1 },
    });
    const moe = layerForwardFlopsPerToken(m, 1, 16);
    expect(moe.routedExpertMatmul).toBe(98_304);
    expect(moe.mlpMatmul).toBe(49_152);
    expect(moe.router).toBe(1_024);
    const dense = layerForwardFlopsPerToken(m, 0, 16);
    expect(dense.mlpMatmul).toBe(98_304);
    expect(dense.routedExpertMatmul).toBe(0);
    expect(dense.router).toBe(0);
    // Attention: 4 h×h matrices = 4 · 4096 MACs = 32,768 FLOPs in both kinds of layer.
    expect(moe.attentionMatmul).toBe(32_768);
    expect(dense.attentionMatmul).toBe(32_768);
    // Whole model, forward, per token at s = 16: 1 dense + 2 MoE layers + logits 2·64·100.
    const scores = 2 * 4 * 16 * (16 + 16);
    const expected = 98_304 + 32_768 + scores + 2 * (98_304 + 49_152 + 1_024 + 32_768 + scores) + 12_800;
    expect(forwardFlopsPerToken(m, 16).total).toBe(expected);
  });

  it('an MTP module adds a transformer layer, its 2h→h projection and one more logit layer', () => {
    // DeepSeek-V3 section 2.2: projection 2h·h MACs; the MTP block is an MoE layer here.
    const base = {
      layers: 4,
      hidden: 64,
      heads: 4,
      vocab: 100,
      ffnType: 'swiglu',
      ffnHidden: 256,
      moe: { experts: 8, topK: 2, expertFfnHidden: 128, sharedExperts: 1, denseLayers: 1 },
    };
    const without = modelOf(base);
    const withMtp = modelOf({ ...base, mtpLayers: 1 });
    const moeLayer = layerForwardFlopsTotal(layerForwardFlopsPerToken(withMtp, 3, 16));
    const expected = moeLayer + 2 * 2 * 64 * 64 + 2 * 64 * 100;
    expect(forwardFlopsPerToken(withMtp, 16).total - forwardFlopsPerToken(without, 16).total).toBe(expected);
    expect(layerForwardFlopsPerToken(withMtp, 4, 16)).toEqual(layerForwardFlopsPerToken(withMtp, 3, 16));
    // Full recompute re-runs the MTP block too, not its projection or logits.
    expect(recomputeForwardFlopsPerToken(withMtp, 16, 'full') - recomputeForwardFlopsPerToken(without, 16, 'full')).toBe(moeLayer);
  });

  it('the output layer is 2·h·V per token whether or not embeddings are tied; the lookup is free', () => {
    const tied = modelOf({ layers: 2, hidden: 512, heads: 8, vocab: 32000, tiedEmbeddings: true });
    const untied = modelOf({ layers: 2, hidden: 512, heads: 8, vocab: 32000 });
    expect(outputLayerForwardFlopsPerToken(tied)).toBe(2 * 512 * 32000);
    expect(forwardFlopsPerToken(tied, 128).total).toBe(forwardFlopsPerToken(untied, 128).total);
  });
});

describe('the 6·N·tokens rule of thumb (Kaplan et al. 2020, section 2.1)', () => {
  // Llama 3 8B shape at s = 2048. N counts every weight matrix (embedding and output
  // included, as "8B" does); the exact count adds 12·L·s·h per token for attention
  // scores and has no FLOPs for the embedding lookup, so it should be within a few %.
  it('matches within 3 % for a dense model at short sequence length', () => {
    const m = modelOf({ layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 });
    let n = 2 * m.vocab * m.hidden;
    for (let i = 0; i < m.layers; i++) {
      for (const w of layerMatrices(m, i)) n += w.rows * w.cols * w.copies;
    }
    expect(n).toBeGreaterThan(8.02e9);
    expect(n).toBeLessThan(8.04e9);
    const tokens = 1024 * 2048;
    const { modelPerStep } = stepFlops(
      config(
        { layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 },
        { seqLen: 2048, globalBatch: 1024 },
      ),
    );
    expect(relative(modelPerStep, 6 * n * tokens)).toBeLessThan(0.03);
  });
});

describe('properties', () => {
  const models = fc.record({
    layers: fc.integer({ min: 1, max: 64 }),
    heads: fc.constantFrom(8, 16, 32),
    headDim: fc.constantFrom(32, 64, 128),
    kvDivisor: fc.constantFrom(1, 2, 8),
    ffnHidden: fc.integer({ min: 64, max: 20000 }),
    vocab: fc.integer({ min: 100, max: 200000 }),
    seqLen: fc.constantFrom(128, 1024, 4096),
    globalBatch: fc.integer({ min: 1, max: 64 }),
  });

  it('hardware ≥ model FLOPs, full ≥ selective ≥ none, and everything is finite', () => {
    fc.assert(
      fc.property(models, (p) => {
        const model = {
          layers: p.layers,
          hidden: p.heads * p.headDim,
          heads: p.heads,
          kvHeads: p.heads / p.kvDivisor,
          ffnHidden: p.ffnHidden,
          vocab: p.vocab,
        };
        const at = (recompute: Recompute) => stepFlops(config(model, { seqLen: p.seqLen, globalBatch: p.globalBatch, recompute }));
        const [none, selective, full] = [at('none'), at('selective'), at('full')];
        expect(Number.isFinite(full.hardwarePerStep)).toBe(true);
        expect(none.hardwarePerStep).toBe(none.modelPerStep);
        expect(selective.hardwarePerStep).toBeGreaterThan(none.hardwarePerStep);
        expect(full.hardwarePerStep).toBeGreaterThan(selective.hardwarePerStep);
        expect(selective.modelPerStep).toBe(none.modelPerStep);
      }),
      { numRuns: 60 },
    );
  });

  it('model FLOPs per step = tokens × 3 × forward per token, and grow with sequence length', () => {
    fc.assert(
      fc.property(models, (p) => {
        const model = { layers: p.layers, hidden: p.heads * p.headDim, heads: p.heads, ffnHidden: p.ffnHidden, vocab: p.vocab };
        const c = config(model, { seqLen: p.seqLen, globalBatch: p.globalBatch });
        const perToken = modelFlopsPerToken(c.model, p.seqLen);
        expect(relative(stepFlops(c).modelPerStep, perToken * p.seqLen * p.globalBatch)).toBeLessThan(1e-12);
        expect(modelFlopsPerToken(c.model, p.seqLen * 2)).toBeGreaterThan(perToken);
      }),
      { numRuns: 40 },
    );
  });

  it('does not mutate the config', () => {
    const c = config({ layers: 4, hidden: 256, heads: 4, vocab: 1000 }, { seqLen: 128, globalBatch: 8, recompute: 'full' });
    const before = JSON.stringify(c);
    stepFlops(c);
    expect(JSON.stringify(c)).toBe(before);
  });
});

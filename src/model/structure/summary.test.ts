import { describe, expect, it } from 'vitest';
import { estimate } from '../estimate.ts';
import { modelSummary } from './summary.ts';
import { parseDocument } from '../input/index.ts';

const within = (actual: number, expected: number, fraction: number) =>
  expect(Math.abs(actual / expected - 1)).toBeLessThanOrEqual(fraction);

// Llama 3 8B (meta-llama/Meta-Llama-3-8B config.json): 32 layers, h 4096, 32 heads, 8 KV heads,
// SwiGLU 14336, vocab 128256, untied embeddings.
const LLAMA3_8B = {
  name: 'Llama 3 8B',
  layers: 32,
  hidden: 4096,
  heads: 32,
  kvHeads: 8,
  ffnHidden: 14336,
  ffnType: 'swiglu',
  vocab: 128256,
};
// DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json): 61 layers (3 dense), h 7168, 128 MLA heads,
// 256 routed experts of 2048 (top 8) + 1 shared, dense FFN 18432, vocab 129280, one MTP module.
const DEEPSEEK_V3 = {
  name: 'DeepSeek-V3',
  layers: 61,
  hidden: 7168,
  heads: 128,
  kvHeads: 128,
  headDim: 128,
  ffnHidden: 18432,
  ffnType: 'swiglu',
  vocab: 129280,
  moe: { experts: 256, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 3 },
  mla: { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 },
  mtpLayers: 1,
};

function doc(model: object, gpus = 8) {
  return {
    version: 1,
    model,
    training: { seqLen: 8192, globalBatch: 64, microBatch: 1 },
    parallel: { tp: 1, pp: 1, dp: gpus },
    cluster: { gpu: 'h100-sxm', gpus },
  };
}

describe('model summary in the estimate output', () => {
  it('Llama 3 8B: 8.0e9 parameters, all active, 6N + attention FLOPs per token', () => {
    const out = estimate(doc(LLAMA3_8B));
    expect(out.errors).toEqual([]);
    const m = out.model;
    if (!m) throw new Error('no model summary');
    // Per layer: q,o 2·4096² = 33,554,432; k,v 2·4096·1024 = 8,388,608; MLP 3·4096·14336 = 176,160,768;
    // norms 2·4096 → 218,112,000. × 32 = 6,979,584,000; + embedding and output 2·128256·4096
    // = 1,050,673,152; + final norm 4096 = 8,030,261,248 (Meta: "8B").
    expect(m.parameters).toBe(8_030_261_248);
    within(m.parameters, 8.0e9, 0.02);
    expect(m.activeParameters).toBe(m.parameters);
    // 6 × the weights a token multiplies (all but the embedding lookup 128256·4096 and the
    // norms 32·2·4096 + 4096): 6 × 7,504,658,432 = 45,027,950,592; attention scores: QK^T and
    // softmax·V, 2 × 2·s·heads·headDim per layer forward, × 3 for forward + backward:
    // 12 · 32 · 8192 · 4096 = 12,884,901,888 (Narayanan et al. 2021, section 5.1). Sum 57,912,852,480.
    expect(m.flopsPerToken).toBe(57_912_852_480);
    // One rule: the step's model FLOPs are tokens per step × FLOPs per token.
    expect(out.flops.modelPerStep).toBe(64 * 8192 * m.flopsPerToken);
  });

  it('DeepSeek-V3: 671e9 total and 37e9 active (arXiv 2412.19437 abstract; the MTP module is not counted)', () => {
    // 671B main model; the Hub's 685B adds the 14B MTP module (deepseek-ai/DeepSeek-V3 README.md, "Model Weights").
    const parsed = parseDocument({ ...doc(DEEPSEEK_V3, 64), parallel: { tp: 1, pp: 1, dp: 64, ep: 64 } });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const m = modelSummary(parsed.config.model, 4096);
    // Main model (structure/params.test.ts): 671,026,404,352.
    within(m.parameters, 671e9, 0.02);
    expect(m.parameters).toBeLessThan(685e9 * 0.99);
    // Active: 3 dense layers 583,483,392 each; 58 MoE layers with 8 of 256 routed experts + the shared one
    // (attention 187,105,280 + router 1,835,008 + 9·3·7168·2048 = 396,361,728 + norms 2·7168 + 512 + 1536) = 585,318,400;
    // + embedding and head 1,853,358,080 + final norm 7,168 → 37,552,282,624 (the paper's "37B").
    expect(m.activeParameters).toBe(3 * 583_483_392 + 58 * 585_318_400 + 2 * 129280 * 7168 + 7168);
    within(m.activeParameters, 37e9, 0.02);
    // Through the front door too (a document with its MTP module and experts over 64 GPUs).
    const out = estimate({ ...doc(DEEPSEEK_V3, 64), parallel: { tp: 1, pp: 1, dp: 64, ep: 64 } });
    expect(out.errors).toEqual([]);
    expect(out.model?.parameters).toBe(m.parameters);
    expect(out.model?.activeParameters).toBe(m.activeParameters);
  });

  it('an invalid document has no model summary, never NaN', () => {
    expect(estimate({ version: 1, model: { layers: -1 } }).model).toBeNull();
  });
});

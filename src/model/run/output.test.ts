// The run wing's figures as estimate() returns them: identities between them.
import { describe, expect, it } from 'vitest';
import { estimate } from '../estimate.ts';

// Llama-3-8B-like dense model on one 8-GPU H100 node at $2.5 per GPU-hour.
const DOC = {
  version: 1,
  model: { name: 'test', layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 },
  training: { seqLen: 4096, globalBatch: 64, microBatch: 1, tokens: 1e11, recompute: 'selective' },
  parallel: { tp: 2, pp: 2, dp: 2, zero: 1 },
  cluster: { gpu: 'h100-sxm' },
  cost: { usdPerGpuHour: 2.5 },
};

describe('the figures a schedule is planned with', () => {
  it('tokensPerDay × days is the token budget; usdPerMillionTokens × millions of tokens is the dollars', () => {
    const out = estimate(DOC);
    expect(out.errors).toEqual([]);
    if (!out.time || !out.cost) throw new Error('no time or cost');
    expect(out.time.tokensPerDay * out.time.days).toBeCloseTo(1e11, -3);
    // 1e11 tokens = 1e5 million tokens.
    expect(out.cost.usdPerMillionTokens * 1e5).toBeCloseTo(out.cost.usd, 3);
  });

});

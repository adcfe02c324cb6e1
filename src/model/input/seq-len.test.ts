import { describe, expect, it } from 'vitest';
import { MAX_SEQ_LEN, parseDocument } from './document.ts';

// Issue 38: a sequence length of 1e9 was accepted ("2,310 years"). Up to 10 million tokens (Llama 4 Scout's stated
// context) it is read; above, the field says so.
const doc = (seqLen: number) => ({
  version: 1,
  model: { name: 'm', layers: 2, hidden: 256, heads: 4, vocab: 1000 },
  training: { seqLen, globalBatch: 8 },
  cluster: { gpu: 'h100-sxm', gpus: 1 },
});

describe('training.seqLen plausibility', () => {
  it('10,000,000 tokens is read; 10,000,001 and 1e9 are refused with the bound in words', () => {
    expect(MAX_SEQ_LEN).toBe(1e7);
    expect(parseDocument(doc(10_000_000)).ok).toBe(true);
    for (const seqLen of [10_000_001, 1e9]) {
      const parsed = parseDocument(doc(seqLen));
      expect(parsed.ok).toBe(false);
      if (!parsed.ok)
        expect(parsed.errors).toContain(
          `training.seqLen: must be at most 10,000,000 tokens, the longest context of any open model; got ${seqLen.toLocaleString('en-US')}`,
        );
    }
  });
});

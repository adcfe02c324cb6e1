import { describe, expect, it } from 'vitest';
import { heldInWords, holdingLine, knobCaption, KNOB_CAPTIONS } from './captions.ts';

describe('what a curve holds fixed, in words (issue 36)', () => {
  it('names every held quantity with its unit', () => {
    expect(
      holdingLine({
        held: [
          { quantity: 'gpus', value: 256 },
          { quantity: 'globalBatch', value: 1024 },
          { quantity: 'seqLen', value: 8192 },
          { quantity: 'microBatch', value: 1 },
          { quantity: 'precision', value: 'bf16' },
          { quantity: 'tokens', value: 1.5e13 },
        ],
      }),
    ).toBe(
      'Holding: 256 GPUs, global batch 1,024 sequences, sequence length 8,192 tokens, micro-batch 1 sequence, precision BF16, token budget 15 trillion tokens.',
    );
  });

  it('tokens per step when the sequence-length curve holds them: 512 × 8,192 = 4,194,304', () => {
    expect(heldInWords({ quantity: 'tokensPerStep', value: 4_194_304 })).toBe('4.19 million tokens per step');
  });

  it('says nothing when nothing is held', () => {
    expect(holdingLine({ held: [] })).toBeNull();
  });

  it('the sequence-length caption follows the toggle; other knobs keep theirs', () => {
    expect(knobCaption('seqLen', 'sequences').why).toBe(KNOB_CAPTIONS.seqLen.why);
    expect(knobCaption('seqLen', 'sequences').why).toMatch(/fixed batch in sequences/);
    expect(knobCaption('seqLen', 'tokens').why).toMatch(/fixed tokens per step, longer sequences mean fewer of them/);
    expect(knobCaption('tp', 'tokens')).toBe(KNOB_CAPTIONS.tp);
  });
});

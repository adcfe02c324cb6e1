import { describe, expect, it } from 'vitest';
import { HELP } from './help.ts';

describe('help prose (help.json)', () => {
  it('every source names a real reference: no {NAME} is left unexpanded, and the layers source is Narayanan 2021 §5.1', () => {
    for (const [key, help] of Object.entries(HELP)) expect(help.source ?? '', key).not.toMatch(/\{\w+\}/);
    expect(HELP.layers.source).toBe(
      'Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM (arXiv 2104.04473), section 5.1',
    );
  });

  it('keeps the switches from their own table beside the prose', () => {
    expect(HELP.flashAttention.label).toBe('Flash attention (FA)');
    expect(HELP.microBatch.label).toMatch(/Micro-batch/);
  });
});

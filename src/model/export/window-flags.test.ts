import { describe, it, expect } from 'vitest';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { megatronExport } from './launch-args.ts';
import { slidingWindowFlags } from './window-flags.ts';

function config(slidingWindow: unknown, layers = 36): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: { layers, hidden: 2880, heads: 64, kvHeads: 8, headDim: 64, ffnHidden: 2880, ffnType: 'swiglu', vocab: 201088, slidingWindow },
    training: { seqLen: 4096, globalBatch: 64, microBatch: 1, framework: 'megatron' },
    cluster: { gpu: 'h100-sxm', gpus: 8 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('model.slidingWindow as Megatron-LM flags', () => {
  it('GPT-OSS: window 128 keys is Transformer Engine (127, 0); full attention every 2nd layer', () => {
    const c = config({ window: 128, layerTypes: ['sliding_attention', 'full_attention'] });
    expect(slidingWindowFlags(c.model)).toEqual([
      ['--window-size', '"127,0"'],
      ['--window-attn-skip-freq', 2],
    ]);
    const text = megatronExport(c).text;
    expect(text).toContain('--window-size "127,0" \\');
    expect(text).toContain('--window-attn-skip-freq 2 \\');
  });

  it('every layer: no skip frequency; Gemma 3 (5:1 over 62 layers): 6, as Megatron’s layer_number % 6 rule', () => {
    expect(slidingWindowFlags(config({ window: 4096 }).model)).toEqual([['--window-size', '"4095,0"']]);
    const five = [...Array<string>(5).fill('sliding_attention'), 'full_attention'];
    expect(slidingWindowFlags(config({ window: 1024, layerTypes: five }, 62).model)).toEqual([
      ['--window-size', '"1023,0"'],
      ['--window-attn-skip-freq', 6],
    ]);
  });

  it('another pattern: a list expression, one entry a layer (Qwen2 max_window_layers 4 of 6 full)', () => {
    const qwen = ['full_attention', 'full_attention', 'full_attention', 'full_attention', 'sliding_attention', 'sliding_attention'];
    expect(slidingWindowFlags(config({ window: 4096, layerTypes: qwen }, 6).model)).toEqual([
      ['--window-size', '"4095,0"'],
      ['--window-attn-skip-freq', '"([0,0,0,0,1,1]*1)"'],
    ]);
    expect(slidingWindowFlags(config({ window: 64, layerTypes: ['full_attention', 'sliding_attention'] }, 5).model)).toEqual([
      ['--window-size', '"63,0"'],
      ['--window-attn-skip-freq', '"([0,1]*2+[0])"'],
    ]);
  });

  it('no window: no flags', () => {
    expect(slidingWindowFlags(config(null).model)).toEqual([]);
  });
});

import { describe, it, expect } from 'vitest';
import { eightH100Run, GPT_OSS_120B_MODEL, GPT_OSS_SLIDING_WINDOW } from '../../testing/documents.ts';
import { attentionKeyTokens, isSlidingWindowLayer, slidingWindowLayerCount, windowKeyTokens } from './attention-window.ts';
import { modelFlopsPerToken, recomputeForwardFlopsPerToken, stepFlops } from './flops.ts';

const GPT_OSS = GPT_OSS_120B_MODEL;
const ALTERNATING = GPT_OSS_SLIDING_WINDOW;

const run = eightH100Run;

describe('windowKeyTokens: a causal window in the engine’s no-halving convention', () => {
  it('counts twice the causal mean w − w(w−1)/2s, capped at the sequence', () => {
    // 2·128 − 128·127/4096 = 256 − 3.96875
    expect(windowKeyTokens(128, 4096)).toBe(252.03125);
    // 2·1024 − 1024·1023/8192 = 2048 − 127.875 (Gemma 3's window at 8k)
    expect(windowKeyTokens(1024, 8192)).toBe(1920.125);
    // A window as long as the sequence, or longer, is full attention.
    expect(windowKeyTokens(4096, 4096)).toBe(4096);
    expect(windowKeyTokens(131072, 4096)).toBe(4096);
    // Just under the sequence the doubled mean would pass s (2·4090 − 4090·4089/4096 = 4096.99): capped.
    expect(windowKeyTokens(4090, 4096)).toBe(4096);
    // One key (the query itself): 2·1 − 0.
    expect(windowKeyTokens(1, 4096)).toBe(2);
  });
});

describe('which layers slide', () => {
  it('reads layer_types cyclically from layer 0; absent, every layer; MTP layers attend in full', () => {
    const gptOss = run({ ...GPT_OSS, slidingWindow: ALTERNATING }).model;
    expect([0, 1, 2, 3, 35].map((i) => isSlidingWindowLayer(gptOss, i))).toEqual([true, false, true, false, false]);
    expect(slidingWindowLayerCount(gptOss)).toBe(18);
    expect(isSlidingWindowLayer(gptOss, 36)).toBe(false);
    // Gemma 3 27B: 62 layers, 5 sliding then 1 full (HF: full where (i + 1) % 6 == 0): 10 full, 52 sliding.
    const five = [...Array<string>(5).fill('sliding_attention'), 'full_attention'];
    const gemma3 = run({ ...GPT_OSS, moe: null, layers: 62, slidingWindow: { window: 1024, layerTypes: five } }).model;
    expect(slidingWindowLayerCount(gemma3)).toBe(52);
    expect([4, 5, 59, 60, 61].map((i) => isSlidingWindowLayer(gemma3, i))).toEqual([true, false, false, true, true]);
    // Mistral 7B v0.1: sliding_window 4096 on every layer.
    const mistral = run({ ...GPT_OSS, moe: null, layers: 32, slidingWindow: { window: 4096 } }).model;
    expect(slidingWindowLayerCount(mistral)).toBe(32);
    expect(attentionKeyTokens(mistral, 31, 32768)).toBe(2 * 4096 - (4096 * 4095) / 32768);
    expect(attentionKeyTokens(run(GPT_OSS).model, 0, 4096)).toBe(4096);
  });
});

describe('GPT-OSS 120B model FLOPs per token, hand-derived', () => {
  // Forward multiply-adds per token and layer:
  //   attention projections: 2880 × (4096 + 2·512) + 4096 × 2880      = 26,542,080
  //   4 routed SwiGLU experts: 4 × 3 × 2880 × 2880                    = 99,532,800
  //   router: 2880 × 128                                               =    368,640
  //   scores, full attention at s 4096: 64 heads × 4096 × (64 + 64)   = 33,554,432
  //   scores, window 128: 64 × 252.03125 × 128                         =  2,064,640
  //   output layer (once): 2880 × 201,088                              = 579,133,440
  // Training FLOPs = 2 (multiply-add) × 3 (forward + backward) × the multiply-adds.
  const weights = 26_542_080 + 99_532_800 + 368_640;
  const full = 36 * (weights + 33_554_432) + 579_133_440; // 6,339,059,712
  const windowed = 18 * (weights + 33_554_432) + 18 * (weights + 2_064_640) + 579_133_440; // 5,772,243,456

  it('full attention on every layer: 6 × 6,339,059,712 = 38,034,358,272', () => {
    expect(modelFlopsPerToken(run(GPT_OSS).model, 4096)).toBe(6 * full);
    expect(6 * full).toBe(38_034_358_272);
  });

  it('sliding window 128 on every second layer: 6 × 5,772,243,456 = 34,633,460,736 (−8.9 %)', () => {
    const model = run({ ...GPT_OSS, slidingWindow: ALTERNATING }).model;
    expect(modelFlopsPerToken(model, 4096)).toBe(6 * windowed);
    expect(6 * windowed).toBe(34_633_460_736);
  });

  it('step FLOPs (MFU) and selective recomputation follow the same count', () => {
    const c = run({ ...GPT_OSS, slidingWindow: ALTERNATING }, { recompute: 'selective' });
    const { modelPerStep, hardwarePerStep } = stepFlops(c);
    const tokens = 64 * 4096;
    expect(modelPerStep).toBe(tokens * 6 * windowed);
    // Selective recomputation reruns the scores' forward: 2 × (18 × 33,554,432 + 18 × 2,064,640).
    const scores = 2 * (18 * 33_554_432 + 18 * 2_064_640);
    expect(recomputeForwardFlopsPerToken(c.model, 4096, 'selective')).toBe(scores);
    expect(hardwarePerStep - modelPerStep).toBe(tokens * scores);
  });
});

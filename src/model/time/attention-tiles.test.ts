import { describe, it, expect } from 'vitest';
import { eightH100Run, GPT_OSS_120B_MODEL, GPT_OSS_SLIDING_WINDOW } from '../../testing/documents.ts';
import { windowKernelKeyTokens } from './attention-tiles.ts';
import { layerForwardSeconds } from './compute.ts';

const GPT_OSS = GPT_OSS_120B_MODEL;
const ALTERNATING = GPT_OSS_SLIDING_WINDOW;

const run = eightH100Run;

describe('attention kernel time on a sliding-window layer', () => {
  it('runs the key tiles the window touches: 252 keys a query at w 128, s 4096, against 2,048 for a causal layer', () => {
    // 128 × 128 tiles: the first query block reads 1 key block, the other 31 read 2 (the window
    // reaches into the block before): (128·128·1 + 31·128·128·2) / 4096 = 252.
    expect(windowKernelKeyTokens(128, 4096)).toBe(252);
    // A window past the sequence walks the causal triangle: Σ (m + 1) over 32 blocks × 128·128 / 4096 = 2112 = s/2 + 64.
    expect(windowKernelKeyTokens(131072, 4096)).toBe(2112);
    const c = run({ ...GPT_OSS, slidingWindow: ALTERNATING });
    const sliding = layerForwardSeconds(c, 0, 4096);
    const full = layerForwardSeconds(c, 1, 4096);
    expect(sliding.attentionForward / full.attentionForward).toBeCloseTo(252 / 2048, 12);
    expect(sliding.attentionBackward / full.attentionBackward).toBeCloseTo(252 / 2048, 12);
    expect(sliding.matmulForward).toBe(full.matmulForward);
    const noWindow = layerForwardSeconds(run(GPT_OSS), 0, 4096);
    expect(noWindow.attentionForward).toBe(full.attentionForward);
    // A window as long as the sequence costs what a full layer does (the causal half, not the tiles' 2112).
    const long = run({ ...GPT_OSS, slidingWindow: { window: 4096 } });
    expect(layerForwardSeconds(long, 0, 4096).attentionForward).toBe(full.attentionForward);
  });
});

import { describe, expect, it } from 'vitest';
import { estimate } from '../estimate.ts';
import { GiB, parseDocument, type RunConfig } from '../input/index.ts';
import { QWEN3_30B_A3B_MODEL } from '../../testing/documents.ts';
import { activationBytesPerLayer, engineActivationSettings } from './activations.ts';

// The busiest expert-parallel rank holds the most routed tokens, and it is the rank that runs out
// of memory: its expert-side saved tensors scale with training.moeLoadImbalance (issue 32 item 4).
//
// Hand derivation, Qwen3-30B-A3B's MoE layer (h 2048, 128 experts, top-8, expert FFN 768), bf16,
// no recompute, TP 1, one micro-batch of 4096 tokens, Megatron-Core's inventory (activations.ts):
//   experts.dispatched      2 · 2048 · 8          = 32,768 bytes a token
//   experts up, gate, down  3 · 2 · 768 · 8        = 36,864
//   expert side                                    = 69,632 bytes a token, × load on the busiest rank
//   router.scores           4 · 128                =    512 (the fake balanced gate keeps none)
const EXPERT_SIDE_BYTES_PER_TOKEN = 32_768 + 36_864;
const ROUTER_SCORE_BYTES_PER_TOKEN = 4 * 128;
const TOKENS = 4096;

function doc(training: Record<string, unknown> = {}, gpu: unknown = 'h100-sxm') {
  return {
    version: 1,
    model: { ...QWEN3_30B_A3B_MODEL, layers: 4, vocab: 32000 },
    training: { seqLen: TOKENS, globalBatch: 8, microBatch: 1, precision: 'bf16', framework: 'megatron', recompute: 'none', ...training },
    parallel: { tp: 1, pp: 1, dp: 8, ep: 8 },
    cluster: { gpu, gpusPerNode: 8, gpus: 8 },
  };
}

function config(training: Record<string, unknown> = {}): RunConfig {
  const parsed = parseDocument(doc(training));
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

function layerBytes(c: RunConfig): number {
  return activationBytesPerLayer(c.model, 0, engineActivationSettings(c));
}

function deviceUsed(raw: unknown): { used: number; fits: boolean } {
  const out = estimate(raw);
  if (!('memory' in out) || out.memory === undefined) throw new Error('no memory');
  return { used: out.memory.deviceUsed, fits: out.memory.fits };
}

describe('MoE routing in activation memory', () => {
  it('load 1.5: the busiest rank saves half the expert side more, 0.5 × 69,632 × 4096 bytes a layer', () => {
    expect(layerBytes(config({ moeLoadImbalance: 1.5 })) - layerBytes(config())).toBe(0.5 * EXPERT_SIDE_BYTES_PER_TOKEN * TOKENS);
  });
  it('the fake balanced gate saves no router scores: 512 bytes a token fewer', () => {
    expect(layerBytes(config()) - layerBytes(config({ moeRouter: 'fakeBalanced' }))).toBe(ROUTER_SCORE_BYTES_PER_TOKEN * TOKENS);
  });
  it('the verdict is the busiest rank’s: a GPU sized between the balanced and the load-2 need fits one and not the other', () => {
    const balanced = deviceUsed(doc());
    const skewed = deviceUsed(doc({ moeLoadImbalance: 2 }));
    // 4 MoE layers hold at least 1 × the expert side more each (one micro-batch in flight, no pipeline).
    expect(skewed.used - balanced.used).toBeGreaterThanOrEqual(4 * EXPERT_SIDE_BYTES_PER_TOKEN * TOKENS);
    const between = {
      name: 'Sized between',
      memoryGiB: (balanced.used + skewed.used) / 2 / GiB,
      bf16Tflops: 989,
      hbmGBps: 3350,
      intraNodeGBps: 450,
      interNodeGBps: 50,
    };
    expect(deviceUsed(doc({}, between)).fits).toBe(true);
    expect(deviceUsed(doc({ moeLoadImbalance: 2 }, between)).fits).toBe(false);
  });
});

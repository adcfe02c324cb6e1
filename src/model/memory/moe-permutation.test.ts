import { describe, expect, it } from 'vitest';
import { activationBytesPerLayer, engineActivationSettings } from './activations.ts';
import { moePermutationSaves } from './moe-permutation.ts';
import { estimate } from '../estimate.ts';
import { megatronCoreVersion, parseDocument } from '../input/index.ts';

// What older Megatron-Core releases' dispatchers save around the experts (moe-permutation.ts),
// on the FlagPerf Mixtral 8x7B run (validation/published-runs.json
// flagperf-mixtral-8x7b-megatron-h100-32gpu-pp2dp2ep1tp8): h 4096, top-2, TP8 with sequence
// parallelism, EP1, so expert TP 8 (structure/params.ts expertTensorParallel), micro-batch 3 × 4096.
const mixtral = (training: Record<string, unknown> = {}) => ({
  version: 1,
  model: {
    name: 'Mixtral 8x7B',
    layers: 32,
    hidden: 4096,
    heads: 32,
    kvHeads: 8,
    headDim: 128,
    ffnHidden: 14336,
    ffnType: 'swiglu',
    vocab: 32768,
    tiedEmbeddings: false,
    moe: { experts: 8, topK: 2, expertFfnHidden: 14336, sharedExperts: 0, denseLayers: 0 },
  },
  training: {
    seqLen: 4096,
    globalBatch: 1200,
    microBatch: 3,
    precision: 'bf16',
    recompute: 'selective',
    framework: 'megatron',
    loss: 'fused',
    ...training,
  },
  parallel: { tp: 8, pp: 2, dp: 2, cp: 1, ep: 1, sequenceParallel: true, zero: 1, schedule: '1f1b' },
  cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 32 },
});

function config(training: Record<string, unknown> = {}) {
  const parsed = parseDocument(mixtral(training));
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}
function errorsOf(training: Record<string, unknown>): readonly string[] {
  const parsed = parseDocument(mixtral(training));
  return parsed.ok ? [] : parsed.errors;
}
const TOKENS = 4096 * 3;
/** One MoE layer's saved bytes per token of the micro-batch on one GPU. */
const layerBytesPerToken = (training: Record<string, unknown> = {}) => {
  const c = config(training);
  return activationBytesPerLayer(c.model, 0, engineActivationSettings(c)) / TOKENS;
};

describe('Megatron-Core MoE permutation memory by release', () => {
  it('core_v0.6.0, all-gather dispatcher: 2·h·(1 + 2k) = 40,960 bytes per token and MoE layer more', () => {
    // token_dispatcher.py@core_v0.6.0: torch.gather saves the tokens gathered over TP × EP (s·b·h,
    // whole on every TP rank) and the top-k copies (s·b·k·h); the combine's `* scores` saves the
    // unpermuted expert outputs (s·b·k·h). 16-bit: 2 × 4096 × (1 + 2 + 2) = 40,960.
    expect(layerBytesPerToken({ frameworkRelease: 'core_v0.6.0' }) - layerBytesPerToken()).toBeCloseTo(40_960, 6);
    expect(moePermutationSaves('core_v0.6.0', 'allgather', { topK: 2, etp: 8, ep: 1, sequenceParallel: true })).toEqual({
      gatheredTokens: 8,
      topKCopies: 16,
      expertOutputs: 16,
    });
  });

  it('core_v0.7.0 to core_v0.12.x keep only the expert outputs: 2·k·h = 16,384 bytes', () => {
    for (const release of ['core_v0.7.0', 'core_r0.10.0', 'core_v0.12.1'])
      expect(layerBytesPerToken({ frameworkRelease: release }) - layerBytesPerToken()).toBeCloseTo(16_384, 6);
  });

  it('the all-to-all dispatcher splits its combine over TP: 2·k·h/8 = 2,048 bytes before core_v0.13.0', () => {
    // moe_utils.py@core_v0.6.0 permute: index_select (index only); unpermute's `* probs` saves [s·b·k, h/TP].
    const alltoall = { moeDispatcher: 'alltoall' };
    expect(layerBytesPerToken({ ...alltoall, frameworkRelease: '0.6.0' }) - layerBytesPerToken(alltoall)).toBeCloseTo(2_048, 6);
  });

  it('core_v0.13.0 and later, or no release, change nothing', () => {
    expect(layerBytesPerToken({ frameworkRelease: 'core_v0.13.0' })).toBe(layerBytesPerToken());
    expect(layerBytesPerToken({ frameworkRelease: 'core_v0.15.2', moeDispatcher: 'allgather' })).toBe(
      layerBytesPerToken({ moeDispatcher: 'allgather' }),
    );
    const absent = config();
    expect(absent.stack.frameworkRelease).toBeNull();
    expect(absent.stack.moeDispatcher).toBe('alltoall');
    expect('moePermutation' in engineActivationSettings(absent)).toBe(false);
    expect(estimate(mixtral({ frameworkRelease: null }))).toEqual(estimate(mixtral()));
  });

  it('a stated release runs its own default dispatcher (arguments.py: allgather); a named one wins', () => {
    expect(config({ frameworkRelease: 'core_v0.6.0' }).stack.moeDispatcher).toBe('allgather');
    expect(config({ frameworkRelease: 'core_v0.6.0', moeDispatcher: 'alltoall' }).stack.moeDispatcher).toBe('alltoall');
  });
});

describe('training.frameworkRelease', () => {
  it('reads the ways a Megatron-LM release is written, keeping the text', () => {
    for (const text of ['core_v0.6.0', 'core_r0.6.0', 'v0.6.0', '0.6.0', '0.6', ' core_v0.6.0 '])
      expect(megatronCoreVersion(text)).toEqual([0, 6, 0]);
    expect(megatronCoreVersion('core_v0.12.0rc3')).toEqual([0, 12, 0]);
    expect(config({ frameworkRelease: 'core_r0.6.0' }).stack.frameworkRelease).toBe('core_r0.6.0');
  });

  it('bad text is an error naming the field, in words', () => {
    expect(errorsOf({ frameworkRelease: 'six' })).toEqual([
      'training.frameworkRelease: "six" is not a Megatron-LM release tag: write it as "core_v0.6.0", "core_r0.6.0", "v0.6.0" or "0.6.0"',
    ]);
    expect(errorsOf({ frameworkRelease: 0.6 })[0]).toMatch(/^training\.frameworkRelease: must be a Megatron-LM release tag as text/);
    expect(errorsOf({ frameworkRelease: 'core_v0.6.0', framework: 'torchtitan' })).toEqual([
      'training.frameworkRelease: the engine models the releases of Megatron-LM only (training.framework "megatron"), not of "torchtitan"',
    ]);
    expect(megatronCoreVersion('core_v0.6.0-beta')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { estimateConfig } from '../estimate.ts';
import { hostMemory, stageHostBytes } from './host.ts';

// Activation offload (training.activationOffloadLayers, Megatron --cpu-offloading-num-layers) keeps the offloaded
// layers' saved tensors in pinned host memory (activations.ts offloadedActivationBytes). Hand derivation on
// Korthikanti et al. 2022 (arXiv 2205.05198) Table 2's own shape: multi-head attention, a 4h GeLU MLP, 16-bit
// activations with dropout masks, selective recompute of the attention core: 34 · s · b · h / t per layer.
// s 2048, b 1, h 1024, t 1: 34 · 2048 · 1024 = 71,303,168 bytes per layer and micro-batch.
const LAYER_BYTES = 34 * 2048 * 1024;

function doc(pp: number, offloadLayers: number, extra: Record<string, unknown> = {}) {
  return {
    version: 1,
    model: {
      name: 'Korthikanti shape',
      layers: 4,
      hidden: 1024,
      heads: 8,
      kvHeads: 8,
      ffnHidden: 4096,
      ffnType: 'gelu',
      vocab: 32000,
      tiedEmbeddings: false,
    },
    training: {
      seqLen: 2048,
      globalBatch: 8,
      microBatch: 1,
      precision: 'bf16',
      recompute: 'selective',
      framework: 'megatron',
      dropout: true,
      activationOffloadLayers: offloadLayers,
      ...extra,
    },
    parallel: { tp: 1, pp, dp: 1, zero: 1, schedule: '1f1b' },
    cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: pp },
  };
}

function config(raw: unknown): RunConfig {
  const parsed = parseDocument(raw);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('activation offload on the host (training.activationOffloadLayers)', () => {
  it("holds the offloaded layers' saved tensors of the one micro-batch in flight (no pipeline)", () => {
    expect(stageHostBytes(config(doc(1, 2)))).toEqual([2 * LAYER_BYTES]);
    expect(2 * LAYER_BYTES).toBe(142_606_336);
  });

  it('holds them for every micro-batch a 1F1B stage has in flight (stage 0 of 2: two, stage 1: one)', () => {
    const c = config(doc(2, 1));
    expect(stageHostBytes(c)).toEqual([2 * LAYER_BYTES, LAYER_BYTES]);
    // The node holds both GPUs (2 < 8 per node), each counted at the most any stage puts there.
    expect(hostMemory(c)).toMatchObject({ perGpu: 2 * LAYER_BYTES, perNode: 2 * 2 * LAYER_BYTES });
  });

  it('adds to what optimizer offload keeps, and is nothing without activation offload', () => {
    expect(stageHostBytes(config(doc(1, 0)))).toEqual([0]);
    const states = stageHostBytes(config(doc(1, 0, { offload: { optimizer: true, parameters: false } })))[0] ?? NaN;
    const both = stageHostBytes(config(doc(1, 2, { offload: { optimizer: true, parameters: false } })))[0] ?? NaN;
    expect(states).toBeGreaterThan(0);
    expect(both - states).toBe(2 * LAYER_BYTES);
  });

  it('a node whose CPU memory cannot hold it does not fit', () => {
    const small = config({ ...doc(1, 2), cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 1, hostMemoryGiB: 0.1 } });
    expect(estimateConfig(small).memory.fits).toBe(false);
    expect(estimateConfig(config(doc(1, 2))).memory.fits).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import {
  chunkLayerCounts,
  expertDataParallel,
  expertTensorParallel,
  layerGpuParameters,
  parameterCounts,
  pipelineLayout,
  stageGpuParameters,
} from './params.ts';
import type { ModelConfig, ParallelConfig } from '../input/index.ts';

function model(o: Partial<ModelConfig>): ModelConfig {
  return {
    name: 'test',
    layers: 2,
    hidden: 64,
    heads: 4,
    kvHeads: 4,
    headDim: 16,
    ffnHidden: 256,
    ffnType: 'gelu',
    vocab: 1000,
    tiedEmbeddings: false,
    moe: null,
    mla: null,
    mtpLayers: 0,
    ...o,
  };
}

function parallel(o: Partial<ParallelConfig>): ParallelConfig {
  return { tp: 1, pp: 1, dp: 1, cp: 1, ep: 1, vpp: 1, sequenceParallel: false, zero: 0, schedule: '1f1b', ...o };
}

// Llama 3 70B (Meta config.json): 80 layers, h 8192, 64 heads, 8 KV heads, SwiGLU 28672, vocab 128256, untied.
const llama3_70b = model({
  layers: 80,
  hidden: 8192,
  heads: 64,
  kvHeads: 8,
  headDim: 128,
  ffnHidden: 28672,
  ffnType: 'swiglu',
  vocab: 128256,
});
// Mixtral 8x7B (Jiang et al. 2024, arXiv 2401.04088, table 1): 32 layers, h 4096, 32 heads, 8 KV, 8 experts top-2 of 14336, vocab 32000.
const mixtral = model({
  layers: 32,
  hidden: 4096,
  heads: 32,
  kvHeads: 8,
  headDim: 128,
  ffnHidden: 14336,
  ffnType: 'swiglu',
  vocab: 32000,
  moe: { experts: 8, topK: 2, expertFfnHidden: 14336, sharedExperts: 0, denseLayers: 0 },
});
// DeepSeek-V3 (config_671B.json, as in validation/published-runs.json's DeepSeek cases).
const deepseekV3 = model({
  layers: 61,
  hidden: 7168,
  heads: 128,
  kvHeads: 128,
  headDim: 128,
  ffnHidden: 18432,
  ffnType: 'swiglu',
  vocab: 129280,
  moe: { experts: 256, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 3 },
  mla: { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 },
  mtpLayers: 1,
});

const within = (actual: number, expected: number, fraction: number) =>
  expect(Math.abs(actual / expected - 1)).toBeLessThanOrEqual(fraction);

describe('parameter counts against published totals', () => {
  it('Llama 3 70B: 70.55B', () => {
    // Per layer: q,o 2·8192² = 134,217,728; k,v 2·8192·1024 = 16,777,216; MLP 3·8192·28672 = 704,643,072;
    // norms 2·8192 → 855,654,400. × 80 = 68,452,352,000; + embedding and output 2·128256·8192 = 2,101,346,304
    // + final norm 8192 = 70,553,706,496.
    expect(parameterCounts(llama3_70b).total).toBe(70_553_706_496);
    within(parameterCounts(llama3_70b).total, 70.55e9, 0.005);
  });

  it('Mixtral 8x7B: 46.7B total, 12.9B active (Mistral AI announcement)', () => {
    // Per layer: attention 41,943,040; experts 8·3·4096·14336 = 1,409,286,144; router 4096·8; norms 8192.
    const counts = parameterCounts(mixtral);
    expect(counts.total).toBe(46_702_792_704);
    within(counts.total, 46.7e9, 0.005);
    // Active: 2 of the 8 experts: 32·(41,943,040 + 352,321,536 + 32,768 + 8,192) + 262,148,096.
    within(counts.activePerToken, 12.9e9, 0.005);
  });

  it('DeepSeek-V3: 671B main model, 685B with the MTP module (README_WEIGHTS.md)', () => {
    // MLA attention: 7168·1536 + 1536·128·192 + 7168·576 + 512·128·256 + 128·128·7168 = 187,105,280.
    // Dense layer (3): + 3·7168·18432 + norms (2·7168 + 512 + 1536) = 583,483,392.
    // MoE layer (58): attention + router 7168·256 + 256·3·7168·2048 + shared 3·7168·2048 + norms = 11,507,286,016.
    // + embedding and head 2·129280·7168 + final norm = 671,026,404,352.
    const counts = parameterCounts(deepseekV3);
    within(counts.total, 671e9, 0.005);
    // MTP: one MoE layer + eh_proj 2·7168² + 3 norms = 11,610,067,968 ("11.5B unique parameters").
    within(counts.mtp, 11.5e9, 0.01);
    // The 685B of the release counts the MTP module's stored copies of the shared embedding and head (0.9B each).
    within(counts.totalWithMtp + 2 * 129280 * 7168, 685e9, 0.005);
  });
});

describe('pipeline layout', () => {
  it('splits evenly when it can', () => {
    expect(chunkLayerCounts(8, 4)).toEqual([2, 2, 2, 2]);
  });

  it('gives the first, then the last chunk one layer fewer', () => {
    // 61 layers over 32 chunks: ceil = 2, 64 − 61 = 3 chunks get 1: first, last, second.
    const counts = chunkLayerCounts(61, 32);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(61);
    expect(Math.max(...counts)).toBe(2);
    expect([counts[0], counts[31], counts[1], counts[30]]).toEqual([1, 1, 1, 2]);
  });

  it('leaves the embedding and the loss a chunk each with layers + 2 chunks', () => {
    expect(chunkLayerCounts(4, 6)).toEqual([0, 1, 1, 1, 1, 0]);
  });

  it('puts the embedding on the first stage and the output on the last', () => {
    const stages = pipelineLayout(model({ layers: 8 }), parallel({ pp: 4 }));
    expect(stages.map((s) => s.layers)).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
      [6, 7],
    ]);
    expect(stages.map((s) => [s.embedding, s.output])).toEqual([
      [true, false],
      [false, false],
      [false, false],
      [false, true],
    ]);
  });

  it('interleaves chunks: virtual chunk j of stage i is pipeline chunk j·pp + i', () => {
    const stages = pipelineLayout(model({ layers: 8 }), parallel({ pp: 2, vpp: 2, schedule: 'interleaved-1f1b' }));
    expect(stages.map((s) => s.layers)).toEqual([
      [0, 1, 4, 5],
      [2, 3, 6, 7],
    ]);
  });

  it('DualPipe: each rank holds chunk i and chunk pp − 1 − i (two copies of the model over the pipeline)', () => {
    const stages = pipelineLayout(model({ layers: 8 }), parallel({ pp: 4, schedule: 'dualpipe' }));
    expect(stages[0]?.layers).toEqual([0, 1, 6, 7]);
    expect(stages[0]?.embedding && stages[0]?.output).toBe(true);
    expect(stages[1]?.layers).toEqual([2, 3, 4, 5]);
  });
});

describe('parameters per GPU', () => {
  it('divides matrices by tp and keeps norms whole', () => {
    const m = model({});
    // Layer matrices: 4·64² + 2·64·256 = 49,152; norms 128.
    expect(layerGpuParameters(m, 0, parallel({ tp: 4 }))).toEqual({ dense: 49_152 / 4 + 128, expert: 0 });
  });

  it('puts vocabulary-parallel embedding and output on the edge stages', () => {
    const m = model({});
    const layer = 49_152 / 2 + 128;
    const vocab = (1000 * 64) / 2;
    const [first, last] = stageGpuParameters(m, parallel({ tp: 2, pp: 2 }));
    expect(first?.dense).toBe(layer + vocab);
    expect(last?.dense).toBe(layer + vocab + 64);
  });

  it('keeps a copy of tied embeddings on the last stage only when pp > 1', () => {
    const tied = model({ tiedEmbeddings: true });
    const [single] = stageGpuParameters(tied, parallel({}));
    expect(single?.dense).toBe(2 * (49_152 + 128) + 64_000 + 64);
    const [, last] = stageGpuParameters(tied, parallel({ pp: 2 }));
    expect(last?.dense).toBe(49_152 + 128 + 64_000 + 64);
  });

  it('expert tensor parallelism: etp = tp when ep divides dp·cp, else 1', () => {
    // Moonlight recipe: tp 2, dp 4, ep 8 → expert parallelism spans the TP ranks, experts whole (expert_tensor_parallel_size=1).
    expect(expertTensorParallel({ tp: 2, dp: 4, cp: 1, ep: 8 })).toBe(1);
    expect(expertDataParallel({ tp: 2, dp: 4, cp: 1, ep: 8 })).toBe(1);
    // tp 2, dp 4, ep 2: 8 ranks = ep 2 × etp 2 × expert-dp 2.
    expect(expertTensorParallel({ tp: 2, dp: 4, cp: 1, ep: 2 })).toBe(2);
    expect(expertDataParallel({ tp: 2, dp: 4, cp: 1, ep: 2 })).toBe(2);
  });

  it('divides routed experts by ep·etp', () => {
    // Mixtral layer, tp 2, dp 4, ep 2 → etp 2: experts 1,409,286,144 / 4; the rest / 2, norms whole.
    const layer = layerGpuParameters(mixtral, 0, parallel({ tp: 2, dp: 4, ep: 2 }));
    expect(layer.expert).toBe(1_409_286_144 / 4);
    expect(layer.dense).toBe((41_943_040 + 32_768) / 2 + 8192);
  });

  it('puts the MTP module and its embedding copy on the last stage', () => {
    const p = parallel({ pp: 2 });
    const [, withMtp] = stageGpuParameters(model({ mtpLayers: 1 }), p);
    const [, without] = stageGpuParameters(model({}), p);
    // MTP: one layer (49,152 + 128) + projection 2·64² + 3 norms of 64, and the shared embedding 64,000.
    expect((withMtp?.dense ?? 0) - (without?.dense ?? 0)).toBe(49_280 + 8192 + 192 + 64_000);
  });
});

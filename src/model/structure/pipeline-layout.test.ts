import { describe, expect, it } from 'vitest';
import { layerGpuParameters, pipelineChunks, pipelineLayout, stageGpuParameters } from './params.ts';
import type { ModelConfig, ParallelConfig } from '../input/index.ts';

// DeepSeek-V3 (config_671B.json): 61 layers, the first 3 dense, 256 experts top-8 of FFN 2,048, MLA; one MTP layer.
const deepseekV3: ModelConfig = {
  name: 'DeepSeek-V3',
  layers: 61,
  hidden: 7168,
  heads: 128,
  kvHeads: 128,
  headDim: 128,
  ffnHidden: 18432,
  ffnType: 'swiglu',
  vocab: 129280,
  tiedEmbeddings: false,
  moe: { experts: 256, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 3 },
  mla: { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 },
  mtpLayers: 1,
};

const h100: ParallelConfig = { tp: 2, pp: 8, dp: 64, cp: 1, ep: 64, vpp: 4, sequenceParallel: true, zero: 1, schedule: 'interleaved-1f1b' };

describe('a stated Megatron layout decides what each stage holds', () => {
  it('DeepSeek-V3 "Et|(tt|)*30mL" at PP 8 × VPP 4 (Bridge v0.3.0 H100 preset)', () => {
    // Unrolled: chunk 0 "Et", chunks 1…30 "tt", chunk 31 "mL": 32 = 8 × 4 chunks, 1 + 60 = 61 t, one m.
    // Chunk g holds decoder layers 2g − 1 and 2g (g = 1…30); chunk 0 layer 0.
    // Rank r holds chunks r, r + 8, r + 16, r + 24 (layout[vpp_rank * pp + pp_rank]).
    // Rank 0: chunks 0, 8, 16, 24 = E + 1 t, 2 t, 2 t, 2 t = 7 layers: 0, 15–16, 31–32, 47–48.
    // Rank 7: chunks 7, 15, 23, 31 = 2 t, 2 t, 2 t, m + L = 6 layers: 13–14, 29–30, 45–46, with MTP and the output head.
    // Ranks 1…6: 4 chunks of 2 t = 8 layers.
    const stages = pipelineLayout(deepseekV3, { ...h100, pipelineLayout: 'Et|(tt|)*30mL' });
    expect(stages[0]?.layers).toEqual([0, 15, 16, 31, 32, 47, 48]);
    expect(stages[7]?.layers).toEqual([13, 14, 29, 30, 45, 46]);
    expect(stages.map((s) => s.layers.length)).toEqual([7, 8, 8, 8, 8, 8, 8, 6]);
    expect(stages.map((s) => [s.embedding, s.output])).toEqual([[true, false], ...Array(6).fill([false, false]), [false, true]]);
    // The even split gives chunks 0, 1 and 31 one layer (params.ts chunkLayerCounts): 7, 7, 8 … 8, 7 layers, rank 7 heavier by one.
    const even = pipelineLayout(deepseekV3, h100);
    expect(even.map((s) => s.layers.length)).toEqual([7, 7, 8, 8, 8, 8, 8, 7]);
  });

  it('DeepSeek-V3 "Et*4|(t*4|)*14tmL" at PP 2 × VPP 8 (Bridge v0.3.0 GB300 preset)', () => {
    // Chunks: "Etttt", 14 × "tttt", "tmL" = 16 = 2 × 8. Rank 0 holds the even chunks 0, 2, …, 14: 8 × 4 = 32 layers and E;
    // rank 1 the odd ones 1, 3, …, 15: 7 × 4 + 1 = 29 layers, MTP and the output.
    const stages = pipelineLayout(deepseekV3, { pp: 2, vpp: 8, schedule: 'interleaved-1f1b', pipelineLayout: 'Et*4|(t*4|)*14tmL' });
    expect(stages.map((s) => s.layers.length)).toEqual([32, 29]);
    expect(stages[1]?.layers.slice(-5)).toEqual([52, 53, 54, 55, 60]);
    expect(pipelineChunks(deepseekV3, { pp: 2, vpp: 8, schedule: 'interleaved-1f1b', pipelineLayout: 'Et*4|(t*4|)*14tmL' })).toEqual({
      counts: [4, ...Array<number>(14).fill(4), 1],
      embedding: 0,
      output: 15,
    });
  });

  it('a layout carried to other degrees is not used there: the even split (the parser refuses it in a document)', () => {
    const carried = pipelineLayout(deepseekV3, { ...h100, vpp: 2, pipelineLayout: 'Et|(tt|)*30mL' });
    expect(carried).toEqual(pipelineLayout(deepseekV3, { ...h100, vpp: 2 }));
  });

  it("moves each stage's parameters with its layers", () => {
    const p = { ...h100, pipelineLayout: 'Et|(tt|)*30mL' };
    const sum = (layers: readonly number[]) =>
      layers.reduce(
        (acc, i) => {
          const l = layerGpuParameters(deepseekV3, i, p);
          return { dense: acc.dense + l.dense, expert: acc.expert + l.expert };
        },
        { dense: 0, expert: 0 },
      );
    const stated = stageGpuParameters(deepseekV3, p);
    // Rank 1 holds no edge: its chunks 1, 9, 17, 25 are layers 1–2 (dense), 17–18, 33–34, 49–50 (MoE).
    expect(stated[1]).toEqual(sum([1, 2, 17, 18, 33, 34, 49, 50]));
    // Rank 7 gives up one MoE layer against the even split (7 → 6 decoder layers), the edges (head, MTP) unchanged.
    const even = stageGpuParameters(deepseekV3, h100);
    const moeLayer = layerGpuParameters(deepseekV3, 10, p);
    expect((even[7]?.expert ?? 0) - (stated[7]?.expert ?? 0)).toBeCloseTo(moeLayer.expert, 0);
    expect((even[7]?.dense ?? 0) - (stated[7]?.dense ?? 0)).toBeCloseTo(moeLayer.dense, 0);
  });
});

// The configuration the page opens on: Llama 3 70B on 64 H100 SXM (8 nodes), laid
// out as Meta-style TP 8 within a node × PP 4 × DP 2. Every field is written out, so
// a link made from it never depends on the engine's defaults.

import type { Doc } from './doc.ts';

/**
 * Llama 3 70B dimensions from Meta's published config.json
 * (meta-llama/Meta-Llama-3-70B: 80 layers, hidden 8192, 64 heads, 8 KV heads,
 * intermediate 28672, vocabulary 128256, untied embeddings).
 */
const LLAMA_3_70B = {
  name: 'Llama 3 70B',
  layers: 80,
  hidden: 8192,
  heads: 64,
  kvHeads: 8,
  headDim: 128,
  ffnHidden: 28672,
  ffnType: 'swiglu',
  vocab: 128256,
  tiedEmbeddings: false,
  moe: null,
  mla: null,
  mtpLayers: 0,
} as const;

/**
 * Token budget 1e12 (one trillion tokens), the engine's own default
 * (document.ts DEFAULT_TOKENS): Llama 3's 15T tokens on 64 GPUs would take years,
 * 1T gives a run length people plan for on a cluster of this size.
 */
export const DEFAULT_TOKEN_BUDGET = 1e12;

export const DEFAULT_DOCUMENT: Doc = {
  version: 1,
  model: LLAMA_3_70B,
  training: {
    seqLen: 8192,
    globalBatch: 256,
    microBatch: 1,
    tokens: DEFAULT_TOKEN_BUDGET,
    precision: 'bf16',
    optimizer: 'adam',
    masterWeights: true,
    gradDtype: 'fp32',
    recompute: 'selective',
    flashAttention: true,
    offload: { optimizer: false, parameters: false },
  },
  parallel: {
    tp: 8,
    pp: 4,
    dp: 2,
    cp: 1,
    ep: 1,
    vpp: 1,
    sequenceParallel: true,
    zero: 1,
    schedule: '1f1b',
  },
  cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 64 },
  cost: {
    usdPerGpuHour: 2.5,
    pue: 1.2,
    gridKgCo2PerKwh: 0.4,
    gpuMtbfHours: 50_000,
    checkpointWriteGBps: 50,
  },
};

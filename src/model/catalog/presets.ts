import type { ModelJson } from '../input/index.ts';
import { denseShape as dense } from './shape.ts';
import type { ModelPreset } from './types.ts';

// Model presets, as data: each `model` is the interchange document's `model` object
// (docs/spec/interchange.md), so a preset drops into a document unchanged.
// `seqLen` is the sequence length the model was pre-trained at (its main pre-training
// stage, not a later long-context stage), the preset's `training.seqLen`; `longestContext`
// is the longest context it was trained or extended to, a fact of the model shown beside the
// picker, never a training length the preset sets (issue 31 item 3). `source` names where
// every number comes from, `contextSource` where the two lengths do.

/** Megatron-LM's Mixtral recipe (examples/mixtral/train_mixtral_8x7b_distributed.sh): EP 8, one expert per rank. */
const MIXTRAL_EP = { ep: 8, source: "Megatron-LM's Mixtral training example (examples/mixtral), EXPERT_MODEL_PARALLEL_SIZE=8" } as const;

const LLAMA2_SOURCE =
  'Touvron et al. 2023, Llama 2 (arXiv 2307.09288), Table 1 (4k context, GQA for 70B only); shapes from meta-llama/Llama-2-*-hf config.json';
const LLAMA2_CONTEXT = 'Touvron et al. 2023, Llama 2 (arXiv 2307.09288), Table 1: context length 4k, pre-trained at it';
const LLAMA3_CONTEXT =
  'Dubey et al. 2024 (arXiv 2407.21783), section 3.4.1: initial pre-training at a sequence ' +
  "length of 8,192 (after 4,096 for the first 252M tokens), Llama 3's context window";
const LLAMA31_CONTEXT =
  'Dubey et al. 2024 (arXiv 2407.21783), section 3.4.1: pre-trained at a sequence length of 8,192; section 3.4.2: ' +
  'a long-context stage of about 800B tokens extends it to 128K (131,072 tokens)';
const LLAMA3_SOURCE =
  'Dubey et al. 2024, The Llama 3 Herd of Models (arXiv 2407.21783), Table 3; shapes from meta-llama/Meta-Llama-3*-hf config.json';

const llama3 = (size: '8B' | '70B' | '405B', version: '3' | '3.1'): ModelJson => {
  const name = `Llama ${version} ${size}`;
  if (size === '8B') return dense(name, 32, 4096, 32, 8, 14336, 128256);
  if (size === '70B') return dense(name, 80, 8192, 64, 8, 28672, 128256);
  return dense(name, 126, 16384, 128, 8, 53248, 128256);
};

export const MODEL_PRESETS: readonly ModelPreset[] = [
  {
    id: 'gpt3-175b',
    hubIds: [],
    params: { total: 175e9, source: 'Brown et al. 2020 (arXiv 2005.14165), Table 2.1: 175.0B' },
    model: dense('GPT-3 175B', 96, 12288, 96, 96, 49152, 51200, { ungated: true, tied: true }),
    seqLen: 2048,
    longestContext: 2048,
    contextSource: 'Brown et al. 2020 (arXiv 2005.14165), section 2.1: context window of 2048 tokens',
    source:
      'Brown et al. 2020 (arXiv 2005.14165), Table 2.1: 96 layers, d_model 12288, 96 heads of 128, context 2048. ' +
      "Vocabulary: Megatron-LM's padded 51,200 (the 50,257 GPT-2 BPE tokens padded to a multiple of 128 × t, as Narayanan 2021 " +
      "and Korthikanti 2022 use), not the paper's 50,257; input and output embeddings tied as in GPT-2.",
  },
  {
    id: 'llama2-7b',
    hubIds: ['meta-llama/Llama-2-7b-hf', 'meta-llama/Llama-2-7b-chat-hf', 'meta-llama/Llama-2-7b'],
    params: {
      total: 6.74e9,
      source:
        'Touvron et al. 2023 (arXiv 2307.09288): 7B; the Hugging Face Hub safetensors parameter count of meta-llama/Llama-2-7b-hf: 6,738,415,616',
    },
    model: dense('Llama 2 7B', 32, 4096, 32, 32, 11008, 32000),
    seqLen: 4096,
    longestContext: 4096,
    contextSource: LLAMA2_CONTEXT,
    source: LLAMA2_SOURCE,
  },
  {
    id: 'llama2-13b',
    hubIds: ['meta-llama/Llama-2-13b-hf', 'meta-llama/Llama-2-13b-chat-hf', 'meta-llama/Llama-2-13b'],
    params: {
      total: 13.02e9,
      source:
        'Touvron et al. 2023 (arXiv 2307.09288): 13B; the Hugging Face Hub safetensors parameter count of meta-llama/Llama-2-13b-hf: 13,015,864,320',
    },
    model: dense('Llama 2 13B', 40, 5120, 40, 40, 13824, 32000),
    seqLen: 4096,
    longestContext: 4096,
    contextSource: LLAMA2_CONTEXT,
    source: LLAMA2_SOURCE,
  },
  {
    id: 'llama2-70b',
    hubIds: ['meta-llama/Llama-2-70b-hf', 'meta-llama/Llama-2-70b-chat-hf', 'meta-llama/Llama-2-70b'],
    params: {
      total: 68.98e9,
      source:
        'Touvron et al. 2023 (arXiv 2307.09288): 70B; the Hugging Face Hub safetensors parameter count of meta-llama/Llama-2-70b-hf: 68,976,648,192',
    },
    model: dense('Llama 2 70B', 80, 8192, 64, 8, 28672, 32000),
    seqLen: 4096,
    longestContext: 4096,
    contextSource: LLAMA2_CONTEXT,
    source: LLAMA2_SOURCE,
  },
  {
    id: 'llama3-8b',
    hubIds: ['meta-llama/Meta-Llama-3-8B', 'meta-llama/Meta-Llama-3-8B-Instruct'],
    params: {
      total: 8.03e9,
      source: 'Dubey et al. 2024 (arXiv 2407.21783), Table 3: 8B; the Hugging Face Hub safetensors parameter count: 8,030,261,248',
    },
    model: llama3('8B', '3'),
    seqLen: 8192,
    longestContext: 8192,
    contextSource: LLAMA3_CONTEXT,
    source: `${LLAMA3_SOURCE}; pre-trained at 8K context`,
  },
  {
    id: 'llama3-70b',
    hubIds: ['meta-llama/Meta-Llama-3-70B', 'meta-llama/Meta-Llama-3-70B-Instruct'],
    params: {
      total: 70.55e9,
      source: 'Dubey et al. 2024 (arXiv 2407.21783), Table 3: 70B; the Hugging Face Hub safetensors parameter count: 70,553,706,496',
    },
    model: llama3('70B', '3'),
    seqLen: 8192,
    longestContext: 8192,
    contextSource: LLAMA3_CONTEXT,
    source: `${LLAMA3_SOURCE}; pre-trained at 8K context`,
  },
  {
    id: 'llama3-405b',
    hubIds: [],
    params: { total: 405e9, source: 'Dubey et al. 2024 (arXiv 2407.21783), Table 3: 405B' },
    model: llama3('405B', '3'),
    seqLen: 8192,
    longestContext: 8192,
    contextSource: LLAMA3_CONTEXT,
    source: `${LLAMA3_SOURCE}; 405B initial pre-training at 8K context (section 3.4.1)`,
  },
  // Llama 3.1: pre-trained at 8K; only the last 800B tokens, a long-context stage, reach 128K (section 3.4.2).
  {
    id: 'llama3.1-8b',
    hubIds: [
      'meta-llama/Llama-3.1-8B',
      'meta-llama/Llama-3.1-8B-Instruct',
      'meta-llama/Meta-Llama-3.1-8B',
      'meta-llama/Meta-Llama-3.1-8B-Instruct',
      'deepseek-ai/DeepSeek-R1-Distill-Llama-8B',
      'nvidia/Llama-3.1-Nemotron-Nano-8B-v1',
    ],
    params: {
      total: 8.03e9,
      source: 'Dubey et al. 2024 (arXiv 2407.21783), Table 3: 8B; the Hugging Face Hub safetensors parameter count: 8,030,261,248',
    },
    model: llama3('8B', '3.1'),
    seqLen: 8192,
    longestContext: 131072,
    contextSource: LLAMA31_CONTEXT,
    source: `${LLAMA3_SOURCE}; Llama 3.1 has the same shapes with 128K context (long-context pre-training, section 3.4.2)`,
  },
  {
    id: 'llama3.1-70b',
    hubIds: [
      'meta-llama/Llama-3.1-70B',
      'meta-llama/Llama-3.1-70B-Instruct',
      'meta-llama/Meta-Llama-3.1-70B',
      'meta-llama/Meta-Llama-3.1-70B-Instruct',
      'deepseek-ai/DeepSeek-R1-Distill-Llama-70B',
      'nvidia/Llama-3.1-Nemotron-70B-Instruct-HF',
    ],
    params: {
      total: 70.55e9,
      source: 'Dubey et al. 2024 (arXiv 2407.21783), Table 3: 70B; the Hugging Face Hub safetensors parameter count: 70,553,706,496',
    },
    model: llama3('70B', '3.1'),
    seqLen: 8192,
    longestContext: 131072,
    contextSource: LLAMA31_CONTEXT,
    source: `${LLAMA3_SOURCE}; Llama 3.1 has the same shapes with 128K context (section 3.4.2)`,
  },
  {
    id: 'llama3.1-405b',
    hubIds: [
      'meta-llama/Llama-3.1-405B',
      'meta-llama/Llama-3.1-405B-Instruct',
      'meta-llama/Meta-Llama-3.1-405B',
      'meta-llama/Meta-Llama-3.1-405B-Instruct',
    ],
    params: {
      total: 405.85e9,
      source: 'Dubey et al. 2024 (arXiv 2407.21783), Table 3: 405B; the Hugging Face Hub safetensors parameter count: 405,853,388,800',
    },
    model: llama3('405B', '3.1'),
    seqLen: 8192,
    longestContext: 131072,
    contextSource: LLAMA31_CONTEXT,
    source: `${LLAMA3_SOURCE}; Llama 3.1 has the same shapes with 128K context (section 3.4.2)`,
  },
  {
    id: 'mixtral-8x7b',
    hubIds: ['mistralai/Mixtral-8x7B-v0.1', 'mistralai/Mixtral-8x7B-Instruct-v0.1'],
    params: { total: 46.7e9, source: 'Jiang et al. 2024 (arXiv 2401.04088): 47B total (Mistral AI: 46.7B total, 12.9B active)' },
    model: {
      name: 'Mixtral 8x7B',
      layers: 32,
      hidden: 4096,
      heads: 32,
      kvHeads: 8,
      ffnHidden: 14336,
      ffnType: 'swiglu',
      vocab: 32000,
      tiedEmbeddings: false,
      moe: { experts: 8, topK: 2, expertFfnHidden: 14336, sharedExperts: 0, denseLayers: 0 },
      mla: null,
      mtpLayers: 0,
    },
    // The paper: "Mixtral was trained with a context size of 32k tokens" (section 2), its pre-training length and its longest.
    seqLen: 32768,
    longestContext: 32768,
    contextSource: 'Jiang et al. 2024, Mixtral of Experts (arXiv 2401.04088), section 2: trained with a context size of 32k tokens',
    authorsEp: MIXTRAL_EP,
    source:
      'Jiang et al. 2024, Mixtral of Experts (arXiv 2401.04088), Table 1: 32 layers, dim 4096, hidden 14336, 32 heads, 8 KV heads, ' +
      "vocab 32000, 8 experts, top-2, 32K context; Mistral AI's announcement: 46.7B total, 12.9B active",
  },
  {
    id: 'mixtral-8x22b',
    hubIds: ['mistralai/Mixtral-8x22B-v0.1', 'mistral-community/Mixtral-8x22B-v0.1', 'mistralai/Mixtral-8x22B-Instruct-v0.1'],
    params: { total: 141e9, source: 'Mistral AI, "Cheaper, Better, Faster, Stronger" (2024): 141B total, 39B active' },
    model: {
      name: 'Mixtral 8x22B',
      layers: 56,
      hidden: 6144,
      heads: 48,
      kvHeads: 8,
      ffnHidden: 16384,
      ffnType: 'swiglu',
      vocab: 32000,
      tiedEmbeddings: false,
      moe: { experts: 8, topK: 2, expertFfnHidden: 16384, sharedExperts: 0, denseLayers: 0 },
      mla: null,
      mtpLayers: 0,
    },
    // Mistral AI has not published the pre-training length; NeMo's pre-training recipe for this model trains at 4,096.
    seqLen: 4096,
    longestContext: 65536,
    contextSource:
      "Training length: NVIDIA NeMo's Mixtral 8x22B pre-training recipe (nemo/collections/llm/recipes/mixtral_8x22b.py, " +
      'pretrain_recipe: MockDataModule seq_length=4096), Mistral AI not having published its own; longest context 64K: Mistral AI, ' +
      '"Cheaper, Better, Faster, Stronger" (2024), and config.json max_position_embeddings 65536',
    authorsEp: MIXTRAL_EP,
    source:
      'mistral-community/Mixtral-8x22B-v0.1 config.json (56 layers, 6144, 48 heads, 8 KV heads, intermediate 16384, vocab 32000; ' +
      'the Instruct model\'s v3 tokenizer has 32768); Mistral AI, "Cheaper, Better, Faster, Stronger" (2024): 141B total, 39B active, 64K context',
  },
  {
    id: 'deepseek-v3',
    hubIds: [
      'deepseek-ai/DeepSeek-V3',
      'deepseek-ai/DeepSeek-V3-Base',
      'deepseek-ai/DeepSeek-V3-0324',
      'deepseek-ai/DeepSeek-R1',
      'deepseek-ai/DeepSeek-R1-0528',
      'deepseek-ai/DeepSeek-V3.1',
      'deepseek-ai/DeepSeek-V3.1-Base',
    ],
    params: {
      total: 671e9,
      source:
        'DeepSeek-V3 technical report (arXiv 2412.19437), section 1: 671B total (main model; 685B on the Hub with the 14B MTP module), 37B activated',
    },
    model: {
      name: 'DeepSeek-V3 671B',
      layers: 61,
      hidden: 7168,
      heads: 128,
      kvHeads: 128,
      ffnHidden: 18432,
      ffnType: 'swiglu',
      vocab: 129280,
      tiedEmbeddings: false,
      moe: { experts: 256, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 3 },
      mla: { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 },
      mtpLayers: 1,
    },
    seqLen: 4096,
    longestContext: 131072,
    contextSource:
      'DeepSeek-V3 technical report (arXiv 2412.19437): pre-trained at a sequence length of 4K (section 4.2), ' +
      'then two long-context stages extend it to 32K and to 128K with YaRN (section 4.3)',
    // DeepSeek-V3 technical report (arXiv 2412.19437), section 3.2.
    authorsEp: {
      ep: 64,
      source: 'DeepSeek-V3 technical report (arXiv 2412.19437), section 3.2: 64-way expert parallelism across 8 nodes, 16-way pipeline',
    },
    source:
      'deepseek-ai/DeepSeek-V3 inference/configs/config_671B.json (dim 7168, inter_dim 18432, moe_inter_dim 2048, 61 layers, ' +
      '3 dense, 128 heads, 256 routed + 1 shared experts, 8 activated, q_lora_rank 1536, kv_lora_rank 512, qk dims 128 + 64, v 128, ' +
      'vocab 129280); DeepSeek-V3 technical report (arXiv 2412.19437): 671B total, 1 MTP module (section 2.2), 4K pre-training length (section 4.2)',
  },
  {
    id: 'qwen2.5-72b',
    hubIds: ['Qwen/Qwen2.5-72B', 'Qwen/Qwen2.5-72B-Instruct', 'Qwen/Qwen2.5-Math-72B', 'Qwen/Qwen2.5-Math-72B-Instruct'],
    params: { total: 72.7e9, source: 'Qwen2.5 technical report (arXiv 2412.15115), Table 1, and the model card: 72.7B' },
    model: dense('Qwen2.5 72B', 80, 8192, 64, 8, 29568, 152064),
    seqLen: 4096,
    longestContext: 131072,
    contextSource:
      'Qwen2.5 technical report (arXiv 2412.15115), section 3.3: pre-trained at 4,096 tokens, extended to 32,768 in ' +
      'the final pre-training stage, and to 131,072 with YaRN and Dual Chunk Attention',
    source:
      'Qwen/Qwen2.5-72B config.json (80 layers, 8192, 64 heads, 8 KV heads, intermediate 29568, vocab 152064, untied; QKV biases not counted); ' +
      'Qwen2.5 technical report (arXiv 2412.15115): pre-trained at 4,096 tokens, then extended to 32,768; model card: 72.7B parameters',
  },
  {
    id: 'megatron-1t',
    hubIds: [],
    params: { total: 1008e9, source: 'Narayanan et al. 2021 (arXiv 2104.04473), Table 1, last row: 1008B' },
    model: dense('Megatron GPT 1T', 128, 25600, 160, 160, 102400, 51200, { ungated: true, tied: true }),
    seqLen: 2048,
    longestContext: 2048,
    contextSource: 'Narayanan et al. 2021 (arXiv 2104.04473), section 5.1: sequence length 2048',
    source:
      'Narayanan et al. 2021 (arXiv 2104.04473), Table 1, last row: 1008B parameters, 160 heads, hidden 25600, 128 layers ' +
      '(trained with t = 8, p = 64, batch 3072 on 3072 GPUs); V = 51200 and s = 2048 from section 5.1',
  },
];

/** The preset with this id, or undefined. */
export function findModelPreset(id: string): ModelPreset | undefined {
  return MODEL_PRESETS.find((preset) => preset.id === id);
}

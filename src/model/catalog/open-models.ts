import type { CatalogEntry } from './types.ts';
import { denseShape as dense, moeShape as moe, slidingWindowShape as windowed } from './shape.ts';

// The open models people train and fine-tune, beyond the presets (presets.ts): loaded
// lazily by the page (catalog/all.ts), imported by the launch-file importers. Each entry
// names where its shape comes from: litgpt's model definitions at a commit (LITGPT), or the
// model's config.json on the Hugging Face Hub (HUB). `params.total` is what the authors
// publish (model card, report or the Hub's safetensors count); the engine's own count must
// match it within 2 % (catalog.test.ts). QKV and other biases, and vision encoders, are not
// part of the engine's model: where a published total includes a vision tower, the text
// model's own total is given where the authors publish it, otherwise the gap is within 2 %.

const LITGPT_COMMIT = '26857050fe3ff627cd714fe92f5838f51a3d5efa';
const LITGPT = (name: string) =>
  `litgpt litgpt/config.py at commit ${LITGPT_COMMIT}, config "${name}" (n_layer, ` +
  `n_embd, n_head, n_query_groups, head_size, intermediate_size, padded_vocab_size)`;
const LITGPT_CONTEXT = (name: string, tokens: number) =>
  `litgpt config "${name}" block_size ${tokens} (at commit ${LITGPT_COMMIT}); pre-training length not set here`;
const HUB = (repo: string, fields: string) => `${repo} config.json on the Hugging Face Hub (main): ${fields}`;
const HUB_CONTEXT = (repo: string, tokens: number) =>
  `${repo} config.json max_position_embeddings ${tokens}; pre-training length not set here`;
const TIED = 'tie_word_embeddings true in its config.json';

function lit(
  id: string,
  name: string,
  hubIds: readonly string[],
  model: CatalogEntry['model'],
  total: number,
  totalSource: string,
  context: number,
  extra = '',
): CatalogEntry {
  return {
    id,
    model,
    hubIds,
    source: `${LITGPT(name)}${extra ? `; ${extra}` : ''}`,
    params: { total, source: totalSource },
    longestContext: context,
    contextSource: LITGPT_CONTEXT(name, context),
  };
}

function hub(
  id: string,
  repo: string,
  hubIds: readonly string[],
  model: CatalogEntry['model'],
  fields: string,
  total: number,
  totalSource: string,
  context: number,
): CatalogEntry {
  return {
    id,
    model,
    hubIds: [repo, ...hubIds],
    source: HUB(repo, fields),
    params: { total, source: totalSource },
    longestContext: context,
    contextSource: HUB_CONTEXT(repo, context),
  };
}

const Q25 = 'Qwen2.5 technical report (arXiv 2412.15115), Table 1, and the model card';
const Q3 = 'Qwen3 model card on the Hugging Face Hub ("Number of Parameters")';
const G2 = 'Gemma 2 report (arXiv 2408.00118), Table 2: embedding + non-embedding parameters';
const G3 =
  'Gemma 3 technical report (arXiv 2503.19786), Table 1: embedding + non-embedding parameters (the text model; the 417M vision encoder left out)';
const HUB_COUNT = "the Hugging Face Hub's safetensors parameter count of the model";

// prettier-ignore
const LLAMA: readonly CatalogEntry[] = [
  lit('llama3.2-1b', 'Llama-3.2-1B', ['meta-llama/Llama-3.2-1B', 'meta-llama/Llama-3.2-1B-Instruct'],
    dense('Llama 3.2 1B', 16, 2048, 32, 8, 8192, 128256, { tied: true }), 1.24e9, 'Llama 3.2 model card: 1.23B parameters (Hub safetensors: 1,235,814,400)',
    131072, TIED),
  lit('llama3.2-3b', 'Llama-3.2-3B', ['meta-llama/Llama-3.2-3B', 'meta-llama/Llama-3.2-3B-Instruct'],
    dense('Llama 3.2 3B', 28, 3072, 24, 8, 8192, 128256, { tied: true }), 3.21e9, 'Llama 3.2 model card: 3.21B parameters', 131072, TIED),
  lit('llama3.3-70b', 'Llama-3.3-70B-Instruct', ['meta-llama/Llama-3.3-70B-Instruct'], dense('Llama 3.3 70B', 80, 8192, 64, 8, 28672, 128256), 70.6e9,
    'Llama 3.3 model card: 70B (Hub safetensors: 70,553,706,496)', 131072),
  hub('llama4-scout', 'meta-llama/Llama-4-Scout-17B-16E', ['meta-llama/Llama-4-Scout-17B-16E-Instruct'],
    moe(dense('Llama 4 Scout 17B-16E', 48, 5120, 40, 8, 16384, 202048, { headDim: 128 }), { experts: 16, topK: 1, expertFfnHidden: 8192, sharedExperts: 1 }),
    'text_config: 48 layers, hidden 5120, 40 heads, 8 KV heads, head_dim 128, ' +
    'intermediate_size 8192 (experts and shared expert), intermediate_size_mlp 16384, ' +
    '16 local experts, 1 per token, vocab 202048, interleave_moe_layer_step 1', 109e9,
    'Meta, Llama 4 model card: 109B total parameters, 17B active (with the vision encoder)', 10485760),
  hub('llama4-maverick', 'meta-llama/Llama-4-Maverick-17B-128E',
    ['meta-llama/Llama-4-Maverick-17B-128E-Instruct', 'meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8'],
    moe(dense('Llama 4 Maverick 17B-128E', 48, 5120, 40, 8, 16384, 202048, { headDim: 128 }),
    { experts: 128, topK: 1, expertFfnHidden: 8192, sharedExperts: 1, denseLayers: 24 }),
    'text_config: 48 layers, hidden 5120, 40 heads, 8 KV heads, head_dim 128, 128 local ' +
    'experts, 1 per token, intermediate_size 8192, intermediate_size_mlp 16384, vocab 202048; ' +
    'interleave_moe_layer_step 2 (every other layer is MoE: here the 24 dense ' +
    'layers are counted as model.moe.denseLayers, the same weights in another order)', 400e9, 'Meta, Llama 4 model card: 400B total parameters, 17B active',
    1048576),
  lit('tinyllama-1.1b', 'tiny-llama-1.1b',
    ['TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T', 'TinyLlama/TinyLlama-1.1B-Chat-v1.0', 'TinyLlama/TinyLlama_v1.1'],
    dense('TinyLlama 1.1B', 22, 2048, 32, 4, 5632, 32000), 1.1e9, 'Zhang et al. 2024, TinyLlama (arXiv 2401.02385): 1.1B parameters', 2048),
];

// prettier-ignore
const QWEN: readonly CatalogEntry[] = [
  lit('qwen2.5-0.5b', 'Qwen2.5-0.5B', ['Qwen/Qwen2.5-0.5B', 'Qwen/Qwen2.5-0.5B-Instruct', 'Qwen/Qwen2.5-Coder-0.5B'],
    dense('Qwen2.5 0.5B', 24, 896, 14, 2, 4864, 151936, { tied: true }), 0.49e9, `${Q25}: 0.49B`, 32768, TIED),
  lit('qwen2.5-1.5b', 'Qwen2.5-1.5B',
    ['Qwen/Qwen2.5-1.5B', 'Qwen/Qwen2.5-1.5B-Instruct', 'Qwen/Qwen2.5-Coder-1.5B', 'Qwen/Qwen2.5-Math-1.5B', 'deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B'],
    dense('Qwen2.5 1.5B', 28, 1536, 12, 2, 8960, 151936, { tied: true }), 1.54e9, `${Q25}: 1.54B`, 32768, TIED),
  lit('qwen2.5-3b', 'Qwen2.5-3B', ['Qwen/Qwen2.5-3B', 'Qwen/Qwen2.5-3B-Instruct', 'Qwen/Qwen2.5-Coder-3B'],
    dense('Qwen2.5 3B', 36, 2048, 16, 2, 11008, 151936, { tied: true }), 3.09e9, `${Q25}: 3.09B`, 32768, TIED),
  lit('qwen2.5-7b', 'Qwen2.5-7B', ['Qwen/Qwen2.5-7B', 'Qwen/Qwen2.5-7B-Instruct', 'Qwen/Qwen2.5-Coder-7B', 'Qwen/Qwen2.5-Math-7B',
    'Qwen/Qwen2.5-7B-Instruct-1M', 'deepseek-ai/DeepSeek-R1-Distill-Qwen-7B'], dense('Qwen2.5 7B', 28, 3584, 28, 4, 18944, 152064), 7.61e9, `${Q25}: 7.61B`,
    32768),
  lit('qwen2.5-14b', 'Qwen2.5-14B',
    ['Qwen/Qwen2.5-14B', 'Qwen/Qwen2.5-14B-Instruct', 'Qwen/Qwen2.5-Coder-14B', 'Qwen/Qwen2.5-14B-Instruct-1M', 'deepseek-ai/DeepSeek-R1-Distill-Qwen-14B'],
    dense('Qwen2.5 14B', 48, 5120, 40, 8, 13824, 152064), 14.7e9, `${Q25}: 14.7B`, 32768),
  lit('qwen2.5-32b', 'Qwen2.5-32B', ['Qwen/Qwen2.5-32B', 'Qwen/Qwen2.5-32B-Instruct', 'Qwen/Qwen2.5-Coder-32B', 'Qwen/QwQ-32B', 'Qwen/QwQ-32B-Preview',
    'deepseek-ai/DeepSeek-R1-Distill-Qwen-32B'], dense('Qwen2.5 32B', 64, 5120, 40, 8, 27648, 152064), 32.5e9, `${Q25}: 32.5B`, 32768),
  lit('qwen3-0.6b', 'Qwen3-0.6B', ['Qwen/Qwen3-0.6B', 'Qwen/Qwen3-0.6B-Base'],
    dense('Qwen3 0.6B', 28, 1024, 16, 8, 3072, 151936, { headDim: 128, tied: true }), 0.6e9, `${Q3}: 0.6B`, 40960, TIED),
  lit('qwen3-1.7b', 'Qwen3-1.7B', ['Qwen/Qwen3-1.7B', 'Qwen/Qwen3-1.7B-Base'],
    dense('Qwen3 1.7B', 28, 2048, 16, 8, 6144, 151936, { headDim: 128, tied: true }), 1.7e9, `${Q3}: 1.7B`, 40960, TIED),
  lit('qwen3-4b', 'Qwen3-4B', ['Qwen/Qwen3-4B', 'Qwen/Qwen3-4B-Base', 'Qwen/Qwen3-4B-Instruct-2507', 'Qwen/Qwen3-4B-Thinking-2507'],
    dense('Qwen3 4B', 36, 2560, 32, 8, 9728, 151936, { headDim: 128, tied: true }), 4.0e9, `${Q3}: 4.0B`, 40960, TIED),
  lit('qwen3-8b', 'Qwen3-8B', ['Qwen/Qwen3-8B', 'Qwen/Qwen3-8B-Base', 'deepseek-ai/DeepSeek-R1-0528-Qwen3-8B'],
    dense('Qwen3 8B', 36, 4096, 32, 8, 12288, 151936), 8.2e9, `${Q3}: 8.2B`, 40960),
  lit('qwen3-14b', 'Qwen3-14B', ['Qwen/Qwen3-14B', 'Qwen/Qwen3-14B-Base'], dense('Qwen3 14B', 40, 5120, 40, 8, 17408, 151936), 14.8e9, `${Q3}: 14.8B`, 40960),
  lit('qwen3-32b', 'Qwen3-32B', ['Qwen/Qwen3-32B'], dense('Qwen3 32B', 64, 5120, 64, 8, 25600, 151936, { headDim: 128 }), 32.8e9, `${Q3}: 32.8B`, 40960),
  lit('qwen3-30b-a3b', 'Qwen3-30B-A3B', ['Qwen/Qwen3-30B-A3B', 'Qwen/Qwen3-30B-A3B-Base', 'Qwen/Qwen3-30B-A3B-Instruct-2507',
    'Qwen/Qwen3-30B-A3B-Thinking-2507', 'Qwen/Qwen3-Coder-30B-A3B-Instruct'],
    moe(dense('Qwen3 30B-A3B', 48, 2048, 32, 4, 6144, 151936, { headDim: 128 }), { experts: 128, topK: 8, expertFfnHidden: 768 }), 30.5e9,
    `${Q3}: 30.5B total, 3.3B activated`, 40960, 'n_expert 128, n_expert_per_token 8, moe_intermediate_size 768, every layer MoE'),
  lit('qwen3-235b-a22b', 'Qwen3-235B-A22B', ['Qwen/Qwen3-235B-A22B', 'Qwen/Qwen3-235B-A22B-Instruct-2507', 'Qwen/Qwen3-235B-A22B-Thinking-2507'],
    moe(dense('Qwen3 235B-A22B', 94, 4096, 64, 4, 12288, 151936, { headDim: 128 }), { experts: 128, topK: 8, expertFfnHidden: 1536 }), 235e9,
    `${Q3}: 235B total, 22B activated`, 40960, 'n_expert 128, n_expert_per_token 8, moe_intermediate_size 1536, every layer MoE'),
];

const GEMMA_TIED = 'Gemma ties its input and output embeddings; GeGLU FFN (3 matrices, counted as swiglu)';
/** HF layer_types periods: Gemma 2 and GPT-OSS alternate from a sliding layer 0, Gemma 3 slides 5 layers for each full one. */
const ALTERNATE = ['sliding_attention', 'full_attention'] as const;
const FIVE_TO_ONE = [
  'sliding_attention',
  'sliding_attention',
  'sliding_attention',
  'sliding_attention',
  'sliding_attention',
  'full_attention',
] as const;
const G2_WINDOW =
  `${GEMMA_TIED}; sliding window 4096 on every other layer from layer 0 ` +
  '(Gemma 2 report, arXiv 2408.00118, section 2; config.json sliding_window 4096)';
const G3_WINDOW =
  `${GEMMA_TIED}; sliding window 1024 on 5 layers of every 6 (Gemma 3 report, arXiv 2503.19786, section 2; ` +
  'config.json sliding_window 1024, sliding_window_pattern 6 by default)';
// prettier-ignore
const GEMMA: readonly CatalogEntry[] = [
  lit('gemma2-2b', 'Gemma-2-2b', ['google/gemma-2-2b', 'google/gemma-2-2b-it'],
    windowed(dense('Gemma 2 2B', 26, 2304, 8, 4, 9216, 256000, { headDim: 256, tied: true }), 4096, ALTERNATE),
    2.614e9, `${G2}: 590M + 2,025M`, 8192, G2_WINDOW),
  lit('gemma2-9b', 'Gemma-2-9b', ['google/gemma-2-9b', 'google/gemma-2-9b-it'],
    windowed(dense('Gemma 2 9B', 42, 3584, 16, 8, 14336, 256000, { headDim: 256, tied: true }), 4096, ALTERNATE),
    9.242e9, `${G2}: 918M + 8,324M`, 8192, G2_WINDOW),
  lit('gemma2-27b', 'Gemma-2-27b', ['google/gemma-2-27b', 'google/gemma-2-27b-it'],
    windowed(dense('Gemma 2 27B', 46, 4608, 32, 16, 36864, 256000, { headDim: 128, tied: true }), 4096, ALTERNATE),
    27.228e9, `${G2}: 1,180M + 26,047M`, 8192, G2_WINDOW),
  lit('gemma3-1b', 'Gemma-3-1b-it', ['google/gemma-3-1b-pt', 'google/gemma-3-1b-it'],
    dense('Gemma 3 1B', 26, 1152, 4, 1, 6912, 262144, { headDim: 256, tied: true }), 1.0e9, `${G3}: 302M + 698M`, 131072, GEMMA_TIED),
  lit('gemma3-4b', 'Gemma-3-4b-it', ['google/gemma-3-4b-pt', 'google/gemma-3-4b-it'],
    windowed(dense('Gemma 3 4B', 34, 2560, 8, 4, 10240, 262144, { headDim: 256, tied: true }), 1024, FIVE_TO_ONE),
    3.884e9, `${G3}: 675M + 3,209M`, 131072, G3_WINDOW),
  lit('gemma3-12b', 'Gemma-3-12b-it', ['google/gemma-3-12b-pt', 'google/gemma-3-12b-it'],
    windowed(dense('Gemma 3 12B', 48, 3840, 16, 8, 15360, 262144, { headDim: 256, tied: true }), 1024, FIVE_TO_ONE),
    11.771e9, `${G3}: 1,012M + 10,759M`, 131072, G3_WINDOW),
  lit('gemma3-27b', 'Gemma-3-27b-it', ['google/gemma-3-27b-pt', 'google/gemma-3-27b-it'],
    windowed(dense('Gemma 3 27B', 62, 5376, 32, 16, 21504, 262144, { headDim: 128, tied: true }), 1024, FIVE_TO_ONE),
    27.016e9, `${G3}: 1,416M + 25,600M`, 131072, G3_WINDOW),
];

// prettier-ignore
const MISTRAL: readonly CatalogEntry[] = [
  lit('mistral-7b-v0.1', 'Mistral-7B-v0.1',
    ['mistralai/Mistral-7B-v0.1', 'mistralai/Mistral-7B-Instruct-v0.1', 'mistralai/Mistral-7B-Instruct-v0.2', 'HuggingFaceH4/zephyr-7b-beta'],
    windowed(dense('Mistral 7B v0.1', 32, 4096, 32, 8, 14336, 32000), 4096),
    7.24e9, `${HUB_COUNT} (7,241,732,096); Jiang et al. 2023 (arXiv 2310.06825): 7B`, 4096,
    'sliding window 4096 on every layer (Jiang et al. 2023, section 2, Table 1 window_size; config.json sliding_window 4096)'),
  lit('mistral-7b-v0.3', 'Mistral-7B-v0.3', ['mistralai/Mistral-7B-v0.3', 'mistralai/Mistral-7B-Instruct-v0.3', 'mistralai/mathstral-7B-v0.1'],
    dense('Mistral 7B v0.3', 32, 4096, 32, 8, 14336, 32768), 7.25e9, `${HUB_COUNT} (7,248,023,552)`, 32768, 'vocabulary extended to 32768 (v3 tokenizer)'),
  hub('mistral-nemo-12b', 'mistralai/Mistral-Nemo-Base-2407', ['mistralai/Mistral-Nemo-Instruct-2407'],
    dense('Mistral NeMo 12B', 40, 5120, 32, 8, 14336, 131072, { headDim: 128 }),
    '40 layers, hidden 5120, 32 heads, 8 KV heads, head_dim 128, intermediate 14336, vocab 131072, untied', 12.25e9,
    `${HUB_COUNT} (12,247,782,400); Mistral AI, "Mistral NeMo" (2024): 12B`, 1024000),
  hub('mistral-small-24b', 'mistralai/Mistral-Small-24B-Base-2501', ['mistralai/Mistral-Small-24B-Instruct-2501'],
    dense('Mistral Small 3 24B', 40, 5120, 32, 8, 32768, 131072, { headDim: 128 }),
    '40 layers, hidden 5120, 32 heads, 8 KV heads, head_dim 128, intermediate 32768, vocab 131072, untied', 23.57e9,
    `${HUB_COUNT} (23,572,403,200); Mistral AI, "Mistral Small 3" (2025): 24B`, 32768),
  hub('codestral-22b', 'mistralai/Codestral-22B-v0.1', [], dense('Codestral 22B', 56, 6144, 48, 8, 16384, 32768),
    '56 layers, hidden 6144, 48 heads, 8 KV heads, intermediate 16384, vocab 32768, untied', 22.2e9,
    `${HUB_COUNT} (22,247,282,688); Mistral AI, "Codestral" (2024): 22B`, 32768),
  lit('mistral-large-2407', 'Mistral-Large-Instruct-2407', ['mistralai/Mistral-Large-Instruct-2407', 'mistralai/Mistral-Large-Instruct-2411'],
    dense('Mistral Large 2 123B', 88, 12288, 96, 8, 28672, 32768), 122.6e9, `${HUB_COUNT} (122,610,069,504); Mistral AI, "Large Enough" (2024): 123B`, 32768),
];

// prettier-ignore
const PHI: readonly CatalogEntry[] = [
  lit('phi3-mini', 'Phi-3-mini-4k-instruct', ['microsoft/Phi-3-mini-4k-instruct', 'microsoft/Phi-3-mini-128k-instruct', 'microsoft/Phi-3.5-mini-instruct'],
    dense('Phi-3 mini 3.8B', 32, 3072, 32, 32, 8192, 32064), 3.82e9,
    'Abdin et al. 2024, Phi-3 technical report (arXiv 2404.14219): 3.8B parameters (Hub safetensors: 3,821,079,552)', 4096),
  hub('phi3-medium', 'microsoft/Phi-3-medium-4k-instruct', ['microsoft/Phi-3-medium-128k-instruct'],
    dense('Phi-3 medium 14B', 40, 5120, 40, 10, 17920, 32064), '40 layers, hidden 5120, 40 heads, 10 KV heads, intermediate 17920, vocab 32064, untied',
    13.96e9, 'Phi-3 technical report (arXiv 2404.14219): 14B parameters (Hub safetensors: 13,960,238,080)', 4096),
  hub('phi3.5-moe', 'microsoft/Phi-3.5-MoE-instruct', [],
    moe(dense('Phi-3.5 MoE 16x3.8B', 32, 4096, 32, 8, 6400, 32064), { experts: 16, topK: 2, expertFfnHidden: 6400 }),
    '32 layers, hidden 4096, 32 heads, 8 KV heads, 16 local experts, 2 per token, intermediate 6400, vocab 32064, untied', 41.9e9,
    'Phi-3.5-MoE model card: 42B total parameters, 6.6B active (Hub safetensors: 41,873,153,344)', 131072),
  lit('phi4-14b', 'phi-4', ['microsoft/phi-4', 'microsoft/Phi-4-reasoning', 'microsoft/Phi-4-reasoning-plus'],
    dense('Phi-4 14B', 40, 5120, 40, 10, 17920, 100352), 14.66e9,
    'Abdin et al. 2024, Phi-4 technical report (arXiv 2412.08905): 14B (Hub safetensors: 14,659,507,200)', 16384),
  lit('phi4-mini', 'Phi-4-mini-instruct', ['microsoft/Phi-4-mini-instruct', 'microsoft/Phi-4-mini-reasoning'],
    dense('Phi-4 mini 3.8B', 32, 3072, 24, 8, 8192, 200064, { tied: true }), 3.84e9,
    'Phi-4-mini model card: 3.8B parameters (Hub safetensors: 3,836,021,760)', 131072, TIED),
];

const MLA_V3 = { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 } as const;
// prettier-ignore
const DEEPSEEK_KIMI: readonly CatalogEntry[] = [
  hub('deepseek-v2', 'deepseek-ai/DeepSeek-V2',
    ['deepseek-ai/DeepSeek-V2-Chat', 'deepseek-ai/DeepSeek-V2.5', 'deepseek-ai/DeepSeek-Coder-V2-Base', 'deepseek-ai/DeepSeek-Coder-V2-Instruct'],
    moe(dense('DeepSeek-V2 236B', 60, 5120, 128, 128, 12288, 102400), { experts: 160, topK: 6, expertFfnHidden: 1536, sharedExperts: 2, denseLayers: 1 },
    MLA_V3),
    '60 layers, hidden 5120, 128 heads, q_lora_rank 1536, kv_lora_rank 512, qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128, intermediate 12288, ' +
    'moe_intermediate_size 1536, 160 routed + 2 shared experts, 6 per token, first_k_dense_replace 1, vocab 102400', 236e9,
    'DeepSeek-V2 technical report (arXiv 2405.04434): 236B total, 21B activated', 163840),
  hub('deepseek-v2-lite', 'deepseek-ai/DeepSeek-V2-Lite',
    ['deepseek-ai/DeepSeek-V2-Lite-Chat', 'deepseek-ai/DeepSeek-Coder-V2-Lite-Base', 'deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct'],
    moe(dense('DeepSeek-V2-Lite 16B', 27, 2048, 16, 16, 10944, 102400), { experts: 64, topK: 6, expertFfnHidden: 1408, sharedExperts: 2, denseLayers: 1 },
    { qLoraRank: 0, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 }),
    '27 layers, hidden 2048, 16 heads, q_lora_rank null (queries not compressed), kv_lora_rank 512, qk dims 128 + 64, v 128, intermediate 10944, ' +
    'moe_intermediate_size 1408, 64 routed + 2 shared experts, 6 per token, first_k_dense_replace 1, vocab 102400', 15.7e9,
    'DeepSeek-V2 technical report (arXiv 2405.04434), appendix B: DeepSeek-V2-Lite, 15.7B total, 2.4B activated', 163840),
  hub('kimi-k2', 'moonshotai/Kimi-K2-Base', ['moonshotai/Kimi-K2-Instruct', 'moonshotai/Kimi-K2-Instruct-0905', 'moonshotai/Kimi-K2-Thinking'],
    moe(dense('Kimi K2 1T', 61, 7168, 64, 64, 18432, 163840), { experts: 384, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 1 }, MLA_V3),
    '61 layers, hidden 7168, 64 heads, q_lora_rank 1536, kv_lora_rank 512, qk dims 128 + 64, v 128, intermediate 18432, moe_intermediate_size 2048, ' +
    '384 routed + 1 shared experts, 8 per token, first_k_dense_replace 1, vocab 163840, num_nextn_predict_layers 0', 1.04e12,
    'Kimi K2 technical report (arXiv 2507.20534): 1.04 trillion total parameters, 32B activated', 131072),
];

// prettier-ignore
const GPT_OSS: readonly CatalogEntry[] = [
  hub('gpt-oss-120b', 'openai/gpt-oss-120b', [],
    windowed(moe(dense('gpt-oss-120b', 36, 2880, 64, 8, 2880, 201088, { headDim: 64 }), { experts: 128, topK: 4, expertFfnHidden: 2880 }), 128, ALTERNATE),
    '36 layers, hidden 2880, 64 heads, 8 KV heads, head_dim 64, 128 local experts, 4 per ' +
    'token, intermediate 2880, vocab 201088, untied, sliding_window 128 on layer_types sliding/full alternating ' +
    '(attention sinks and biases not counted)', 116.83e9,
    'OpenAI, gpt-oss-120b & gpt-oss-20b model card (arXiv 2508.10925), Table 1: 116.83B total, 5.13B active', 131072),
  hub('gpt-oss-20b', 'openai/gpt-oss-20b', [],
    windowed(moe(dense('gpt-oss-20b', 24, 2880, 64, 8, 2880, 201088, { headDim: 64 }), { experts: 32, topK: 4, expertFfnHidden: 2880 }), 128, ALTERNATE),
    '24 layers, hidden 2880, 64 heads, 8 KV heads, head_dim 64, 32 local experts, 4 per ' +
    'token, intermediate 2880, vocab 201088, untied, sliding_window 128 on layer_types sliding/full alternating ' +
    '(attention sinks and biases not counted)', 20.91e9,
    'OpenAI, gpt-oss-120b & gpt-oss-20b model card (arXiv 2508.10925), Table 1: 20.91B total, 3.61B active', 131072),
];

// prettier-ignore
const OLMO: readonly CatalogEntry[] = [
  hub('olmo2-1b', 'allenai/OLMo-2-0425-1B', ['allenai/OLMo-2-0425-1B-Instruct', 'allenai/OLMo-2-0425-1B-SFT'],
    dense('OLMo 2 1B', 16, 2048, 16, 16, 8192, 100352), '16 layers, hidden 2048, 16 heads, 16 KV heads, intermediate 8192, vocab 100352, untied', 1.48e9,
    `${HUB_COUNT} (1,484,916,736)`, 4096),
  lit('olmo2-7b', 'OLMo-2-1124-7B', ['allenai/OLMo-2-1124-7B', 'allenai/OLMo-2-1124-7B-Instruct', 'allenai/OLMo-2-1124-7B-SFT', 'allenai/OLMo-2-1124-7B-DPO'],
    dense('OLMo 2 7B', 32, 4096, 32, 32, 11008, 100352), 7.3e9, `OLMo 2 report (arXiv 2501.00656): 7B; ${HUB_COUNT} (7,298,617,344)`, 4096),
  lit('olmo2-13b', 'OLMo-2-1124-13B',
    ['allenai/OLMo-2-1124-13B', 'allenai/OLMo-2-1124-13B-Instruct', 'allenai/OLMo-2-1124-13B-SFT', 'allenai/OLMo-2-1124-13B-DPO'],
    dense('OLMo 2 13B', 40, 5120, 40, 40, 13824, 100352), 13.72e9, `OLMo 2 report (arXiv 2501.00656): 13B; ${HUB_COUNT} (13,716,198,400)`, 4096),
  hub('olmo2-32b', 'allenai/OLMo-2-0325-32B', ['allenai/OLMo-2-0325-32B-Instruct', 'allenai/OLMo-2-0325-32B-SFT', 'allenai/OLMo-2-0325-32B-DPO'],
    dense('OLMo 2 32B', 64, 5120, 40, 8, 27648, 100352), '64 layers, hidden 5120, 40 heads, 8 KV heads, intermediate 27648, vocab 100352, untied', 32.2e9,
    `${HUB_COUNT} (32,234,279,936)`, 4096),
  hub('olmoe-1b-7b', 'allenai/OLMoE-1B-7B-0924', ['allenai/OLMoE-1B-7B-0924-Instruct', 'allenai/OLMoE-1B-7B-0125', 'allenai/OLMoE-1B-7B-0125-Instruct'],
    moe(dense('OLMoE 1B-7B', 16, 2048, 16, 16, 1024, 50304), { experts: 64, topK: 8, expertFfnHidden: 1024 }),
    '16 layers, hidden 2048, 16 heads, 64 experts, 8 per token, intermediate 1024, vocab 50304, untied', 6.92e9,
    'Muennighoff et al. 2024, OLMoE (arXiv 2409.02060): 6.9B total, 1.3B active (Hub safetensors: 6,919,176,192)', 4096),
];

// prettier-ignore
const NVIDIA_SMOL: readonly CatalogEntry[] = [
  {
    id: 'nemotron4-340b',
    model: dense('Nemotron-4 340B', 96, 18432, 96, 8, 73728, 256000, { ungated: true }),
    hubIds: ['nvidia/Nemotron-4-340B-Base', 'nvidia/Nemotron-4-340B-Instruct', 'nvidia/Nemotron-4-340B-Reward'],
    source:
      'nvidia/Nemotron-4-340B-Base model_config.yaml (NeMo) on the Hugging Face Hub (main): num_layers 96, hidden_size 18432, ffn_hidden_size 73728, ' +
      'num_attention_heads 96, num_query_groups 8, activation squared-relu (2 matrices, ' +
      'counted as gelu), vocab 256000, share_embeddings_and_output_weights false',
    params: {
      total: 341e9,
      source: 'Nemotron-4 340B technical report (arXiv 2406.11704): 340B; Nemotron-4 15B report (arXiv 2402.16819) for the architecture',
    },
    seqLen: 4096,
    longestContext: 4096,
    contextSource:
      'Nemotron-4 340B technical report (arXiv 2406.11704), section 2: pre-trained with a sequence length of 4,096 (model_config.yaml seq_length 4096)',
  },
  lit('smollm2-135m', 'SmolLM2-135M', ['HuggingFaceTB/SmolLM2-135M', 'HuggingFaceTB/SmolLM2-135M-Instruct'],
    dense('SmolLM2 135M', 30, 576, 9, 3, 1536, 49152, { tied: true }), 134.5e6, `${HUB_COUNT} (134,515,008)`, 8192, TIED),
  lit('smollm2-360m', 'SmolLM2-360M', ['HuggingFaceTB/SmolLM2-360M', 'HuggingFaceTB/SmolLM2-360M-Instruct'],
    dense('SmolLM2 360M', 32, 960, 15, 5, 2560, 49152, { tied: true }), 361.8e6, `${HUB_COUNT} (361,821,120)`, 8192, TIED),
  lit('smollm2-1.7b', 'SmolLM2-1.7B', ['HuggingFaceTB/SmolLM2-1.7B', 'HuggingFaceTB/SmolLM2-1.7B-Instruct'],
    dense('SmolLM2 1.7B', 24, 2048, 32, 32, 8192, 49152, { tied: true }), 1.71e9, `${HUB_COUNT} (1,711,376,384)`, 8192, TIED),
];

/** Every model of the catalog beyond the presets, by family. */
export const OPEN_MODELS: readonly CatalogEntry[] = [
  ...LLAMA,
  ...QWEN,
  ...GEMMA,
  ...MISTRAL,
  ...PHI,
  ...DEEPSEEK_KIMI,
  ...GPT_OSS,
  ...OLMO,
  ...NVIDIA_SMOL,
];

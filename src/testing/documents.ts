// Valid interchange documents for the fuzz tests to start from: the page's default,
// every model preset, and generated layouts at the edges of what the engine accepts
// (a million GPUs, ten thousand layers, ten-million-token sequences, 1,024 experts).
// Test support only: nothing in the app imports this file.

import fc from 'fast-check';
import { MODEL_PRESETS } from '../model/catalog/all.ts';
import { parseDocument, TRAINING_SWITCH_KEYS, type RunConfig } from '../model/input/index.ts';
import { DEFAULT_DOCUMENT } from '../state/defaults.ts';

const divisorsOf = (n: number, limit = n): number[] => {
  const out: number[] = [];
  for (let d = 1; d <= Math.min(n, limit); d++) if (n % d === 0) out.push(d);
  return out;
};

/** Each model preset on one node of 8 H100s: TP 1, PP 1, DP 8, which every preset accepts. */
function presetDocument(index: number): Record<string, unknown> {
  const preset = MODEL_PRESETS[index % MODEL_PRESETS.length];
  return {
    version: 1,
    model: preset?.model,
    training: { seqLen: preset?.seqLen ?? 4096, globalBatch: 64, microBatch: 1 },
    parallel: { tp: 1, pp: 1, dp: 8 },
    cluster: { gpu: 'h100-sxm', gpus: 8 },
  };
}

/**
 * GPT-OSS 120B's shape as a document's model, full attention (openai/gpt-oss-120b config.json: 36 layers, hidden 2880,
 * 64 heads of 64, 8 KV heads, 128 experts top-4 of width 2880, vocabulary 201,088, untied), and its sliding window as
 * the config states it (sliding_window 128, layer_types ["sliding_attention", "full_attention"] × 18).
 */
export const GPT_OSS_120B_MODEL = {
  name: 'GPT-OSS 120B',
  layers: 36,
  hidden: 2880,
  heads: 64,
  kvHeads: 8,
  headDim: 64,
  ffnHidden: 2880,
  ffnType: 'swiglu',
  vocab: 201088,
  tiedEmbeddings: false,
  moe: { experts: 128, topK: 4, expertFfnHidden: 2880 },
} as const;
export const GPT_OSS_SLIDING_WINDOW = { window: 128, layerTypes: ['sliding_attention', 'full_attention'] } as const;

/**
 * `model` on one node of 8 H100s at sequence 4096, micro-batch 1 (EP 8 for a mixture of experts), with `training` laid
 * over it, as the engine's RunConfig: the run the sliding-window tests derive on. Throws on a bad document (test code).
 */
export function eightH100Run(model: Record<string, unknown>, training: Record<string, unknown> = {}): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model,
    training: { seqLen: 4096, globalBatch: 64, microBatch: 1, ...training },
    parallel: model['moe'] ? { ep: 8 } : {},
    cluster: { gpu: 'h100-sxm', gpus: 8 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

/**
 * Llama 2 7B's shape as a document's model and an engine ModelConfig (meta-llama/Llama-2-7b-hf config.json: 32 layers,
 * hidden 4096, 32 heads of 128, no GQA, intermediate 11,008, vocabulary 32,000, untied), for the memory unit tests.
 */
export const LLAMA2_7B_MODEL = {
  name: 'Llama 2 7B',
  layers: 32,
  hidden: 4096,
  heads: 32,
  kvHeads: 32,
  headDim: 128,
  ffnHidden: 11008,
  ffnType: 'swiglu',
  vocab: 32000,
  tiedEmbeddings: false,
  moe: null,
  mla: null,
  mtpLayers: 0,
} as const;

/**
 * Llama 3 8B's shape as a document's model (meta-llama/Meta-Llama-3-8B config.json: 32 layers, hidden 4096, 32 heads of
 * 128, 8 KV heads, intermediate 14,336, vocabulary 128,256, untied), for the memory, explain and time unit tests.
 */
export const LLAMA3_8B_MODEL = {
  name: 'Llama 3 8B',
  layers: 32,
  hidden: 4096,
  heads: 32,
  kvHeads: 8,
  headDim: 128,
  ffnHidden: 14336,
  ffnType: 'swiglu',
  vocab: 128_256,
  tiedEmbeddings: false,
} as const;

/**
 * Llama 3 8B under Megatron at TP 8 with sequence parallelism, PP 1, sequence 8192, micro-batch 1, no recompute, the
 * fused loss, on 8 H100s, with `training` laid over it: the run the cross-entropy copies are derived on
 * (memory/cross-entropy-copies.test.ts, explain/loss-copies.test.ts).
 */
export function llama3_8bMegatronTp8(training: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 1,
    model: LLAMA3_8B_MODEL,
    training: {
      seqLen: 8192,
      globalBatch: 64,
      microBatch: 1,
      precision: 'bf16',
      recompute: 'none',
      framework: 'megatron',
      loss: 'fused',
      ...training,
    },
    parallel: { tp: 8, pp: 1, dp: 1, cp: 1, ep: 1, sequenceParallel: true, zero: 1, schedule: '1f1b' },
    cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 8 },
  };
}

/**
 * Qwen3-30B-A3B's shape as a document's model (Qwen/Qwen3-30B-A3B config.json: 48 layers, hidden 2048, 32 heads
 * of 128, 4 KV heads, intermediate 6144, vocabulary 151,936, 128 experts top-8 of FFN 768), for the MoE unit tests.
 */
export const QWEN3_30B_A3B_MODEL = {
  name: 'q',
  layers: 48,
  hidden: 2048,
  heads: 32,
  kvHeads: 4,
  headDim: 128,
  ffnHidden: 6144,
  ffnType: 'swiglu',
  vocab: 151936,
  moe: { experts: 128, topK: 8, expertFfnHidden: 768 },
} as const;

/** A document with every optional field written out, a custom GPU, MoE with expert parallelism and interleaving. */
export const EVERY_FIELD_DOCUMENT = {
  version: 1,
  model: {
    name: 'Every field',
    layers: 16,
    hidden: 2048,
    heads: 16,
    kvHeads: 4,
    headDim: 128,
    ffnHidden: 5632,
    ffnType: 'swiglu',
    vocab: 32000,
    tiedEmbeddings: true,
    moe: { experts: 16, topK: 2, expertFfnHidden: 1408, sharedExperts: 1, denseLayers: 1 },
    mla: null,
    mtpLayers: 1,
  },
  training: {
    seqLen: 4096,
    globalBatch: 512,
    microBatch: 2,
    tokens: 2e11,
    precision: 'fp8',
    optimizer: 'adam8bit',
    masterWeights: true,
    gradDtype: 'bf16',
    recompute: 'full',
    // Every on/off field of the switch table (model/input/switches.ts), on.
    ...Object.fromEntries(TRAINING_SWITCH_KEYS.map((key) => [key, true])),
    offload: { optimizer: true, parameters: false },
    framework: 'megatron',
    loss: 'compiled',
    compile: true,
    dropout: true,
    recomputeModules: ['core_attn', 'moe_act'],
    selectivePolicy: 'modules',
    recomputeLayerFrequency: 2,
    recomputeLayers: 2,
    optimizerStateDtype: 'bf16',
    activationOffloadLayers: 1,
    attentionKernel: 'flash3',
    fp8Recipe: 'mxfp8',
    fp8ParamGather: true,
    overlap: { tpComm: true, dpGrad: true, dpParam: false },
    modelCode: 'transformers',
    forwardHostSync: 'none',
  },
  parallel: { tp: 2, pp: 4, dp: 8, cp: 2, ep: 4, vpp: 2, sequenceParallel: true, zero: 2, schedule: 'interleaved-1f1b' },
  cluster: {
    gpu: {
      name: 'Custom accelerator',
      memoryGiB: 96,
      bf16Tflops: 800,
      fp8Tflops: 1600,
      fp32Tflops: 60,
      fp4Tflops: 0,
      hbmGBps: 4000,
      intraNodeGBps: 400,
      interNodeGBps: 50,
      tdpWatts: 750,
      usdPerHour: 3,
    },
    gpusPerNode: 8,
    gpus: 128,
  },
  cost: { usdPerGpuHour: 3.1, pue: 1.3, gridKgCo2PerKwh: 0.25, gpuMtbfHours: 40_000, checkpointWriteGBps: 80 },
  calibration: { computeEfficiencyScale: 0.9, memoryOverheadScale: 1.1 },
} as const;

/**
 * A MoE run with every field of its software path set (issue 20): dispatcher, CUDA graphs, EP overlap, expert TP, capacity
 * factor, and the Megatron-LM release (issue 34: core_v0.12.0 still saves the expert outputs, memory/moe-permutation.ts).
 */
export const MOE_STACK_DOCUMENT = {
  ...EVERY_FIELD_DOCUMENT,
  model: {
    ...EVERY_FIELD_DOCUMENT.model,
    moe: { ...EVERY_FIELD_DOCUMENT.model.moe, capacityFactor: 1.25 },
    slidingWindow: { window: 128, layerTypes: ['sliding_attention', 'full_attention'] },
  },
  training: {
    ...EVERY_FIELD_DOCUMENT.training,
    moeDispatcher: 'hybridep',
    cudaGraph: 'full',
    overlap: { ...EVERY_FIELD_DOCUMENT.training.overlap, epComm: true },
    frameworkRelease: 'core_v0.12.0',
    moeLoadImbalance: 1.25,
    moeRouter: 'learned',
  },
  // Megatron's layout of the even split (2 layers a chunk over pp 4 × vpp 2; MTP with the loss): the figures of the unstated layout.
  parallel: { ...EVERY_FIELD_DOCUMENT.parallel, etp: 1, pipelineLayout: 'Ett|(tt|)*6ttmL' },
} as const;

/** A QLoRA fine-tune (issue 24): training.adapter with every key, on ZeRO-3 so the frozen base is sharded. */
export const FINETUNE_DOCUMENT = {
  ...EVERY_FIELD_DOCUMENT,
  training: {
    ...EVERY_FIELD_DOCUMENT.training,
    precision: 'bf16',
    optimizer: 'adam',
    offload: { optimizer: false, parameters: false },
    adapter: { method: 'qlora', rank: 16, modules: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] },
  },
  parallel: { ...EVERY_FIELD_DOCUMENT.parallel, zero: 3 },
} as const;

/** Valid documents: the default, the every-field one, the MoE-stack one, the fine-tune, and each model preset. */
export const VALID_DOCUMENTS: readonly unknown[] = [
  DEFAULT_DOCUMENT,
  EVERY_FIELD_DOCUMENT,
  MOE_STACK_DOCUMENT,
  FINETUNE_DOCUMENT,
  ...MODEL_PRESETS.map((_, i) => presetDocument(i)),
];

export const validDocument = fc.constantFrom(...VALID_DOCUMENTS);

/** Usually `common`, one time in `odds` the `edge` values. */
function rare<T>(common: fc.Arbitrary<T>, edge: fc.Arbitrary<T>, odds = 8): fc.Arbitrary<T> {
  return fc.oneof({ arbitrary: common, weight: odds - 1 }, { arbitrary: edge, weight: 1 });
}

const pickFrom = <T>(list: readonly T[], index: number, fallback: T): T => list[index % Math.max(1, list.length)] ?? fallback;

/**
 * A document that passes the layout rules by construction, with sizes drawn toward
 * the extremes. The engine may still refuse it (figures not finite), which the
 * properties accept as long as the refusal names why.
 */
export const extremeDocument: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    layers: rare(fc.integer({ min: 1, max: 160 }), fc.constantFrom(1000, 10_000), 40),
    heads: fc.constantFrom(1, 2, 8, 32, 64, 128),
    kvIndex: fc.nat(),
    headDim: fc.constantFrom(1, 8, 64, 128, 256),
    ffnHidden: rare(fc.integer({ min: 1, max: 65_536 }), fc.constantFrom(1, 1_000_000)),
    vocab: rare(fc.integer({ min: 1, max: 300_000 }), fc.constantFrom(1, 10_000_000)),
    moe: fc.option(
      fc.record({
        experts: fc.constantFrom(1, 2, 8, 64, 256, 1024),
        topK: fc.integer({ min: 1, max: 16 }),
        expertFfnHidden: fc.integer({ min: 1, max: 8192 }),
        sharedExperts: fc.integer({ min: 0, max: 2 }),
      }),
      { nil: null },
    ),
    mla: fc.boolean(),
    seqLen: rare(fc.constantFrom(1, 2, 128, 4096, 131_072), fc.constantFrom(1_048_576, 10_000_000, 10_240_000)),
    microBatch: fc.constantFrom(1, 2, 8),
    dp: rare(fc.constantFrom(1, 2, 8), fc.constantFrom(1024, 15_625, 31_250)),
    accumulation: rare(fc.constantFrom(1, 3, 64), fc.constantFrom(1000, 100_000)),
    tpIndex: fc.nat(),
    ppIndex: fc.nat(),
    cpIndex: fc.nat(),
    epIndex: fc.nat(),
    vpp: fc.constantFrom(1, 1, 2, 4),
    schedule: fc.constantFrom('gpipe', '1f1b', 'zero-bubble', 'dualpipe'),
    zero: fc.constantFrom(0, 1, 2, 3),
    precision: fc.constantFrom('fp32', 'fp16', 'bf16', 'fp8', 'fp4'),
    recompute: fc.constantFrom('none', 'selective', 'full'),
    flashAttention: fc.boolean(),
    offloadOptimizer: fc.boolean(),
    gpu: rare<string | Record<string, unknown>>(
      fc.constantFrom('h100-sxm', 'a100-80gb', 'v100-32gb'),
      fc.record({
        name: fc.constant('Edge GPU'),
        memoryGiB: fc.constantFrom(1e-6, 1, 1e6),
        bf16Tflops: fc.constantFrom(1e-300, 1e-3, 1e7),
        hbmGBps: fc.constantFrom(1e-300, 1, 1e7),
        intraNodeGBps: fc.constantFrom(1e-300, 1e7),
        interNodeGBps: fc.constantFrom(1e-300, 1, 1e7),
      }),
    ),
    tokens: rare(fc.constant(1e12), fc.constantFrom(1, 1e18)),
    gpuMtbfHours: rare(fc.constant(50_000), fc.constantFrom(1e-300, 1, 1e12)),
    checkpointWriteGBps: rare(fc.constant(50), fc.constantFrom(1e-300, 1e9)),
    moeDispatcher: fc.constantFrom('alltoall', 'allgather', 'deepep', 'hybridep'),
    cudaGraph: fc.constantFrom('none', 'partial', 'full'),
    epComm: fc.boolean(),
    capacityFactor: fc.option(rare(fc.constantFrom(0.5, 1, 1.25, 2), fc.constantFrom(1e-300, 1e-3, 1e4)), { nil: null }),
    etpOne: fc.boolean(),
    // Fine-tuning (issue 24): none, LoRA or QLoRA (QLoRA only where the precision allows it), ranks at the edges, module subsets.
    adapter: fc.option(
      fc.record({
        method: fc.constantFrom('lora', 'qlora'),
        rank: rare(fc.constantFrom(1, 8, 16, 64), fc.constantFrom(1024, 65_536)),
        modules: fc.subarray(['q', 'k', 'v', 'o', 'gate', 'up', 'down'], { minLength: 1 }),
      }),
      { nil: null },
    ),
  })
  .map((r) => {
    const kvChoices = divisorsOf(r.heads);
    const kvHeads = pickFrom(kvChoices, r.kvIndex, 1);
    const hidden = r.heads * r.headDim;
    const tp = pickFrom(divisorsOf(kvHeads), r.tpIndex, 1);
    const ppLimit = Math.min(64, Math.floor((r.layers + 2) / r.vpp));
    const pps = divisorsOf(64, ppLimit).filter((p) => (r.vpp > 1 ? p >= 2 : true) && (r.schedule !== 'dualpipe' || p % 2 === 0));
    const pp = pickFrom(pps, r.ppIndex, 0);
    const vpp = pp >= 2 ? r.vpp : 1;
    const schedule = vpp > 1 ? 'interleaved-1f1b' : pp === 0 ? '1f1b' : r.schedule;
    const cps = [1, 2, 4, 8].filter((c) => c === 1 || r.seqLen % (2 * c) === 0);
    const cp = pickFrom(cps, r.cpIndex, 1);
    const experts = r.moe?.experts ?? 1;
    const ep = r.moe
      ? pickFrom(
          divisorsOf(experts, 64).filter((e) => (tp * r.dp * cp) % e === 0),
          r.epIndex,
          1,
        )
      : 1;
    const ppSafe = pp === 0 ? 1 : pp;
    return {
      version: 1,
      model: {
        name: 'Extreme',
        layers: r.layers,
        hidden,
        heads: r.heads,
        kvHeads,
        headDim: r.headDim,
        ffnHidden: r.ffnHidden,
        vocab: r.vocab,
        moe: r.moe ? { ...r.moe, topK: Math.min(r.moe.topK, experts), denseLayers: 0, capacityFactor: r.capacityFactor } : null,
        mla: r.mla ? { qLoraRank: 0, kvLoraRank: 64, qkNopeHeadDim: r.headDim, qkRopeHeadDim: 8, vHeadDim: r.headDim } : null,
      },
      training: {
        seqLen: r.seqLen,
        microBatch: r.microBatch,
        globalBatch: r.microBatch * r.dp * r.accumulation,
        tokens: r.tokens,
        precision: r.precision,
        recompute: r.recompute,
        flashAttention: r.flashAttention,
        offload: { optimizer: r.offloadOptimizer, parameters: false },
        moeDispatcher: r.moeDispatcher,
        cudaGraph: r.cudaGraph,
        overlap: { epComm: r.epComm },
        adapter:
          r.adapter && r.adapter.method === 'qlora' && (r.precision === 'fp8' || r.precision === 'fp4')
            ? { ...r.adapter, method: 'lora' }
            : r.adapter,
      },
      // etp 1 always divides (ep divides tp·dp·cp above); null keeps the default rule.
      parallel: {
        tp,
        pp: ppSafe,
        dp: r.dp,
        cp,
        ep,
        etp: r.etpOne ? 1 : null,
        vpp,
        zero: r.zero,
        schedule: ppSafe === 1 && schedule === 'dualpipe' ? '1f1b' : schedule,
      },
      cluster: { gpu: typeof r.gpu === 'string' ? r.gpu : { ...r.gpu }, gpus: tp * ppSafe * r.dp * cp },
      cost: { gpuMtbfHours: r.gpuMtbfHours, checkpointWriteGBps: r.checkpointWriteGBps },
    };
  });

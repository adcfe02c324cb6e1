// The interchange document (docs/spec/interchange.md, version 1) after
// validation and defaults: every field present, every number finite. The engine
// only ever sees these types; raw JSON is parsed once, in document.ts.

import type { TrainingSwitches } from './switches.ts';

export type Precision = 'fp32' | 'fp16' | 'bf16' | 'fp8' | 'fp4';
export type OptimizerKind = 'adam' | 'adam8bit' | 'sgd';
export type GradDtype = 'fp32' | 'bf16';
export type Recompute = 'none' | 'selective' | 'full';
export type FfnType = 'gelu' | 'swiglu';
export type ScheduleKind = 'gpipe' | '1f1b' | 'interleaved-1f1b' | 'zero-bubble' | 'dualpipe';
export type ZeroStage = 0 | 1 | 2 | 3;

export const PRECISIONS: readonly Precision[] = ['fp32', 'fp16', 'bf16', 'fp8', 'fp4'];
export const OPTIMIZERS: readonly OptimizerKind[] = ['adam', 'adam8bit', 'sgd'];
export const GRAD_DTYPES: readonly GradDtype[] = ['fp32', 'bf16'];
export const RECOMPUTES: readonly Recompute[] = ['none', 'selective', 'full'];
export const FFN_TYPES: readonly FfnType[] = ['gelu', 'swiglu'];
export const SCHEDULES: readonly ScheduleKind[] = ['gpipe', '1f1b', 'interleaved-1f1b', 'zero-bubble', 'dualpipe'];
export const ZERO_STAGES: readonly ZeroStage[] = [0, 1, 2, 3];

export interface MoeConfig {
  readonly experts: number;
  readonly topK: number;
  readonly expertFfnHidden: number;
  readonly sharedExperts: number;
  /** Leading layers with a dense FFN instead of experts (DeepSeek-V3: 3). */
  readonly denseLayers: number;
  /**
   * null or absent: dropless. A number c: each expert takes at most c × the mean tokens
   * per expert, the rest dropped, inputs padded to capacity (Megatron-Core
   * --moe-expert-capacity-factor with --moe-pad-expert-input-to-capacity): compute,
   * dispatch and activations follow the padded count.
   */
  readonly capacityFactor?: number | null;
}

/** Multi-head latent attention (DeepSeek-V2/V3, arXiv 2405.04434 section 2.1). */
export interface MlaConfig {
  /** 0 = queries are not compressed. */
  readonly qLoraRank: number;
  readonly kvLoraRank: number;
  readonly qkNopeHeadDim: number;
  readonly qkRopeHeadDim: number;
  readonly vHeadDim: number;
}

/** Hugging Face transformers' `layer_types` vocabulary (configuration_gpt_oss.py, configuration_gemma3.py, configuration_qwen2.py). */
export type AttentionLayerType = 'sliding_attention' | 'full_attention';
export const ATTENTION_LAYER_TYPES: readonly AttentionLayerType[] = ['sliding_attention', 'full_attention'];

/**
 * Sliding-window (local) attention on some or all layers (GPT-OSS, Gemma 2 and 3, Mistral 7B
 * v0.1, Qwen2 with use_sliding_window), in Hugging Face transformers' own terms.
 */
export interface SlidingWindowConfig {
  /**
   * Keys a query attends to, itself included: HF `sliding_window` (masking_utils.py
   * sliding_window_overlay keeps kv_idx > q_idx − sliding_window under the causal mask).
   */
  readonly window: number;
  /**
   * Each layer's attention from layer 0 on, HF `layer_types`; a list shorter than
   * model.layers repeats ("sliding_attention", "full_attention" is GPT-OSS's alternation).
   * Absent: every layer slides (Mistral 7B v0.1).
   */
  readonly layerTypes?: readonly AttentionLayerType[];
}

export interface ModelConfig {
  readonly name: string;
  readonly layers: number;
  readonly hidden: number;
  readonly heads: number;
  readonly kvHeads: number;
  readonly headDim: number;
  readonly ffnHidden: number;
  readonly ffnType: FfnType;
  readonly vocab: number;
  readonly tiedEmbeddings: boolean;
  readonly moe: MoeConfig | null;
  readonly mla: MlaConfig | null;
  readonly mtpLayers: number;
  /** Absent: full attention on every layer (the key stays out of the config, so older documents read exactly as before). */
  readonly slidingWindow?: SlidingWindowConfig;
}

export interface OffloadConfig {
  readonly optimizer: boolean;
  readonly parameters: boolean;
  /**
   * Share of the optimizer's parameters whose states move to the CPU when `optimizer` is
   * on (Megatron --optimizer-offload-fraction, DeepSpeed offload_optimizer.ratio);
   * absent: 1, all of them.
   */
  readonly optimizerFraction?: number;
}

/** Fine-tuning method of training.adapter: low-rank adapters on a frozen 16-bit base, or on a 4-bit NF4 base (QLoRA). */
export type AdapterMethod = 'lora' | 'qlora';
export const ADAPTER_METHODS: readonly AdapterMethod[] = ['lora', 'qlora'];
/** The matrices an adapter may sit on (attention q, k, v, o; the FFN's gate, up, down), in layer order. */
export type AdapterModule = 'q' | 'k' | 'v' | 'o' | 'gate' | 'up' | 'down';
export const ADAPTER_MODULES: readonly AdapterModule[] = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];

/**
 * training.adapter (../shared/spec/interchange.md): the base weights are frozen (no
 * gradients, no optimizer state); each named matrix of shape in × out gets a rank-r
 * adapter of r·(in + out) trainable parameters (Hu et al. 2021, LoRA, arXiv 2106.09685).
 * "qlora" keeps the adapted base matrices in 4-bit NF4 with double quantisation
 * (Dettmers et al. 2023, arXiv 2305.14314).
 */
export interface AdapterConfig {
  readonly method: AdapterMethod;
  readonly rank: number;
  /** Distinct, in ADAPTER_MODULES order. */
  readonly modules: readonly AdapterModule[];
}

/** The on/off fields (flashAttention, …) take their types from their table, switches.ts. */
export interface TrainingConfig extends TrainingSwitches {
  readonly seqLen: number;
  /** Sequences per optimizer step. */
  readonly globalBatch: number;
  /** Sequences per micro-batch per pipeline. */
  readonly microBatch: number;
  /** Token budget for time and cost. */
  readonly tokens: number;
  readonly precision: Precision;
  readonly optimizer: OptimizerKind;
  readonly masterWeights: boolean;
  readonly gradDtype: GradDtype;
  readonly recompute: Recompute;
  readonly offload: OffloadConfig;
  /** Fine-tuning with a frozen base (absent or null: full training; the key stays out of the config then, so older documents read exactly as before). */
  readonly adapter?: AdapterConfig | null;
  /**
   * The busiest expert-parallel rank's routed tokens over the mean, ≥ 1 (structure/moe-routing.ts busiestExpertRankLoad).
   * Absent: 1, balanced, as Megatron-Core's --moe-router-force-load-balancing forces it; the key stays out of the config.
   */
  readonly moeLoadImbalance?: number;
  /** How tokens pick their experts (MoeRouter); absent: 'learned', the key stays out of the config. */
  readonly moeRouter?: MoeRouter;
}

/**
 * How a MoE layer picks each token's experts: 'learned', the router's top-k of its scores (the engine takes them as k
 * distinct experts at random, as Megatron-Core's --moe-router-force-load-balancing draws them from random logits), or
 * 'fakeBalanced', NeMo AutoModel's `fake_balanced_gate: true` (FakeBalancedGate): no router, token t goes to experts
 * (t·k + j) mod E, j < k — k consecutive experts, every expert the same share (structure/moe-routing.ts).
 */
export type MoeRouter = 'learned' | 'fakeBalanced';
export const MOE_ROUTERS: readonly MoeRouter[] = ['learned', 'fakeBalanced'];

// ---- The software stack (docs/spec/interchange.md, "The software stack") ----
export type Framework = 'generic' | 'megatron' | 'torchtitan' | 'deepspeed' | 'fsdp';
/** The launch-file writers (model/export/): Megatron-LM, DeepSpeed (with Megatron-DeepSpeed), torchtitan. */
export type LaunchTarget = 'megatron' | 'deepspeed' | 'torchtitan';
export type LossKind = 'eager' | 'fused' | 'compiled';
/** How "selective" recompute chooses what to drop. 'elementwise' is the generic profile's own (never typed in a document). */
export type SelectivePolicy = 'modules' | 'op' | 'layer';
export type ResolvedSelectivePolicy = SelectivePolicy | 'elementwise';
/** Megatron-Core --recompute-modules names (megatron/core/transformer/transformer_config.py, recompute_modules). */
export type RecomputeModule = 'core_attn' | 'mlp' | 'moe_act' | 'layernorm' | 'mla_up_proj' | 'moe' | 'shared_experts';
export type StateDtype = 'fp32' | 'bf16';
export type AttentionKernel = 'auto' | 'flash2' | 'flash3' | 'cudnn' | 'sdpa';
export type Fp8Recipe = 'auto' | 'tensorwise' | 'rowwise' | 'delayed' | 'blockwise' | 'mxfp8' | 'nvfp4';
/**
 * Whose code builds the layers: 'fused' (Megatron-Core / Transformer Engine modules, fused
 * norms and SwiGLU: the inventory of Korthikanti et al.) or 'transformers' (Hugging Face
 * transformers modeling code run eagerly, as DeepSpeed and Accelerate usually train it).
 */
export type ModelCode = 'fused' | 'transformers';
/**
 * How often the forward pass makes the host wait for the GPU: 'layer' (some op in every layer
 * copies a value to the host, as Hugging Face's flash-attention code does when it unpads a padded
 * batch) or 'none' (the host issues the whole forward without waiting: fixed-length sequences and
 * no attention mask). What DeepSpeed ZeRO-3's gather cache needs (memory/zero3-gather-cache.ts).
 */
export type ForwardHostSync = 'layer' | 'none';

export const FRAMEWORKS: readonly Framework[] = ['generic', 'megatron', 'torchtitan', 'deepspeed', 'fsdp'];
export const LOSS_KINDS: readonly LossKind[] = ['eager', 'fused', 'compiled'];
export const SELECTIVE_POLICIES: readonly SelectivePolicy[] = ['modules', 'op', 'layer'];
export const RECOMPUTE_MODULES: readonly RecomputeModule[] = [
  'core_attn',
  'mlp',
  'moe_act',
  'layernorm',
  'mla_up_proj',
  'moe',
  'shared_experts',
];
export const STATE_DTYPES: readonly StateDtype[] = ['fp32', 'bf16'];
export const ATTENTION_KERNELS: readonly AttentionKernel[] = ['auto', 'flash2', 'flash3', 'cudnn', 'sdpa'];
export const FP8_RECIPES: readonly Fp8Recipe[] = ['auto', 'tensorwise', 'rowwise', 'delayed', 'blockwise', 'mxfp8', 'nvfp4'];
export const MODEL_CODES: readonly ModelCode[] = ['fused', 'transformers'];
export const FORWARD_HOST_SYNCS: readonly ForwardHostSync[] = ['layer', 'none'];

export interface OverlapConfig {
  /** Tensor-parallel communication overlapped with GEMMs (Megatron --tp-comm-overlap, torchtitan async TP). */
  readonly tpComm: boolean;
  /** Data-parallel gradient reduce overlapped with backward (Megatron --overlap-grad-reduce). */
  readonly dpGrad: boolean;
  /** Parameter all-gather overlapped with forward (Megatron --overlap-param-gather, FSDP prefetch). */
  readonly dpParam: boolean;
  /**
   * Expert-parallel dispatch/combine overlapped with another micro-batch's compute
   * (Megatron --overlap-moe-expert-parallel-comm, combined 1F1B; DualPipe implies it).
   */
  readonly epComm: boolean;
}

/**
 * How routed tokens travel (Megatron-Core --moe-token-dispatcher-type; "flex" is named by
 * its --moe-flex-dispatcher-backend): NCCL all-to-all, all-gather + reduce-scatter over
 * the expert group, or DeepEP / HybridEP kernels that send a token once per node.
 */
export type MoeDispatcher = 'alltoall' | 'allgather' | 'deepep' | 'hybridep';
export const MOE_DISPATCHERS: readonly MoeDispatcher[] = ['alltoall', 'allgather', 'deepep', 'hybridep'];
/**
 * CUDA graphs: none, per-module graphs (--cuda-graph-scope attn, moe_router …), or the whole iteration (--cuda-graph-impl local
 * --cuda-graph-scope full_iteration; arguments.py allows full_iteration only with the local impl).
 */
export type CudaGraphScope = 'none' | 'partial' | 'full';
export const CUDA_GRAPH_SCOPES: readonly CudaGraphScope[] = ['none', 'partial', 'full'];

/** Every stack field resolved: explicit document fields over the profile's defaults. */
export interface StackConfig {
  readonly framework: Framework;
  readonly loss: LossKind;
  readonly compile: boolean;
  readonly dropout: boolean;
  readonly recomputeModules: readonly RecomputeModule[];
  readonly selectivePolicy: ResolvedSelectivePolicy;
  readonly recomputeLayerFrequency: number;
  /** Layers per stage fully recomputed with recompute "full"; null = all. */
  readonly recomputeLayers: number | null;
  readonly optimizerStateDtype: StateDtype;
  readonly activationOffloadLayers: number;
  readonly attentionKernel: AttentionKernel;
  readonly fp8Recipe: Fp8Recipe;
  /**
   * With fp8/fp4 precision, the primary weights are kept in the low-precision format and gathered in it (Megatron-LM
   * --fp8-param-gather / --fp4-param-gather, Megatron-Bridge fp8_param_gather / fp4_param_gather): no 16-bit weight
   * copy beside a cached quantized one (memory/fp8-weight-cache.ts). Absent: the profile's default for the fp8 recipe.
   */
  readonly fp8ParamGather: boolean;
  readonly overlap: OverlapConfig;
  readonly modelCode: ModelCode;
  /** Absent: 'layer' under every framework (the engine adds no gather cache). */
  readonly forwardHostSync: ForwardHostSync;
  readonly moeDispatcher: MoeDispatcher;
  readonly cudaGraph: CudaGraphScope;
  /**
   * The framework release the run used, as written (input/framework-release.ts): a Megatron-LM
   * tag such as "core_v0.6.0". Null: the newest behaviour the engine models.
   */
  readonly frameworkRelease: string | null;
}

export interface ParallelConfig {
  readonly tp: number;
  readonly pp: number;
  readonly dp: number;
  readonly cp: number;
  readonly ep: number;
  /** Virtual pipeline stages per device (interleaving). */
  readonly vpp: number;
  /**
   * Expert tensor-parallel degree (Megatron --expert-tensor-parallel-size); null or absent:
   * the default rule of structure/params.ts expertTensorParallel (tp when the expert group
   * fits the stage, else 1).
   */
  readonly etp?: number | null;
  /**
   * Megatron-LM's --pipeline-model-parallel-layout as text ("Et|(tt|)*30mL"): which layers each
   * pipeline chunk holds (input/pipeline-layout.ts). Null or absent: the even split of
   * structure/params.ts chunkLayerCounts.
   */
  readonly pipelineLayout?: string | null;
  readonly sequenceParallel: boolean;
  readonly zero: ZeroStage;
  readonly schedule: ScheduleKind;
}

/** A GPU's architecture: what the engine's architecture-specific terms key on (their facts: input/architectures.ts). */
export type GpuArchitecture = 'volta' | 'ampere' | 'ada' | 'hopper' | 'blackwell' | 'cdna3' | 'other';

/**
 * A GPU as the interchange spec describes a custom one, with its architecture resolved
 * (a preset's own, a custom GPU's from its name: input/gpus.ts architectureOfGpuName).
 * Bandwidths are per GPU, one direction, GB/s = 1e9 B/s.
 */
export interface GpuSpec {
  readonly name: string;
  readonly architecture: GpuArchitecture;
  readonly memoryGiB: number;
  readonly bf16Tflops: number;
  readonly fp8Tflops: number;
  readonly fp32Tflops: number;
  /** Dense FP4 peak; 0 where the GPU has no FP4 tensor cores (then fp4 runs at the fp8 rate). */
  readonly fp4Tflops: number;
  /**
   * Exponentials per second of the special-function units (MUFU.EX2), in 10^12: the
   * softmax of attention needs one per score, and next to the tensor cores this unit is
   * slow (Shah et al. 2024, FlashAttention-3, arXiv 2407.08608, section 3: H100 SXM5 has
   * 989 TFLOP/s of FP16 matmul but 3.9 TFLOP/s of special functions).
   */
  readonly expTeraOpsPerSecond: number;
  /**
   * Streaming multiprocessors (AMD: compute units), for the wave quantisation of grouped
   * GEMMs (time/moe-time.ts). Presets carry the datasheet count; absent on custom GPUs,
   * where the engine takes H100's 132.
   */
  readonly sms?: number;
  readonly hbmGBps: number;
  readonly intraNodeGBps: number;
  readonly interNodeGBps: number;
  readonly tdpWatts: number;
  readonly usdPerHour: number;
}

export interface ClusterConfig {
  /** The preset id the document named, or null for a custom GPU object. */
  readonly gpuId: string | null;
  readonly gpu: GpuSpec;
  readonly gpusPerNode: number;
  readonly gpus: number;
  /** CPU memory of one node, GiB: what offload must fit in (absent in the document: the GPU preset's usual server, gpus.ts defaultHostMemoryGiB). */
  readonly hostMemoryGiB: number;
  /**
   * Peak memory bandwidth of one node's CPUs, GB/s (a project field, cluster.hostMemoryGBps; absent: the GPU
   * preset's usual server, gpus.ts defaultHostMemoryGBps): what an offloaded optimizer step streams through.
   */
  readonly hostMemoryGBps: number;
}

export interface CostConfig {
  readonly usdPerGpuHour: number;
  readonly pue: number;
  readonly gridKgCo2PerKwh: number;
  /** Mean time between failures of one GPU's share of the cluster (GPU, host, network). */
  readonly gpuMtbfHours: number;
  /** Aggregate storage bandwidth for checkpoints. */
  readonly checkpointWriteGBps: number;
  /** Minutes between checkpoints as the run is set up; null = the Young/Daly optimum (reliability.ts). */
  readonly checkpointIntervalMinutes: number | null;
  /** The capacity the run gets: on-demand, or spot (cheaper, and a node can be taken back). */
  readonly capacity: Capacity;
  /** The spot price; the document's absent value reads as usdPerGpuHour. */
  readonly spotUsdPerGpuHour: number;
  /** How often one spot node is taken back; counts only when capacity is spot (run/interruptions.ts). */
  readonly preemptionsPerNodeDay: number;
  /** After any interruption: rescheduling, loading the checkpoint, warm-up. */
  readonly restartMinutes: number;
  /** True: carry on with the nodes left (data parallel shrinks, the global batch kept by accumulation) until replacements arrive. */
  readonly elastic: boolean;
  /** The run's first day as an ISO date (YYYY-MM-DD), or null. */
  readonly startDate: string | null;
}

export type Capacity = 'on-demand' | 'spot';
export const CAPACITIES: readonly Capacity[] = ['on-demand', 'spot'];
/** A week: longer than any restart a run would wait out rather than fix by hand. */
export const MAX_RESTART_MINUTES = 10_080;

/** A year: longer than any run checkpoints apart. */
export const MAX_CHECKPOINT_INTERVAL_MINUTES = 525_600;

/**
 * Multipliers on the calibrated constants, fitted from the user's own measured run
 * (issue "calibrate from your run"). 1 = the published-runs calibration.
 */
export interface CalibrationOverride {
  readonly computeEfficiencyScale: number;
  readonly memoryOverheadScale: number;
}

export interface RunConfig {
  readonly version: 1;
  readonly model: ModelConfig;
  readonly training: TrainingConfig;
  /** The software stack (interchange "The software stack"): explicit fields over the framework profile's defaults (input/frameworks.ts). */
  readonly stack: StackConfig;
  readonly parallel: ParallelConfig;
  readonly cluster: ClusterConfig;
  readonly cost: CostConfig;
  readonly calibration: CalibrationOverride;
}

/** Keys of the per-GPU memory breakdown; the chart legend uses the same union. */
export type MemoryPart = 'parameters' | 'gradients' | 'optimizer' | 'activations' | 'other';
export const MEMORY_PARTS: readonly MemoryPart[] = ['parameters', 'gradients', 'optimizer', 'activations', 'other'];

/**
 * `frozen`: the frozen base weights of a fine-tune with an adapter (training.adapter),
 * present only then; `parameters` is then the adapters' own trainable weights. The total
 * counts every part, frozen included.
 */
export type MemoryBreakdown = Readonly<Record<MemoryPart, number>> & { readonly total: number; readonly frozen?: number };

/** One stage's layers above its allocated peak: the caching allocator's reserved bytes, and what the device holds (reserved + CUDA context, NCCL, cuBLAS). */
export interface StageOnDevice {
  readonly reserved: number;
  readonly deviceUsed: number;
}

/** Keys of the step-time breakdown (seconds per step). */
export type TimePart = 'compute' | 'recompute' | 'tp' | 'cp' | 'ep' | 'pp' | 'dp' | 'bubble' | 'optimizer';
export const TIME_PARTS: readonly TimePart[] = ['compute', 'recompute', 'tp', 'cp', 'ep', 'pp', 'dp', 'bubble', 'optimizer'];

/** The interchange output's `model`: what the document describes, before any layout (structure/summary.ts). */
export interface ModelSummary {
  /** Every weight: embeddings and every expert included (the multi-token-prediction modules left out, as published totals do). */
  readonly parameters: number;
  /** Weights one token runs through: shared + topK routed experts; = parameters for a dense model. */
  readonly activeParameters: number;
  /** Model FLOPs of one token's forward and backward at training.seqLen (6N plus attention), no recomputation. */
  readonly flopsPerToken: number;
}

export interface EstimateOutput {
  readonly memory: {
    readonly perGpu: MemoryBreakdown;
    readonly stages: readonly MemoryBreakdown[];
    /** Peak bytes the caching allocator holds on the most loaded GPU: allocated peak + the allocator's reserve (memory.ts, reservedBytes). */
    readonly reserved: number;
    /**
     * What nvidia-smi shows for the process on the most loaded GPU: reserved plus the CUDA
     * context, NCCL's communicator buffers and the cuBLAS workspaces (memory/device.ts).
     */
    readonly deviceUsed: number;
    /**
     * Project addition: every stage's reserved peak and device-used bytes, in the order of
     * `stages` (whose totals are the allocated peaks). The most loaded stage's are
     * `reserved` and `deviceUsed`; the chart draws each stage's deviceUsed (memory/fit.ts).
     */
    readonly stagesOnDevice: readonly StageOnDevice[];
    readonly capacity: number;
    /** deviceUsed fits capacity, and host.perNode fits host.capacity. */
    readonly fits: boolean;
    /**
     * What offload keeps in one node's CPU memory (optimizer states, gradient copies, parameters:
     * memory/host.ts), bytes, and that memory's size (cluster.hostMemoryGiB), bytes. perNode is 0
     * without offload. Project addition: perGpu, what one GPU's process keeps there (perNode is
     * the node's GPUs × perGpu).
     */
    readonly host: { readonly perNode: number; readonly capacity: number; readonly perGpu: number };
  };
  /** null only for an invalid document. */
  readonly model: ModelSummary | null;
  readonly flops: { readonly modelPerStep: number; readonly hardwarePerStep: number };
  readonly throughput: {
    readonly stepSeconds: number;
    readonly tokensPerSecond: number;
    readonly tflopsPerGpu: number;
    /** Model FLOPs ÷ (step time × GPUs × mfuPeak): against the dense peak of the run's own precision. */
    readonly mfu: number;
    /** Project addition (issue 36): the peak MFU and HFU are measured against, named: the precision's dense tensor-core peak per GPU. */
    readonly mfuPeak?: { readonly precision: Precision; readonly tflopsPerGpu: number };
    /** Project addition: MFU against the BF16 dense peak, to compare runs across precisions (equals mfu for bf16 and fp16). */
    readonly mfuBf16?: number;
    readonly hfu: number;
    /** Share of the step time that is pipeline bubble: breakdown.bubble ÷ stepSeconds (the critical stage's idle time in the schedule). */
    readonly bubbleFraction: number;
    readonly breakdown: Readonly<Record<TimePart, number>>;
  } | null;
  /** tokensPerDay: the rate the run advances at, goodput included (run/cost.ts, scheduleRates): training.tokens ÷ days. */
  readonly time: { readonly days: number; readonly gpuHours: number; readonly tokensPerDay: number } | null;
  /** usdPerMillionTokens: the price of a million trained tokens at that rate (run/cost.ts, scheduleRates). */
  readonly cost: { readonly usd: number; readonly energyKwh: number; readonly co2Kg: number; readonly usdPerMillionTokens: number } | null;
  readonly reliability: {
    readonly expectedFailures: number;
    /** The interval the run checkpoints at: cost.checkpointIntervalMinutes, or the optimum when that is not set. */
    readonly checkpointIntervalMinutes: number;
    readonly goodput: number;
    /** Project addition: Young's optimum √(2δM), what the engine recommends. */
    readonly optimalCheckpointIntervalMinutes?: number;
    /** Project additions: one checkpoint's size, its write time, and the cluster's mean time between failures. */
    readonly checkpointBytes?: number;
    readonly checkpointWriteSeconds?: number;
    readonly clusterMtbfHours?: number;
    /** Failures plus spot preemptions over the whole run (run/interruptions.ts): the job's rate × its wall time. */
    readonly expectedInterruptions: number;
    /** The run's end as a distribution (run/completion.ts); estimate() computes it, estimateConfig() only when asked. */
    readonly completion?: Completion;
  } | null;
  /** Project addition: what the input pipeline must sustain (pre-tokenised data). */
  readonly dataPipeline?: { readonly tokensPerSecondPerNode: number; readonly bytesPerSecondPerNode: number } | null;
  /** Project addition: the simulated pipeline schedule the timeline chart draws (null until computed, or when too large to draw). */
  readonly timeline: Timeline | null;
  /**
   * A 90 % range of tokensPerSecond (whole cluster) and of the memory `fits` judges
   * (memory.deviceUsed, bytes): where published runs like this one fell (uncertainty/ranges.ts).
   * null for an invalid document; absent only in hand-built outputs.
   */
  readonly uncertainty?: {
    readonly tokensPerSecond: FigureRange;
    readonly memory: FigureRange;
  } | null;
  readonly warnings: readonly string[];
  readonly errors: readonly string[];
}

/** One figure's range (interchange "Output", uncertainty): low and high in the figure's unit, and why. */
export interface FigureRange {
  readonly low: number;
  readonly high: number;
  /** The segment of published runs and its count; the wider one it fell back to; what lies beyond the validated range. */
  readonly basis: string;
  /** Project additions: the published figures the range rests on, and whether the run lies beyond what they cover (the range widened). */
  readonly runs?: number;
  readonly beyondValidated?: boolean;
}

export interface CompletionPercentiles {
  readonly p10: number;
  readonly p50: number;
  readonly p90: number;
}

/** reliability.completion: the seeded Monte Carlo's percentiles of the run's end and cost. */
export interface Completion {
  readonly days: CompletionPercentiles;
  readonly usd: CompletionPercentiles;
  /** ISO dates, when cost.startDate is given. */
  readonly endDate?: { readonly p10: string; readonly p50: string; readonly p90: string };
  /** What was drawn and how many runs were simulated. */
  readonly basis: string;
  /** Project additions: mean interruptions per simulated run; the runs' end days in equal bins. */
  readonly meanInterruptions?: number;
  readonly histogram?: { readonly fromDays: number; readonly binDays: number; readonly counts: readonly number[] };
  /** Project addition, on spot capacity: the same run on on-demand capacity, for the side-by-side answer. */
  readonly onDemand?: { readonly days: CompletionPercentiles; readonly usd: CompletionPercentiles; readonly expectedInterruptions: number };
  /**
   * Project addition: the checkpoint interval chosen against the distribution, the one whose
   * simulated runs end soonest at the median, with the run's end at it (beside Young/Daly's,
   * reliability.optimalCheckpointIntervalMinutes). Absent when there is nothing to choose.
   */
  readonly p50OptimalInterval?: { readonly minutes: number; readonly days: CompletionPercentiles; readonly usd: CompletionPercentiles };
  /** Project addition: when each quarter of the token budget is reached (fraction 0.25, 0.5, 0.75, 1), dated from cost.startDate. */
  readonly milestones?: readonly CompletionMilestone[];
  /** Project addition, on an elastic run that carries on: the same run waiting for replacements instead, for the effect of elasticity. */
  readonly waiting?: { readonly days: CompletionPercentiles; readonly usd: CompletionPercentiles };
}

export interface CompletionMilestone {
  readonly fraction: number;
  readonly days: CompletionPercentiles;
  readonly date?: { readonly p10: string; readonly p50: string; readonly p90: string };
}

/** One block of work in the simulated pipeline schedule. F forward, B backward (input gradients, or all of backward), W weight gradients (zero-bubble). */
export type BlockKind = 'F' | 'B' | 'W';
export interface ScheduleBlock {
  readonly stage: number;
  readonly microBatch: number;
  /** Virtual-stage chunk on this device (interleaving), 0 otherwise; DualPipe: 0 = forward direction, 1 = reverse. */
  readonly chunk: number;
  readonly kind: BlockKind;
  readonly startSeconds: number;
  readonly endSeconds: number;
}
export interface Timeline {
  readonly stages: number;
  readonly microBatches: number;
  readonly blocks: readonly ScheduleBlock[];
  readonly makespanSeconds: number;
  /**
   * Idle share of all stages' time in the simulated schedule, 1 − busy / (stages × makespan):
   * a property of the schedule alone. The figure the page shows as "pipeline bubble" is
   * throughput.bubbleFraction (share of the step), not this.
   */
  readonly bubbleFraction: number;
}

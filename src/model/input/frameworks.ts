// Framework profiles (interchange "The software stack"): what each training stack does
// when the document does not say. Each default sits beside the framework's own source
// (file, flag, release). An explicit field in the document always wins
// (model/input/stack.ts). `generic` is what a version-1 document without these fields
// has always meant: the engine's behaviour before profiles existed.

import type { CudaGraphScope, Fp8Recipe, Framework, LaunchTarget, OverlapConfig, ScheduleKind, StackConfig, ZeroStage } from './types.ts';

/** Whether the primary weights are gathered in the low-precision format, by fp8 recipe (stack.ts reads the document's recipe's). */
export type Fp8ParamGatherDefaults = Readonly<Record<Fp8Recipe, boolean>>;

/**
 * The stack fields a profile sets (recomputeLayers and activationOffloadLayers default to null and 0 everywhere);
 * fp8ParamGather's default depends on the fp8 recipe, so the profile gives one per recipe.
 */
export type StackDefaults = Omit<
  StackConfig,
  'framework' | 'recomputeLayers' | 'activationOffloadLayers' | 'fp8ParamGather' | 'forwardHostSync' | 'frameworkRelease'
> & {
  readonly fp8ParamGather: Fp8ParamGatherDefaults;
};

/** What a framework does that no document field names. */
export interface FrameworkMechanisms {
  /**
   * Under pipeline parallelism with ZeRO-2/3, gradient reduction waits for the last
   * micro-batch, so a stage holds its unsharded gradients in the reduce dtype.
   */
  readonly deferredGradSyncUnderPp: boolean;
  /**
   * With 16-bit weights and ZeRO 0/1, the optimizer keeps a flat fp32 gradient buffer of
   * every parameter beside the 16-bit gradients.
   */
  readonly flatFp32GradientBuffer: boolean;
  /** With fp8/fp4 compute, the saved inputs of linear layers are kept quantized (1 byte per element). */
  readonly savesQuantizedLinearInputs: boolean;
  /** FSDP (ZeRO-3) keeps each parameter shard in fp32, which is the master copy. */
  readonly fsdpFp32ShardedParameters: boolean;
  /**
   * The caching allocator's reserve over allocated bytes; null: the fitted constant of
   * calibration.ts (ALLOCATOR_RESERVE_FRACTION, 0.10) for every framework today. A
   * Megatron-only fit wants 0.25 (FlagPerf's reserved rows: memory median 14.8 % → 9.4 %)
   * but raises false "will not fit" alarms from 26 to 59, all Megatron-Bridge recipes,
   * which run with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: the reserve follows
   * the allocator's configuration, which the document cannot state yet, not the framework.
   */
  readonly allocatorReserveFraction: number | null;
  /**
   * fp8/fp4 casts run as torchao's float8 training runs them, in kernels of their own
   * (time/stack-time.ts lowPrecisionCastScale), rather than fused into the neighbouring
   * kernels as Transformer Engine fuses them.
   */
  readonly torchaoFloat8Casts: boolean;
  /** The pieces along the tokens the "fused" loss computes lm_head and cross-entropy in, one at a time (memory/loss.ts); 1: all at once. */
  readonly fusedLossChunks: number;
  /**
   * Optimizer offload moves the Adam moments of the offloaded share to the CPU but the
   * fp32 master copy stays on the GPU (Megatron-Core's HybridDeviceOptimizer, memory.ts
   * optimizerOnGpuBytesPerParameter); false: master and moments both move (ZeRO-Offload).
   */
  readonly optimizerOffloadKeepsMaster: boolean;
  /**
   * The training loop frees the gradients before the step's forward (PyTorch
   * Optimizer.zero_grad(set_to_none=True), the default since PyTorch 2.0, called at the
   * start of the step), so with one micro-batch per step no gradient exists while the
   * activations peak at the end of forward: the peak holds the larger of the two
   * (memory.ts gradientBytesAtPeak). Megatron's and DeepSpeed's persistent gradient
   * buffers stay allocated.
   */
  readonly gradientsFreedBeforeForward: boolean;
  /** training.compile compiles the loss too, so an unstated training.loss is "compiled" (stack.ts). */
  readonly compileCompilesLoss: boolean;
  /**
   * Transformer Engine keeps a quantized copy of each linear weight (and its transpose or
   * column-wise copy) across the step's micro-batches, because the framework passes
   * `is_first_microbatch` to its modules; unless the weights are low-precision already
   * (training.fp8ParamGather). memory/fp8-weight-cache.ts.
   */
  readonly teFp8WeightCache: boolean;
  /**
   * ZeRO-3 gathers weights on a stream of its own and, in forward, lets the host run ahead of
   * the GPU with no limit but the gathers' own progress, so the gather stream's cached blocks
   * grow to the weights gathered ahead (memory/zero3-gather-cache.ts, when training.forwardHostSync
   * is "none"). FSDP's rate limiter (limit_all_gathers) waits on the compute stream instead.
   */
  readonly zero3GatherStreamCache: boolean;
  /**
   * Under ZeRO-3 with fp8 weights (training.fp8ParamGather) the layers' weights live in a one-byte buffer, sharded and
   * gathered in fp8, their transpose dropped when a unit is released (memory/fp8-weight-cache.ts fsdpQuantizedLayerWeightBytes).
   */
  readonly fsdpQuantizedWeightBuffer: boolean;
  /**
   * With fp8 weights (training.fp8ParamGather) and a per-tensor recipe the data-parallel weight all-gather (ZeRO-1's after
   * the optimizer step, ZeRO-2/3's per unit) moves the layers' weights in fp8, 1 byte each, the embedding and output layer
   * in 16 bits (memory/fp8-weight-cache.ts fp8GatheredLayerWeightBytes, read by the memory and the step time).
   */
  readonly fp8WeightAllGather: boolean;
}

/**
 * What a framework can run (issue 36): the search, cluster sizing, sweeps, fixes and the
 * page offer only these (input/capabilities.ts asks them), and where a better plan needs
 * another framework they say so apart. Each entry has its source in `capabilitySources`.
 */
export interface FrameworkCapabilities {
  /**
   * The pipeline schedules it runs when pp > 1, each under the framework's own name.
   * Without a pipeline (pp = 1) every framework runs one forward and backward per
   * micro-batch, which is the engine's "1f1b" (and "gpipe", which only holds more).
   */
  readonly schedules: Readonly<Partial<Record<ScheduleKind, string>>>;
  /** The least micro-batches per step per pipeline a schedule needs, as a multiple of pp. */
  readonly minMicroBatchesPerStage: Readonly<Partial<Record<ScheduleKind, number>>>;
  /** Expert-parallel dispatch/combine overlapped with another micro-batch (training.overlap.epComm), under the rules of capabilities.ts epOverlapProblem. */
  readonly epOverlap: boolean;
  /** CUDA-graph scopes (training.cudaGraph) it can capture. */
  readonly cudaGraphs: readonly CudaGraphScope[];
  /** ZeRO stages (parallel.zero) it has a sharding mode for. */
  readonly zeroStages: readonly ZeroStage[];
  /** The highest ZeRO stage it runs together with pipeline parallelism. */
  readonly maxZeroWithPipeline: ZeroStage;
  /** What it can offload: the optimizer's states alone, and the parameters (ZeRO-3) with them. */
  readonly offload: { readonly optimizer: boolean; readonly parameters: boolean };
  /** fp8 scaling recipes (training.fp8Recipe) it implements; 'auto' is always allowed. */
  readonly fp8Recipes: readonly Fp8Recipe[];
}

export interface FrameworkProfile {
  readonly id: Framework;
  readonly label: string;
  /** Its name in words people use ("Megatron-LM", "torchtitan"): what suggestions name. */
  readonly shortName: string;
  readonly capabilities: FrameworkCapabilities;
  /** Where each capability comes from, keyed by field name. */
  readonly capabilitySources: Readonly<Record<keyof FrameworkCapabilities, string>>;
  /**
   * The launch-file writer (model/export/) whose files the framework runs, or the nearest one: FSDP runs are nearest
   * torchtitan's, generic is Megatron-LM's.
   */
  readonly launchTarget: LaunchTarget;
  readonly defaults: StackDefaults;
  readonly mechanisms: FrameworkMechanisms;
  /** Where each default and mechanism comes from, keyed by field name. */
  readonly sources: Readonly<Partial<Record<keyof StackDefaults | keyof FrameworkMechanisms, string>>>;
}

/**
 * torchtitan's fused loss is ChunkedLossWrapper (torchtitan/components/loss.py): the
 * hidden states are split into ChunkedLossWrapper.Config.num_chunks = 8 pieces along the
 * tokens and lm_head + cross-entropy run and backpropagate one piece at a time, "reducing
 * peak memory from O(T·V) to O(T/N·V)". Each piece's inner loss is the plain
 * CrossEntropyLoss, so its buffers are the eager ones, on an eighth of the tokens.
 */
export const TORCHTITAN_LOSS_CHUNKS = 8;

/**
 * DualPipe's own minimum: at least 2 micro-batches per pipeline rank. DeepSeek's reference
 * (deepseek-ai/DualPipe dualpipe/dualpipe.py DualPipe.step) asserts num_chunks >= num_ranks * 2
 * (and even); PyTorch's ScheduleDualPipeV (torch/distributed/pipelining/schedules.py), which
 * torchtitan runs, raises "DualPipeV requires at least as many microbatches as stages" with
 * two stages per rank, so n_microbatches >= 2 × pp.
 */
export const DUALPIPE_MIN_MICRO_BATCHES_PER_STAGE = 2;
const DUALPIPE_MIN_SOURCE =
  'deepseek-ai/DualPipe dualpipe/dualpipe.py DualPipe.step asserts num_chunks ' +
  '>= num_ranks * 2; torch/distributed/pipelining/schedules.py ' +
  'ScheduleDualPipeV raises when n_microbatches < num_stages (2 stages per rank)';

// epComm false everywhere: Megatron-Core overlap_moe_expert_parallel_comm defaults to False
// (megatron/core/transformer/transformer_config.py); torchtitan, DeepSpeed and FSDP have no such overlap.
const NO_OVERLAP_TP: OverlapConfig = { tpComm: false, dpGrad: true, dpParam: true, epComm: false };

// FSDP2 over torch.distributed.pipelining: what torchtitan and plain FSDP share. Each
// profile's capabilitySources, sources and mechanism sources below cite the code.
const FSDP2_CAPABILITIES: Omit<FrameworkCapabilities, 'fp8Recipes'> = {
  schedules: {
    gpipe: 'GPipe',
    '1f1b': '1F1B',
    'interleaved-1f1b': 'Interleaved1F1B',
    'zero-bubble': 'ZBVZeroBubble',
    dualpipe: 'DualPipeV',
  },
  minMicroBatchesPerStage: { dualpipe: DUALPIPE_MIN_MICRO_BATCHES_PER_STAGE },
  epOverlap: false,
  cudaGraphs: ['none'],
  zeroStages: [0, 2, 3],
  maxZeroWithPipeline: 3,
  offload: { optimizer: true, parameters: true },
};
/** No recipe gathers low-precision weights: the 16-bit weights are the primary copy (what every framework but Megatron does). */
const NO_FP8_PARAM_GATHER: Fp8ParamGatherDefaults = {
  auto: false,
  tensorwise: false,
  rowwise: false,
  delayed: false,
  blockwise: false,
  mxfp8: false,
  nvfp4: false,
};
/**
 * Megatron's, by recipe. Megatron-LM's --fp8-param-gather (arguments.py, from core_v0.9.0; absent from core_v0.6.0
 * that FlagPerf runs) and NeMo 1's fp8_params (megatron_base_model.py cfg.get('fp8_params', False), NeMo 24.07) are off
 * unless set, and delayed scaling, Megatron-LM's default recipe, was the only one of Transformer Engine 1.x that those
 * runs had. The newer recipes run from Megatron-Bridge's mixed-precision recipes
 * (src/megatron/bridge/training/mixed_precision.py, v0.2.0 = container 25.11, the same in v0.1.0rc4 = 25.09):
 * bf16_with_fp8_current_scaling_mixed (tensorwise) and bf16_with_mxfp8_mixed set fp8_param_gather = True,
 * bf16_with_fp8_subchannel_scaling_mixed (blockwise) sets it False; bf16_with_nvfp4_mixed sets
 * fp4_param_gather = True from v0.5.0 (and tag 26.04-alpha.rc1), False through v0.4.0. Bridge's and NeMo 2's
 * delayed-scaling recipe (bf16_with_fp8_delayed_scaling_mixed) sets it True: such a run states it.
 */
const MEGATRON_FP8_PARAM_GATHER: Fp8ParamGatherDefaults = {
  auto: false,
  delayed: false,
  tensorwise: true,
  rowwise: false,
  blockwise: false,
  mxfp8: true,
  nvfp4: true,
};
/** The generic profile's stack defaults, which DeepSpeed, FSDP and torchtitan start from (each profile's `sources` cite its own). */
const GENERIC_DEFAULTS: StackDefaults = {
  loss: 'eager',
  compile: false,
  dropout: false,
  recomputeModules: ['core_attn'],
  selectivePolicy: 'elementwise',
  recomputeLayerFrequency: 2,
  optimizerStateDtype: 'fp32',
  attentionKernel: 'auto',
  fp8Recipe: 'auto',
  overlap: NO_OVERLAP_TP,
  moeDispatcher: 'alltoall',
  cudaGraph: 'none',
  modelCode: 'fused',
  fp8ParamGather: NO_FP8_PARAM_GATHER,
};
/** The generic profile's mechanisms: none of the frameworks' own (each profile's mechanism sources cite its code). */
const GENERIC_MECHANISMS: FrameworkMechanisms = {
  deferredGradSyncUnderPp: false,
  flatFp32GradientBuffer: false,
  savesQuantizedLinearInputs: false,
  fsdpFp32ShardedParameters: false,
  allocatorReserveFraction: null,
  torchaoFloat8Casts: false,
  fusedLossChunks: 1,
  optimizerOffloadKeepsMaster: false,
  gradientsFreedBeforeForward: false,
  compileCompilesLoss: false,
  teFp8WeightCache: false,
  zero3GatherStreamCache: false,
  fsdpQuantizedWeightBuffer: false,
  fp8WeightAllGather: false,
};
/**
 * torchao's FSDP float8 all-gather, which torchtitan and plain FSDP run (frameworks' mechanism fp8WeightAllGather).
 * The 1 byte per weight: fsdp_pre_all_gather returns float8_tensor._data, the scale as metadata.
 */
const TORCHAO_FLOAT8_ALL_GATHER_SOURCE =
  'pytorch/ao @0a4b91d4 torchao/float8/fsdp_utils.py WeightWithDynamicFloat8CastTensor.fsdp_pre_all_gather casts the ' +
  'shard to float8 and hands FSDP2 its uint8 data to all-gather when Float8LinearConfig.enable_fsdp_float8_all_gather ' +
  '(torchtitan @026c75f2 torchtitan/components/quantization/float8.py enable_fsdp_float8_all_gather, default False: ' +
  'state training.fp8ParamGather); tensorwise scaling only (pytorch/ao @c6c388b5 torchao/float8/config.py ' +
  'Float8LinearConfig.__post_init__: "enable_fsdp_float8_all_gather only supports tensorwise scaling granularity")';
/** Plain FSDP's mechanisms; torchtitan's differ in its chunked loss and in compiling the loss with the model. */
const FSDP_MECHANISMS: FrameworkMechanisms = {
  ...GENERIC_MECHANISMS,
  deferredGradSyncUnderPp: true,
  fsdpFp32ShardedParameters: true,
  torchaoFloat8Casts: true,
  gradientsFreedBeforeForward: true,
  fp8WeightAllGather: true,
};

export const FRAMEWORK_PROFILES: Readonly<Record<Framework, FrameworkProfile>> = {
  generic: {
    id: 'generic',
    label: 'Generic (plain PyTorch)',
    shortName: 'plain PyTorch',
    // No framework's limits: the schedules' own rules only (what a version-1 document always meant).
    capabilities: {
      schedules: {
        gpipe: 'ScheduleGPipe',
        '1f1b': 'Schedule1F1B',
        'interleaved-1f1b': 'ScheduleInterleaved1F1B',
        'zero-bubble': 'ScheduleInterleavedZeroBubble',
        dualpipe: 'ScheduleDualPipeV',
      },
      minMicroBatchesPerStage: { dualpipe: DUALPIPE_MIN_MICRO_BATCHES_PER_STAGE },
      epOverlap: true,
      cudaGraphs: ['none', 'partial', 'full'],
      zeroStages: [0, 1, 2, 3],
      maxZeroWithPipeline: 3,
      offload: { optimizer: true, parameters: true },
      fp8Recipes: ['auto', 'tensorwise', 'rowwise', 'delayed', 'blockwise', 'mxfp8', 'nvfp4'],
    },
    capabilitySources: {
      schedules:
        'PyTorch torch/distributed/pipelining/schedules.py get_schedule_class: GPipe, 1F1B, Interleaved1F1B, InterleavedZeroBubble, ZBVZeroBubble, DualPipeV',
      minMicroBatchesPerStage: DUALPIPE_MIN_SOURCE,
      epOverlap: 'the generic profile sets no framework limit',
      cudaGraphs: 'torch.cuda.graphs can capture what the user wraps',
      zeroStages: 'the generic profile sets no framework limit',
      maxZeroWithPipeline: 'the generic profile sets no framework limit',
      offload: 'the generic profile sets no framework limit',
      fp8Recipes: 'the generic profile sets no framework limit',
    },
    launchTarget: 'megatron',
    defaults: GENERIC_DEFAULTS,
    mechanisms: GENERIC_MECHANISMS,
    sources: {
      moeDispatcher:
        'a plain PyTorch expert-parallel layer exchanges tokens with torch.distributed.all_to_all_single, sizing it from per-expert counts copied to the host',
      cudaGraph: 'PyTorch runs eagerly unless the user captures graphs (torch.cuda.graphs)',
      loss: 'the engine before profiles: eager torch.nn.functional.cross_entropy (log_softmax + nll_loss)',
      modelCode:
        'the engine before profiles: the inventory of Korthikanti et al. 2022 (arXiv 2205.05198, section 4.1), norms saving their 16-bit input',
      selectivePolicy:
        'the engine before profiles: norm outputs and activation products recomputed, matrix-multiply outputs kept (model/memory/activations.ts)',
      dropout: 'modern recipes train without dropout (Llama 3, Qwen, DeepSeek-V3 configs: attention_dropout 0)',
    },
  },
  megatron: {
    id: 'megatron',
    label: 'Megatron-Core / NeMo',
    shortName: 'Megatron-LM',
    capabilities: {
      schedules: { '1f1b': '1F1B', 'interleaved-1f1b': 'interleaved 1F1B (--num-layers-per-virtual-pipeline-stage)' },
      minMicroBatchesPerStage: { 'interleaved-1f1b': 1 },
      epOverlap: true,
      cudaGraphs: ['none', 'partial', 'full'],
      zeroStages: [0, 1, 2, 3],
      maxZeroWithPipeline: 3,
      offload: { optimizer: true, parameters: false },
      fp8Recipes: ['auto', 'delayed', 'tensorwise', 'blockwise', 'mxfp8', 'nvfp4'],
    },
    capabilitySources: {
      schedules:
        'Megatron-LM core_r0.13 megatron/core/pipeline_parallel/schedules.py get_forward_backward_func: ' +
        'forward_backward_no_pipelining (pp 1), forward_backward_pipelining_without_interleaving ' +
        '(1F1B, --pipeline-model-parallel-size), forward_backward_pipelining_with_interleaving ' +
        '(--num-layers-per-virtual-pipeline-stage / --num-virtual-stages-per-pipeline-rank). ' +
        'No GPipe, zero-bubble or DualPipe schedule in Megatron-LM itself: ZB-H1/ZB-V live in ' +
        'the sail-sg/zero-bubble-pipeline-parallelism fork, DualPipeV in forks such as MindSpeed',
      minMicroBatchesPerStage:
        'megatron/core/pipeline_parallel/schedules.py forward_backward_pipelining_with_interleaving: ' +
        'microbatch_group_size_per_vp_stage (default pp) ' +
        'must lie in [PP, M], so interleaving needs at least pp micro-batches',
      epOverlap:
        'Megatron-Core transformer_config.py __post_init__ overlap_moe_expert_parallel_comm ' +
        '(--overlap-moe-expert-parallel-comm): needs ' +
        'expert_model_parallel_size > 1, moe_token_dispatcher_type ' +
        'alltoall or flex, no full recompute, bf16/fp16 params, and virtual pipeline stages when pp > 1',
      cudaGraphs:
        'megatron/training/arguments.py --cuda-graph-impl local | transformer_engine with --cuda-graph-scope (per module, or full_iteration)',
      zeroStages:
        'megatron/training/arguments.py: no sharding (0), --use-distributed-optimizer (1), ' +
        '--use-megatron-fsdp with --data-parallel-sharding-strategy optim_grads / optim_grads_params (2, 3)',
      maxZeroWithPipeline: 'the distributed optimizer and Megatron-FSDP both run under --pipeline-model-parallel-size',
      offload:
        'megatron/training/arguments.py --optimizer-cpu-offload with --optimizer-offload-fraction (HybridDeviceOptimizer); no parameter offload',
      fp8Recipes: 'megatron/training/arguments.py --fp8-recipe delayed | tensorwise | mxfp8 | blockwise; --fp4-recipe nvfp4',
    },
    launchTarget: 'megatron',
    defaults: {
      loss: 'fused',
      compile: false,
      dropout: false,
      recomputeModules: ['core_attn'],
      selectivePolicy: 'modules',
      recomputeLayerFrequency: 2,
      optimizerStateDtype: 'fp32',
      attentionKernel: 'cudnn',
      fp8Recipe: 'delayed',
      overlap: NO_OVERLAP_TP,
      moeDispatcher: 'alltoall',
      cudaGraph: 'none',
      modelCode: 'fused',
      fp8ParamGather: MEGATRON_FP8_PARAM_GATHER,
    },
    mechanisms: {
      deferredGradSyncUnderPp: false,
      flatFp32GradientBuffer: false,
      savesQuantizedLinearInputs: true,
      fsdpFp32ShardedParameters: false,
      allocatorReserveFraction: null,
      torchaoFloat8Casts: false,
      fusedLossChunks: 1,
      optimizerOffloadKeepsMaster: true,
      gradientsFreedBeforeForward: false,
      compileCompilesLoss: false,
      teFp8WeightCache: true,
      zero3GatherStreamCache: false,
      fsdpQuantizedWeightBuffer: true,
      fp8WeightAllGather: true,
    },
    sources: {
      fp8ParamGather:
        'by recipe: delayed off (Megatron-LM --fp8-param-gather off unless set, core_v0.9.0+; NeMo 1 fp8_params False); ' +
        'Megatron-Bridge src/megatron/bridge/training/mixed_precision.py v0.2.0: tensorwise and mxfp8 on ' +
        '(fp8_param_gather = True), blockwise off; nvfp4 on (fp4_param_gather = True from v0.5.0)',
      fp8WeightAllGather:
        'Megatron-Core core_v0.13.0 megatron/core/distributed/distributed_data_parallel.py ' +
        '_allocate_buffers_for_parameters: a Float8Tensor weight (delayed, tensorwise) gets param_dtype = torch.uint8, so ' +
        "the distributed optimizer's param all-gather (param_and_grad_buffer.py start_param_sync, dist_all_gather_func " +
        'over bucket.param_data) moves 1 byte per weight; an MXFP8 weight is gathered in bf16 through the grad buffer ' +
        '(same file, is_mxfp8tensor: param_data = shared_buffer ... view(torch.bfloat16)); Megatron-FSDP: ' +
        'custom_fsdp/param_and_grad_buffer.py uint8 model-weight buffer (fsdpQuantizedWeightBuffer)',
      fsdpQuantizedWeightBuffer:
        'Megatron-Core core_v0.13.0 megatron/core/distributed/custom_fsdp/param_and_grad_buffer.py ' +
        '_init_each_parameter_group_buffers: a Float8Tensor group gets param_dtype = torch.uint8 for its sharded and ' +
        'gathered model-weight buffer (the fp32 main weights in the optimizer); fully_sharded_data_parallel.py ' +
        'release_module_parameters drops the fp8 transpose unless keep_fp8_transpose_cache_when_using_custom_fsdp ' +
        '(default False; core_v0.14.0 megatron/core/distributed/fsdp/src/README.md: keeping it costs "number of ' +
        'parameter × 1 Byte", no benefit on Blackwell)',
      teFp8WeightCache:
        'Megatron-Core megatron/core/extensions/transformer_engine.py (core_v0.15.0; custom_layers/transformer_engine.py ' +
        'in core_v0.6.0) TELinear.forward passes is_first_microbatch unless config.disable_parameter_transpose_cache ' +
        "(default False); schedules.py forward_step calls model.set_is_first_microbatch() on each step's first " +
        'micro-batch. Transformer Engine caches the quantized weight then: v1.6 module/linear.py ' +
        'get_fp8_weights_scratchpad keeps weight1_fp8 and weight1_t_fp8; v2.8 module/linear.py ' +
        'get_weight_workspace(cache_name="weight") into base.py _fp8_workspaces; none when the weight is ' +
        'already quantized (primary_weights_in_fp8 / QuantizedTensor, fp8_param_gather)',
      moeDispatcher:
        'Megatron-Core megatron/core/transformer/transformer_config.py: moe_token_dispatcher_type ' +
        'default "allgather" (--moe-token-dispatcher-type); Megatron-Bridge recipes ' +
        'set "alltoall" or "flex" with --moe-flex-dispatcher-backend deepep / hybridep',
      cudaGraph:
        'Megatron-Core transformer_config.py cuda_graph_impl default "none" ' +
        '(--cuda-graph-impl local | transformer_engine | full_iteration, --cuda-graph-scope)',
      optimizerOffloadKeepsMaster:
        'Megatron-Core megatron/core/optimizer/cpu_offloading/hybrid_device_optimizer.py ' +
        '_get_sub_optimizer_param_groups: an offloaded parameter is a pinned CPU clone of the tensor ' +
        'the optimizer was handed (the distributed optimizer hands its fp32 main-param shards), ' +
        'which stays on the GPU and takes the update back (param_copy_back_gpu_hook); the CPU ' +
        'optimizer holds the moments. Megatron-Bridge skills/nemo-mbridge-perf-cpu-offloading card: ' +
        'Qwen3-30B-A3B 47.2 GB → 32.0 GB at fraction 1.0, the 8 bytes of moments per parameter',
      savesQuantizedLinearInputs:
        'Transformer Engine v2 transformer_engine/pytorch/module/linear.py and layernorm_linear.py: ' +
        'with fp8 the forward saves the quantized input for the weight-gradient GEMM, not the 16-bit one',
      loss:
        'Megatron-LM core_r0.13 megatron/core/tensor_parallel/cross_entropy.py: vocab-parallel ' +
        'cross-entropy exponentiates the fp32 logits in place and writes the gradient into the saved softmax',
      recomputeModules:
        'Megatron-LM core_r0.13 megatron/core/transformer/transformer_config.py recompute_modules, default ["core_attn"] (--recompute-modules)',
      modelCode:
        'Megatron-Core transformer_layer.py with Transformer Engine modules (TENorm / ' +
        'LayerNormLinear, fused bias-SwiGLU megatron/core/fusions/fused_bias_swiglu.py)',
      selectivePolicy: 'Megatron-LM --recompute-granularity selective recomputes the --recompute-modules list',
      dropout: 'Megatron-Bridge recipes set hidden_dropout = attention_dropout = 0 (GPT-3-era Megatron-LM scripts: 0.1)',
      attentionKernel: 'Transformer Engine DotProductAttention picks the cuDNN fused attention backend on Hopper (NVTE_FUSED_ATTN=1)',
      fp8Recipe: 'Transformer Engine DelayedScaling is the default fp8 recipe (--fp8-recipe delayed in megatron/training/arguments.py)',
      overlap:
        'megatron/training/arguments.py: --overlap-grad-reduce and --overlap-param-gather with the distributed optimizer; --tp-comm-overlap off unless set',
      optimizerStateDtype:
        'megatron/training/arguments.py --exp-avg-dtype / --exp-avg-sq-dtype default fp32 (--use-precision-aware-optimizer for bf16)',
    },
  },
  torchtitan: {
    id: 'torchtitan',
    label: 'torchtitan (FSDP2)',
    shortName: 'torchtitan',
    capabilities: { ...FSDP2_CAPABILITIES, fp8Recipes: ['auto', 'tensorwise', 'rowwise', 'mxfp8'] },
    capabilitySources: {
      schedules:
        'torchtitan torchtitan/distributed/pipeline_parallel.py build_pipeline_schedule: ' +
        'parallelism.pipeline_parallel_schedule through torch.distributed.pipelining get_schedule_class ' +
        '(GPipe, 1F1B, Interleaved1F1B, InterleavedZeroBubble, ZBVZeroBubble, DualPipeV)',
      minMicroBatchesPerStage: DUALPIPE_MIN_SOURCE,
      epOverlap:
        'torchtitan has no expert-parallel overlap switch (torchtitan/distributed/expert_parallel.py); ' +
        'its DualPipeV overlaps forward and backward of two micro-batches instead',
      cudaGraphs: 'torchtitan trains eagerly or under torch.compile without CUDA graphs',
      zeroStages: 'torchtitan FSDP2 fully_shard (3), reshard_after_forward false (2), data_parallel_replicate_degree DDP (0); no ZeRO-1',
      maxZeroWithPipeline:
        'torchtitan/distributed/pipeline_parallel.py: FSDP2 under pipeline parallelism, gradient sync deferred to the last micro-batch',
      offload: 'torchtitan training.enable_cpu_offload: FSDP2 CPUOffloadPolicy moves parameters, gradients and optimizer states together',
      fp8Recipes: 'torchtitan float8.recipe_name: torchao tensorwise (default), rowwise; mx.recipe_name mxfp8',
    },
    launchTarget: 'torchtitan',
    defaults: { ...GENERIC_DEFAULTS, selectivePolicy: 'op', attentionKernel: 'sdpa', fp8Recipe: 'tensorwise' },
    mechanisms: { ...FSDP_MECHANISMS, fusedLossChunks: TORCHTITAN_LOSS_CHUNKS, compileCompilesLoss: true },
    sources: {
      moeDispatcher:
        'torchtitan torchtitan/distributed/expert_parallel.py ExpertParallel: all_to_all_single of ' +
        'the routed tokens after the split sizes are copied to the host; expert_tensor_parallel_degree ' +
        'default 1 (torchtitan/config/job_config.py): the planner keeps its tp-when-it-fits rule for ' +
        'documents without parallel.etp, so a torchtitan document wanting that default states etp 1',
      cudaGraph: 'torchtitan trains eagerly or under torch.compile without CUDA graphs',
      savesQuantizedLinearInputs:
        'torchao float8 training (torchao/float8/float8_linear.py) saves the 16-bit input and casts again in backward',
      loss:
        'torchtitan v0.1 torchtitan/components/loss.py cross_entropy_loss: pred.float() then ' +
        'F.cross_entropy, eager unless compile.components has "loss"; "fused" is its ' +
        'ChunkedLossWrapper (same file: lm_head + cross-entropy over 8 token chunks, memory/loss.ts)',
      selectivePolicy:
        'torchtitan v0.1 torchtitan/models/llama3/train_configs/llama3_8b.toml: activation_checkpoint.selective_ac_option = "op"',
      modelCode:
        "torchtitan's own model code (torchtitan/models/llama3/model.py), usually run with " +
        "torch.compile, whose partitioner recomputes the norms' and SwiGLU's element-wise ops rather " +
        'than saving them; the op-level policy has its own inventory (memory/activations.ts)',
      recomputeLayerFrequency:
        'torchtitan activation_checkpoint.selective_ac_option = "2" (every second block fully checkpointed, torchtitan/distributed/activation_checkpoint.py)',
      attentionKernel: 'torchtitan llama3 model: F.scaled_dot_product_attention (flash backend on Hopper is FlashAttention-2)',
      fp8Recipe: 'torchao Float8LinearConfig default recipe is tensorwise dynamic scaling (torchtitan float8.recipe_name unset)',
      fsdpFp32ShardedParameters:
        'torchtitan fully_shard(mp_policy=MixedPrecisionPolicy(param_dtype=bfloat16, reduce_dtype=float32)): ' +
        'the sharded parameters stay fp32 (torch/distributed/fsdp/_fully_shard/_fsdp_param.py)',
      deferredGradSyncUnderPp:
        'torchtitan torchtitan/distributed/pipeline_parallel.py: FSDP2 set_requires_gradient_sync ' +
        'deferred to the last micro-batch under PP; reduce dtype training.mixed_precision_reduce = float32',
      torchaoFloat8Casts:
        "torchtitan float8 training is torchao's (torchao/float8/README.md): amax, scale and cast in kernels of their own unless torch.compile fuses them",
      fusedLossChunks:
        'torchtitan torchtitan/components/loss.py ChunkedLossWrapper.Config.num_chunks = 8: lm_head + cross-entropy over 8 token chunks, one at a time',
      gradientsFreedBeforeForward:
        'torchtitan torchtitan/train.py Trainer.train_step: self.optimizers.zero_grad() ' +
        'before the micro-batches run (PyTorch torch/optim/optimizer.py ' +
        'zero_grad(set_to_none=True)); FSDP2 frees the sharded gradients with them',
      fp8WeightAllGather: TORCHAO_FLOAT8_ALL_GATHER_SOURCE,
      compileCompilesLoss:
        'torchtitan torchtitan/components/loss.py build_cross_entropy_loss (since #859, ' +
        '2025-02-20; at 6fc499f6: "if job_config.training.compile: loss_fn = torch.compile(loss_fn)"); ' +
        'at 9dec370 (2024-12) train.py still had it commented out ("compiling ' +
        'loss function causes CUDA errors"), so documents of those runs state loss "eager"',
    },
  },
  deepspeed: {
    id: 'deepspeed',
    label: 'DeepSpeed',
    shortName: 'DeepSpeed',
    capabilities: {
      schedules: { '1f1b': 'PipelineEngine TrainSchedule (1F1B)' },
      minMicroBatchesPerStage: {},
      epOverlap: false,
      cudaGraphs: ['none'],
      zeroStages: [0, 1, 2, 3],
      maxZeroWithPipeline: 1,
      offload: { optimizer: true, parameters: true },
      fp8Recipes: ['auto'],
    },
    capabilitySources: {
      schedules: 'DeepSpeed deepspeed/runtime/pipe/schedule.py TrainSchedule: the PipelineEngine runs 1F1B only',
      minMicroBatchesPerStage: 'DeepSpeed TrainSchedule runs any gradient_accumulation_steps',
      epOverlap: 'DeepSpeed-MoE deepspeed/moe/sharded_moe.py exchanges tokens without overlap',
      cudaGraphs: 'DeepSpeed graphs only with enable_cuda_graph in inference; training runs eagerly',
      zeroStages: 'deepspeed/runtime/zero/: zero_optimization.stage 0-3',
      maxZeroWithPipeline:
        'DeepSpeed deepspeed/runtime/pipe/engine.py PipelineEngine: "ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism"',
      offload: 'DeepSpeed zero_optimization.offload_optimizer (ZeRO-Offload) and offload_param (ZeRO-Infinity, stage 3)',
      fp8Recipes: 'DeepSpeed has no fp8 recipe of its own (Transformer Engine layers bring theirs)',
    },
    launchTarget: 'deepspeed',
    defaults: { ...GENERIC_DEFAULTS, modelCode: 'transformers' },
    mechanisms: { ...GENERIC_MECHANISMS, flatFp32GradientBuffer: true, zero3GatherStreamCache: true },
    sources: {
      moeDispatcher: 'DeepSpeed-MoE deepspeed/moe/sharded_moe.py: _AllToAll of capacity-padded token buffers',
      cudaGraph: 'DeepSpeed graphs only with enable_cuda_graph in inference; training runs eagerly',
      loss: 'DeepSpeed trains the user model (Hugging Face LlamaForCausalLM: eager CrossEntropyLoss on upcast logits)',
      selectivePolicy:
        'DeepSpeed has no selective policy of its own (deepspeed/runtime/activation_checkpointing/checkpointing.py checkpoints whole blocks)',
      modelCode:
        'DeepSpeed brings no model code: it trains the model it is given, usually a ' +
        'Hugging Face transformers one (transformers/integrations/deepspeed.py; FlagPerf ' +
        'llama2_7b-deepspeed and ms-swift run LlamaForCausalLM / Qwen2ForCausalLM)',
      zero3GatherStreamCache:
        'DeepSpeed v0.11.1 deepspeed/runtime/zero/parameter_offload.py: gathers on __allgather_stream ' +
        '(a stream of its own with overlap_comm, on by default at stage 3: zero/config.py overlap_comm_valid); ' +
        "partitioned_param_coordinator.py fetch_sub_module waits only on that stream's events " +
        '(__max_ongoing_fetch_events = 2); partition_parameters.py free_param record_stream()s the compute stream',
      flatFp32GradientBuffer:
        'DeepSpeed v0.14 deepspeed/runtime/bf16_optimizer.py: fp32_groups_gradients_flat, one ' +
        'fp32 buffer the size of every bf16 parameter group, used with bf16 and ZeRO stage 0/1',
    },
  },
  fsdp: {
    id: 'fsdp',
    label: 'PyTorch FSDP (Composer, Accelerate)',
    shortName: 'PyTorch FSDP',
    capabilities: { ...FSDP2_CAPABILITIES, fp8Recipes: ['auto', 'tensorwise', 'rowwise'] },
    capabilitySources: {
      schedules:
        'Composer and Accelerate have no pipeline; NeMo AutoModel pipelines FSDP2 ' +
        'through torch.distributed.pipelining get_schedule_class ' +
        '(nemo_automodel/components/distributed/pipelining/functional.py build_pipeline_schedule)',
      minMicroBatchesPerStage: DUALPIPE_MIN_SOURCE,
      epOverlap: 'plain FSDP has no expert-parallel overlap switch',
      cudaGraphs: 'FSDP runs eagerly: its hooks cannot be captured in CUDA graphs',
      zeroStages: 'torch.distributed.fsdp sharding_strategy NO_SHARD (0), SHARD_GRAD_OP (2), FULL_SHARD (3)',
      maxZeroWithPipeline: 'FSDP2 under torch.distributed.pipelining defers gradient sync to the last micro-batch',
      offload: 'torch.distributed.fsdp CPUOffload(offload_params=True): parameters, gradients and optimizer states together',
      fp8Recipes: 'plain FSDP trains fp8 with torchao Float8LinearConfig: tensorwise, rowwise',
    },
    launchTarget: 'torchtitan',
    defaults: { ...GENERIC_DEFAULTS, attentionKernel: 'flash2' },
    mechanisms: FSDP_MECHANISMS,
    sources: {
      moeDispatcher:
        "plain FSDP training of a MoE model runs the model code's own all-to-all (NeMo AutoModel states DeepEP where it uses it)",
      cudaGraph: 'FSDP runs eagerly: its hooks cannot be captured in CUDA graphs',
      attentionKernel: 'llm-foundry attn_config.attn_impl = "flash" (flash-attn 2 package), llmfoundry/models/layers/attention.py',
      modelCode:
        'the FSDP runs of validation/ use fused layers: llm-foundry MPT (llmfoundry/models/layers, ' +
        'low-precision LayerNorm) and NeMo Automodel with Transformer Engine; ' +
        'a plain Accelerate run of a transformers model is modelCode "transformers"',
      loss: 'llm-foundry loss_fn default "fused_crossentropy" needs flash-attn\'s xentropy; plain FSDP/Accelerate runs torch cross_entropy (eager)',
      fsdpFp32ShardedParameters:
        'torch.distributed.fsdp MixedPrecision(param_dtype=bf16): the flat parameter shard ' +
        'stays fp32 (_flat_param.py, _use_low_precision_shard only for the gathered copy)',
      deferredGradSyncUnderPp:
        'torch.distributed.fsdp no_sync()/set_requires_gradient_sync: gradient accumulation without sync keeps unsharded gradients',
      torchaoFloat8Casts:
        'plain FSDP trains fp8 with torchao (torchao/float8/README.md: convert_to_float8_training), ' +
        'casting in kernels of their own unless torch.compile fuses them',
      fp8WeightAllGather: TORCHAO_FLOAT8_ALL_GATHER_SOURCE,
      gradientsFreedBeforeForward:
        'PyTorch torch/optim/optimizer.py zero_grad(set_to_none=True), the default ' +
        'since 2.0; Accelerate and the transformers Trainer call model.zero_grad() ' +
        'after each optimizer step, Composer optimizer.zero_grad(set_to_none=True)',
    },
  },
};

export function frameworkProfile(id: Framework): FrameworkProfile {
  return FRAMEWORK_PROFILES[id];
}

/** training.fp8ParamGather when the document does not say: the profile's entry for the run's fp8 recipe (stack.ts). */
export function fp8ParamGatherDefault(framework: Framework, recipe: Fp8Recipe): boolean {
  return FRAMEWORK_PROFILES[framework].defaults.fp8ParamGather[recipe];
}

/**
 * What a stack field reads as when the document leaves it out, as one value (the page's "profile default (…)"):
 * fp8ParamGather's for the document's fp8 recipe (`fp8Recipe` as written; absent or not a recipe: the profile's).
 */
export function stackFieldDefault<K extends keyof StackDefaults>(
  framework: Framework,
  key: K,
  fp8Recipe: unknown,
): K extends 'fp8ParamGather' ? boolean : StackDefaults[K] {
  const d = FRAMEWORK_PROFILES[framework].defaults;
  type Out = K extends 'fp8ParamGather' ? boolean : StackDefaults[K];
  if (key !== 'fp8ParamGather') return d[key] as Out;
  const recipe = Object.keys(d.fp8ParamGather).find((r) => r === fp8Recipe) as Fp8Recipe | undefined;
  return fp8ParamGatherDefault(framework, recipe ?? d.fp8Recipe) as Out;
}

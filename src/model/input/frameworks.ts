// Framework profiles (interchange "The software stack"): what each training stack does
// when the document does not say. Each default sits beside the framework's own source
// (file, flag, release). An explicit field in the document always wins
// (model/input/stack.ts). `generic` is what a version-1 document without these fields
// has always meant: the engine's behaviour before profiles existed.

import type { Framework, LaunchTarget, OverlapConfig, StackConfig } from './types.ts';

/** The stack fields a profile sets (recomputeLayers and activationOffloadLayers default to null and 0 everywhere). */
export type StackDefaults = Omit<StackConfig, 'framework' | 'recomputeLayers' | 'activationOffloadLayers'>;

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
}

export interface FrameworkProfile {
  readonly id: Framework;
  readonly label: string;
  /** The launch-file writer (model/export/) whose files the framework runs, or the nearest one: FSDP runs are nearest torchtitan's, generic is Megatron-LM's. */
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

// epComm false everywhere: Megatron-Core overlap_moe_expert_parallel_comm defaults to False
// (megatron/core/transformer/transformer_config.py); torchtitan, DeepSpeed and FSDP have no such overlap.
const NO_OVERLAP_TP: OverlapConfig = { tpComm: false, dpGrad: true, dpParam: true, epComm: false };

export const FRAMEWORK_PROFILES: Readonly<Record<Framework, FrameworkProfile>> = {
  generic: {
    id: 'generic',
    label: 'Generic (plain PyTorch)',
    launchTarget: 'megatron',
    defaults: {
      loss: 'eager', compile: false, dropout: false, recomputeModules: ['core_attn'], selectivePolicy: 'elementwise',
      recomputeLayerFrequency: 2, optimizerStateDtype: 'fp32', attentionKernel: 'auto', fp8Recipe: 'auto', overlap: NO_OVERLAP_TP, moeDispatcher: 'alltoall', cudaGraph: 'none', modelCode: 'fused',
    },
    mechanisms: { deferredGradSyncUnderPp: false, flatFp32GradientBuffer: false, savesQuantizedLinearInputs: false, fsdpFp32ShardedParameters: false, allocatorReserveFraction: null, torchaoFloat8Casts: false, fusedLossChunks: 1, optimizerOffloadKeepsMaster: false },
    sources: {
      moeDispatcher: 'a plain PyTorch expert-parallel layer exchanges tokens with torch.distributed.all_to_all_single, sizing it from per-expert counts copied to the host',
      cudaGraph: 'PyTorch runs eagerly unless the user captures graphs (torch.cuda.graphs)',
      loss: 'the engine before profiles: eager torch.nn.functional.cross_entropy (log_softmax + nll_loss)',
      modelCode: 'the engine before profiles: the inventory of Korthikanti et al. 2022 (arXiv 2205.05198, section 4.1), norms saving their 16-bit input',
      selectivePolicy: 'the engine before profiles: norm outputs and activation products recomputed, matrix-multiply outputs kept (model/memory/activations.ts)',
      dropout: 'modern recipes train without dropout (Llama 3, Qwen, DeepSeek-V3 configs: attention_dropout 0)',
    },
  },
  megatron: {
    id: 'megatron',
    label: 'Megatron-Core / NeMo',
    launchTarget: 'megatron',
    defaults: {
      loss: 'fused', compile: false, dropout: false, recomputeModules: ['core_attn'], selectivePolicy: 'modules',
      recomputeLayerFrequency: 2, optimizerStateDtype: 'fp32', attentionKernel: 'cudnn', fp8Recipe: 'delayed', overlap: NO_OVERLAP_TP, moeDispatcher: 'alltoall', cudaGraph: 'none', modelCode: 'fused',
    },
    mechanisms: { deferredGradSyncUnderPp: false, flatFp32GradientBuffer: false, savesQuantizedLinearInputs: true, fsdpFp32ShardedParameters: false, allocatorReserveFraction: null, torchaoFloat8Casts: false, fusedLossChunks: 1, optimizerOffloadKeepsMaster: true },
    sources: {
      moeDispatcher: 'Megatron-Core megatron/core/transformer/transformer_config.py: moe_token_dispatcher_type default "allgather" (--moe-token-dispatcher-type); Megatron-Bridge recipes set "alltoall" or "flex" with --moe-flex-dispatcher-backend deepep / hybridep',
      cudaGraph: 'Megatron-Core transformer_config.py cuda_graph_impl default "none" (--cuda-graph-impl local | transformer_engine | full_iteration, --cuda-graph-scope)',
      optimizerOffloadKeepsMaster: 'Megatron-Core megatron/core/optimizer/cpu_offloading/hybrid_device_optimizer.py _get_sub_optimizer_param_groups: an offloaded parameter is a pinned CPU clone of the tensor the optimizer was handed (the distributed optimizer hands its fp32 main-param shards), which stays on the GPU and takes the update back (param_copy_back_gpu_hook); the CPU optimizer holds the moments. Megatron-Bridge skills/nemo-mbridge-perf-cpu-offloading card: Qwen3-30B-A3B 47.2 GB → 32.0 GB at fraction 1.0, the 8 bytes of moments per parameter',
      savesQuantizedLinearInputs: 'Transformer Engine v2 transformer_engine/pytorch/module/linear.py and layernorm_linear.py: with fp8 the forward saves the quantized input for the weight-gradient GEMM, not the 16-bit one',
      loss: 'Megatron-LM core_r0.13 megatron/core/tensor_parallel/cross_entropy.py: vocab-parallel cross-entropy exponentiates the fp32 logits in place and writes the gradient into the saved softmax',
      recomputeModules: 'Megatron-LM core_r0.13 megatron/core/transformer/transformer_config.py recompute_modules, default ["core_attn"] (--recompute-modules)',
      modelCode: 'Megatron-Core transformer_layer.py with Transformer Engine modules (TENorm / LayerNormLinear, fused bias-SwiGLU megatron/core/fusions/fused_bias_swiglu.py)',
      selectivePolicy: 'Megatron-LM --recompute-granularity selective recomputes the --recompute-modules list',
      dropout: 'Megatron-Bridge recipes set hidden_dropout = attention_dropout = 0 (GPT-3-era Megatron-LM scripts: 0.1)',
      attentionKernel: 'Transformer Engine DotProductAttention picks the cuDNN fused attention backend on Hopper (NVTE_FUSED_ATTN=1)',
      fp8Recipe: 'Transformer Engine DelayedScaling is the default fp8 recipe (--fp8-recipe delayed in megatron/training/arguments.py)',
      overlap: 'megatron/training/arguments.py: --overlap-grad-reduce and --overlap-param-gather with the distributed optimizer; --tp-comm-overlap off unless set',
      optimizerStateDtype: 'megatron/training/arguments.py --exp-avg-dtype / --exp-avg-sq-dtype default fp32 (--use-precision-aware-optimizer for bf16)',
    },
  },
  torchtitan: {
    id: 'torchtitan',
    label: 'torchtitan (FSDP2)',
    launchTarget: 'torchtitan',
    defaults: {
      loss: 'eager', compile: false, dropout: false, recomputeModules: ['core_attn'], selectivePolicy: 'op',
      recomputeLayerFrequency: 2, optimizerStateDtype: 'fp32', attentionKernel: 'sdpa', fp8Recipe: 'tensorwise', overlap: NO_OVERLAP_TP, moeDispatcher: 'alltoall', cudaGraph: 'none', modelCode: 'fused',
    },
    mechanisms: { deferredGradSyncUnderPp: true, flatFp32GradientBuffer: false, savesQuantizedLinearInputs: false, fsdpFp32ShardedParameters: true, allocatorReserveFraction: null, torchaoFloat8Casts: true, fusedLossChunks: TORCHTITAN_LOSS_CHUNKS, optimizerOffloadKeepsMaster: false },
    sources: {
      moeDispatcher: 'torchtitan torchtitan/distributed/expert_parallel.py ExpertParallel: all_to_all_single of the routed tokens after the split sizes are copied to the host; expert_tensor_parallel_degree default 1 (torchtitan/config/job_config.py): the planner keeps its tp-when-it-fits rule for documents without parallel.etp, so a torchtitan document wanting that default states etp 1',
      cudaGraph: 'torchtitan trains eagerly or under torch.compile without CUDA graphs',
      savesQuantizedLinearInputs: 'torchao float8 training (torchao/float8/float8_linear.py) saves the 16-bit input and casts again in backward',
      loss: 'torchtitan v0.1 torchtitan/components/loss.py cross_entropy_loss: pred.float() then F.cross_entropy, eager unless compile.components has "loss"; "fused" is its ChunkedLossWrapper (same file: lm_head + cross-entropy over 8 token chunks, memory/loss.ts)',
      selectivePolicy: 'torchtitan v0.1 torchtitan/models/llama3/train_configs/llama3_8b.toml: activation_checkpoint.selective_ac_option = "op"',
      modelCode: 'torchtitan\'s own model code (torchtitan/models/llama3/model.py), usually run with torch.compile, whose partitioner recomputes the norms\' and SwiGLU\'s element-wise ops rather than saving them; the op-level policy has its own inventory (memory/activations.ts)',
      recomputeLayerFrequency: 'torchtitan activation_checkpoint.selective_ac_option = "2" (every second block fully checkpointed, torchtitan/distributed/activation_checkpoint.py)',
      attentionKernel: 'torchtitan llama3 model: F.scaled_dot_product_attention (flash backend on Hopper is FlashAttention-2)',
      fp8Recipe: 'torchao Float8LinearConfig default recipe is tensorwise dynamic scaling (torchtitan float8.recipe_name unset)',
      fsdpFp32ShardedParameters: 'torchtitan fully_shard(mp_policy=MixedPrecisionPolicy(param_dtype=bfloat16, reduce_dtype=float32)): the sharded parameters stay fp32 (torch/distributed/fsdp/_fully_shard/_fsdp_param.py)',
      deferredGradSyncUnderPp: 'torchtitan torchtitan/distributed/pipeline_parallel.py: FSDP2 set_requires_gradient_sync deferred to the last micro-batch under PP; reduce dtype training.mixed_precision_reduce = float32',
      torchaoFloat8Casts: 'torchtitan float8 training is torchao\'s (torchao/float8/README.md): amax, scale and cast in kernels of their own unless torch.compile fuses them',
      fusedLossChunks: 'torchtitan torchtitan/components/loss.py ChunkedLossWrapper.Config.num_chunks = 8: lm_head + cross-entropy over 8 token chunks, one at a time',
    },
  },
  deepspeed: {
    id: 'deepspeed',
    label: 'DeepSpeed',
    launchTarget: 'deepspeed',
    defaults: {
      loss: 'eager', compile: false, dropout: false, recomputeModules: ['core_attn'], selectivePolicy: 'elementwise',
      recomputeLayerFrequency: 2, optimizerStateDtype: 'fp32', attentionKernel: 'auto', fp8Recipe: 'auto', overlap: NO_OVERLAP_TP, moeDispatcher: 'alltoall', cudaGraph: 'none', modelCode: 'transformers',
    },
    mechanisms: { deferredGradSyncUnderPp: false, flatFp32GradientBuffer: true, savesQuantizedLinearInputs: false, fsdpFp32ShardedParameters: false, allocatorReserveFraction: null, torchaoFloat8Casts: false, fusedLossChunks: 1, optimizerOffloadKeepsMaster: false },
    sources: {
      moeDispatcher: 'DeepSpeed-MoE deepspeed/moe/sharded_moe.py: _AllToAll of capacity-padded token buffers',
      cudaGraph: 'DeepSpeed graphs only with enable_cuda_graph in inference; training runs eagerly',
      loss: 'DeepSpeed trains the user model (Hugging Face LlamaForCausalLM: eager CrossEntropyLoss on upcast logits)',
      selectivePolicy: 'DeepSpeed has no selective policy of its own (deepspeed/runtime/activation_checkpointing/checkpointing.py checkpoints whole blocks)',
      modelCode: 'DeepSpeed brings no model code: it trains the model it is given, usually a Hugging Face transformers one (transformers/integrations/deepspeed.py; FlagPerf llama2_7b-deepspeed and ms-swift run LlamaForCausalLM / Qwen2ForCausalLM)',
      flatFp32GradientBuffer: 'DeepSpeed v0.14 deepspeed/runtime/bf16_optimizer.py: fp32_groups_gradients_flat, one fp32 buffer the size of every bf16 parameter group, used with bf16 and ZeRO stage 0/1',
    },
  },
  fsdp: {
    id: 'fsdp',
    label: 'PyTorch FSDP (Composer, Accelerate)',
    launchTarget: 'torchtitan',
    defaults: {
      loss: 'eager', compile: false, dropout: false, recomputeModules: ['core_attn'], selectivePolicy: 'elementwise',
      recomputeLayerFrequency: 2, optimizerStateDtype: 'fp32', attentionKernel: 'flash2', fp8Recipe: 'auto', overlap: NO_OVERLAP_TP, moeDispatcher: 'alltoall', cudaGraph: 'none', modelCode: 'fused',
    },
    mechanisms: { deferredGradSyncUnderPp: true, flatFp32GradientBuffer: false, savesQuantizedLinearInputs: false, fsdpFp32ShardedParameters: true, allocatorReserveFraction: null, torchaoFloat8Casts: true, fusedLossChunks: 1, optimizerOffloadKeepsMaster: false },
    sources: {
      moeDispatcher: 'plain FSDP training of a MoE model runs the model code\'s own all-to-all (NeMo AutoModel states DeepEP where it uses it)',
      cudaGraph: 'FSDP runs eagerly: its hooks cannot be captured in CUDA graphs',
      attentionKernel: 'llm-foundry attn_config.attn_impl = "flash" (flash-attn 2 package), llmfoundry/models/layers/attention.py',
      modelCode: 'the FSDP runs of validation/ use fused layers: llm-foundry MPT (llmfoundry/models/layers, low-precision LayerNorm) and NeMo Automodel with Transformer Engine; a plain Accelerate run of a transformers model is modelCode "transformers"',
      loss: 'llm-foundry loss_fn default "fused_crossentropy" needs flash-attn\'s xentropy; plain FSDP/Accelerate runs torch cross_entropy (eager)',
      fsdpFp32ShardedParameters: 'torch.distributed.fsdp MixedPrecision(param_dtype=bf16): the flat parameter shard stays fp32 (_flat_param.py, _use_low_precision_shard only for the gathered copy)',
      deferredGradSyncUnderPp: 'torch.distributed.fsdp no_sync()/set_requires_gradient_sync: gradient accumulation without sync keeps unsharded gradients',
      torchaoFloat8Casts: 'plain FSDP trains fp8 with torchao (torchao/float8/README.md: convert_to_float8_training), casting in kernels of their own unless torch.compile fuses them',
    },
  },
};

export function frameworkProfile(id: Framework): FrameworkProfile {
  return FRAMEWORK_PROFILES[id];
}

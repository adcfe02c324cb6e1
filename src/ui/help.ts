// What each control means: its label (with the usual abbreviation), a one-line
// explanation, and the formula and source shown on demand. Notation as in
// docs/spec/model-reference.md.

import { TRAINING_SWITCHES, type TrainingSwitch } from '../model/input/index.ts';

export interface Help {
  readonly label: string;
  readonly explain: string;
  readonly formula?: string;
  readonly source?: string;
}

/** The switches' labels, explanations and sources, as their table states them. */
const SWITCH_HELP: Readonly<Record<TrainingSwitch, Help>> = TRAINING_SWITCHES;

const NARAYANAN =
  'Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM (arXiv 2104.04473)';
const KORTHIKANTI = 'Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models (arXiv 2205.05198)';
const ZERO = 'Rajbhandari et al. 2020, ZeRO: Memory Optimizations Toward Training Trillion Parameter Models (arXiv 1910.02054)';

export const HELP = {
  modelPreset: { label: 'Model preset', explain: 'Start from a published model; every dimension below stays editable.' },
  modelFind: {
    label: 'Find a model (name or Hugging Face id)',
    explain:
      "Type a model's name or its Hub id (instruct, chat and dated variants included) and press Enter, or pick one " +
      'from the list: the catalog of open models, each with the source of its shape.',
  },
  name: { label: 'Model name', explain: 'Free text, shown on the page and in exports.' },
  layers: {
    label: 'Layers (L)',
    explain: 'Transformer blocks; pipeline parallelism splits them into stages.',
    formula: 'parameters ≈ L · (attention + MLP weights) + V·h embedding',
    source: NARAYANAN + ', section 5.1',
  },
  hidden: {
    label: 'Hidden size (h)',
    explain: 'Width of the residual stream.',
    formula: 'dense weights per layer ≈ 4h² (attention) + 2–3·h·FFN (MLP)',
    source: NARAYANAN + ', section 5.1',
  },
  heads: {
    label: 'Attention heads (a)',
    explain: 'Query heads per layer; TP must divide them.',
    formula: 'TP | a',
    source: 'Shoeybi et al. 2019, Megatron-LM (arXiv 1909.08053), section 3',
  },
  kvHeads: {
    label: 'KV heads (GQA)',
    explain: 'Key/value heads; fewer than a is grouped-query attention.',
    formula: 'K,V weights per layer = 2·h·kvHeads·headDim; TP | kvHeads',
    source: 'Ainslie et al. 2023, GQA (arXiv 2305.13245)',
  },
  headDim: { label: 'Head dimension (d_head)', explain: 'Width of one head; empty means h / a.', formula: 'default d_head = h / a' },
  ffnHidden: {
    label: 'FFN hidden size (FFN)',
    explain: 'Inner width of the MLP.',
    formula: 'MLP weights per layer = 2·h·FFN (GELU) or 3·h·FFN (SwiGLU)',
    source: 'Shazeer 2020, GLU Variants Improve Transformer (arXiv 2002.05202)',
  },
  ffnType: { label: 'MLP type (FFN)', explain: 'GELU uses two matrices, SwiGLU three.', source: 'Shazeer 2020 (arXiv 2002.05202)' },
  vocab: {
    label: 'Vocabulary (V)',
    explain: 'Tokens in the embedding and output layers.',
    formula: 'embedding and output layer: V·h weights each (once if tied); logits s·b·V',
    source: NARAYANAN + ', section 5.1',
  },
  tiedEmbeddings: { label: 'Tied embeddings', explain: 'Input embedding and output layer share one matrix.' },
  mtpLayers: {
    label: 'Multi-token prediction modules (MTP)',
    explain: 'Extra prediction depth, as in DeepSeek-V3.',
    source: 'DeepSeek-V3 technical report (arXiv 2412.19437), section 2.2',
  },
  moe: {
    label: 'Mixture of experts (MoE)',
    explain: 'Replace the dense MLP by routed experts.',
    source: 'Fedus et al. 2021, Switch Transformers (arXiv 2101.03961); Jiang et al. 2024, Mixtral (arXiv 2401.04088)',
  },
  experts: {
    label: 'Experts (E)',
    explain: 'Routed experts per MoE layer; EP must divide them.',
    formula: 'expert weights per layer = E · 3·h·FFN_expert',
  },
  topK: {
    label: 'Active experts per token (top-k)',
    explain: 'Experts each token is sent to; sets the compute per token.',
    formula: 'MLP FLOPs per token ∝ k · FFN_expert',
  },
  expertFfnHidden: { label: 'Expert FFN hidden size (FFN_expert)', explain: 'Inner width of one expert.' },
  sharedExperts: {
    label: 'Shared experts',
    explain: 'Experts every token uses (DeepSeek-style).',
    source: 'Dai et al. 2024, DeepSeekMoE (arXiv 2401.06066)',
  },
  denseLayers: { label: 'Leading dense layers', explain: 'First layers keep a dense MLP instead of experts.' },
  mla: {
    label: 'Multi-head latent attention (MLA)',
    explain: 'Compressed keys and values, as in DeepSeek-V2/V3.',
    source: 'DeepSeek-V2 (arXiv 2405.04434), section 2.1',
  },
  qLoraRank: { label: 'Query LoRA rank (d_c′)', explain: 'Query compression width; 0 = queries not compressed.' },
  kvLoraRank: { label: 'KV LoRA rank (d_c)', explain: 'Key/value compression width.' },
  qkNopeHeadDim: { label: 'QK head dim without RoPE', explain: 'Per-head query/key width outside rotary embedding.' },
  qkRopeHeadDim: { label: 'QK RoPE head dim (d_R)', explain: 'Per-head rotary part of queries and keys.' },
  vHeadDim: { label: 'Value head dim', explain: 'Per-head width of the values.' },
  hfImport: { label: 'Hugging Face config.json', explain: "Paste or upload a transformers config.json to import the model's dimensions." },

  gpuPreset: { label: 'GPU', explain: 'Vendor dense peak figures; choose Custom to edit them.' },
  gpuName: { label: 'GPU name', explain: 'Free text.' },
  memoryGiB: { label: 'GPU memory (GiB)', explain: 'HBM capacity of one GPU.' },
  bf16Tflops: {
    label: 'BF16 peak (TFLOP/s)',
    explain: 'Dense 16-bit tensor-core peak; MFU divides by it.',
    formula: 'MFU = model FLOPs per second per GPU / peak',
    source: 'Chowdhery et al. 2022, PaLM (arXiv 2204.02311), appendix B',
  },
  fp8Tflops: { label: 'FP8 peak (TFLOP/s)', explain: 'Dense 8-bit peak; 0 if the GPU has no FP8 tensor cores.' },
  fp32Tflops: { label: 'FP32 peak (TFLOP/s)', explain: 'Dense 32-bit peak.' },
  fp4Tflops: { label: 'FP4 peak (TFLOP/s)', explain: 'Dense 4-bit peak; 0 if none.' },
  expTeraOpsPerSecond: {
    label: 'Exponentials (SFU, T/s)',
    explain: "Special-function-unit rate for exp; attention's softmax needs one per score. Empty: BF16 peak × 3.9 / 989, the H100 ratio.",
    formula: 'softmax time ≈ scores / exp rate, overlapped with the attention matmuls',
    source: 'Shah et al. 2024, FlashAttention-3 (arXiv 2407.08608), section 3',
  },
  hbmGBps: { label: 'HBM bandwidth (GB/s)', explain: 'Memory bandwidth; bounds the optimizer step.' },
  intraNodeGBps: {
    label: 'Intra-node bandwidth (NVLink, GB/s)',
    explain: 'Per GPU, one direction, inside a node.',
    formula: 'ring all-reduce ≈ 2(n−1)/n · S / B',
    source: 'Thakur et al. 2005, Optimization of Collective Communication Operations in MPICH',
  },
  interNodeGBps: { label: 'Inter-node bandwidth (NIC, GB/s)', explain: 'Per GPU, one direction, between nodes.' },
  tdpWatts: {
    label: 'Power (TDP, W)',
    explain: 'Board power: the energy figure, and how far power capping holds the tensor cores below their peak.',
    formula: 'sustained = peak / (1 + e · peak / TDP / knee), e = energy of one FLOP relative to BF16',
  },
  usdPerHour: { label: 'List price ($/GPU-h)', explain: "The custom GPU's typical price." },
  gpusPerNode: { label: 'GPUs per node', explain: 'GPUs sharing the fast intra-node link.' },
  hostMemoryGiB: {
    label: 'CPU memory per node (GiB)',
    explain:
      'The host memory of one node, which offloaded optimizer states and parameters of all its GPUs must fit in; empty: the usual server for the GPU.',
    formula: 'host per node = GPUs per node × offloaded bytes per GPU (Adam, fp32 master: 16 bytes per offloaded parameter of the shard)',
    source:
      'Ren et al. 2021, ZeRO-Offload (arXiv 2101.06840), section 4.1; DeepSpeed offload_optimizer / ' +
      'offload_param; Megatron-Core HybridDeviceOptimizer; PyTorch FSDP CPUOffload',
  },
  gpus: {
    label: 'Cluster size (GPUs)',
    explain: 'Total GPUs; TP, PP and CP are kept where they divide it and DP follows.',
    formula: 'GPUs = TP × PP × DP × CP',
    source: NARAYANAN + ', section 2',
  },

  tp: {
    label: 'Tensor parallel (TP)',
    explain: "Splits each layer's matrices over TP GPUs, usually inside a node.",
    formula: 'weights and (with SP) activations per GPU ∝ 1/TP; 4 collectives per layer per micro-batch',
    source: 'Shoeybi et al. 2019, Megatron-LM (arXiv 1909.08053), section 3',
  },
  pp: {
    label: 'Pipeline parallel (PP)',
    explain: 'Splits the layers into PP stages that pass activations along.',
    formula: 'bubble / ideal time = (PP − 1) / m for GPipe and 1F1B',
    source: NARAYANAN + ', section 2.2',
  },
  dp: {
    label: 'Data parallel (DP)',
    explain: 'Model replicas; moving it changes the cluster size.',
    formula: 'DP = GPUs / (TP × PP × CP); one gradient all-reduce per step',
    source: NARAYANAN + ', section 2.1',
  },
  cp: {
    label: 'Context parallel (CP)',
    explain: 'Splits each sequence over CP GPUs (ring attention).',
    formula: 'activations per GPU ∝ s / CP; s divisible by 2·CP (load-balanced causal split)',
    source: 'Liu et al. 2023, Ring Attention (arXiv 2310.01889); Megatron-Core context parallelism',
  },
  ep: {
    label: 'Expert parallel (EP)',
    explain: "Spreads an MoE layer's experts over EP GPUs.",
    formula: 'experts per GPU = E / EP; EP | E and EP | TP × DP × CP',
    source: 'Lepikhin et al. 2020, GShard (arXiv 2006.16668); Megatron-Core MoE',
  },
  vpp: {
    label: 'Virtual pipeline stages (VPP)',
    explain: 'Layer chunks per GPU for interleaved 1F1B; shrinks the bubble.',
    formula: 'bubble / ideal time = (PP − 1) / (VPP · m)',
    source: NARAYANAN + ', section 2.2.2',
  },
  microBatch: {
    label: 'Micro-batch size (MBS)',
    explain: 'Sequences per forward/backward pass on one pipeline.',
    formula: 'micro-batches per step m = GBS / (MBS × DP)',
    source: NARAYANAN + ', section 2.2',
  },
  schedule: {
    label: 'Pipeline schedule',
    explain: 'The order of forward and backward micro-batches on the stages.',
    formula: 'bubble: GPipe and 1F1B (p−1)/m; interleaved (p−1)/(v·m); zero-bubble ≈ ⅓ of 1F1B; DualPipe (p/2 − 1)(F&B + B − 3W)',
    source:
      'GPipe (arXiv 1811.06965); PipeDream-Flush 1F1B (arXiv 2006.09503); zero-bubble, Qi et al. 2023 (arXiv ' +
      '2401.10241); DualPipe, DeepSeek-V3 (arXiv 2412.19437) section 3.2.1',
  },
  zero: {
    label: 'ZeRO stage (ZeRO)',
    explain: 'Shards optimizer states (1), also gradients (2), also weights (3) over DP.',
    formula: 'per GPU with Adam: 2Ψ + 2Ψ + 12Ψ/DP (stage 1), 2Ψ + 14Ψ/DP (2), 16Ψ/DP (3)',
    source: ZERO + ', section 5',
  },
  sequenceParallel: {
    label: 'Sequence parallel (SP)',
    explain: 'With TP, also splits layer-norm and dropout activations along the sequence.',
    formula: 'activations per layer: sbh(34 + 5as/h) / TP instead of sbh(10 + 24/TP + 5as/(h·TP))',
    source: KORTHIKANTI + ', section 4.2.2',
  },

  globalBatch: {
    label: 'Global batch size (GBS, sequences)',
    explain: 'Sequences per optimizer step.',
    formula: 'tokens per step = GBS × s',
  },
  seqLen: { label: 'Sequence length (s, tokens)', explain: 'Tokens per sequence.', formula: 'attention score FLOPs ∝ s² per sequence' },
  tokens: {
    label: 'Token budget (tokens)',
    explain: 'Tokens to train on; sets the run length and cost. Accepts 15T, 300B, 1.5e13 or 1,000,000,000.',
    formula: 'steps = tokens / (GBS × s); days = tokens / (tokens/s) / 86,400',
  },
  trainingMethod: {
    label: 'Training method',
    explain:
      'Full training updates every weight; LoRA freezes the base and trains rank-r adapters; QLoRA also stores the frozen base in 4-bit NF4.',
    formula: 'adapter parameters r·(in + out) per adapted matrix; NF4 + double quantisation 4 + 8/64 + 32/(64·256) bits per frozen weight',
    source: 'Hu et al. 2021, LoRA (arXiv 2106.09685); Dettmers et al. 2023, QLoRA (arXiv 2305.14314)',
  },
  adapterRank: {
    label: 'Adapter rank r',
    explain: 'Inner size of each adapter: A is in × r, B is r × out.',
    formula: 'trainable parameters = r·(in + out) per adapted matrix',
    source: 'Hu et al. 2021, LoRA (arXiv 2106.09685), section 4.1',
  },
  adapterModules: {
    label: 'Adapted matrices',
    explain: 'Which matrices of every layer carry an adapter; the rest stay frozen without one.',
    source: 'PEFT LoraConfig target_modules; torchtune lora_attn_modules, apply_lora_to_mlp',
  },
  precision: {
    label: 'Precision',
    explain: 'Number format of the matrix multiplies; sets the peak MFU divides by.',
    source: 'Micikevicius et al. 2018, Mixed Precision Training (arXiv 1710.03740); FP8: Micikevicius et al. 2022 (arXiv 2209.05433)',
  },
  optimizer: {
    label: 'Optimizer',
    explain: 'Adam keeps two fp32 states per weight, 8-bit Adam two 1-byte ones, SGD one.',
    formula: 'optimizer bytes per parameter K = 12 (Adam with fp32 master weights)',
    source: ZERO + ', section 3; Dettmers et al. 2021, 8-bit Optimizers (arXiv 2110.02861)',
  },
  masterWeights: {
    label: 'FP32 master weights',
    explain: 'Keep an fp32 copy of the weights for the update (4 bytes per parameter).',
    source: 'Micikevicius et al. 2018 (arXiv 1710.03740)',
  },
  gradDtype: {
    label: 'Gradient accumulation type',
    explain: 'Precision of the gradient buffer.',
    formula: 'fp32: 4 bytes per parameter, bf16: 2',
    source: 'Megatron-LM theoretical_memory_usage.py',
  },
  recompute: {
    label: 'Activation recomputation',
    explain: 'Recompute activations in backward instead of storing them.',
    formula: "selective: keeps sbh·34/TP per layer (drops 5as²b); full: keeps only each layer's input 2sbh",
    source: KORTHIKANTI + ', sections 4–5',
  },
  // The on/off training fields (flashAttention, …) are described in their own table, the engine's (model/input/switches.ts).
  ...SWITCH_HELP,
  // The software stack (ui/controls/FrameworkSection.tsx): absent, each field takes the framework profile's default.
  framework: {
    label: 'Framework',
    explain: 'The training stack: it sets the defaults below (loss, recompute policy, kernels, what the allocator and optimizer keep).',
    source: "Each default cites the framework's own source file and flag (src/input/frameworks.ts)",
  },
  loss: {
    label: 'Loss kernel',
    explain: 'How cross-entropy keeps fp32 logits: eager keeps three copies at its peak, fused one, compiled two.',
  },
  selectivePolicy: {
    label: 'Selective recompute policy',
    explain: 'What "selective" recomputation drops: named modules, every second matmul and all element-wise ops, or whole layers.',
  },
  dropout: { label: 'Dropout', explain: 'Dropout masks kept for backward (GPT-3-era recipes).' },
  optimizerStateDtype: {
    label: 'Adam moment dtype',
    explain: 'bf16 moments: 8 instead of 12 bytes per parameter with fp32 master weights.',
  },
  attentionKernel: { label: 'Attention kernel', explain: 'The fused attention implementation (auto: what the GPU runs best).' },
  fp8Recipe: { label: 'FP8 recipe', explain: 'How fp8 tensors are scaled (with fp8/fp4 precision).' },
  fp8ParamGather: {
    label: 'FP8 parameter gather',
    explain:
      'With fp8/fp4: the weights are kept in fp8 (or fp4) and gathered so. Off, Transformer Engine keeps a quantized copy of ' +
      'each layer weight (with its transpose on Hopper) beside the 16-bit one for the whole step: about 2 bytes more per weight.',
    source:
      'Megatron-LM --fp8-param-gather / --fp4-param-gather; Megatron-Bridge mixed_precision.py fp8_param_gather (src/model/memory/fp8-weight-cache.ts)',
  },
  modelCode: {
    label: 'Model code',
    explain:
      'Whose layers the run trains: fused (Megatron-Core, Transformer Engine) or Hugging Face transformers run eagerly, whose ' +
      'RMSNorm keeps an fp32 copy of the hidden state and its SwiGLU one more tensor per layer.',
    source: 'transformers models/llama/modeling_llama.py LlamaRMSNorm and LlamaMLP (src/model/memory/model-code.ts)',
  },
  compile: { label: 'torch.compile', explain: 'The model compiled with torch.compile.' },
  offloadOptimizer: {
    label: 'Offload optimizer states to CPU',
    explain: 'Optimizer states live in host memory; the update runs on the CPU.',
    source: 'Ren et al. 2021, ZeRO-Offload (arXiv 2101.06840)',
  },
  offloadParameters: {
    label: 'Offload parameters to CPU',
    explain: 'Weights live in host memory (needs ZeRO 3).',
    source: 'Rajbhandari et al. 2021, ZeRO-Infinity (arXiv 2104.07857)',
  },

  usdPerGpuHour: { label: 'Price ($/GPU-h)', explain: 'What one GPU-hour costs you.', formula: 'cost = GPU-hours × price' },
  pue: {
    label: 'Power usage effectiveness (PUE)',
    explain: 'Facility power over IT power.',
    formula: 'energy = GPUs × power × hours × PUE',
    source: 'The Green Grid, PUE: A Comprehensive Examination of the Metric (2012)',
  },
  gridKgCo2PerKwh: {
    label: 'Grid carbon intensity (kg CO₂/kWh)',
    explain: 'Emissions per kWh where the cluster runs.',
    formula: 'CO₂ = energy × intensity',
  },
  gpuMtbfHours: {
    label: 'Mean time between failures per GPU (MTBF, h)',
    explain: "One GPU's share of cluster interruptions.",
    formula: 'expected failures = GPU-hours / MTBF',
    source: 'Llama 3 (arXiv 2407.21783), section 3.3.4: 419 interruptions in 54 days on 16,384 GPUs',
  },
  checkpointWriteGBps: {
    label: 'Checkpoint write bandwidth (GB/s)',
    explain: 'Aggregate storage bandwidth for checkpoints.',
    formula: 'interval τ ≈ √(2·δ·M), δ = checkpoint bytes / bandwidth, M = cluster MTBF',
    source: 'Young 1974; Daly 2006, A higher order estimate of the optimum checkpoint interval',
  },
  capacity: {
    label: 'Capacity',
    explain: 'On-demand nodes stay yours; spot nodes are cheaper and can be taken back.',
    formula: 'interruptions = GPU-hours / MTBF + nodes × days × preemptions per node-day',
  },
  spotUsdPerGpuHour: {
    label: 'Spot price ($/GPU-h)',
    explain: 'What one spot GPU-hour costs; empty: the on-demand price.',
    formula: 'spot cost = GPU-hours × spot price',
  },
  preemptionsPerNodeDay: {
    label: 'Preemptions per node-day',
    explain: 'How often the provider takes one spot node back.',
    formula: 'default −ln(1 − 0.2) / 30.44 = 0.0073: 20 % of nodes a month',
    source:
      'AWS EC2 Spot Instance Advisor, frequency of interruption bands (< 5 % … > 20 % a month); the ' +
      'floor of the top band, where GPU instances are usually listed',
  },
  restartMinutes: {
    label: 'Restart after an interruption (min)',
    explain: 'Rescheduling, loading the checkpoint, warm-up.',
    formula: 'lost per interruption ≈ interval / 2 + restart',
    source: 'Llama 3 (arXiv 2407.21783), section 3.3.4: ≈ 18.6 min lost per interruption in all; 10 min of it the restart',
  },
  elastic: {
    label: 'Elastic: carry on with the nodes left',
    explain: 'Data parallelism shrinks (the global batch kept by accumulation) until the node returns, instead of waiting.',
    source: 'torchrun --nnodes=MIN:MAX (PyTorch elastic): workers restart from the last checkpoint on a membership change',
  },
  startDate: { label: 'Start date (YYYY-MM-DD)', explain: "The run's first day, for the dated end." },
} satisfies Record<string, Help>;

export type HelpKey = keyof typeof HELP;

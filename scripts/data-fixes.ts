// The corrections to validation/published-runs.json that the closing notes request (issues 32
// and 34), each with the source that shows the run differs from its row, as patches the
// what-if applies to a copy in memory. The data itself is never edited here: the shared set
// is maintained upstream, and `npm run sync-validation` copies it.

/** One validation case as the file holds it (the engine validates `input` at the edge). */
export interface DataCase {
  readonly id: string;
  readonly assumptions: readonly string[];
  input: { model: Record<string, unknown>; training: Record<string, unknown>; parallel: Record<string, unknown> };
}

export interface DataFix {
  readonly name: string;
  readonly issue: 32 | 34;
  /** Where the run's own configuration says so (file@tag). */
  readonly source: string;
  readonly applies: (c: DataCase) => boolean;
  readonly apply: (c: DataCase) => void;
}

/** Bridge's DeepSeek-V3 pipeline layouts (megatron/core pipeline_parallel_layer_layout.py grammar). */
const DSV3_LAYOUT = { pp16vp1OrPp4vp4: 'Et*4|(t*4|)*14tmL', pp8vp1: 'Et*8|(t*8|)*6t*5mL', h100pp8vp4: 'Et|(tt|)*30mL' } as const;

/** The layout the Bridge release named in a DeepSeek-V3 row's id ran, or null for rows without one. */
export function deepseekV3Layout(id: string): string | null {
  if (/^bridge-25\.09-.*-h100-1024-.*ep64$/.test(id)) return DSV3_LAYOUT.h100pp8vp4;
  if (/^bridge-25\.09-.*-(b200-256-.*pp16|gb200-256-.*pp4)-/.test(id)) return DSV3_LAYOUT.pp16vp1OrPp4vp4;
  const m = /^bridge-(26\.\d\d(?:\.\d\d)?)-deepseekv3-dgx-(\w+)-256-.*-pp(\d+)-cp1-vp(\w+)-/.exec(id);
  if (!m) return null;
  return m[3] === '8' && m[2] !== 'gb300' ? DSV3_LAYOUT.pp8vp1 : DSV3_LAYOUT.pp16vp1OrPp4vp4;
}

const trainedMtp = (c: DataCase) => c.assumptions.some((a) => a.startsWith('MTP:') && a.includes('WITH one MTP'));

export const DATA_FIXES: readonly DataFix[] = [
  {
    name: 'FlagPerf DeepSpeed ZeRO-3: training.forwardHostSync "none"',
    issue: 34,
    source:
      'FlagPerf 1b5a0303 training/benchmarks/llama2_7b/deepspeed: fixed-length sequences with no attention mask, so the HF ' +
      'forward never waits for the GPU (docs/methodology.md, DeepSpeed paragraph)',
    applies: (c) => c.id.startsWith('flagperf-') && c.input.training['framework'] === 'deepspeed',
    apply: (c) => void (c.input.training['forwardHostSync'] = 'none'),
  },
  {
    name: 'FlagPerf Megatron: training.frameworkRelease "core_v0.6.0"',
    issue: 34,
    source: 'FlagPerf 1b5a0303 builds megatron_core060: NGC PyTorch 24.02, Megatron-LM core_v0.6.0',
    applies: (c) => c.id.startsWith('flagperf-') && c.input.training['framework'] === 'megatron',
    apply: (c) => void (c.input.training['frameworkRelease'] = 'core_v0.6.0'),
  },
  {
    name: 'torchao MX README rows: training.compile true',
    issue: 34,
    source: 'the rows\' own assumptions quote "torch.compile, FSDP2, per-op SAC" and llama3.sh --compile.enable',
    applies: (c) => c.id.startsWith('torchao-mx-readme-'),
    apply: (c) => void (c.input.training['compile'] = true),
  },
  {
    name: 'NeMo 1 launcher rows: training.gradDtype "bf16"',
    issue: 34,
    source:
      'NeMo-Megatron-Launcher 97f45c18 examples/training/gpt/h100/175b_fp8_16node.sh:24 ' +
      '+training.model.optim.grad_sync_dtype=bf16 (every training example); NeMo-Framework-Launcher 24.07 gpt3/175b_fp8.yaml',
    applies: (c) => /^(launcher2405|nemo2407)-/.test(c.id),
    apply: (c) => void (c.input.training['gradDtype'] = 'bf16'),
  },
  {
    name: 'AutoModel rows: bf16 weights, gradients and Adam moments (no master copy)',
    issue: 34,
    source:
      'NVIDIA-NeMo/Automodel 89e3a9fdd checkpointing.py initialize_weights(dtype=torch.bfloat16); moe/parallelizer.py ' +
      'MixedPrecisionPolicy(param_dtype=bf16); examples/benchmark/configs/*_te_deepep.yaml torch.optim.Adam',
    applies: (c) => c.id.startsWith('automodel-'),
    apply: (c) => void Object.assign(c.input.training, { masterWeights: false, gradDtype: 'bf16', optimizerStateDtype: 'bf16' }),
  },
  {
    name: 'AutoModel MoE rows: training.moeRouter "fakeBalanced" (the benchmark configs route with FakeBalancedGate)',
    issue: 32,
    source:
      'NVIDIA-NeMo/Automodel 89e3a9fdd examples/benchmark/configs/*_te_deepep.yaml backend: fake_balanced_gate: true; ' +
      'nemo_automodel/components/moe/layers.py FakeBalancedGate (token t to experts (t·k + j) mod E, no gating GEMM)',
    applies: (c) => c.id.startsWith('automodel-') && typeof c.input.model['moe'] === 'object' && c.input.model['moe'] !== null,
    apply: (c) => void (c.input.training['moeRouter'] = 'fakeBalanced'),
  },
  {
    name: 'NeMo 25.07 GB200 Llama 3.1 405B: training.activationOffloadLayers 95',
    issue: 34,
    source:
      'NVIDIA/NeMo v2.4.0 scripts/performance/recommended_model_configs/model_configs_gb200.csv pre_train,llama31,405b,gb200,fp8: ' +
      'activation_offload_layers 95 (helpers.py set_recompute_configs: cpu_offloading_num_layers)',
    applies: (c) => c.id === 'nemo2507-gb200-llama3.1-405b',
    apply: (c) => void (c.input.training['activationOffloadLayers'] = 95),
  },
  {
    name: 'Bridge 25.09 GB200 Llama 3 70B (MXFP8): training.microBatch 1',
    issue: 34,
    source: 'NVIDIA-NeMo/Megatron-Bridge v0.1.0rc4 scripts/performance/configs/llama3/llama3_70b_llm_pretrain.yaml gb200 fp8_mx: mbs 1',
    applies: (c) => c.id === 'bridge-25.09-llama3-70b-dgx-gb200-64-na-gbs128-mbs2-tp1-pp1-cp1-vp1-ep1-alt',
    apply: (c) => void (c.input.training['microBatch'] = 1),
  },
  {
    // The row's "mbs2 tp1 pp1" cannot have run (610 GiB a GPU at ZeRO-1 on a 279 GiB GB300); the 26.04 and 26.04.01 rows of
    // the same preset state PP 4, VP 5, MBS 1. Stated so: 261 of 279 GiB, and 6,451 tokens/s against the published 7,002.
    name: 'Bridge 26.02.01 GB300 Llama 3 70B (NVFP4): PP 4, VP 5, micro-batch 1, as the 26.04 rows of the same preset',
    issue: 34,
    source:
      'NVIDIA-NeMo/Megatron-Bridge v0.3.0 and v0.3.1 scripts/performance/configs/llama/llama3_workload_base_configs.py ' +
      'LLAMA3_70B_PRETRAIN_CONFIG_GB300_NVFP4_V2: pipeline_model_parallel_size=4, virtual_pipeline_model_parallel_size=5, ' +
      'cuda_graph_impl="none"; micro_batch_size unset, so scripts/performance/utils/utils.py WorkloadBaseConfig default 1',
    applies: (c) => c.id === 'bridge-26.02.01-llama3-70b-dgx-gb300-64-nvfp4-gbs256-mbs2-tp1-pp1-cp1-vpnone-epnone',
    apply: (c) => {
      Object.assign(c.input.parallel, { pp: 4, vpp: 5, dp: 16, schedule: 'interleaved-1f1b' });
      c.input.training['microBatch'] = 1;
    },
  },
  {
    name: 'NeMo 24.07 Nemotron 340B: bf16 gradients and Adam moments, no master copy',
    issue: 34,
    source:
      'NeMo-Framework-Launcher 24.07 conf/training/nemotron/nemotron_340b.yaml distributed_fused_adam grad_sync_dtype bf16, ' +
      'dtype bf16; NeMo v2.0.0rc0 megatron_base_model.py store_params=False',
    applies: (c) => c.id === 'nemo2407-nemotron-340b-128gpu-gbs32',
    apply: (c) => void Object.assign(c.input.training, { masterWeights: false, gradDtype: 'bf16', optimizerStateDtype: 'bf16' }),
  },
  {
    name: 'Bridge DeepSeek-V3 rows that trained MTP: model.mtpLayers 1 and the recipe pipeline layout',
    issue: 32,
    source:
      'each row\'s assumptions ("WITH one MTP"); Megatron-Bridge deepseek_workload_base_configs.py pp_layout and ' +
      "recipes/deepseek/deepseek_v3.py set_deepseek_v3_pipeline_model_parallel_layout at the row's release tag",
    applies: (c) => c.id.includes('deepseekv3') && trainedMtp(c) && deepseekV3Layout(c.id) !== null,
    apply: (c) => {
      c.input.model['mtpLayers'] = 1;
      c.input.parallel['pipelineLayout'] = deepseekV3Layout(c.id);
    },
  },
  {
    name: 'Bridge 26.02.01 Qwen3-30B-A3B H100 FP8: DeepEP dispatcher with expert-parallel overlap',
    issue: 32,
    source:
      'Megatron-Bridge v0.3.0 QWEN3_30B_A3B_PRETRAIN_CONFIG_H100_FP8_CS_V1: moe_flex_dispatcher_backend="deepep", moe_a2a_overlap=True',
    applies: (c) => c.id.startsWith('bridge-26.02.01-qwen3-30b-a3b-dgx-h100-16-fp8'),
    apply: (c) => {
      c.input.training['moeDispatcher'] = 'deepep';
      const overlap = c.input.training['overlap'];
      c.input.training['overlap'] = { ...(typeof overlap === 'object' && overlap !== null ? overlap : {}), epComm: true };
    },
  },
];

/** A copy of the validation file with `fixes` applied, and how many cases each fix changed. */
export function withDataFixes(file: { cases: DataCase[] }, fixes: readonly DataFix[]): { file: { cases: DataCase[] }; changed: number[] } {
  const copy = structuredClone(file);
  const changed = fixes.map((fix) => {
    let n = 0;
    for (const c of copy.cases) {
      if (!fix.applies(c)) continue;
      const before = JSON.stringify(c.input);
      fix.apply(c);
      if (JSON.stringify(c.input) !== before) n++;
    }
    return n;
  });
  return { file: copy, changed };
}

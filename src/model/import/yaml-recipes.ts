// Training recipes written in YAML, each read through the reader that already knows its
// settings, so that no flag is mapped twice:
//   - Megatron-LM functional tests' model_config.yaml: MODEL_ARGS is a map of Megatron flags
//     ("--num-layers: 12", "--bf16: true") → the Megatron flag reader (megatron.ts);
//   - NeMo 1.x / NeMo-Megatron-Launcher training YAML (trainer:, model: with Megatron's
//     argument names in snake case) → the same Megatron flag reader, key by key;
//   - NeMo AutoModel recipes (step_scheduler:, distributed:, model.pretrained_model_name_or_path):
//     FSDP2 with TP/CP/PP; the model is a Hugging Face id, so its config.json gives the model.

import type { ParsedFlag } from './args.ts';
import type { NumberKey, ParallelDocument } from '../input/index.ts';
import type { Draft } from './draft.ts';
import { readMegatron } from './megatron.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export type YamlRecipe = 'megatron-model-config' | 'nemo' | 'automodel';

export function recipeKind(value: unknown): YamlRecipe | null {
  if (!isObj(value)) return null;
  if (isObj(value['MODEL_ARGS'])) return 'megatron-model-config';
  if (isObj(value['step_scheduler']) || (isObj(value['model']) && typeof value['model']['pretrained_model_name_or_path'] === 'string'))
    return 'automodel';
  if (
    isObj(value['model']) &&
    (isObj(value['trainer']) || 'num_layers' in value['model'] || 'tensor_model_parallel_size' in value['model'])
  )
    return 'nemo';
  return null;
}

/** A YAML scalar as the words a flag takes: true → a switch, false/null → absent, a list → its items. */
function flagOf(name: string, value: unknown): ParsedFlag | null {
  if (value === false || value === null || value === undefined) return null;
  if (value === true) return { name, values: [] };
  if (Array.isArray(value)) return { name, values: value.map((v) => String(v)) };
  if (isObj(value)) return null;
  return { name, values: [String(value)] };
}

export function readMegatronModelConfig(d: Draft, value: Obj): void {
  const args = value['MODEL_ARGS'] as Obj;
  const flags = Object.entries(args)
    .map(([k, v]) => flagOf(k.startsWith('-') ? k : `--${k}`, v))
    .filter((f): f is ParsedFlag => f !== null);
  readMegatron(d, { launcher: [], script: 'pretrain_gpt.py', flags });
}

/** NeMo 1.x model keys whose Megatron flag differs from the key in kebab case. */
const NEMO_RENAMED: Readonly<Record<string, string>> = {
  encoder_seq_length: '--seq-length',
  num_moe_experts: '--num-experts',
  moe_router_topk: '--moe-router-topk',
  expert_model_parallel_size: '--expert-model-parallel-size',
  expert_tensor_parallel_size: '--expert-tensor-parallel-size',
  virtual_pipeline_model_parallel_size: '--num-virtual-stages-per-pipeline-rank',
  kv_channels: '--kv-channels',
  hidden_dropout: '--hidden-dropout',
  attention_dropout: '--attention-dropout',
};

/** NeMo 1.x model keys read as Megatron flags of the same name (snake case → kebab case). */
const NEMO_SAME = [
  'num_layers',
  'hidden_size',
  'ffn_hidden_size',
  'num_attention_heads',
  'num_query_groups',
  'micro_batch_size',
  'global_batch_size',
  'tensor_model_parallel_size',
  'pipeline_model_parallel_size',
  'context_parallel_size',
  'sequence_parallel',
  'max_position_embeddings',
];

/** Settings of the NeMo YAML the planner reads in other ways, or that do not change the plan: no warning. */
const NEMO_QUIET = new Set([
  'tokenizer',
  'data',
  'optim',
  'nsys_profile',
  'activations_checkpoint_method',
  'activations_checkpoint_num_layers',
  'activation',
  'fp8',
  'fp8_hybrid',
  'fp8_e4m3',
  'share_embeddings_and_output_weights',
  'use_flash_attention',
  'mcore_gpt',
  'make_vocab_size_divisible_by',
  'transformer_engine',
  'rampup_batch_size',
  'ub_tp_comm_overlap',
  'cross_entropy_loss_fusion',
  'activations_checkpoint_granularity',
]);

/** NeMo model keys that do not change the plan (kernels, initialisation, logging, fused-op switches): no warning. */
const NEMO_IGNORED = new RegExp(
  `^(${[
    'fp8_',
    'nsys',
    'apex',
    'onnx',
    'seed',
    'init_',
    'native_amp',
    'hysteresis',
    'resume',
    'pre_process',
    'post_process',
    'persist',
    'bias',
    'headscale',
    'transformer_block',
    'openai',
    'normaliz',
    'position_',
    'rotary',
    'apply_',
    'attention_type',
    'layernorm',
    'do_layer',
    'use_',
    'grad_',
    'gradient_',
    'sync_',
    'masked',
    'deterministic',
    'megatron_amp',
    'fp32_',
    'fp16_',
    'tp_comm',
    'num_micro_batches',
    'activations_checkpoint',
    'ffn_dropout',
    'mcore',
  ].join('|')})`,
);

export function readNemo(d: Draft, value: Obj, gpusGiven: boolean): void {
  const model = isObj(value['model']) ? value['model'] : {};
  const trainer = isObj(value['trainer']) ? value['trainer'] : {};
  const flags: ParsedFlag[] = [];
  const push = (f: ParsedFlag | null) => {
    if (f) flags.push(f);
  };
  for (const key of NEMO_SAME) push(flagOf(`--${key.replace(/_/g, '-')}`, model[key]));
  for (const [key, flag] of Object.entries(NEMO_RENAMED)) {
    // 0 is a value here (dropout 0.0 is dropout off; Megatron's default is 0.1).
    const v = model[key];
    push(typeof v === 'number' ? { name: flag, values: [String(v)] } : flagOf(flag, v));
  }
  if (typeof model['num_query_groups'] === 'number') push({ name: '--group-query-attention', values: [] });
  const activation = typeof model['activation'] === 'string' ? model['activation'] : '';
  if (/swiglu/.test(activation)) push({ name: '--swiglu', values: [] });
  if (model['share_embeddings_and_output_weights'] === false) push({ name: '--untie-embeddings-and-output-weights', values: [] });
  const granularity = model['activations_checkpoint_granularity'];
  if (granularity === 'full' || granularity === 'selective') {
    push({ name: '--recompute-granularity', values: [granularity] });
    const method = model['activations_checkpoint_method'];
    if (granularity === 'full' && typeof method === 'string') push({ name: '--recompute-method', values: [method] });
    if (granularity === 'full' && typeof model['activations_checkpoint_num_layers'] === 'number')
      push({ name: '--recompute-num-layers', values: [String(model['activations_checkpoint_num_layers'])] });
  }
  if (model['use_flash_attention'] === false) push({ name: '--attention-backend', values: ['unfused'] });
  if (model['cross_entropy_loss_fusion'] === true) push({ name: '--cross-entropy-loss-fusion', values: [] });
  if (model['ub_tp_comm_overlap'] === true) push({ name: '--tp-comm-overlap', values: [] });
  const optim = isObj(model['optim']) ? model['optim'] : {};
  if (optim['name'] === 'distributed_fused_adam' || model['use_distributed_optimizer'] === true)
    push({ name: '--use-distributed-optimizer', values: [] });
  if (optim['overlap_grad_sync'] === true) push({ name: '--overlap-grad-reduce', values: [] });
  if (optim['overlap_param_sync'] === true) push({ name: '--overlap-param-gather', values: [] });
  const precision = String(trainer['precision'] ?? '');
  if (model['fp8'] === true) push({ name: '--fp8-format', values: [model['fp8_e4m3'] === true ? 'e4m3' : 'hybrid'] });
  // NeMo 1's fp8_params (megatron_base_model.py, default False) keeps the weights in fp8: Megatron-LM's --fp8-param-gather.
  if (model['fp8'] === true && model['fp8_params'] === true) push({ name: '--fp8-param-gather', values: [] });
  if (/bf16/.test(precision)) push({ name: '--bf16', values: [] });
  else if (/^16|fp16/.test(precision)) push({ name: '--fp16', values: [] });
  const steps = trainer['max_steps'];
  if (typeof steps === 'number' && steps > 0) push({ name: '--train-iters', values: [String(steps)] });
  const nodes = trainer['num_nodes'];
  const devices = trainer['devices'];
  const launcher: ParsedFlag[] =
    typeof devices === 'number' && !gpusGiven
      ? [
          { name: '--nnodes', values: [String(typeof nodes === 'number' ? nodes : 1)] },
          { name: '--nproc-per-node', values: [String(devices)] },
        ]
      : [];
  // The vocabulary comes from the tokenizer file; Megatron's reader warns that it is not set.
  readMegatron(d, { launcher, script: 'megatron_gpt_pretraining.py', flags });
  for (const key of Object.keys(model)) {
    if (NEMO_SAME.includes(key) || key in NEMO_RENAMED || NEMO_QUIET.has(key) || key === 'num_query_groups') continue;
    if (NEMO_IGNORED.test(key)) continue;
    d.warn(`model.${key}: not used by the planner, ignored`);
  }
  d.training['framework'] = 'megatron';
}

const AUTOMODEL_DEGREES: ReadonlyArray<[string, NumberKey<ParallelDocument>]> = [
  ['tp_size', 'tp'],
  ['cp_size', 'cp'],
  ['pp_size', 'pp'],
  ['ep_size', 'ep'],
  ['dp_size', 'dp'],
];

/** A count the recipe leaves to the launcher: absent, null, "none" or "auto" (AutoModel's FSDP2Manager then derives it). */
const unset = (v: unknown) => v === undefined || v === null || v === 'none' || v === 'auto';

/**
 * The sequence length: a packed size (packed_sequence.packed_sequence_size, or dataset.packed_sequence_size) when
 * above 0, else the dataset's own length (dataset.seq_len of the mock/benchmark datasets, dataset.seq_length of the
 * pre-training datasets); without either, each batch is padded to its longest example and the length is the user's to set.
 */
function automodelSeqLen(d: Draft, value: Obj): void {
  const data = isObj(value['dataset']) ? value['dataset'] : {};
  const packed = isObj(value['packed_sequence']) ? value['packed_sequence']['packed_sequence_size'] : data['packed_sequence_size'];
  const where = isObj(value['packed_sequence']) ? 'packed_sequence.packed_sequence_size' : 'dataset.packed_sequence_size';
  const candidates: ReadonlyArray<[string, unknown]> = [
    [where, packed],
    ['dataset.seq_len', data['seq_len']],
    ['dataset.seq_length', data['seq_length']],
  ];
  for (const [key, v] of candidates) {
    if (typeof v !== 'number' || v <= 0) continue;
    const n = d.count(key, v);
    if (n !== undefined) d.training['seqLen'] = n;
    return;
  }
  d.warn(
    'training.seqLen: the recipe pads each batch to its longest example (no packed_sequence_size, no dataset.seq_len); set the sequence length',
  );
}

/**
 * The GPUs: benchmark.num_nodes (the benchmark recipes) or ci.nodes × ci.nproc_per_node (the CI block), times the
 * GPUs per node (ci.nproc_per_node, else the page's or 8: `automodel … --nproc-per-node 8`). Null when the recipe leaves them to the launcher.
 */
function automodelGpus(d: Draft, value: Obj, gpusPerNode: number | undefined): number | null {
  const bench = isObj(value['benchmark']) ? value['benchmark'] : {};
  const ci = isObj(value['ci']) ? value['ci'] : {};
  const nodesValue = bench['num_nodes'] ?? ci['nodes'];
  if (typeof nodesValue !== 'number') return null;
  const nodes = d.count(bench['num_nodes'] !== undefined ? 'benchmark.num_nodes' : 'ci.nodes', nodesValue);
  const perNode = typeof ci['nproc_per_node'] === 'number' ? d.count('ci.nproc_per_node', ci['nproc_per_node']) : (gpusPerNode ?? 8);
  if (nodes === undefined || perNode === undefined) return null;
  d.cluster['gpusPerNode'] = perNode;
  return nodes * perNode;
}

export interface AutomodelOptions {
  readonly hasModel: boolean;
  readonly gpus: number | undefined;
  readonly gpusPerNode: number | undefined;
  /** The model of a Hugging Face Hub id (import/hub-model.ts), or a warning that names it. */
  readonly readHubModel: (d: Draft, id: string) => void;
  /** The model of an inline transformers config (model.config of a from_config recipe), or errors. */
  readonly readInlineConfig: (d: Draft, config: Obj) => void;
}

/**
 * The MoE backend of an AutoModel recipe (model.backend, nemo_automodel/components/models/common/utils.py BackendConfig
 * @36044ad3): `dispatcher` deepep or hybridep is the expert-parallel exchange, "torch" its DTensor all-gather and
 * reduce-scatter (absent: DeepEP where it is installed, so left to the framework default), and
 * `fake_balanced_gate: true` routes each token to k consecutive experts without the gate (moe/layers.py FakeBalancedGate),
 * as the llm_benchmark recipes do.
 */
function automodelMoeBackend(d: Draft, model: Obj): void {
  const backend = isObj(model['backend']) ? model['backend'] : {};
  const dispatcher = backend['dispatcher'];
  if (dispatcher === 'deepep' || dispatcher === 'hybridep') d.training['moeDispatcher'] = dispatcher;
  else if (dispatcher === 'torch') d.training['moeDispatcher'] = 'allgather';
  if (backend['fake_balanced_gate'] === true) d.training['moeRouter'] = 'fakeBalanced';
}

/** NeMo AutoModel's pre-training and fine-tuning recipes (examples/llm_pretrain, examples/llm_finetune). */
export function readAutomodel(d: Draft, value: Obj, o: AutomodelOptions): void {
  const steps = isObj(value['step_scheduler']) ? value['step_scheduler'] : {};
  const dist = isObj(value['distributed']) ? value['distributed'] : {};
  const model = isObj(value['model']) ? value['model'] : {};
  const batch = steps['global_batch_size'];
  const local = steps['local_batch_size'];
  if (batch !== undefined) {
    const n = d.count('step_scheduler.global_batch_size', batch);
    if (n !== undefined) d.training['globalBatch'] = n;
  }
  if (local !== undefined) {
    const n = d.count('step_scheduler.local_batch_size', local);
    if (n !== undefined) d.training['microBatch'] = n;
  }
  for (const [key, degree] of AUTOMODEL_DEGREES) {
    const v = dist[key];
    if (unset(v)) continue;
    const n = d.count(`distributed.${key}`, v);
    if (n !== undefined) d.parallel[degree] = n;
  }
  if (dist['sequence_parallel'] === true) d.parallel['sequenceParallel'] = true;
  const gpus = o.gpus ?? automodelGpus(d, value, o.gpusPerNode);
  if (gpus !== null && o.gpus === undefined) d.cluster['gpus'] = gpus;
  const strategy = typeof dist['strategy'] === 'string' ? dist['strategy'] : 'fsdp2';
  d.parallel['zero'] = strategy === 'ddp' ? 0 : 3;
  // distributed.activation_checkpointing: every decoder layer wrapped in checkpoint_wrapper (FSDP2Manager), i.e. full recomputation.
  if (typeof dist['activation_checkpointing'] === 'boolean') d.training['recompute'] = dist['activation_checkpointing'] ? 'full' : 'none';
  const compile = isObj(value['compile']) ? value['compile'] : {};
  if (compile['enabled'] === true || dist['enable_compile'] === true) d.training['compile'] = true;
  // model.attn_implementation: "flash_attention_2" / "sdpa" run a fused kernel; "eager" materialises the scores.
  const attn = model['attn_implementation'];
  if (typeof attn === 'string') d.training['flashAttention'] = attn !== 'eager';
  automodelSeqLen(d, value);
  const maxSteps = steps['max_steps'];
  if (
    typeof maxSteps === 'number' &&
    maxSteps > 0 &&
    typeof d.training['globalBatch'] === 'number' &&
    typeof d.training['seqLen'] === 'number'
  ) {
    const tokens = d.tokens(
      'step_scheduler.max_steps × global_batch_size × sequence length',
      maxSteps * d.training['globalBatch'] * d.training['seqLen'],
    );
    if (tokens !== undefined) d.training['tokens'] = tokens;
  }
  automodelMoeBackend(d, model);
  const name = model['pretrained_model_name_or_path'];
  if (isObj(model['config']) && !o.hasModel) o.readInlineConfig(d, model['config']);
  else if (typeof name === 'string' && !o.hasModel) o.readHubModel(d, name);
  if (typeof name === 'string') d.model['name'] = name;
  if (isObj(value['peft'])) d.warn('peft: an adapter (LoRA) recipe; the planner plans full fine-tuning of every weight here');
  d.training['framework'] = 'fsdp';
  d.training['precision'] = 'bf16';
}

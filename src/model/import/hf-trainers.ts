// Fine-tuning YAMLs of two Hugging Face Trainer front ends, with LoRA / QLoRA adapters:
//   - axolotl (base_model:, adapter: lora | qlora, lora_r, lora_target_modules / lora_target_linear,
//     sequence_len, micro_batch_size, deepspeed: / fsdp:);
//   - LLaMA-Factory (model_name_or_path:, finetuning_type: lora, lora_rank, lora_target,
//     quantization_bit: 4, cutoff_len, per_device_train_batch_size, deepspeed:).
// Both run Hugging Face modeling code (modelCode "transformers"). The model is a Hub id: a
// preset's shapes where the id names one (meta-llama/Meta-Llama-3-8B → llama3-8b), otherwise a warning.

import { resolveModelByHubId } from '../catalog/all.ts';
import type { ZeroStage } from '../input/index.ts';
import { readHubModel } from './hub-model.ts';
import { zeroStage, type Draft } from './draft.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export type HfTrainer = 'axolotl' | 'llama-factory';

export function hfTrainerKind(value: Obj): HfTrainer | null {
  if (typeof value['base_model'] === 'string' && ('adapter' in value || 'micro_batch_size' in value || 'sequence_len' in value))
    return 'axolotl';
  if (typeof value['model_name_or_path'] === 'string' && ('finetuning_type' in value || 'stage' in value || 'cutoff_len' in value))
    return 'llama-factory';
  return null;
}

const ALL_MODULES = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] as const;
const MODULE_NAMES: Readonly<Record<string, (typeof ALL_MODULES)[number]>> = {
  q_proj: 'q',
  k_proj: 'k',
  v_proj: 'v',
  o_proj: 'o',
  gate_proj: 'gate',
  up_proj: 'up',
  down_proj: 'down',
};

/** A Hub id's catalog entry id: "NousResearch/Meta-Llama-3-8B-Instruct" → llama3-8b, "Qwen/Qwen3-4B-Instruct-2507" → qwen3-4b. */
export function presetForHubId(id: string): string | null {
  return resolveModelByHubId(id)?.entry.id ?? null;
}

function readModules(d: Draft, where: string, value: unknown): (typeof ALL_MODULES)[number][] | null {
  if (value === 'all' || value === 'all-linear') return [...ALL_MODULES];
  const items = typeof value === 'string' ? value.split(',').map((s) => s.trim()) : Array.isArray(value) ? value.map(String) : null;
  if (items === null) return null;
  const out: (typeof ALL_MODULES)[number][] = [];
  for (const item of items) {
    const m = MODULE_NAMES[item];
    if (m === undefined) d.warn(`${where}: ${item} is no matrix the planner places an adapter on (q_proj … down_proj), ignored`);
    else if (!out.includes(m)) out.push(m);
  }
  return out.length > 0 ? ALL_MODULES.filter((m) => out.includes(m)) : null;
}

/** The ZeRO stage a DeepSpeed config's file name names (zero3.json, ds_z3_config.json, ds_z3_offload_config.json). */
function zeroOfPath(path: string): ZeroStage | null {
  const m = /(?:zero|_z)([0-3])/i.exec(path.split('/').pop() ?? '');
  return m ? (zeroStage(Number(m[1])) ?? null) : null;
}

/** Keys that do not change the plan (data, logging, saving, schedules, evaluation): no warning. */
const QUIET = new RegExp(
  `^(${[
    'datasets?',
    'dataset_.*',
    'val_set_size',
    'output_dir',
    'wandb_.*',
    'hub_.*',
    'special_tokens',
    'tokenizer_.*',
    'model_type',
    'trust_remote_code',
    'template',
    'max_samples',
    'overwrite_.*',
    'preprocessing_num_workers',
    'dataloader_.*',
    'logging_steps',
    'save_.*',
    'saves_per_epoch',
    'plot_loss',
    'report_to',
    'learning_rate',
    'lr_scheduler.*',
    'warmup_.*',
    'weight_decay',
    'ddp_timeout',
    'resume_from_checkpoint',
    'evals?_.*',
    'eval_sample_packing',
    'val_size',
    'per_device_eval_batch_size',
    'do_train',
    'stage',
    'lora_alpha',
    'lora_dropout',
    'lora_model_dir',
    'lora_modules_to_save',
    'tf32',
    'logging_.*',
    'seed',
    'max_grad_norm',
    'strict',
    'chat_template',
    'pad_to_sequence_len',
    'group_by_length',
    'train_on_inputs',
    'bnb_4bit_.*',
    'gradient_checkpointing_kwargs',
    'fsdp_config',
    'fsdp_version',
    'num_epochs',
    'num_train_epochs',
    'max_steps',
    'stage',
    'finetuning_type',
    'lora_target_linear',
    'lora_target_modules',
    'lora_target',
    'lora_r',
    'lora_rank',
    'load_in_4bit',
    'load_in_8bit',
    'quantization_bit',
    'quantization_method',
    'adapter',
    'base_model',
    'model_name_or_path',
    'sequence_len',
    'cutoff_len',
    'micro_batch_size',
    'per_device_train_batch_size',
    'gradient_accumulation_steps',
    'gradient_checkpointing',
    'disable_gradient_checkpointing',
    'bf16',
    'fp16',
    'flash_attention',
    'flash_attn',
    'attn_implementation',
    'optimizer',
    'optim',
    'deepspeed',
    'fsdp',
    'sample_packing',
    'packing',
    'neat_packing',
  ].join('|')})$`,
);

export function readHfTrainer(d: Draft, value: Obj, flavour: HfTrainer, gpus: number | undefined, hasModel: boolean): void {
  const ax = flavour === 'axolotl';
  const get = (a: string, l: string) => value[ax ? a : l];
  const key = (a: string, l: string) => (ax ? a : l);
  d.training['modelCode'] = 'transformers';

  // The model.
  const id = get('base_model', 'model_name_or_path');
  if (typeof id === 'string') readHubModel(d, id, hasModel);

  // The adapter.
  const method = ax ? value['adapter'] : value['finetuning_type'];
  const fourBit = ax ? value['load_in_4bit'] === true : value['quantization_bit'] === 4;
  if (method === 'lora' || method === 'qlora') {
    const rankKey = key('lora_r', 'lora_rank');
    const rankValue = value[rankKey] ?? (ax ? undefined : 8); // LLaMA-Factory's default lora_rank is 8
    const rank = rankValue === undefined ? undefined : d.count(rankKey, rankValue);
    // LLaMA-Factory's default lora_target is "all".
    let modules = ax
      ? value['lora_target_linear'] === true
        ? [...ALL_MODULES]
        : readModules(d, 'lora_target_modules', value['lora_target_modules'])
      : readModules(d, 'lora_target', value['lora_target'] ?? 'all');
    if (modules === null) {
      modules = [...ALL_MODULES];
      d.warn(`${ax ? 'lora_target_modules' : 'lora_target'}: not given; every linear of a layer assumed`);
    }
    if (rank !== undefined) d.training['adapter'] = { method: method === 'qlora' || fourBit ? 'qlora' : 'lora', rank, modules };
    else d.error(`${rankKey}: the adapter's rank is not given`);
    if (ax && value['load_in_8bit'] === true)
      d.warn('load_in_8bit: the frozen base weights are 8-bit (bitsandbytes LLM.int8); the planner counts them as 16-bit');
    if (ax && Array.isArray(value['lora_modules_to_save']) && value['lora_modules_to_save'].length > 0)
      d.warn(
        `lora_modules_to_save: ${value['lora_modules_to_save'].join(', ')} trained in full as well; the planner trains only the adapters`,
      );
  } else if (method === 'full' || method === null || method === undefined) {
    d.training['adapter'] = null;
  } else {
    d.warn(
      `${key('adapter', 'finetuning_type')}: ${String(method)} is not an adapter the planner models (lora, qlora); planned as full fine-tuning`,
    );
    d.training['adapter'] = null;
  }

  // Sequence length and batch.
  const seqKey = key('sequence_len', 'cutoff_len');
  const seq = value[seqKey] ?? (ax ? undefined : 2048); // LLaMA-Factory's default cutoff_len is 2048
  if (seq !== undefined && seq !== null) {
    const n = d.count(seqKey, seq);
    if (n !== undefined) d.training['seqLen'] = n;
  } else d.warn(`${seqKey}: not given; set training.seqLen`);
  if (value['sample_packing'] !== true && value['packing'] !== true && value['neat_packing'] !== true)
    d.warn(
      `${seqKey}: without packing each batch is padded to its longest example, up to ${String(seq)} tokens; the plan counts full-length sequences`,
    );
  const microKey = key('micro_batch_size', 'per_device_train_batch_size');
  const microValue = value[microKey] ?? (ax ? 1 : 8); // the HF Trainer's default per_device_train_batch_size is 8
  const micro = d.count(microKey, microValue);
  const accum = d.count('gradient_accumulation_steps', value['gradient_accumulation_steps'] ?? 1);
  const dp = gpus ?? 1;
  if (gpus === undefined)
    d.warn(
      `parallel.dp: the GPUs come from the launcher (accelerate / torchrun / deepspeed); 1 GPU ` +
        `assumed, so globalBatch = ${microKey} × gradient_accumulation_steps × 1 (set cluster.gpus)`,
    );
  if (micro !== undefined) d.training['microBatch'] = micro;
  if (micro !== undefined && accum !== undefined) d.training['globalBatch'] = micro * accum * dp;
  d.parallel['tp'] = 1;
  d.parallel['pp'] = 1;
  d.parallel['cp'] = 1;
  d.parallel['ep'] = 1;
  d.parallel['dp'] = dp;

  // Precision, recomputation, attention, optimizer.
  const bf16 = value['bf16'];
  if (bf16 === true || bf16 === 'auto') d.training['precision'] = 'bf16';
  else if (value['fp16'] === true) d.training['precision'] = 'fp16';
  else {
    d.training['precision'] = 'fp32';
    d.warn('bf16 / fp16: neither is set; the Trainer computes in fp32');
  }
  if (bf16 === 'auto') d.warn('bf16: "auto" read as bf16 (axolotl picks bf16 where the GPU supports it)');
  const checkpointing = ax
    ? value['gradient_checkpointing'] === true || value['gradient_checkpointing'] === 'unsloth'
    : value['disable_gradient_checkpointing'] !== true;
  d.training['recompute'] = checkpointing ? 'full' : 'none';
  if (!ax && value['disable_gradient_checkpointing'] === undefined)
    d.warn('disable_gradient_checkpointing: not given; LLaMA-Factory checkpoints every layer by default (recompute "full")');
  const attn = value['attn_implementation'];
  const flash = ax
    ? value['flash_attention'] === true || attn === 'flash_attention_2' || attn === 'flash_attention_3'
    : value['flash_attn'] === 'fa2' || value['flash_attn'] === 'fa3' || value['flash_attn'] === 'auto' || value['flash_attn'] === undefined;
  d.training['flashAttention'] = flash;
  if (!ax && value['flash_attn'] === undefined)
    d.warn('flash_attn: not given; LLaMA-Factory\'s "auto" uses FlashAttention-2 or SDPA where installed (flash attention assumed)');
  const optKey = key('optimizer', 'optim');
  const opt = value[optKey] ?? 'adamw_torch';
  if (typeof opt === 'string' && /8bit/.test(opt)) d.training['optimizer'] = 'adam8bit';
  else if (typeof opt === 'string' && /^(paged_)?adamw?/.test(opt)) d.training['optimizer'] = 'adam';
  else if (opt === 'sgd') d.training['optimizer'] = 'sgd';
  else {
    d.training['optimizer'] = 'adam';
    d.warn(`${optKey}: ${String(opt)} is not an optimizer the planner models; planned as Adam`);
  }

  // Sharding: DeepSpeed ZeRO by its config's file name, or FSDP.
  const ds = value['deepspeed'];
  const fsdp = value['fsdp'];
  const fsdpConfig = isObj(value['fsdp_config']) ? value['fsdp_config'] : {};
  if (typeof ds === 'string' && ds !== '') {
    d.training['framework'] = 'deepspeed';
    const zero = zeroOfPath(ds);
    if (zero !== null) d.parallel['zero'] = zero;
    else d.warn(`deepspeed: ${ds} names no ZeRO stage; import the DeepSpeed config too`);
    if (/offload/.test(ds)) d.warn(`deepspeed: ${ds} offloads to the CPU; import the DeepSpeed config for what it offloads`);
  } else if ((Array.isArray(fsdp) && fsdp.length > 0) || (typeof fsdp === 'string' && fsdp !== '') || Object.keys(fsdpConfig).length > 0) {
    d.training['framework'] = 'fsdp';
    const words = [
      Array.isArray(fsdp) ? fsdp.join(' ') : String(fsdp ?? ''),
      String(fsdpConfig['fsdp_sharding_strategy'] ?? fsdpConfig['sharding_strategy'] ?? ''),
    ].join(' ');
    d.parallel['zero'] = /shard_grad_op/i.test(words) ? 2 : /no_shard/i.test(words) ? 0 : 3;
    const offload = fsdpConfig['fsdp_offload_params'] === true || fsdpConfig['offload_params'] === true || /offload/.test(words);
    if (offload) d.training['offload'] = { optimizer: true, parameters: true };
  } else {
    d.training['framework'] = 'generic';
    d.parallel['zero'] = 0;
  }

  const epochs = get('num_epochs', 'num_train_epochs');
  if (epochs !== undefined)
    d.warn(`${key('num_epochs', 'num_train_epochs')}: ${String(epochs)} epochs; the planner plans one step (training.tokens not set)`);
  for (const k of Object.keys(value)) if (!QUIET.test(k)) d.warn(`${k}: not used by the planner, ignored`);
}

// Launch files for fine-tunes (issue 24): a torchtune recipe config and a Hugging Face
// PEFT + Trainer script, written from the plan's model, adapter, batch, precision,
// recomputation and data-parallel sharding. Pure formatting of a RunConfig, like the
// pre-training exports (launch-args.ts); what a framework cannot say is written as a
// comment and listed in `notes`.
//
// torchtune: recipes/configs/llama3_1/8B_lora_single_device.yaml and 8B_qlora_single_device.yaml
// (model lora_attn_modules, apply_lora_to_mlp, lora_rank, lora_alpha; batch_size,
// gradient_accumulation_steps, enable_activation_checkpointing, dtype, compile), recipes
// lora_finetune_single_device / lora_finetune_distributed / full_finetune_*.
// PEFT: LoraConfig(r, lora_alpha, target_modules, task_type="CAUSAL_LM"); QLoRA through
// transformers' BitsAndBytesConfig(load_in_4bit, bnb_4bit_quant_type="nf4",
// bnb_4bit_use_double_quant, bnb_4bit_compute_dtype) and peft.prepare_model_for_kbit_training.

import { microBatchesPerStep } from '../input/index.ts';
import type { AdapterModule, RunConfig } from '../input/index.ts';
import { planTitle } from './common.ts';

export interface FineTuneLaunch {
  readonly target: 'torchtune' | 'peft';
  readonly label: string;
  readonly fileName: string;
  readonly text: string;
  readonly notes: readonly string[];
}

/** Hugging Face Llama-style module names (transformers LlamaForCausalLM), as PEFT's target_modules name them. */
const HF_MODULES: Readonly<Record<AdapterModule, string>> = {
  q: 'q_proj',
  k: 'k_proj',
  v: 'v_proj',
  o: 'o_proj',
  gate: 'gate_proj',
  up: 'up_proj',
  down: 'down_proj',
};
/** torchtune's lora_attn_modules names (torchtune/modules/peft/_utils.py LORA_ATTN_MODULES). */
const TORCHTUNE_ATTENTION: Readonly<Partial<Record<AdapterModule, string>>> = { q: 'q_proj', k: 'k_proj', v: 'v_proj', o: 'output_proj' };

/** torchtune's model builder for the presets it ships, e.g. torchtune.models.llama3_1.lora_llama3_1_8b; null otherwise. */
function torchtuneBuilder(c: RunConfig, prefix: '' | 'lora_' | 'qlora_'): string | null {
  const match = /^Llama (3(?:\.[12])?) (\d+)B$/.exec(c.model.name);
  if (!match) return null;
  const family = (match[1] ?? '3').replace('.', '_');
  return `torchtune.models.llama${family}.${prefix}llama${family}_${match[2]}b`;
}

function accumulation(c: RunConfig): number {
  return microBatchesPerStep(c.training, c.parallel);
}

/** A torchtune recipe config (YAML) and the `tune run` line that starts it. */
export function torchtuneExport(c: RunConfig): FineTuneLaunch {
  const t = c.training;
  const a = t.adapter ?? null;
  const notes: string[] = [];
  const prefix = a ? (a.method === 'qlora' ? 'qlora_' : 'lora_') : '';
  const builder = torchtuneBuilder(c, prefix);
  if (!builder) notes.push(`torchtune ships builders for its own models only: set model._component_ to the builder for ${c.model.name}`);
  const gpus = c.cluster.gpus;
  const recipe = `${a ? 'lora' : 'full'}_finetune_${gpus > 1 ? 'distributed' : 'single_device'}`;
  const lines = [
    `# ${planTitle(c)}: ${a ? `${a.method === 'qlora' ? 'QLoRA' : 'LoRA'} rank ${a.rank}` : 'full fine-tune'} (written by the LLM training planner)`,
    `# tune run ${gpus > 1 ? `--nproc_per_node ${gpus} ` : ''}${recipe} --config ./finetune.yaml`,
    'model:',
    `  _component_: ${builder ?? `<torchtune builder for ${c.model.name}>`}`,
  ];
  if (a) {
    const attention = a.modules.flatMap((m) => TORCHTUNE_ATTENTION[m] ?? []);
    const mlp = a.modules.filter((m) => m === 'gate' || m === 'up' || m === 'down');
    lines.push(`  lora_attn_modules: [${attention.map((m) => `'${m}'`).join(', ')}]`);
    lines.push(`  apply_lora_to_mlp: ${mlp.length > 0 ? 'True' : 'False'}`, '  apply_lora_to_output: False');
    lines.push(`  lora_rank: ${a.rank}`, `  lora_alpha: ${2 * a.rank}`, '  lora_dropout: 0.0');
    if (mlp.length > 0 && mlp.length < 3)
      notes.push(`torchtune adapts the whole MLP (gate, up and down) with apply_lora_to_mlp; the plan adapts ${mlp.join(', ')} only`);
  }
  const optimizer =
    t.optimizer === 'adam8bit' ? 'bitsandbytes.optim.PagedAdamW8bit' : t.optimizer === 'sgd' ? 'torch.optim.SGD' : 'torch.optim.AdamW';
  lines.push(
    `batch_size: ${t.microBatch}`,
    `gradient_accumulation_steps: ${accumulation(c)}`,
    'tokenizer:',
    `  max_seq_len: ${t.seqLen}`,
    'dataset:',
    '  packed: True',
    'optimizer:',
    `  _component_: ${optimizer}`,
    '  lr: 3e-4',
    'loss:',
    '  _component_: torchtune.modules.loss.CEWithChunkedOutputLoss',
    `enable_activation_checkpointing: ${t.recompute === 'none' ? 'False' : 'True'}`,
    `enable_activation_offloading: ${c.stack.activationOffloadLayers > 0 ? 'True' : 'False'}`,
    `compile: ${c.stack.compile ? 'True' : 'False'}`,
    `dtype: ${t.precision === 'fp32' ? 'fp32' : 'bf16'}`,
  );
  if (gpus > 1) {
    lines.push(`fsdp_cpu_offload: ${t.offload.parameters ? 'True' : 'False'}`);
    if (c.parallel.zero < 3)
      notes.push(
        "torchtune's distributed recipes shard with FSDP (ZeRO-3); the plan keeps the weights whole (ZeRO " + c.parallel.zero + ')',
      );
    if (c.parallel.tp > 1 || c.parallel.pp > 1 || c.parallel.cp > 1)
      notes.push("torchtune's LoRA recipes are data-parallel only: TP, PP and CP are not written");
  }
  if (t.recompute === 'selective')
    notes.push('torchtune checkpoints whole layers: selective recomputation is written as activation checkpointing');
  if (t.precision === 'fp16' || t.precision === 'fp8' || t.precision === 'fp4')
    notes.push(`torchtune trains in bf16 or fp32: the plan's ${t.precision} is written as bf16`);
  if (t.masterWeights && t.precision !== 'fp32')
    notes.push('torchtune keeps weights, gradients and optimizer states in the dtype above (no fp32 master copy)');
  const text = [...lines, ...notes.map((n) => `# not expressible: ${n}`)].join('\n') + '\n';
  return { target: 'torchtune', label: 'torchtune', fileName: 'finetune.yaml', text, notes };
}

/** A Hugging Face transformers + PEFT training script (QLoRA through bitsandbytes). */
export function peftExport(c: RunConfig): FineTuneLaunch {
  const t = c.training;
  const a = t.adapter ?? null;
  const notes: string[] = [];
  const dtype = t.precision === 'fp16' ? 'torch.float16' : t.precision === 'fp32' ? 'torch.float32' : 'torch.bfloat16';
  const optim = t.optimizer === 'adam8bit' ? 'paged_adamw_8bit' : t.optimizer === 'sgd' ? 'sgd' : 'adamw_torch_fused';
  const fsdp = c.cluster.gpus > 1 && c.parallel.zero >= 3;
  const lines = [
    `# ${planTitle(c)}: ${a ? `${a.method === 'qlora' ? 'QLoRA' : 'LoRA'} rank ${a.rank}` : 'full fine-tune'} (written by the LLM training planner)`,
    `# ${c.cluster.gpus > 1 ? `accelerate launch --num_processes ${c.cluster.gpus} finetune.py` : 'python finetune.py'}`,
    'import torch',
    'from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments',
  ];
  if (a) lines.push(`from peft import LoraConfig, get_peft_model${a.method === 'qlora' ? ', prepare_model_for_kbit_training' : ''}`);
  lines.push('', `MODEL_ID = "<Hugging Face id of ${c.model.name}>"`);
  if (a?.method === 'qlora') {
    lines.push(
      'quantization = BitsAndBytesConfig(',
      '    load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True,',
      `    bnb_4bit_compute_dtype=${dtype}, bnb_4bit_quant_storage=${dtype},`,
      ')',
    );
    notes.push(
      'bitsandbytes quantises every linear layer but lm_head to NF4; the plan (as torchtune) ' +
        'quantises the adapted matrices only, so its frozen weights are an upper bound here',
    );
  }
  lines.push(
    'model = AutoModelForCausalLM.from_pretrained(',
    `    MODEL_ID, torch_dtype=${dtype},${a?.method === 'qlora' ? ' quantization_config=quantization,' : ''}`,
    `    attn_implementation="${t.flashAttention ? 'flash_attention_2' : 'eager'}",`,
    ')',
  );
  if (a) {
    if (a.method === 'qlora')
      lines.push(`model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=${t.recompute === 'none' ? 'False' : 'True'})`);
    lines.push(
      `model = get_peft_model(model, LoraConfig(r=${a.rank}, lora_alpha=${2 * a.rank}, lora_dropout=0.0, task_type="CAUSAL_LM",`,
      `    target_modules=[${a.modules.map((m) => `"${HF_MODULES[m]}"`).join(', ')}]))`,
      'model.print_trainable_parameters()',
    );
  }
  lines.push(
    'args = TrainingArguments(',
    '    output_dir="out",',
    `    per_device_train_batch_size=${t.microBatch},`,
    `    gradient_accumulation_steps=${accumulation(c)},`,
    `    ${t.precision === 'fp16' ? 'fp16=True' : t.precision === 'fp32' ? 'bf16=False' : 'bf16=True'},`,
    `    gradient_checkpointing=${t.recompute === 'none' ? 'False' : 'True'},`,
    `    optim="${optim}",`,
    ...(fsdp ? ['    fsdp="full_shard auto_wrap",'] : []),
    `    torch_compile=${c.stack.compile ? 'True' : 'False'},`,
    ')',
    `# Sequences of ${t.seqLen} tokens: tokenise (and pack) the dataset to this length.`,
    'trainer = Trainer(model=model, args=args, train_dataset=...)  # your tokenised dataset',
    'trainer.train()',
  );
  if (c.parallel.tp > 1 || c.parallel.pp > 1 || c.parallel.cp > 1)
    notes.push('the Trainer is data-parallel (DDP or FSDP): TP, PP and CP are not written');
  if (c.cluster.gpus > 1 && (c.parallel.zero === 1 || c.parallel.zero === 2))
    notes.push(`ZeRO ${c.parallel.zero} needs a DeepSpeed config (--deepspeed); written as plain DDP`);
  if (t.precision === 'fp8' || t.precision === 'fp4')
    notes.push(`the Trainer computes in bf16 or fp16: the plan's ${t.precision} is written as bf16`);
  const text = [...lines, ...notes.map((n) => `# not expressible: ${n}`)].join('\n') + '\n';
  return { target: 'peft', label: 'Hugging Face PEFT', fileName: 'finetune.py', text, notes };
}

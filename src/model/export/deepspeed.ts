// The plan as a DeepSpeed configuration file (ds_config.json; keys as documented in
// DeepSpeed's docs/_pages/config-json.md). JSON has no comments, so the notes go in a
// top-level "//" array: DeepSpeed reads only the keys it knows, and json.load-based
// readers (Hugging Face Transformers) accept it. The model, its pipeline and its
// expert layers are built in code with DeepSpeed, so those parts of the plan are notes.
// The launch (megatron-deepspeed.ts) writes the same keys without the notes, since there
// Megatron-DeepSpeed's arguments build the model, and without tensor_parallel (AutoTP is
// DeepSpeed's own tensor parallelism for Hugging Face models; Megatron-DeepSpeed's is
// --tensor-model-parallel-size).

import { gradientAccumulationSteps, planTitle, SCHEDULE_NAMES, torchrunPrefix, type LaunchExport } from './common.ts';
import { megatronDeepspeedLaunch } from './megatron-deepspeed.ts';
import type { RunConfig } from '../input/index.ts';

type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };

function layoutNotes(c: RunConfig): string[] {
  const { parallel: p, model: m } = c;
  const notes: string[] = [
    `the model (${m.layers} layers, hidden ${m.hidden}, ${m.heads} heads, vocabulary ${m.vocab}) is defined by your model code`,
  ];
  // AutoTP training (deepspeed.ai/tutorials/autotp-training): deepspeed.initialize shards a Hugging Face model's linear layers
  // when the config has tensor_parallel, with ZeRO stages 0–2 only.
  if (p.tp > 1 && p.zero <= 2)
    notes.push(
      `tensor parallel ${p.tp} is written as AutoTP (tensor_parallel.autotp_size, for a Hugging ` +
        `Face model); with Megatron-DeepSpeed pass --tensor-model-parallel-size ${p.tp} instead`,
    );
  if (p.tp > 1 && p.zero === 3)
    notes.push(
      `tensor parallel ${p.tp}: DeepSpeed's AutoTP trains with ZeRO stages 0–2 only, so it is not ` +
        `written beside ZeRO-3; with Megatron-DeepSpeed pass --tensor-model-parallel-size ${p.tp}`,
    );
  if (p.tp > 1 && p.sequenceParallel) notes.push('Megatron-style sequence parallelism: not a DeepSpeed setting');
  if (p.pp > 1)
    notes.push(
      `pipeline parallel ${p.pp}: build the model as deepspeed.pipe.PipelineModule(..., num_stages=${p.pp}); its engine runs a 1F1B schedule`,
    );
  if (p.pp > 1 && p.schedule !== '1f1b' && p.schedule !== 'gpipe')
    notes.push(`the ${SCHEDULE_NAMES[p.schedule]} schedule: not in DeepSpeed's pipeline engine`);
  if (p.cp > 1) notes.push(`context parallel ${p.cp}: DeepSpeed-Ulysses (deepspeed.sequence.layer.DistributedAttention) in the model code`);
  if (m.moe) notes.push(`expert parallel ${p.ep}: deepspeed.moe.layer.MoE(..., ep_size=${p.ep}) in the model code`);
  return notes;
}

function precisionBlock(c: RunConfig, notes: string[]): Record<string, Json> {
  const t = c.training;
  if (t.precision === 'fp8' || t.precision === 'fp4')
    notes.push(`${t.precision} matmuls: Transformer Engine in the model code; this file only enables bf16`);
  if (!t.masterWeights && t.precision !== 'fp32') notes.push('no fp32 master weights: DeepSpeed keeps them with bf16/fp16');
  const block: Record<string, Json> = {};
  if (t.precision === 'fp16') block['fp16'] = { enabled: true };
  else if (t.precision !== 'fp32') block['bf16'] = { enabled: true };
  if (t.precision !== 'fp32') block['data_types'] = { grad_accum_dtype: t.gradDtype };
  return block;
}

function zeroBlock(c: RunConfig, notes: string[]): Record<string, Json> {
  const { parallel: p, training: t } = c;
  const zero: Record<string, Json> = { stage: p.zero };
  const cpu = { device: 'cpu', pin_memory: true };
  if (t.offload.optimizer) {
    if (p.zero >= 1) zero['offload_optimizer'] = cpu;
    else notes.push('optimizer offload needs ZeRO stage 1 or more');
  }
  if (t.offload.parameters) {
    if (p.zero === 3) zero['offload_param'] = cpu;
    else notes.push('parameter offload (offload_param) needs ZeRO stage 3');
  }
  return { zero_optimization: zero };
}

function optimizerBlock(c: RunConfig, notes: string[]): Record<string, Json> {
  const o = c.training.optimizer;
  if (o === 'adam8bit') {
    notes.push('8-bit Adam: pass bitsandbytes.optim.Adam8bit to deepspeed.initialize as the client optimizer');
    return {};
  }
  notes.push('optimizer: add "params" (lr, betas, weight_decay) for your run');
  return { optimizer: o === 'adam' ? { type: 'AdamW' } : { type: 'SGD', params: { momentum: 0.9 } } };
}

function recomputeBlock(c: RunConfig, notes: string[]): Record<string, Json> {
  const r = c.training.recompute;
  if (r === 'selective')
    notes.push('selective recomputation: not a DeepSpeed setting (checkpoint only the attention core in the model code)');
  if (r !== 'full') return {};
  notes.push(
    'full recomputation: the model code must wrap each layer in deepspeed.checkpointing.checkpoint (or call gradient_checkpointing_enable())',
  );
  return {
    activation_checkpointing: {
      partition_activations: false,
      cpu_checkpointing: false,
      contiguous_memory_optimization: false,
      synchronize_checkpoint_boundary: false,
    },
  };
}

export function deepspeedExport(c: RunConfig): LaunchExport {
  const { parallel: p, training: t } = c;
  const notes = layoutNotes(c);
  const body: Record<string, Json> = {
    train_batch_size: t.globalBatch,
    train_micro_batch_size_per_gpu: t.microBatch,
    gradient_accumulation_steps: gradientAccumulationSteps(c),
    ...precisionBlock(c, notes),
    ...zeroBlock(c, notes),
    ...optimizerBlock(c, notes),
    ...recomputeBlock(c, notes),
    ...(p.tp > 1 && p.zero <= 2 ? { tensor_parallel: { autotp_size: p.tp } } : {}),
  };
  // Megatron-DeepSpeed shards with its own tensor parallelism (--tensor-model-parallel-size, Megatron's mpu): a
  // tensor_parallel block in its ds_config would make deepspeed.initialize apply AutoTP over it. Its here-document has none.
  const { tensor_parallel: _autotp, ...megatronDeepspeedBody } = body;
  const comment = [
    `DeepSpeed config for ${planTitle(c)}, from llm-train-planner.`,
    `Launch: ${torchrunPrefix(c)} <your training script>, which passes this file to deepspeed.initialize(config=...).`,
    `train_batch_size = train_micro_batch_size_per_gpu × gradient_accumulation_steps × data parallel ${p.dp}.`,
    'Not expressible in this file (set elsewhere, or accept the difference):',
    ...notes.map((n) => `- ${n}`),
  ];
  const text = JSON.stringify({ '//': comment, ...body }, null, 2) + '\n';
  return {
    target: 'deepspeed',
    label: 'DeepSpeed',
    fileName: 'ds_config.json',
    text,
    notes,
    launch: megatronDeepspeedLaunch(c, JSON.stringify(megatronDeepspeedBody, null, 2)),
  };
}

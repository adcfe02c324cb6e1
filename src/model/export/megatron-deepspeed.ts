// The plan as a Megatron-DeepSpeed launch: a shell script that writes the DeepSpeed
// config (deepspeed.ts) and starts Megatron-DeepSpeed's pretrain_gpt.py with the model
// and layout flags, the way its own examples_deepspeed/pretrain_llama2_distributed.sh
// does (cat <<EOT > $DS_CONFIG …; torchrun … pretrain_gpt.py … --deepspeed
// --deepspeed_config … --zero-stage …). Flag names: deepspeedai/Megatron-DeepSpeed
// megatron/arguments.py at 4efb479 (--num-key-value-heads, --normalization
// layernorm|rmsnorm, --use-rotary-position-embeddings, --num-experts, --topk,
// --moe-expert-parallel-size, --ds-sequence-parallel-size, --no-pipeline-parallel,
// --use-flash-attn-v2, --deepspeed-activation-checkpointing, --zero-stage).

import { commandLines, commentBlock, planTitle, torchrunFlags, trainSamples, type Flag, type LaunchFile } from './common.ts';
import type { RunConfig } from '../input/index.ts';
import { megatronShapeFlags } from './megatron.ts';

function layoutFlags(c: RunConfig, notes: string[]): Flag[] {
  const { parallel: p, model: m } = c;
  const flags: Flag[] = [
    ['--tensor-model-parallel-size', p.tp],
    ['--pipeline-model-parallel-size', p.pp],
  ];
  // Megatron-DeepSpeed builds a DeepSpeed PipelineModule unless told not to; with one stage, not to.
  if (p.pp === 1) flags.push(['--no-pipeline-parallel']);
  if (p.vpp > 1) notes.push(`${p.vpp} virtual pipeline stages: DeepSpeed's pipeline engine does not interleave`);
  if (p.cp > 1) flags.push(['--ds-sequence-parallel-size', p.cp]);
  if (p.sequenceParallel && p.tp > 1) flags.push(['--sequence-parallel']);
  if (m.moe) {
    flags.push(
      ['--num-experts', m.moe.experts],
      ['--topk', m.moe.topK],
      ['--moe-expert-parallel-size', p.ep],
      ['--create-moe-param-group'],
    );
    if (m.moe.expertFfnHidden !== m.ffnHidden)
      notes.push(`expert FFN ${m.moe.expertFfnHidden}: Megatron-DeepSpeed's experts are as wide as --ffn-hidden-size`);
    if (m.moe.sharedExperts > 0 || m.moe.denseLayers > 0)
      notes.push('shared experts and leading dense layers: not Megatron-DeepSpeed flags');
  }
  return flags;
}

function modelFlags(c: RunConfig, notes: string[]): Flag[] {
  const m = c.model;
  const t = c.training;
  const flags = megatronShapeFlags(m);
  if (m.kvHeads < m.heads) flags.push(['--num-key-value-heads', m.kvHeads]);
  if (m.headDim * m.heads !== m.hidden) flags.push(['--kv-channels', m.headDim]);
  flags.push(
    ['--seq-length', t.seqLen],
    ['--max-position-embeddings', t.seqLen],
    ['--micro-batch-size', t.microBatch],
    ['--global-batch-size', t.globalBatch],
    ['--train-samples', trainSamples(c)],
  );
  // Llama-style blocks as pretrain_llama2_distributed.sh lists them ("required for llama model as per llama paper").
  if (m.ffnType === 'swiglu' || m.mla)
    flags.push(['--use-rotary-position-embeddings'], ['--normalization', 'rmsnorm'], ['--disable-bias-linear']);
  if (m.ffnType === 'swiglu') flags.push(['--swiglu']);
  if (!m.tiedEmbeddings) flags.push(['--untie-embeddings-and-output-weights']);
  if (m.mla) notes.push('multi-head latent attention: not in Megatron-DeepSpeed (written as plain attention)');
  if (m.mtpLayers > 0) notes.push('multi-token prediction: not in Megatron-DeepSpeed');
  flags.push(['--tokenizer-type', 'NullTokenizer'], ['--vocab-size', m.vocab]);
  return flags;
}

function trainingFlags(c: RunConfig, notes: string[]): Flag[] {
  const t = c.training;
  const flags: Flag[] = [];
  if (t.precision === 'fp8' || t.precision === 'fp4') notes.push(`${t.precision} matmuls: not in Megatron-DeepSpeed; bf16 is written`);
  if (t.optimizer === 'adam8bit') notes.push('8-bit Adam: not a Megatron-DeepSpeed optimizer');
  if (t.precision === 'fp16') flags.push(['--fp16']);
  else if (t.precision !== 'fp32') flags.push(['--bf16']);
  if (t.optimizer !== 'adam8bit') flags.push(['--optimizer', t.optimizer]);
  if (t.flashAttention) flags.push(['--use-flash-attn-v2']);
  if (t.recompute === 'full')
    flags.push(['--deepspeed-activation-checkpointing'], ['--recompute-granularity', 'full'], ['--recompute-method', 'uniform']);
  if (t.recompute === 'selective') flags.push(['--recompute-granularity', 'selective']);
  return flags;
}

/** The script: the config written with a here-document, then the launch. `configText`: deepspeedExport's keys as JSON. */
export function megatronDeepspeedLaunch(c: RunConfig, configText: string): LaunchFile {
  const notes: string[] = [];
  const launcher = torchrunFlags(c, notes);
  const flags: Flag[] = [
    ...layoutFlags(c, notes),
    ...modelFlags(c, notes),
    ...trainingFlags(c, notes),
    ['--deepspeed'],
    ['--deepspeed_config', 'ds_config.json'],
    ['--zero-stage', c.parallel.zero],
  ];
  const command = ['torchrun', ...launcher.map(([n, v]) => (v === undefined ? n : `${n} ${v}`)), 'pretrain_gpt.py'].join(' ');
  const header = commentBlock(
    '#',
    [
      `DeepSpeed launch for ${planTitle(c)}, from llm-train-planner: Megatron-DeepSpeed's pretrain_gpt.py with the config below.`,
      'Run it on every node from a Megatron-DeepSpeed checkout (NODE_RANK 0, 1, …; ' +
        'MASTER_ADDR the first node); add your data, learning-rate and checkpoint flags.',
    ],
    notes,
  );
  const text = [...header, "cat > ds_config.json <<'EOF'", configText.trimEnd(), 'EOF', ...commandLines(command, flags)].join('\n') + '\n';
  return { fileName: 'deepspeed-launch.sh', text };
}

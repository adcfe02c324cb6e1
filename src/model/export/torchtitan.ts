// The plan as a torchtitan job config (TOML; section and key names from
// torchtitan/config/job_config.py). torchtitan builds its models from named flavors,
// so only the shapes of its Llama 3 flavors (torchtitan-flavors.ts) map to a [model] section; ZeRO stages map onto FSDP2's
// sharding and resharding choices.

import { commentBlock, evenChunkLayers, planTitle, SCHEDULE_NAMES, torchrunPrefix, trainSteps, type LaunchExport } from './common.ts';
import { torchtitanFlavorOf } from './torchtitan-flavors.ts';
import { expertTensorParallel } from '../structure/index.ts';
import type { RunConfig, ScheduleKind } from '../input/index.ts';

type Value = string | number | boolean | readonly string[];
type Section = readonly [name: string, entries: readonly (readonly [key: string, value: Value])[]];

function toml(value: Value): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
  return String(value);
}

function llamaFlavor(c: RunConfig): string | null {
  const found = torchtitanFlavorOf(c.model);
  return found ? found.flavor : null;
}

function modelSection(c: RunConfig, notes: string[]): Section[] {
  const m = c.model;
  const flavor = llamaFlavor(c);
  const converters: string[] = c.training.precision === 'fp8' ? ['float8'] : [];
  if (!flavor) {
    const moe = m.moe ? `, ${m.moe.experts} experts top-${m.moe.topK}` : '';
    notes.push(
      `the model: torchtitan has no flavor for ${m.name}; register one (${m.layers} layers, dim ` +
        `${m.hidden}, ${m.heads} heads, ${m.kvHeads} KV heads, ` +
        `FFN ${m.ffnHidden}, vocabulary ${m.vocab}${moe}) ` +
        `and name it in [model]${converters.length > 0 ? ' with converters = ["float8"]' : ''}`,
    );
    return [];
  }
  const entries: [string, Value][] = [
    ['name', 'llama3'],
    ['flavor', flavor],
  ];
  if (converters.length > 0) entries.push(['converters', converters]);
  return [['model', entries]];
}

function trainingSection(c: RunConfig, notes: string[]): Section {
  const { training: t, parallel: p } = c;
  // With pipelining, local_batch_size is the data-parallel rank's whole batch, cut into micro-batches; without, one micro-batch.
  const local = p.pp > 1 ? t.globalBatch / p.dp : t.microBatch;
  if (t.precision === 'fp16') notes.push('fp16: torchtitan mixes in bfloat16 or float32 only; bfloat16 is written');
  if (t.precision === 'fp4') notes.push('fp4: torchtitan has no fp4 recipe ([mx] offers mxfp8); bfloat16 is written');
  if (t.gradDtype === 'bf16') notes.push('bf16 gradient reduction: torchtitan reduces in float32');
  if (!t.masterWeights && t.precision !== 'fp32') notes.push('no fp32 master weights: FSDP2 keeps the sharded parameters in float32');
  const entries: [string, Value][] = [
    ['local_batch_size', local],
    ['global_batch_size', t.globalBatch],
    ['seq_len', t.seqLen],
    ['steps', trainSteps(c)],
    ['mixed_precision_param', t.precision === 'fp32' ? 'float32' : 'bfloat16'],
    ['mixed_precision_reduce', 'float32'],
  ];
  if (t.offload.optimizer || t.offload.parameters) {
    entries.push(['enable_cpu_offload', true]);
    notes.push('CPU offload: torchtitan (FSDP2) offloads parameters, gradients and optimizer states together');
  }
  return ['training', entries];
}

/** ZeRO → FSDP2: stage 3 reshards after forward, stages 1–2 keep the gathered weights until backward, stage 0 replicates (DDP). */
function dataParallelEntries(c: RunConfig, notes: string[]): [string, Value][] {
  const p = c.parallel;
  if (p.zero === 0) {
    if (p.tp > 1 || p.pp > 1 || p.cp > 1) notes.push('ZeRO 0 (plain DDP) with other parallelism: torchtitan shards with FSDP instead');
    return [
      ['data_parallel_replicate_degree', p.dp],
      ['data_parallel_shard_degree', 1],
    ];
  }
  if (p.zero === 1)
    notes.push('ZeRO 1 (optimizer states sharded only): FSDP2 without resharding after forward (ZeRO-2-like) is the nearest');
  return [
    ['data_parallel_replicate_degree', 1],
    ['data_parallel_shard_degree', p.dp],
    ['fsdp_reshard_after_forward', p.zero === 3 ? 'always' : 'never'],
  ];
}

const TORCH_SCHEDULES: Readonly<Record<ScheduleKind, string>> = {
  gpipe: 'GPipe',
  '1f1b': '1F1B',
  'interleaved-1f1b': 'Interleaved1F1B',
  'zero-bubble': 'ZBVZeroBubble',
  dualpipe: 'DualPipeV',
};

function pipelineEntries(c: RunConfig, notes: string[]): [string, Value][] {
  const p = c.parallel;
  if (p.pp === 1) return [];
  const entries: [string, Value][] = [['pipeline_parallel_schedule', TORCH_SCHEDULES[p.schedule]]];
  if (p.schedule === 'zero-bubble' || p.schedule === 'dualpipe') {
    notes.push(
      `the ${SCHEDULE_NAMES[p.schedule]} schedule: PyTorch's ${TORCH_SCHEDULES[p.schedule]} runs two stages per rank in a V shape, not the plan's placement`,
    );
  }
  const even = evenChunkLayers(c);
  if (p.vpp > 1 && even !== null) entries.push(['pipeline_parallel_layers_per_stage', even]);
  if (p.vpp > 1 && even === null)
    notes.push(`${c.model.layers} layers do not split evenly into ${p.pp} × ${p.vpp} stages: set pipeline_parallel_split_points`);
  entries.push(['pipeline_parallel_microbatch_size', c.training.microBatch]);
  return entries;
}

function parallelismSection(c: RunConfig, notes: string[]): Section {
  const p = c.parallel;
  if (p.tp > 1 && !p.sequenceParallel)
    notes.push("tensor parallel without sequence parallelism: torchtitan's tensor parallelism always shards the sequence");
  return [
    'parallelism',
    [
      ...dataParallelEntries(c, notes),
      ['tensor_parallel_degree', p.tp],
      ['pipeline_parallel_degree', p.pp],
      ...pipelineEntries(c, notes),
      ['context_parallel_degree', p.cp],
      ['expert_parallel_degree', p.ep],
      ...moeEntries(c, notes),
    ],
  ];
}

/**
 * torchtitan's MoE knobs (torchtitan/config/job_config.py Parallelism): only
 * expert_tensor_parallel_degree (default 1) has an equivalent. Its expert parallelism
 * exchanges tokens with torch all_to_all_single (torchtitan/distributed/expert_parallel.py),
 * trains dropless and eagerly: a DeepEP/HybridEP dispatcher, expert-parallel overlap, CUDA
 * graphs and a capacity factor have no key, and each one the plan sets becomes a note.
 */
function moeEntries(c: RunConfig, notes: string[]): [string, Value][] {
  const moe = c.model.moe;
  if (!moe) return [];
  const k = c.stack;
  if (k.moeDispatcher !== 'alltoall')
    notes.push(`the ${k.moeDispatcher} token dispatcher: torchtitan exchanges tokens with torch all-to-all`);
  if (k.overlap.epComm) notes.push('expert-parallel communication overlap: torchtitan has no such option');
  if (k.cudaGraph !== 'none')
    notes.push(`CUDA graphs (${k.cudaGraph === 'full' ? 'whole iteration' : 'per module'}): torchtitan trains without them`);
  if (moe.capacityFactor != null) notes.push(`capacity factor ${moe.capacityFactor}: torchtitan's MoE is dropless`);
  return [['expert_tensor_parallel_degree', expertTensorParallel(c.parallel)]];
}

function optimizerAndRecompute(c: RunConfig, notes: string[]): Section[] {
  const t = c.training;
  const sections: Section[] = [];
  if (t.optimizer === 'adam') sections.push(['optimizer', [['name', 'AdamW']]]);
  else notes.push(`${t.optimizer === 'sgd' ? 'SGD' : '8-bit Adam'}: torchtitan builds Adam or AdamW`);
  if (!t.flashAttention) notes.push('unfused attention: torchtitan uses fused scaled-dot-product attention');
  const mode = t.recompute;
  const k = c.stack;
  // selective_ac_option: "op", or an integer N for every Nth layer (torchtitan activation_checkpoint.py).
  const option = k.selectivePolicy === 'layer' ? String(k.recomputeLayerFrequency) : 'op';
  sections.push([
    'activation_checkpoint',
    mode === 'selective'
      ? [
          ['mode', 'selective'],
          ['selective_ac_option', option],
        ]
      : [['mode', mode]],
  ]);
  const torchaoRecipes = ['tensorwise', 'rowwise'];
  if (t.precision === 'fp8')
    sections.push(['float8', [['recipe_name', torchaoRecipes.includes(k.fp8Recipe) ? k.fp8Recipe : 'tensorwise']]]);
  if (k.compile) sections.push(['compile', [['enable', true]]]);
  return sections;
}

export function torchtitanExport(c: RunConfig): LaunchExport {
  const notes: string[] = [];
  const sections: Section[] = [
    ...modelSection(c, notes),
    trainingSection(c, notes),
    parallelismSection(c, notes),
    ...optimizerAndRecompute(c, notes),
  ];
  const header = commentBlock(
    '#',
    [
      `torchtitan job config (TOML) for ${planTitle(c)}, from llm-train-planner.`,
      `Launch: ${torchrunPrefix(c)} -m torchtitan.train --job.config_file <this file>`,
    ],
    notes,
  );
  const body = sections.map(([name, entries]) => [`[${name}]`, ...entries.map(([k, v]) => `${k} = ${toml(v)}`)].join('\n'));
  const text = `${header.join('\n')}\n\n${body.join('\n\n')}\n`;
  return {
    target: 'torchtitan',
    label: 'torchtitan',
    fileName: 'torchtitan.toml',
    text,
    notes,
    launch: { fileName: 'torchtitan.toml', text },
  };
}

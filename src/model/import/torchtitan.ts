// A torchtitan job config (TOML; sections and keys of pytorch/torchtitan
// torchtitan/config/job_config.py) → the interchange document. The model is a named
// flavor (export/torchtitan-flavors.ts: torchtitan/models/llama3/__init__.py); with
// pipelining local_batch_size is a data-parallel rank's batch cut into micro-batches of
// pipeline_parallel_microbatch_size, without it local_batch_size is the micro-batch (older
// configs call it batch_size); data_parallel_shard_degree = -1 takes the GPUs left over.
// FSDP2 reshards after forward (ZeRO-3) unless fsdp_reshard_after_forward = "never"
// (ZeRO-2); a replicate degree alone is DDP (ZeRO 0). [training] mixed_precision_reduce is the
// gradients' dtype; [compile] components "loss" is a compiled loss; float8 / mx converters
// (either spelling) with their recipe. Each key it cannot map is a warning.

import { torchtitanFlavor, TORCHTITAN_FLAVORS } from '../export/index.ts';
import type { ScheduleKind } from '../input/index.ts';
import type { Draft } from './draft.ts';
import type { TomlTable, TomlValue } from './toml.ts';

/** Keys read, by section; anything else in these sections, and any other section, is a warning. */
const READ: Readonly<Record<string, readonly string[]>> = {
  model: ['name', 'flavor', 'converters'],
  training: [
    'local_batch_size',
    'batch_size',
    'global_batch_size',
    'seq_len',
    'steps',
    'mixed_precision_param',
    'mixed_precision_reduce',
    'enable_cpu_offload',
    'compile',
  ],
  parallelism: [
    'data_parallel_replicate_degree',
    'data_parallel_shard_degree',
    'fsdp_reshard_after_forward',
    'tensor_parallel_degree',
    'pipeline_parallel_degree',
    'pipeline_parallel_schedule',
    'pipeline_parallel_layers_per_stage',
    'pipeline_parallel_microbatch_size',
    'context_parallel_degree',
    'expert_parallel_degree',
    'expert_tensor_parallel_degree',
  ],
  optimizer: ['name'],
  activation_checkpoint: ['mode', 'selective_ac_option'],
  float8: ['recipe_name'],
  mx: ['recipe_name'],
  compile: ['enable', 'components'],
  quantize: ['linear'],
};

const SCHEDULES: Readonly<Record<string, ScheduleKind>> = {
  gpipe: 'gpipe',
  '1f1b': '1f1b',
  interleaved1f1b: 'interleaved-1f1b',
  looped1f1b: 'interleaved-1f1b',
  interleavedzerobubble: 'zero-bubble',
  zbvzerobubble: 'zero-bubble',
  dualpipev: 'dualpipe',
};

const isTable = (v: TomlValue | undefined): v is TomlTable => typeof v === 'object' && v !== null && !Array.isArray(v);

function section(root: TomlTable, name: string): TomlTable {
  const v = root[name];
  return isTable(v) ? v : (Object.create(null) as TomlTable);
}

function warnUnread(d: Draft, root: TomlTable, prefix = ''): void {
  for (const [key, value] of Object.entries(root)) {
    const path = `${prefix}${key}`;
    const read = READ[path];
    if (read && isTable(value)) {
      for (const k of Object.keys(value)) if (!read.includes(k)) d.warn(`[${path}] ${k}: not used by the planner, ignored`);
    } else if (isTable(value) && prefix === '' && Object.keys(value).length > 0 && !READ[path]) {
      d.warn(`[${path}]: not used by the planner, ignored`);
    } else if (!isTable(value)) {
      d.warn(`${path}: not used by the planner, ignored`);
    }
  }
}

function readModel(d: Draft, root: TomlTable, hasModel: boolean): void {
  const m = section(root, 'model');
  if (!isTable(root['model']) && !hasModel) {
    d.warn('[model]: missing, so torchtitan would build its default llama3 "debugmodel"; give the model\'s config.json');
    return;
  }
  const name = typeof m['name'] === 'string' ? m['name'] : 'llama3';
  const flavorName = typeof m['flavor'] === 'string' ? m['flavor'] : 'debugmodel';
  const flavor = torchtitanFlavor(name, flavorName);
  // A config.json given with the file describes the model; the flavor then only names it.
  if (flavor && !hasModel) Object.assign(d.model, flavor.model);
  else if (!flavor && !hasModel) {
    const known = TORCHTITAN_FLAVORS.map((f) => `${f.name} ${f.flavor}`).join(', ');
    d.warn(`[model] ${name} flavor ${JSON.stringify(flavorName)}: not one the planner knows (${known}); give the model's config.json`);
  }
  // Converters: "float8" / "mx" (torchtitan ≤ 0.1), "quantize.linear.float8" / "quantize.linear.mx" (later).
  const converters = m['converters'];
  const list = (Array.isArray(converters) ? converters : typeof converters === 'string' ? converters.split(',') : [])
    .filter((c): c is string => typeof c === 'string')
    .map((c) => c.trim().replace(/^quantize\.(linear|grouped_mm)\./, ''));
  if (list.includes('float8')) d.training['precision'] = 'fp8';
  else if (list.some((c) => c.startsWith('mx'))) {
    d.training['precision'] = 'fp8';
    d.training['fp8Recipe'] = 'mxfp8';
  }
}

function degree(d: Draft, p: TomlTable, key: string, min = 1): number | undefined {
  return key in p ? d.count(`[parallelism] ${key}`, p[key], min) : 1;
}

function readParallel(d: Draft, root: TomlTable, gpus: number | undefined): number | undefined {
  const p = section(root, 'parallelism');
  const out = d.parallel;
  const tp = degree(d, p, 'tensor_parallel_degree') ?? 1;
  const pp = degree(d, p, 'pipeline_parallel_degree') ?? 1;
  const cp = degree(d, p, 'context_parallel_degree') ?? 1;
  const ep = degree(d, p, 'expert_parallel_degree') ?? 1;
  const replicate = degree(d, p, 'data_parallel_replicate_degree') ?? 1;
  const shardRaw = p['data_parallel_shard_degree'] ?? -1;
  let shard = shardRaw === -1 ? undefined : d.count('[parallelism] data_parallel_shard_degree', shardRaw);
  if (shard === undefined && shardRaw === -1) {
    const rest = gpus !== undefined ? gpus / (tp * pp * cp * replicate) : Number.NaN;
    if (Number.isInteger(rest) && rest >= 1) shard = rest;
    else
      d.warn(
        '[parallelism] data_parallel_shard_degree = -1 takes the GPUs left over: set cluster.gpus (--gpus) to know the data-parallel degree',
      );
  }
  Object.assign(out, { tp, pp, cp, ep, sequenceParallel: tp > 1 });
  // Absent, torchtitan runs expert TP 1 (job_config.py default); the planner's own rule is left to the profile then.
  const etp = 'expert_tensor_parallel_degree' in p ? degree(d, p, 'expert_tensor_parallel_degree') : undefined;
  if (etp !== undefined) out['etp'] = etp;
  const dp = shard !== undefined ? shard * replicate : undefined;
  if (dp !== undefined) out['dp'] = dp;
  const reshard = p['fsdp_reshard_after_forward'];
  if (reshard !== undefined) d.choice('[parallelism] fsdp_reshard_after_forward', reshard, ['default', 'always', 'never']);
  out['zero'] = shard === 1 && replicate > 1 ? 0 : reshard === 'never' ? 2 : 3;
  const schedule = p['pipeline_parallel_schedule'];
  if (pp > 1 && typeof schedule === 'string') {
    const s = SCHEDULES[schedule.toLowerCase()];
    if (s) out['schedule'] = s;
    else d.warn(`[parallelism] pipeline_parallel_schedule ${JSON.stringify(schedule)}: not a schedule the planner simulates; 1F1B is read`);
  } else if (schedule !== undefined && typeof schedule !== 'string')
    d.error(`[parallelism] pipeline_parallel_schedule: needs a schedule name, got ${JSON.stringify(schedule)}`);
  const perStage =
    'pipeline_parallel_layers_per_stage' in p
      ? d.count('[parallelism] pipeline_parallel_layers_per_stage', p['pipeline_parallel_layers_per_stage'])
      : undefined;
  const layers = typeof d.model['layers'] === 'number' ? d.model['layers'] : undefined;
  if (perStage !== undefined && layers !== undefined && pp > 1) {
    if (layers % (perStage * pp) === 0) out['vpp'] = layers / (perStage * pp);
    else
      d.warn(
        `[parallelism] pipeline_parallel_layers_per_stage = ${perStage}: ${layers} layers do not split evenly over ${pp} ranks; virtual stages left out`,
      );
  } else if (perStage !== undefined && pp > 1) {
    d.warn(
      `[parallelism] pipeline_parallel_layers_per_stage = ${perStage}: the virtual stages need the model's layer count (give its config.json); left out`,
    );
  }
  if (out['vpp'] === undefined && out['schedule'] === 'interleaved-1f1b') out['schedule'] = '1f1b';
  return dp;
}

function readTraining(d: Draft, root: TomlTable, dp: number | undefined): void {
  const t = section(root, 'training');
  const p = section(root, 'parallelism');
  const out = d.training;
  const localKey = 'local_batch_size' in t ? 'local_batch_size' : 'batch_size';
  // job_config.py defaults: local_batch_size 8, seq_len 2048, global_batch_size -1 (local × data parallel).
  const local = d.count(`[training] ${localKey}`, t[localKey] ?? 8);
  const seq = d.count('[training] seq_len', t['seq_len'] ?? 2048);
  const pp = typeof d.parallel['pp'] === 'number' ? d.parallel['pp'] : 1;
  const micro = pp > 1 ? d.count('[parallelism] pipeline_parallel_microbatch_size', p['pipeline_parallel_microbatch_size'] ?? 1) : local;
  const globalRaw = t['global_batch_size'] ?? -1;
  const global =
    globalRaw === -1
      ? local !== undefined && dp !== undefined
        ? local * dp
        : undefined
      : d.count('[training] global_batch_size', globalRaw);
  if (seq !== undefined) out['seqLen'] = seq;
  if (micro !== undefined) out['microBatch'] = micro;
  if (global !== undefined) out['globalBatch'] = global;
  else d.warn('[training] global_batch_size: not given and the data-parallel degree is unknown; set training.globalBatch');
  const steps = 'steps' in t ? d.count('[training] steps', t['steps']) : undefined;
  if (steps !== undefined && seq !== undefined && global !== undefined) {
    const tokens = d.tokens('[training] steps', steps * seq * global);
    if (tokens !== undefined) out['tokens'] = tokens;
  }
  const param = t['mixed_precision_param'];
  if (
    param !== undefined &&
    d.choice('[training] mixed_precision_param', param, ['bfloat16', 'float32']) === 'float32' &&
    out['precision'] !== 'fp8'
  )
    out['precision'] = 'fp32';
  else if (out['precision'] === undefined) out['precision'] = 'bf16';
  if (t['enable_cpu_offload'] === true) out['offload'] = { optimizer: true, parameters: true };
  // FSDP2's MixedPrecisionPolicy reduce_dtype: the gradients' dtype (job_config.py default "float32").
  const reduce = t['mixed_precision_reduce'];
  const reduceDtype = reduce === undefined ? 'float32' : d.choice('[training] mixed_precision_reduce', reduce, ['float32', 'bfloat16']);
  out['gradDtype'] = reduceDtype === 'bfloat16' ? 'bf16' : 'fp32';
  readCompile(d, root);
}

/**
 * [compile] enable with components (job_config.py default ["model", "loss"]): "model" compiles the
 * blocks, "loss" the cross-entropy (which then never holds the logits in fp32); older configs set
 * [training] compile = true for both.
 */
function readCompile(d: Draft, root: TomlTable): void {
  const c = section(root, 'compile');
  const on = section(root, 'training')['compile'] === true || c['enable'] === true;
  if (!on) return;
  const raw = c['components'] ?? ['model', 'loss'];
  const components = Array.isArray(raw) ? raw : [];
  if (!Array.isArray(raw)) d.error(`[compile] components: needs a list such as ["model", "loss"], got ${JSON.stringify(raw)}`);
  for (const x of components) d.choice('[compile] components', x, ['model', 'loss']);
  if (components.includes('model')) d.training['compile'] = true;
  if (components.includes('loss')) d.training['loss'] = 'compiled';
}

function readRest(d: Draft, root: TomlTable): void {
  const out = d.training;
  const o = section(root, 'optimizer');
  const name = typeof o['name'] === 'string' ? o['name'] : 'AdamW';
  if (/^adamw?$/i.test(name)) out['optimizer'] = 'adam';
  else d.warn(`[optimizer] name ${JSON.stringify(name)}: the planner models Adam, 8-bit Adam and SGD; Adam is read`);
  const ac = section(root, 'activation_checkpoint');
  // job_config.py: mode "selective" by default, selective_ac_option "2" (every second layer).
  const mode = d.choice('[activation_checkpoint] mode', ac['mode'] ?? 'selective', ['none', 'selective', 'full', 'memory_budget']);
  if (mode === 'memory_budget')
    d.warn('[activation_checkpoint] mode "memory_budget": the planner has no budget-driven recomputation; selective is read');
  out['recompute'] = mode === 'memory_budget' ? 'selective' : (mode ?? 'selective');
  if (out['recompute'] === 'selective') {
    const option = String(ac['selective_ac_option'] ?? '2');
    if (option === 'op') out['selectivePolicy'] = 'op';
    else {
      const every = d.count('[activation_checkpoint] selective_ac_option', option);
      if (every !== undefined) {
        out['selectivePolicy'] = 'layer';
        out['recomputeLayerFrequency'] = every;
      }
    }
  }
  const linear = section(section(root, 'quantize'), 'linear');
  const recipe = section(root, 'float8')['recipe_name'] ?? section(linear, 'float8')['recipe_name'];
  const mxRecipe = section(root, 'mx')['recipe_name'] ?? section(linear, 'mx')['recipe_name'];
  if (mxRecipe !== undefined && out['fp8Recipe'] === 'mxfp8' && (typeof mxRecipe !== 'string' || !/^mxfp8/.test(mxRecipe))) {
    d.warn(`[mx] recipe_name ${JSON.stringify(mxRecipe)}: the planner models the MXFP8 recipes; mxfp8 is read`);
  }
  if (recipe !== undefined && out['precision'] === 'fp8' && out['fp8Recipe'] !== 'mxfp8') {
    const r = d.choice('[float8] recipe_name', recipe, ['tensorwise', 'rowwise', 'rowwise_with_gw_hp']);
    if (r) out['fp8Recipe'] = r === 'rowwise_with_gw_hp' ? 'rowwise' : r;
  }
  out['flashAttention'] = true;
  out['framework'] = 'torchtitan';
}

/** Reads a parsed torchtitan TOML; `gpus` from the caller resolves a shard degree of -1; `hasModel`: an HF config gives the model. */
export function readTorchtitan(d: Draft, root: TomlTable, gpus: number | undefined, hasModel: boolean): void {
  warnUnread(d, root);
  readModel(d, root, hasModel);
  const dp = readParallel(d, root, gpus);
  readTraining(d, root, dp);
  readRest(d, root);
  const p = d.parallel;
  if (typeof p['dp'] === 'number') {
    d.cluster['gpus'] = (p['dp'] as number) * (p['tp'] as number) * (p['pp'] as number) * (p['cp'] as number);
  }
}

// A DeepSpeed config (ds_config.json; keys of DeepSpeed's docs/_pages/config-json.md)
// → the interchange document's training and parallel fields. DeepSpeed's batch rule:
// train_batch_size = train_micro_batch_size_per_gpu × gradient_accumulation_steps ×
// data-parallel size, so any two of the three and the GPUs give the rest. The model is
// not in the file: it comes from the launch's Megatron-DeepSpeed flags or from a Hugging
// Face config.json. "auto" (filled in by Hugging Face's Trainer) is not a number here.

import { zeroStage, type Draft } from './draft.ts';

const READ = [
  'train_batch_size',
  'train_micro_batch_size_per_gpu',
  'gradient_accumulation_steps',
  'bf16',
  'fp16',
  'zero_optimization',
  'optimizer',
  'data_types',
  'activation_checkpointing',
  'tensor_parallel',
  '//',
];

type Obj = { readonly [key: string]: unknown };
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Obj, key: string): unknown => (Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined);

function enabled(o: Obj, key: string): boolean {
  const block = own(o, key);
  return isObj(block) && (own(block, 'enabled') === true || own(block, 'enabled') === 'true');
}

function readBatch(d: Draft, o: Obj, gpusPerReplica: () => number | undefined): void {
  const t = d.training;
  const read = (key: string) => (own(o, key) === undefined ? undefined : d.count(key, own(o, key)));
  const total = read('train_batch_size');
  const micro = read('train_micro_batch_size_per_gpu');
  const accumulation = read('gradient_accumulation_steps');
  if (total !== undefined) t['globalBatch'] = total;
  if (micro !== undefined) t['microBatch'] = micro;
  if (total !== undefined && micro !== undefined && accumulation !== undefined) {
    const dp = total / (micro * accumulation);
    if (Number.isInteger(dp)) d.parallel['dp'] = dp;
    else
      d.error(
        `train_batch_size: ${total} is not train_micro_batch_size_per_gpu ${micro} × gradient_accumulation_steps ${accumulation} × a whole data-parallel size`,
      );
  } else if (total === undefined && micro !== undefined && accumulation !== undefined) {
    const replicas = gpusPerReplica();
    if (replicas !== undefined) t['globalBatch'] = micro * accumulation * replicas;
  }
}

function readZero(d: Draft, o: Obj): void {
  const z = own(o, 'zero_optimization');
  if (z === undefined) {
    d.parallel['zero'] = 0;
    return;
  }
  if (!isObj(z)) {
    d.error(`zero_optimization: needs an object, got ${JSON.stringify(z)?.slice(0, 40)}`);
    return;
  }
  const stage = own(z, 'stage');
  const s = stage === undefined ? 0 : d.count('zero_optimization.stage', stage, 0, 3);
  const zero = s === undefined ? undefined : zeroStage(s);
  if (zero !== undefined) d.parallel['zero'] = zero;
  const device = (key: string) => {
    const block = own(z, key);
    const where = isObj(block) ? own(block, 'device') : undefined;
    return where === 'cpu' || where === 'nvme';
  };
  const offload = { optimizer: device('offload_optimizer'), parameters: device('offload_param') };
  if (offload.optimizer || offload.parameters) d.training['offload'] = offload;
  if (device('offload_param') && own(own(z, 'offload_param') as Obj, 'device') === 'nvme')
    d.warn('zero_optimization.offload_param.device "nvme": read as host memory');
}

function readOptimizer(d: Draft, o: Obj): void {
  const opt = own(o, 'optimizer');
  if (opt === undefined) return;
  const type = isObj(opt) ? own(opt, 'type') : undefined;
  if (typeof type !== 'string') {
    d.error('optimizer.type: needs a name such as "AdamW"');
    return;
  }
  if (/^(adamw?|fusedadam|cpuadam|deepspeedcpuadam|onebitadam|zerooneadam|onebitlamb|lamb)$/i.test(type)) d.training['optimizer'] = 'adam';
  else if (/^sgd$/i.test(type)) d.training['optimizer'] = 'sgd';
  else d.warn(`optimizer.type ${JSON.stringify(type)}: the planner models Adam, 8-bit Adam and SGD; Adam is read`);
}

/** Reads a parsed DeepSpeed config; `gpusPerReplica` gives the data-parallel size when the file does not. */
export function readDeepspeedConfig(d: Draft, o: Obj, gpusPerReplica: () => number | undefined): void {
  for (const key of Object.keys(o)) if (!READ.includes(key)) d.warn(`${key}: not used by the planner, ignored`);
  readBatch(d, o, gpusPerReplica);
  const t = d.training;
  t['precision'] = enabled(o, 'bf16') ? 'bf16' : enabled(o, 'fp16') ? 'fp16' : 'fp32';
  const types = own(o, 'data_types');
  const accum = isObj(types) ? own(types, 'grad_accum_dtype') : undefined;
  if (accum !== undefined) {
    const g = d.choice('data_types.grad_accum_dtype', accum, ['fp32', 'bf16', 'fp16']);
    if (g === 'fp32' || g === 'bf16') t['gradDtype'] = g;
  }
  readZero(d, o);
  readOptimizer(d, o);
  if (own(o, 'activation_checkpointing') !== undefined && t['recompute'] === undefined) {
    t['recompute'] = 'full';
    d.warn(
      "activation_checkpointing: configures how DeepSpeed checkpoints; which layers recompute is the model code's choice: full recomputation is read",
    );
  }
  const tpBlock = own(o, 'tensor_parallel');
  const autotp = isObj(tpBlock) ? own(tpBlock, 'autotp_size') : undefined;
  if (autotp !== undefined) {
    const tp = d.count('tensor_parallel.autotp_size', autotp);
    if (tp !== undefined && d.parallel['tp'] === undefined) d.parallel['tp'] = tp;
  }
  t['framework'] = 'deepspeed';
}

/** Whether a JSON object looks like a DeepSpeed config (one of the keys every config has). */
export function isDeepspeedConfig(o: Obj): boolean {
  return ['train_batch_size', 'train_micro_batch_size_per_gpu', 'gradient_accumulation_steps', 'zero_optimization', 'bf16', 'fp16'].some(
    (k) => own(o, k) !== undefined,
  );
}

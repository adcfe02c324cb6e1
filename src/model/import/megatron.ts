// Megatron-LM (and Megatron-DeepSpeed) flags → the interchange document. Flag names and
// defaults: NVIDIA/Megatron-LM megatron/training/arguments.py (--num-query-groups counts
// only with --group-query-attention; --ffn-hidden-size defaults to 4 × hidden, or with
// --swiglu to int(4 × hidden × 2/3 / 64) × 64, as its validate_args sets it; --moe-router-topk
// defaults to 2; --attention-backend defaults to auto, which picks flash or fused
// attention; --attention-dropout and --hidden-dropout default to 0.1); Megatron-DeepSpeed's own names from deepspeedai/Megatron-DeepSpeed
// megatron/arguments.py (--num-key-value-heads, --topk, default 1, --moe-expert-parallel-size,
// --ds-sequence-parallel-size, --zero-stage, --checkpoint-activations, --use-flash-attn-v2,
// without which it runs unfused attention). Each flag it cannot map is one warning.

import { FP8_RECIPES, parsePipelineLayout, RECOMPUTE_MODULES, switchSpec, TRAINING_SWITCH_KEYS, type LayoutChunk } from '../input/index.ts';
import { chunkLayerCounts } from '../structure/index.ts';
import type { NumberKey } from '../input/index.ts';
import type { ParsedCommand, ParsedFlag } from './args.ts';
import { zeroStage, type Draft } from './draft.ts';
import { readMegatronMoeStack } from './megatron-moe.ts';
import { readSlidingWindow } from './megatron-window.ts';

/** --a_b and --a-b are one flag (argparse keeps both spellings apart, but torchrun and DeepSpeed accept either). */
const norm = (name: string) => name.replace(/_/g, '-').toLowerCase();

/** Flags whose meaning the document holds in other fields, or that only restate a default: read, no warning. */
const IMPLIED = new Set([
  '--group-query-attention',
  '--normalization',
  '--position-embedding-type',
  '--disable-bias-linear',
  '--use-rotary-position-embeddings',
  '--max-position-embeddings',
  '--use-precision-aware-optimizer',
  '--exp-avg-sq-dtype',
  '--cpu-offloading',
  '--no-gradient-accumulation-fusion',
  '--ckpt-format',
  '--mock-data',
  '--tokenizer-type',
  '--no-pipeline-parallel',
  '--create-moe-param-group',
  '--deepspeed',
  '--deepspeed-config',
  '--deepspeed-activation-checkpointing',
  '--recompute-method',
  '--use-mcore-models',
  '--data-parallel-sharding-strategy',
  '--use-megatron-fsdp',
  '--decoder-first-pipeline-num-layers',
  '--decoder-last-pipeline-num-layers',
  '--no-position-embedding',
  // What the estimate assumes of every MoE run and the launch writes (export/moe-flags.ts): grouped expert GEMMs, balanced routing.
  '--moe-grouped-gemm',
  '--moe-router-load-balancing-type',
  '--moe-aux-loss-coeff',
]);

class Flags {
  private readonly byName = new Map<string, ParsedFlag>();
  readonly used = new Set<string>(IMPLIED);

  constructor(flags: readonly ParsedFlag[]) {
    for (const f of flags) this.byName.set(norm(f.name), f);
  }

  has(name: string): boolean {
    this.used.add(name);
    return this.byName.has(name);
  }

  /** The flag's value (its first word; the last time it is given wins, as with argparse). */
  value(name: string): string | undefined {
    this.used.add(name);
    return this.byName.get(name)?.values[0];
  }

  values(name: string): readonly string[] | undefined {
    this.used.add(name);
    return this.byName.get(name)?.values;
  }

  /** A flag given without the value it needs still counts as given: the reader then names it. */
  given(name: string): boolean {
    return this.byName.has(name);
  }

  unused(): string[] {
    return [...this.byName.keys()].filter((n) => !this.used.has(n));
  }
}

function countFlag(d: Draft, f: Flags, name: string, min = 1, max?: number): number | undefined {
  const value = f.value(name);
  return f.given(name) ? d.count(name, value, min, max) : undefined;
}

/** Writes a number field of `target` when a flag gave one (undefined: the field stays as it is). */
function numberSetter<T>(target: T): (key: NumberKey<T>, value: number | undefined) => void {
  return (key, value) => {
    if (value !== undefined) (target as Record<NumberKey<T>, number>)[key] = value;
  };
}

function readModel(d: Draft, f: Flags): void {
  const m = d.model;
  const set = numberSetter(m);
  set('layers', countFlag(d, f, '--num-layers'));
  const hidden = countFlag(d, f, '--hidden-size');
  set('hidden', hidden);
  set('heads', countFlag(d, f, '--num-attention-heads'));
  const swiglu = f.has('--swiglu');
  m['ffnType'] = swiglu ? 'swiglu' : 'gelu';
  const ffn =
    countFlag(d, f, '--ffn-hidden-size') ?? (swiglu && hidden !== undefined ? Math.floor((4 * hidden * 2) / 3 / 64) * 64 : undefined);
  set('ffnHidden', ffn);
  if (f.has('--group-query-attention')) set('kvHeads', countFlag(d, f, '--num-query-groups'));
  else f.value('--num-query-groups');
  if (f.given('--num-key-value-heads')) set('kvHeads', countFlag(d, f, '--num-key-value-heads'));
  set('headDim', countFlag(d, f, '--kv-channels'));
  m['tiedEmbeddings'] = !f.has('--untie-embeddings-and-output-weights');
  const vocab = countFlag(d, f, '--vocab-size');
  if (vocab !== undefined) m['vocab'] = vocab;
  else
    d.warn(
      `model.vocab: the file leaves the vocabulary to its ` +
        `tokenizer${f.value('--tokenizer-type') ? ` (--tokenizer-type ${f.value('--tokenizer-type')})` : ''}; set model.vocab`,
    );
  readMoe(d, f, ffn);
  readMla(d, f);
  set('mtpLayers', countFlag(d, f, '--mtp-num-layers', 0));
  readSlidingWindow(d, f);
}

function readMoe(d: Draft, f: Flags, ffn: number | undefined): void {
  const experts = f.values('--num-experts');
  if (experts && experts.length > 1)
    d.warn(`--num-experts: ${experts.length} values (Megatron-DeepSpeed's per-layer list); the first is read`);
  const count = experts ? d.count('--num-experts', experts[0], 1) : undefined;
  const topK = f.given('--moe-router-topk')
    ? countFlag(d, f, '--moe-router-topk')
    : f.given('--topk')
      ? countFlag(d, f, '--topk')
      : f.has('--deepspeed')
        ? 1
        : 2;
  f.value('--moe-router-topk');
  f.value('--topk');
  const expertFfn = countFlag(d, f, '--moe-ffn-hidden-size') ?? ffn;
  const sharedSize = countFlag(d, f, '--moe-shared-expert-intermediate-size');
  const freq = f.value('--moe-layer-freq');
  if (count === undefined || count <= 1) return;
  const moe: Record<string, unknown> = { experts: count, topK, expertFfnHidden: expertFfn };
  if (sharedSize !== undefined && expertFfn !== undefined) {
    if (sharedSize % expertFfn === 0) moe['sharedExperts'] = sharedSize / expertFfn;
    else
      d.warn(
        `--moe-shared-expert-intermediate-size: ${sharedSize} is not a whole number of experts of ${expertFfn}; shared experts left out`,
      );
  }
  if (freq !== undefined) {
    // "([0]*3+[1]*58)": three dense layers, then MoE (the export writes it so); 1: every layer MoE.
    const dense = /^\(?\[0\]\*(\d+)\+\[1\]\*\d+\)?$/.exec(freq.replace(/\s/g, ''));
    if (dense) moe['denseLayers'] = Number(dense[1]);
    else if (freq.trim() !== '1') d.warn(`--moe-layer-freq: ${freq} is not "([0]*N+[1]*M)"; every layer is read as MoE`);
  }
  d.model['moe'] = moe;
}

function readMla(d: Draft, f: Flags): void {
  const flags = [
    ['qLoraRank', '--q-lora-rank', 0],
    ['kvLoraRank', '--kv-lora-rank', 1],
    ['qkNopeHeadDim', '--qk-head-dim', 1],
    ['qkRopeHeadDim', '--qk-pos-emb-head-dim', 1],
    ['vHeadDim', '--v-head-dim', 1],
  ] as const;
  const mla: Record<string, unknown> = {};
  for (const [key, flag, min] of flags) {
    const v = countFlag(d, f, flag, min);
    if (v !== undefined) mla[key] = v;
  }
  if (f.has('--multi-latent-attention')) d.model['mla'] = mla;
}

/** Samples or steps a run may ask for: past any real run (Llama 3: 1.5e13 tokens / 8192 = 1.8e9 samples). */
const MAX_STEPS = 1e13;

function readTokens(d: Draft, f: Flags): void {
  const t = d.training;
  const seq = typeof t['seqLen'] === 'number' ? t['seqLen'] : undefined;
  const batch = typeof t['globalBatch'] === 'number' ? t['globalBatch'] : undefined;
  const samples = countFlag(d, f, '--train-samples', 1, MAX_STEPS);
  const iters = countFlag(d, f, '--train-iters', 1, MAX_STEPS);
  const tokens = countFlag(d, f, '--train-tokens', 1, 1e16);
  let budget: number | undefined;
  if (tokens !== undefined) budget = d.tokens('--train-tokens', tokens);
  else if (samples !== undefined && seq !== undefined) budget = d.tokens('--train-samples', samples * seq);
  else if (iters !== undefined && seq !== undefined && batch !== undefined) budget = d.tokens('--train-iters', iters * seq * batch);
  if (budget !== undefined) t['tokens'] = budget;
}

function readPrecision(d: Draft, f: Flags): void {
  const t = d.training;
  // Every spelling is looked at (has() marks it read), then the widest format wins.
  const [bf16, fp16, fp8Hybrid, fp8E4m3] = [f.has('--bf16'), f.has('--fp16'), f.has('--fp8-hybrid'), f.has('--fp8-e4m3')];
  const fp8 = f.given('--fp8-format') || fp8Hybrid || fp8E4m3;
  if (f.given('--fp8-format')) d.choice('--fp8-format', f.value('--fp8-format'), ['hybrid', 'e4m3']);
  const fp4 = f.given('--fp4-format');
  f.value('--fp4-format');
  t['precision'] = fp4 ? 'fp4' : fp8 ? 'fp8' : bf16 ? 'bf16' : fp16 ? 'fp16' : 'fp32';
  if (f.has('--grad-reduce-in-bf16')) t['gradDtype'] = 'bf16';
  // Megatron-LM gathers 16-bit weights unless told (arguments.py --fp8-param-gather / --fp4-param-gather, store_true):
  // stated either way, so the profile's per-recipe default (Megatron-Bridge's recipes) does not stand in for the flag.
  const gather = [f.has('--fp8-param-gather'), f.has('--fp4-param-gather')].some(Boolean);
  if (fp8 || fp4) t['fp8ParamGather'] = gather;
  const recipe = f.value('--fp8-recipe');
  if (recipe !== undefined) {
    const r = d.choice('--fp8-recipe', recipe, FP8_RECIPES);
    if (r) t['fp8Recipe'] = r;
  }
  if (f.given('--exp-avg-dtype')) {
    const dtype = d.choice('--exp-avg-dtype', f.value('--exp-avg-dtype'), ['fp32', 'bf16', 'fp16', 'fp8']);
    if (dtype === 'fp32' || dtype === 'bf16') t['optimizerStateDtype'] = dtype;
    else if (dtype) d.warn(`--exp-avg-dtype ${dtype}: the planner keeps Adam moments in fp32 or bf16; fp32 is read`);
  }
}

function readOptimizer(d: Draft, f: Flags): void {
  const t = d.training;
  const name = f.value('--optimizer');
  if (name !== undefined) {
    const o = d.choice('--optimizer', name, ['adam', 'adamw', 'sgd']);
    if (o) t['optimizer'] = o === 'sgd' ? 'sgd' : 'adam';
  }
  if ([f.has('--optimizer-cpu-offload'), f.has('--cpu-optimizer')].some(Boolean)) t['offload'] = { optimizer: true, parameters: false };
  if (f.has('--cross-entropy-loss-fusion')) t['loss'] = 'fused';
  const offloadLayers = countFlag(d, f, '--cpu-offloading-num-layers', 0);
  if (offloadLayers !== undefined) t['activationOffloadLayers'] = offloadLayers;
  const overlap: Record<string, boolean> = {};
  if (f.has('--tp-comm-overlap')) overlap['tpComm'] = true;
  if (f.has('--overlap-grad-reduce')) overlap['dpGrad'] = true;
  if (f.has('--overlap-param-gather')) overlap['dpParam'] = true;
  if (Object.keys(overlap).length > 0) t['overlap'] = overlap;
}

/** Megatron's default for --attention-dropout and --hidden-dropout (arguments.py). */
const MEGATRON_DEFAULT_DROPOUT = 0.1;

/** Each on/off training field with a Megatron-LM flag (model/input/switches.ts): the flag given turns it on. */
function readSwitches(d: Draft, f: Flags): void {
  for (const key of TRAINING_SWITCH_KEYS) {
    const flag = switchSpec(key).megatronFlag;
    if (flag !== undefined && f.has(flag)) d.training[key] = true;
  }
}

/** --attention-dropout / --hidden-dropout → training.dropout: masks are kept for backward when either rate is above 0. */
function readDropout(d: Draft, f: Flags): void {
  const names = ['--attention-dropout', '--hidden-dropout'];
  if (!names.some((n) => f.given(n))) return;
  const rates = names.map((n) => {
    if (!f.given(n)) return MEGATRON_DEFAULT_DROPOUT;
    const text = f.value(n);
    const rate = Number(text);
    if (text === undefined || text.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate >= 1) {
      d.error(`${n}: needs a rate from 0 to below 1, got ${JSON.stringify(text ?? null)}`);
      return 0;
    }
    return rate;
  });
  d.training['dropout'] = rates.some((r) => r > 0);
}

function readRecompute(d: Draft, f: Flags, deepspeed: boolean): void {
  const t = d.training;
  const granularity = f.value('--recompute-granularity');
  const [oldFull, oldSelective] = [f.has('--checkpoint-activations'), f.has('--recompute-activations')];
  if (granularity !== undefined) {
    const g = d.choice('--recompute-granularity', granularity, ['full', 'selective']);
    if (g) t['recompute'] = g;
  } else if (oldFull) t['recompute'] = 'full';
  else if (oldSelective) t['recompute'] = 'selective';
  else t['recompute'] = 'none';
  const method = f.value('--recompute-method');
  const layers = countFlag(d, f, '--recompute-num-layers');
  if (t['recompute'] === 'full' && method === 'block' && layers !== undefined) t['recomputeLayers'] = layers;
  const modules = f.values('--recompute-modules');
  if (modules && t['recompute'] === 'selective') {
    const known = modules.map((m) => d.choice('--recompute-modules', m, RECOMPUTE_MODULES)).filter((m) => m !== undefined);
    t['recomputeModules'] = known;
    t['selectivePolicy'] = 'modules';
  }
  const backend = f.value('--attention-backend');
  if (backend !== undefined) {
    const b = d.choice('--attention-backend', backend, ['flash', 'fused', 'unfused', 'local', 'auto']);
    if (b) t['flashAttention'] = b === 'flash' || b === 'fused' || b === 'auto';
  } else {
    const flash = ['--use-flash-attn', '--use-flash-attn-v1', '--use-flash-attn-v2', '--use-flash-attn-triton']
      .map((n) => f.has(n))
      .some(Boolean);
    t['flashAttention'] = deepspeed ? flash : true;
  }
}

/**
 * The layout is the engine's own even split (structure/params.ts chunkLayerCounts; E on the first chunk, MTP and L on
 * the last), as the planner's launch files write it: the document need not state it, and a later PP or VPP keeps working.
 */
function isEvenSplit(chunks: readonly LayoutChunk[], layers: number, mtpLayers: number): boolean {
  const counts = chunkLayerCounts(layers, chunks.length);
  const last = chunks.length - 1;
  return chunks.every(
    (c, g) =>
      c.decoderLayers === counts[g] && c.embedding === (g === 0) && c.loss === (g === last) && c.mtpLayers === (g === last ? mtpLayers : 0),
  );
}

function readParallel(d: Draft, f: Flags, deepspeed: boolean): void {
  const p = d.parallel;
  const set = numberSetter(p);
  set('tp', countFlag(d, f, '--tensor-model-parallel-size'));
  const pp = countFlag(d, f, '--pipeline-model-parallel-size');
  set('pp', pp);
  set('cp', countFlag(d, f, '--context-parallel-size') ?? countFlag(d, f, '--ds-sequence-parallel-size'));
  set('ep', countFlag(d, f, '--expert-model-parallel-size') ?? countFlag(d, f, '--moe-expert-parallel-size'));
  p['sequenceParallel'] = f.has('--sequence-parallel');
  const layers = typeof d.model['layers'] === 'number' ? d.model['layers'] : undefined;
  const stages = pp ?? 1;
  const perChunk = countFlag(d, f, '--num-layers-per-virtual-pipeline-stage');
  const perRank = countFlag(d, f, '--num-virtual-stages-per-pipeline-rank');
  const layout = f.value('--pipeline-model-parallel-layout');
  let vpp = perRank;
  if (perChunk !== undefined && layers !== undefined) {
    if (layers % (stages * perChunk) === 0) vpp = layers / (stages * perChunk);
    else d.error(`--num-layers-per-virtual-pipeline-stage: ${perChunk} × ${stages} stages does not divide ${layers} layers`);
  }
  if (layout !== undefined) {
    // Megatron-LM sets vpp = chunks ÷ pp (megatron/training/arguments.py); the text goes into the document as written.
    const parsed = parsePipelineLayout(layout);
    const chunks = parsed.ok ? parsed.chunks.length : 0;
    if (!parsed.ok) d.error(`--pipeline-model-parallel-layout: ${parsed.reason}`);
    else if (chunks % stages === 0) vpp = chunks / stages;
    else d.error(`--pipeline-model-parallel-layout: ${chunks} chunks do not split over ${stages} pipeline stages`);
    const mtp = typeof d.model['mtpLayers'] === 'number' ? d.model['mtpLayers'] : 0;
    if (parsed.ok && layers !== undefined && !isEvenSplit(parsed.chunks, layers, mtp)) p['pipelineLayout'] = layout.trim();
  }
  if (vpp !== undefined) p['vpp'] = vpp;
  p['schedule'] = f.has('--enable-zbh1-pipeline') ? 'zero-bubble' : (vpp ?? 1) > 1 ? 'interleaved-1f1b' : '1f1b';
  const strategy = f.value('--data-parallel-sharding-strategy');
  const distributedOptimizer = f.has('--use-distributed-optimizer');
  if (f.has('--use-megatron-fsdp')) {
    const s = d.choice('--data-parallel-sharding-strategy', strategy ?? 'optim_grads_params', [
      'no_shard',
      'optim',
      'optim_grads',
      'optim_grads_params',
    ]);
    p['zero'] = s === 'no_shard' ? 0 : s === 'optim' ? 1 : s === 'optim_grads' ? 2 : 3;
  } else if (deepspeed && f.given('--zero-stage')) {
    const stage = d.count('--zero-stage', f.value('--zero-stage'), 0, 3);
    const zero = stage === undefined ? undefined : zeroStage(stage);
    if (zero !== undefined) p['zero'] = zero;
  } else {
    f.value('--zero-stage');
    p['zero'] = distributedOptimizer ? 1 : 0;
  }
}

/** torchrun's --nnodes × --nproc-per-node, or deepspeed's --num_nodes × --num_gpus: the world size. */
function readLauncher(d: Draft, launcher: readonly ParsedFlag[]): void {
  const l = new Flags(launcher);
  const nodesFlag = l.given('--nnodes') ? '--nnodes' : l.given('--num-nodes') ? '--num-nodes' : null;
  const perNodeFlag = l.given('--nproc-per-node') ? '--nproc-per-node' : l.given('--num-gpus') ? '--num-gpus' : null;
  const nodes = nodesFlag ? d.count(nodesFlag, l.value(nodesFlag)) : 1;
  const perNode = perNodeFlag ? d.count(perNodeFlag, l.value(perNodeFlag)) : undefined;
  if (perNode === undefined || nodes === undefined) {
    if (!perNodeFlag) d.warn('cluster.gpus: the file has no torchrun or deepspeed line with the GPUs per node; set cluster.gpus');
    return;
  }
  d.cluster['gpusPerNode'] = perNode;
  d.cluster['gpus'] = nodes * perNode;
}

/** Reads one launch command into the draft; `deepspeed` when it runs Megatron-DeepSpeed. */
export function readMegatron(d: Draft, command: ParsedCommand): void {
  const f = new Flags(command.flags);
  const deepspeed = f.has('--deepspeed') || f.given('--deepspeed-config');
  readLauncher(d, command.launcher);
  readModel(d, f);
  const t = d.training;
  const seq = countFlag(d, f, '--seq-length');
  if (seq !== undefined) t['seqLen'] = seq;
  const batch = countFlag(d, f, '--global-batch-size');
  if (batch !== undefined) t['globalBatch'] = batch;
  const micro = countFlag(d, f, '--micro-batch-size');
  if (micro !== undefined) t['microBatch'] = micro;
  readTokens(d, f);
  readPrecision(d, f);
  readOptimizer(d, f);
  readRecompute(d, f, deepspeed);
  readDropout(d, f);
  readSwitches(d, f);
  readParallel(d, f, deepspeed);
  readMegatronMoeStack(d, f);
  t['framework'] = deepspeed ? 'deepspeed' : 'megatron';
  for (const name of f.unused()) d.warn(`${name}: not used by the planner, ignored`);
}

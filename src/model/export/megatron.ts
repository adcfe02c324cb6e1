// The plan as Megatron-LM command-line flags (megatron/training/arguments.py;
// examples/llama/train_llama3_8b_h100_fp8.sh and examples/mixtral/
// train_mixtral_8x7b_distributed.sh use the same names). One flag per line, ending
// in a backslash, so the block pastes into a launch script. docs/launch-args.md
// holds the mapping table.

import {
  chunkLayers,
  commandLines,
  commentBlock,
  evenChunkLayers,
  planTitle,
  SCHEDULE_NAMES,
  torchrunFlags,
  trainSamples,
  type Flag,
  type LaunchExport,
} from './common.ts';
import { dispatcherFlags, megatronMoeStackFlags } from './moe-flags.ts';
import { slidingWindowFlags } from './window-flags.ts';
import { expertTensorParallel } from '../structure/index.ts';
import { switchSpec, TRAINING_SWITCH_KEYS, writePipelineLayout, type RunConfig } from '../input/index.ts';

function pipelineFlags(c: RunConfig, notes: string[]): Flag[] {
  const p = c.parallel;
  const flags: Flag[] = [
    ['--tensor-model-parallel-size', p.tp],
    ['--pipeline-model-parallel-size', p.pp],
  ];
  const even = evenChunkLayers(c);
  if (p.pipelineLayout != null) {
    // The document's own layout, as written (input/pipeline-layout.ts checked it against Megatron-Core's rules).
    flags.push(['--pipeline-model-parallel-layout', `"${p.pipelineLayout}"`]);
  } else if (p.vpp > 1) {
    flags.push(even !== null ? ['--num-layers-per-virtual-pipeline-stage', even] : pipelineLayoutFlag(c));
  } else if (even === null && p.schedule !== 'dualpipe') {
    flags.push(...unevenPipelineFlags(c));
  }
  if (p.schedule === 'gpipe' || p.schedule === 'zero-bubble' || p.schedule === 'dualpipe') {
    notes.push(`the ${SCHEDULE_NAMES[p.schedule]} schedule: Megatron-LM runs 1F1B (interleaved with virtual stages)`);
  }
  return flags;
}

/** First and last stages lighter than the rest (params.ts chunkLayerCounts): Megatron-LM's first/last-stage layer counts. */
function unevenPipelineFlags(c: RunConfig): Flag[] {
  const counts = chunkLayers(c);
  const first = counts[0] ?? 0;
  const last = counts[counts.length - 1] ?? 0;
  const middle = counts.slice(1, -1);
  const middleEven = middle.every((n) => n === middle[0]);
  if (!middleEven || first === 0 || last === 0) return [pipelineLayoutFlag(c)];
  return [
    ['--decoder-first-pipeline-num-layers', first],
    ['--decoder-last-pipeline-num-layers', last],
  ];
}

/**
 * An uneven split written out chunk by chunk, in pipeline order (chunk v·pp + r is rank r's
 * v-th virtual stage): Megatron-Core's --pipeline-model-parallel-layout (docs "Custom
 * Pipeline Model Parallel Layout": E the embedding, t a decoder layer, m an MTP module,
 * L the loss, | between chunks, x*n for n of x; e.g. "Et*3|(tt|)*29,m|L").
 */
function pipelineLayoutFlag(c: RunConfig): Flag {
  return ['--pipeline-model-parallel-layout', `"${writePipelineLayout(chunkLayers(c), c.model.mtpLayers)}"`];
}

function layoutFlags(c: RunConfig): Flag[] {
  const { parallel: p, model: m } = c;
  const flags: Flag[] = [];
  if (p.cp > 1) flags.push(['--context-parallel-size', p.cp]);
  if (m.moe) flags.push(['--expert-model-parallel-size', p.ep], ['--expert-tensor-parallel-size', expertTensorParallel(p)]);
  if (p.sequenceParallel && p.tp > 1) flags.push(['--sequence-parallel']);
  return flags;
}

/** ZeRO stage → the distributed optimizer (stage 1) or Megatron-FSDP's sharding strategy (stages 2 and 3). */
function dataParallelFlags(c: RunConfig): Flag[] {
  const zero = c.parallel.zero;
  if (zero === 0) return [];
  if (zero === 1) return [['--use-distributed-optimizer']];
  return [
    ['--use-megatron-fsdp'],
    ['--data-parallel-sharding-strategy', zero === 2 ? 'optim_grads' : 'optim_grads_params'],
    ['--use-distributed-optimizer'],
    ['--no-gradient-accumulation-fusion'],
    ['--ckpt-format', 'fsdp_dtensor'],
  ];
}

/**
 * The data-parallel overlap the estimate assumed (stack.overlap, time/stack-time.ts), as
 * Megatron-LM flags (megatron/training/arguments.py, core_v0.15.0): --overlap-grad-reduce
 * (default off) when dpGrad; --overlap-param-gather (default off) when dpParam and the
 * parameters are gathered at all, which is under the distributed optimizer or Megatron-FSDP
 * (ZeRO 1 or more here). validate_args: "--overlap-param-gather only supported with
 * distributed optimizer or megatron fsdp" and "Must use --overlap-param-gather with
 * --overlap-grad-reduce", so without dpGrad it is left out and said so.
 */
function overlapFlags(c: RunConfig, notes: string[]): Flag[] {
  const { dpGrad, dpParam } = c.stack.overlap;
  const flags: Flag[] = [];
  if (dpGrad) flags.push(['--overlap-grad-reduce']);
  if (dpParam && c.parallel.zero >= 1) {
    if (dpGrad) flags.push(['--overlap-param-gather']);
    else
      notes.push(
        'parameter all-gather overlap without gradient-reduce overlap: Megatron-LM ' +
          'overlaps the all-gather only together with the reduce ("Must use ' +
          '--overlap-param-gather with --overlap-grad-reduce"), so the file leaves both out',
      );
  }
  return flags;
}

function batchFlags(c: RunConfig): Flag[] {
  const t = c.training;
  return [
    ['--micro-batch-size', t.microBatch],
    ['--global-batch-size', t.globalBatch],
    ['--seq-length', t.seqLen],
    ['--max-position-embeddings', t.seqLen],
    ['--train-samples', trainSamples(c)],
  ];
}

/**
 * Llama-style blocks (every SwiGLU or MLA model the planner knows: Llama, Mistral, Mixtral,
 * Qwen, DeepSeek) normalise with RMSNorm, rotate positions (RoPE) and have no linear biases;
 * Megatron-LM's defaults are GPT-2's (LayerNorm, learned absolute positions, biases), so a
 * GELU model needs none of these flags. Names and choices: megatron/training/arguments.py
 * (--normalization LayerNorm|RMSNorm, --position-embedding-type learned_absolute|rope|…,
 * --disable-bias-linear), as examples/llama/train_llama3_8b_h100_fp8.sh uses them.
 */
export function isLlamaStyle(m: RunConfig['model']): boolean {
  return m.ffnType === 'swiglu' || m.mla !== null;
}

/**
 * Mock data and the NullTokenizer with the plan's vocabulary, so the command runs as it is
 * (examples/llama/train_llama3_8b_h100_fp8.sh's "MOCK" branch: --mock-data --tokenizer-type
 * NullTokenizer --vocab-size 128256).
 */
function dataFlags(c: RunConfig): Flag[] {
  return [['--mock-data'], ['--tokenizer-type', 'NullTokenizer'], ['--vocab-size', c.model.vocab]];
}

/** The model's shape flags, named alike by Megatron-LM and its fork Megatron-DeepSpeed (megatron-deepspeed.ts). */
export function megatronShapeFlags(m: RunConfig['model']): Flag[] {
  return [
    ['--num-layers', m.layers],
    ['--hidden-size', m.hidden],
    ['--ffn-hidden-size', m.ffnHidden],
    ['--num-attention-heads', m.heads],
  ];
}

function modelFlags(c: RunConfig): Flag[] {
  const m = c.model;
  const flags = megatronShapeFlags(m);
  if (!m.mla && m.kvHeads < m.heads) flags.push(['--group-query-attention'], ['--num-query-groups', m.kvHeads]);
  if (!m.mla && m.headDim * m.heads !== m.hidden) flags.push(['--kv-channels', m.headDim]);
  if (isLlamaStyle(m)) flags.push(['--normalization', 'RMSNorm'], ['--position-embedding-type', 'rope'], ['--disable-bias-linear']);
  if (m.ffnType === 'swiglu') flags.push(['--swiglu']);
  if (!m.tiedEmbeddings) flags.push(['--untie-embeddings-and-output-weights']);
  if (m.moe) {
    const { experts, topK, expertFfnHidden, sharedExperts, denseLayers } = m.moe;
    flags.push(['--num-experts', experts], ['--moe-router-topk', topK], ['--moe-ffn-hidden-size', expertFfnHidden]);
    if (sharedExperts > 0) flags.push(['--moe-shared-expert-intermediate-size', sharedExperts * expertFfnHidden]);
    if (denseLayers > 0) flags.push(['--moe-layer-freq', `"([0]*${denseLayers}+[1]*${m.layers - denseLayers})"`]);
    flags.push(...dispatcherFlags(c.stack.moeDispatcher));
  }
  if (m.mla) {
    flags.push(['--multi-latent-attention']);
    if (m.mla.qLoraRank > 0) flags.push(['--q-lora-rank', m.mla.qLoraRank]);
    flags.push(
      ['--kv-lora-rank', m.mla.kvLoraRank],
      ['--qk-head-dim', m.mla.qkNopeHeadDim],
      ['--qk-pos-emb-head-dim', m.mla.qkRopeHeadDim],
      ['--v-head-dim', m.mla.vHeadDim],
    );
  }
  if (m.mtpLayers > 0) flags.push(['--mtp-num-layers', m.mtpLayers]);
  flags.push(...slidingWindowFlags(m));
  return flags;
}

function precisionFlags(c: RunConfig, notes: string[]): Flag[] {
  const t = c.training;
  const flags: Flag[] = [];
  if (t.precision === 'fp16') flags.push(['--fp16']);
  if (t.precision === 'bf16' || t.precision === 'fp8' || t.precision === 'fp4') flags.push(['--bf16']);
  if (t.precision === 'fp8') flags.push(['--fp8-format', 'hybrid']);
  if (t.precision === 'fp4') flags.push(['--fp4-format', 'e2m1']);
  if (t.gradDtype === 'bf16' && t.precision !== 'fp32') flags.push(['--grad-reduce-in-bf16']);
  if (!t.masterWeights && t.precision !== 'fp32')
    notes.push(
      "no fp32 master weights: Megatron-LM keeps them with --bf16/--fp16 (the precision-aware optimizer's --main-params-dtype is the nearest control)",
    );
  return flags;
}

function optimizerFlags(c: RunConfig, notes: string[]): Flag[] {
  const t = c.training;
  const flags: Flag[] = [];
  if (t.optimizer === 'adam8bit') notes.push('8-bit Adam: Megatron-LM has no 8-bit optimizer states (its --optimizer takes adam or sgd)');
  else flags.push(['--optimizer', t.optimizer]);
  if (t.offload.optimizer) {
    flags.push(['--optimizer-cpu-offload'], ['--use-precision-aware-optimizer']);
    if (t.offload.optimizerFraction !== undefined) flags.push(['--optimizer-offload-fraction', t.offload.optimizerFraction]);
    if (c.parallel.zero === 0) notes.push('optimizer offload needs the distributed optimizer (ZeRO 1 or more) in Megatron-LM');
  }
  if (t.offload.parameters) notes.push('parameter offload to CPU: Megatron-LM has none');
  return flags;
}

function recomputeFlags(c: RunConfig): Flag[] {
  const r = c.training.recompute;
  const k = c.stack;
  // The module list only when the document chose Megatron's module policy (the generic profile keeps its own scope).
  if (r === 'selective' && k.selectivePolicy === 'modules')
    return [
      ['--recompute-granularity', 'selective'],
      ['--recompute-modules', k.recomputeModules.join(' ')],
    ];
  if (r === 'selective') return [['--recompute-granularity', 'selective']];
  // recomputeLayers: the first N layers of each stage (--recompute-method block).
  if (r === 'full' && k.recomputeLayers !== null)
    return [
      ['--recompute-granularity', 'full'],
      ['--recompute-method', 'block'],
      ['--recompute-num-layers', k.recomputeLayers],
    ];
  if (r === 'full')
    return [
      ['--recompute-granularity', 'full'],
      ['--recompute-method', 'uniform'],
      ['--recompute-num-layers', 1],
    ];
  return [];
}

/**
 * training.fp8ParamGather: the weights kept and gathered in fp8 / fp4 (megatron/training/arguments.py --fp8-param-gather,
 * --fp4-param-gather), which Megatron-LM runs only with the distributed optimizer or Megatron-FSDP ("--fp8-param-gather
 * only supported with distributed optimizer, torch fsdp2, megatron fsdp", core_v0.15.0).
 */
function paramGatherFlags(c: RunConfig, notes: string[]): Flag[] {
  const p = c.training.precision;
  if (!c.stack.fp8ParamGather || (p !== 'fp8' && p !== 'fp4')) return [];
  if (c.parallel.zero === 0) {
    notes.push(
      `${p} parameter gather needs the distributed optimizer (ZeRO 1 or more) in Megatron-LM: not written, the weights stay 16-bit`,
    );
    return [];
  }
  return [[p === 'fp8' ? '--fp8-param-gather' : '--fp4-param-gather']];
}

/** The stack fields Megatron-LM has flags for (megatron/training/arguments.py), written only where they differ from its defaults. */
function stackFlags(c: RunConfig, notes: string[]): Flag[] {
  const k = c.stack;
  const flags: Flag[] = [];
  if (k.loss === 'fused') flags.push(['--cross-entropy-loss-fusion']);
  if (k.optimizerStateDtype === 'bf16')
    flags.push(['--use-precision-aware-optimizer'], ['--exp-avg-dtype', 'bf16'], ['--exp-avg-sq-dtype', 'bf16']);
  if (k.activationOffloadLayers > 0) flags.push(['--cpu-offloading'], ['--cpu-offloading-num-layers', k.activationOffloadLayers]);
  const megatronRecipes = ['delayed', 'tensorwise', 'blockwise', 'mxfp8'];
  if (c.training.precision === 'fp8' && megatronRecipes.includes(k.fp8Recipe)) flags.push(['--fp8-recipe', k.fp8Recipe]);
  flags.push(...paramGatherFlags(c, notes));
  if (k.overlap.tpComm && c.parallel.tp > 1) flags.push(['--tp-comm-overlap']);
  flags.push(...megatronMoeStackFlags(c, notes));
  return flags;
}

/** The flag of each on/off training field that is on and has one (its entry in model/input/switches.ts names it). */
function switchFlags(c: RunConfig): Flag[] {
  return TRAINING_SWITCH_KEYS.flatMap((key): Flag[] => {
    const flag = switchSpec(key).megatronFlag;
    return flag !== undefined && c.training[key] ? [[flag]] : [];
  });
}

/** Every Megatron-LM flag of the plan, in the order the export writes them (Megatron-DeepSpeed reuses the model's). */
export function megatronFlags(c: RunConfig, notes: string[]): Flag[] {
  return [
    ...pipelineFlags(c, notes),
    ...layoutFlags(c),
    ...dataParallelFlags(c),
    ...overlapFlags(c, notes),
    ...batchFlags(c),
    ...modelFlags(c),
    ...precisionFlags(c, notes),
    ...optimizerFlags(c, notes),
    ...recomputeFlags(c),
    ...stackFlags(c, notes),
    ['--attention-backend', c.training.flashAttention ? 'flash' : 'unfused'],
    ...switchFlags(c),
    ...dataFlags(c),
  ];
}

export { modelFlags as megatronModelFlags };

export function megatronExport(c: RunConfig): LaunchExport {
  const notes: string[] = [];
  const launcher = torchrunFlags(c, notes);
  const flags = megatronFlags(c, notes);
  notes.push(
    'data and tokenizer: the command trains on mock data with the NullTokenizer; ' +
      'for real data replace --mock-data with --data-path and the tokenizer ' +
      'flags with --tokenizer-type HuggingFaceTokenizer --tokenizer-model <yours>',
  );
  const p = c.parallel;
  const header = commentBlock(
    '#',
    [
      `Megatron-LM launch for ${planTitle(c)}, from llm-train-planner.`,
      'Run it on every node from a Megatron-LM checkout (NODE_RANK 0, 1, …; MASTER_ADDR the first node); add your learning-rate and checkpoint flags.',
      `Data parallel ${p.dp} = ${c.cluster.gpus} GPUs / (TP ${p.tp} × PP ${p.pp} × CP ${p.cp}): Megatron-LM derives it from the world size.`,
    ],
    notes,
  );
  const command = ['torchrun', ...launcher.map(([n, v]) => (v === undefined ? n : `${n} ${v}`)), 'pretrain_gpt.py'].join(' ');
  const text = [...header, ...commandLines(command, flags)].join('\n') + '\n';
  const fileName = 'megatron-launch.sh';
  return { target: 'megatron', label: 'Megatron-LM', fileName, text, notes, launch: { fileName, text } };
}

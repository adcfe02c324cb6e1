// Which published runs a run is like (issue 35): the segments the validation errors are
// split by, narrowest first, and their names in words. One rule for the table's fit
// (validation/uncertainty-fit.ts) and for every estimate (ranges.ts).

import type { ADAPTER_METHODS, Framework, GpuArchitecture, RunConfig } from '../input/index.ts';

type AdapterMethod = (typeof ADAPTER_METHODS)[number];

/**
 * Experts whose FFN is at most this wide are "fine-grained" (DeepSeek-V3: 2,048; Qwen3-30B-A3B:
 * 768): many small expert GEMMs and a heavy dispatch, where the engine's errors are largest
 * (`npm run validate -- --summary`). Coarse experts (Mixtral: 14,336) behave like dense FFNs.
 */
export const FINE_GRAINED_EXPERT_FFN = 2048;

/** 'moe': experts wider than FINE_GRAINED_EXPERT_FFN; 'fine-grained-moe': at most that wide. */
export type RunKind = 'dense' | 'moe' | 'fine-grained-moe';
/** 'full' is a fine-tune of every weight (finetune-runs.json); a document without an adapter is read as pretraining. */
export type FineTuneMethod = AdapterMethod | 'full';

export interface RunTraits {
  readonly kind: RunKind;
  /** null for pretraining. */
  readonly fineTune: FineTuneMethod | null;
  readonly generation: GpuArchitecture;
  readonly framework: Framework;
}

export function runKind(config: RunConfig): RunKind {
  const moe = config.model.moe;
  if (!moe || moe.experts <= 1) return 'dense';
  return moe.expertFfnHidden <= FINE_GRAINED_EXPERT_FFN ? 'fine-grained-moe' : 'moe';
}

export function runTraits(config: RunConfig, fullFineTune = false): RunTraits {
  const adapter = config.training.adapter?.method ?? null;
  return {
    kind: runKind(config),
    fineTune: adapter ?? (fullFineTune ? 'full' : null),
    generation: config.cluster.gpu.architecture,
    framework: config.stack.framework,
  };
}

const KIND_WORDS: Readonly<Record<string, string>> = {
  dense: 'dense',
  moe: 'MoE',
  'fine-grained-moe': 'fine-grained MoE',
  'moe-any': 'MoE of any expert size',
  lora: 'LoRA fine-tuning',
  qlora: 'QLoRA fine-tuning',
  full: 'full fine-tuning',
  'finetune-any': 'fine-tuning',
};
const GENERATION_WORDS: Readonly<Record<GpuArchitecture, string>> = {
  volta: 'Volta',
  ampere: 'Ampere',
  ada: 'Ada',
  hopper: 'Hopper',
  blackwell: 'Blackwell',
  cdna3: 'MI300 (CDNA 3)',
  other: 'custom GPUs',
};
const FRAMEWORK_WORDS: Readonly<Record<Framework, string>> = {
  generic: 'the generic framework profile',
  megatron: 'Megatron',
  torchtitan: 'torchtitan',
  deepspeed: 'DeepSpeed',
  fsdp: 'PyTorch FSDP',
};

/** A segment id: "pretrain|kind|generation|framework" or "finetune|method|generation|framework", '*' for "all"; "all" alone for every run. */
export type SegmentId = string;
export const ALL_RUNS: SegmentId = 'all';

/** The segments a run belongs to, narrowest first, ending with every published run. */
export function segmentChain(t: RunTraits): SegmentId[] {
  const g = t.generation;
  const f = t.framework;
  if (t.fineTune) {
    const m = t.fineTune;
    return [`finetune|${m}|${g}|${f}`, `finetune|${m}|${g}|*`, `finetune|${m}|*|*`, 'finetune|finetune-any|*|*', ALL_RUNS];
  }
  const k = t.kind;
  const chain = [`pretrain|${k}|${g}|${f}`, `pretrain|${k}|${g}|*`, `pretrain|${k}|*|*`];
  if (k !== 'dense') chain.push('pretrain|moe-any|*|*');
  chain.push('pretrain|*|*|*', ALL_RUNS);
  return chain;
}

/**
 * The segment whose published runs say how far the run lies from what was measured
 * (largest GPU count, most experts, which GPUs and precisions): every MoE run for a MoE
 * run, every dense pretraining run for a dense one, the method's runs for a fine-tune.
 */
export function scaleSegment(t: RunTraits): SegmentId {
  if (t.fineTune) return `finetune|${t.fineTune}|*|*`;
  return t.kind === 'dense' ? 'pretrain|dense|*|*' : 'pretrain|moe-any|*|*';
}

/** The segment in words: "MoE on Blackwell with Megatron", "dense, all GPUs", "all published runs". */
export function segmentWords(id: SegmentId): string {
  if (id === ALL_RUNS) return 'all published runs';
  const [phase, kind = '*', generation = '*', framework = '*'] = id.split('|');
  if (kind === '*') return phase === 'finetune' ? 'all fine-tuning runs' : 'all pretraining runs';
  const what = KIND_WORDS[kind] ?? kind;
  if (generation === '*') return `${what}, all GPUs`;
  const on = `${what} on ${GENERATION_WORDS[generation as GpuArchitecture] ?? generation}`;
  return framework === '*' ? `${on}, all frameworks` : `${on} with ${FRAMEWORK_WORDS[framework as Framework] ?? framework}`;
}

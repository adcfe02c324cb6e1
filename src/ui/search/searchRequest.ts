// What the "Find the best layout" panel sends the search worker: the current document
// without its layout (the search holds a document's `parallel` fields fixed, so only
// the degrees the user pins are sent, as options.fixed), and the options the form
// sets. And the way back: a found layout written into the document ("Apply").

import type { SearchDocumentResult } from '../../model/search/index.ts';
import type { FixedDegrees, SearchObjective, SearchOptions } from '../../model/search/index.ts';
import { SCHEDULES, ZERO_STAGES } from '../../model/input/index.ts';
import { countAt, getAt, setAt, type Doc } from '../../state/doc.ts';

export type FixableKey = 'tp' | 'pp' | 'cp' | 'ep' | 'vpp' | 'zero' | 'schedule';

export const FIXABLE: readonly { readonly key: FixableKey; readonly label: string }[] = [
  { key: 'tp', label: 'TP' },
  { key: 'pp', label: 'PP' },
  { key: 'cp', label: 'CP' },
  { key: 'ep', label: 'EP' },
  { key: 'vpp', label: 'VPP' },
  { key: 'zero', label: 'ZeRO stage' },
  { key: 'schedule', label: 'Schedule' },
];

export const OBJECTIVE_LABELS: Readonly<Record<SearchObjective, string>> = {
  tokensPerSecond: 'Highest throughput (tokens/s)',
  days: 'Fewest days to train',
  usd: 'Lowest cost ($)',
  memoryHeadroom: 'Most memory headroom',
};

/** "Find the best layout" for the document's cluster, or "Size the cluster": which GPU, how many, which layout. */
export type SearchMode = 'layout' | 'sizing';

/** Cluster sizing: the GPU types compared, the range of GPU counts, and the day limit. */
export interface SizingForm {
  readonly gpuTypes: readonly string[];
  readonly minGpus: number;
  readonly maxGpus: number;
  readonly maxDays: number | null;
}

export interface SearchForm {
  /** Default 'layout'. */
  readonly mode?: SearchMode;
  readonly objective: SearchObjective;
  readonly topK: number;
  readonly tpWithinNode: boolean;
  /** The degrees held at the current document's values; the rest are searched. */
  readonly fixed: readonly FixableKey[];
  /** Largest cluster searched (gpus per node × 2^k up to it, and it); null: the document's cluster size only. */
  readonly maxGpus: number | null;
  readonly maxUsd: number | null;
  /** Share of each GPU's memory kept free, percent; absent: the search's default (10 %). */
  readonly memoryMarginPercent?: number;
  /** Also layer splits that are not even over pp × vpp (Megatron-LM then needs --pipeline-model-parallel-layout). */
  readonly unevenLayers?: boolean;
  /** With mode 'sizing'. */
  readonly sizing?: SizingForm;
}

/** Progress every this many layouts: a few milliseconds of work, so the bar moves and Cancel answers at once. */
export const PROGRESS_EVERY = 8192;

/** The current value of a pinnable degree, or undefined when the document does not hold a valid one. */
export function currentDegree(doc: Doc, key: FixableKey): number | string | undefined {
  const value = getAt(doc, ['parallel', key]);
  if (key === 'zero') return ZERO_STAGES.find((z) => z === value);
  if (key === 'schedule') return SCHEDULES.find((s) => s === value);
  return countAt(doc, ['parallel', key]) ?? undefined;
}

export function fixedDegreesOf(doc: Doc, keys: readonly FixableKey[]): FixedDegrees {
  const fixed: Record<string, unknown> = {};
  for (const key of keys) {
    const value = currentDegree(doc, key);
    if (value !== undefined) fixed[key] = value;
  }
  return fixed as FixedDegrees;
}

/**
 * The document without its layout: no `parallel`, and the searched micro-batch and
 * recomputation left out; no `search` block (the form sets the search); when sizing, no
 * cluster size either.
 */
export function searchDocumentOf(doc: Doc, mode: SearchMode = 'layout'): Doc {
  let next = setAt(doc, ['parallel'], undefined);
  next = setAt(next, ['training', 'microBatch'], undefined);
  next = setAt(next, ['search'], undefined);
  if (mode === 'sizing') next = setAt(next, ['cluster', 'gpus'], undefined);
  return setAt(next, ['training', 'recompute'], undefined);
}

/**
 * The question a search answers, as text: the searched document less what Apply writes back
 * (offload, the EP-overlap and CUDA-graph switches; when sizing, the GPU type with its node
 * size and price; when the search ranges over cluster sizes, the size). Results whose question differs from the current document's are of an
 * earlier configuration (ux.md principle 18); applying one of them keeps its question.
 */
export function searchQuestionKey(doc: Doc, form: Pick<SearchForm, 'mode' | 'maxGpus'> = { maxGpus: null }): string {
  const mode = form.mode ?? 'layout';
  let next = searchDocumentOf(doc, mode);
  // A search up to maxGpus may find (and Apply write) another cluster size.
  if (form.maxGpus !== null) next = setAt(next, ['cluster', 'gpus'], undefined);
  next = setAt(next, ['training', 'offload'], undefined);
  next = setAt(next, ['training', 'overlap', 'epComm'], undefined);
  next = setAt(next, ['training', 'cudaGraph'], undefined);
  if (mode === 'sizing') {
    next = setAt(next, ['cluster', 'gpu'], undefined);
    next = setAt(next, ['cluster', 'gpusPerNode'], undefined);
    next = setAt(next, ['cost', 'usdPerGpuHour'], undefined);
  }
  return JSON.stringify(next);
}

export function searchOptionsOf(doc: Doc, form: SearchForm): SearchOptions {
  const sizing = form.mode === 'sizing' ? form.sizing : undefined;
  return {
    objective: form.objective,
    topK: form.topK,
    tpWithinNode: form.tpWithinNode,
    fixed: fixedDegreesOf(doc, form.fixed),
    ...(form.maxGpus !== null && !sizing ? { maxGpus: form.maxGpus } : {}),
    ...(form.maxUsd !== null ? { maxUsd: form.maxUsd } : {}),
    ...(form.memoryMarginPercent !== undefined ? { memoryMargin: form.memoryMarginPercent / 100 } : {}),
    ...(form.unevenLayers ? { evenLayerSplit: false } : {}),
    ...(sizing ? { gpuTypes: sizing.gpuTypes, gpuRange: { min: sizing.minGpus, max: sizing.maxGpus } } : {}),
    ...(sizing && sizing.maxDays !== null ? { maxDays: sizing.maxDays } : {}),
    progressEvery: PROGRESS_EVERY,
  };
}

/** A found layout as Apply reads it: the cluster's GPU is written only when the search chose it (cluster sizing: a preset id). */
export type AppliedLayout = Pick<SearchDocumentResult, 'parallel' | 'training'> & {
  readonly cluster: { readonly gpus: number; readonly gpu?: SearchDocumentResult['cluster']['gpu'] };
};

/** The document with a found layout in place of its own: degrees, micro-batch, recomputation, offload, cluster size and (when sized) GPU. */
export function withLayout(doc: Doc, result: AppliedLayout): Doc {
  let next = setAt(doc, ['parallel'], { ...result.parallel });
  next = setAt(next, ['training', 'microBatch'], result.training.microBatch);
  next = setAt(next, ['training', 'recompute'], result.training.recompute);
  next = setAt(next, ['training', 'offload'], { ...result.training.offload });
  // The framework switches the search tried (EP overlap, CUDA graphs), where it tried them.
  if (result.training.epComm !== undefined) next = setAt(next, ['training', 'overlap', 'epComm'], result.training.epComm);
  if (result.training.cudaGraph !== undefined) next = setAt(next, ['training', 'cudaGraph'], result.training.cudaGraph);
  const gpu = result.cluster.gpu;
  if (typeof gpu === 'string' && getAt(doc, ['cluster', 'gpu']) !== gpu) {
    // The sizing search priced and laid out another GPU type with its preset's GPUs per node and price (document.ts onGpu).
    next = setAt(next, ['cluster', 'gpu'], gpu);
    next = setAt(next, ['cluster', 'gpusPerNode'], undefined);
    next = setAt(next, ['cost', 'usdPerGpuHour'], undefined);
  }
  return setAt(next, ['cluster', 'gpus'], result.cluster.gpus);
}

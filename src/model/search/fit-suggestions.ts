// From "will not fit" to "fits": the smallest single changes of the layout that bring
// the most loaded GPU under its memory, each priced in throughput. Every candidate is
// checked by the layout rules of consistency.ts and timed and sized by the engine's
// own estimate (estimateConfig); nothing here computes memory or time itself.
//
// One knob moves at a time (a ZeRO stage, recomputation, a smaller micro-batch, a
// larger TP, PP, CP or EP degree with DP following so the GPU count stays, offload,
// or more GPUs), in the order of its values from the current one outwards; the first
// value of each knob that fits is its suggestion, so each is the smallest step of its
// kind. Suggestions are ranked by the verdict (safe before tight, the same rule as the
// page's OOM verdict), then by tokens per second per GPU: the cheapest fix first.

import { checkConsistency } from '../input/index.ts';
import { divisors, intentOfLayout, layoutFromIntent, layoutOfRun, MAX_INTEGER_FIELD } from '../input/index.ts';
import { RECOMPUTES, type FieldChange, type RunConfig, type ZeroStage } from '../input/index.ts';
import { estimateConfig } from '../estimate.ts';
import { bestLayoutOn, fewestGpusThatFit } from './fit-fallback.ts';
import { fitMemoryBytes, hostMemory, stageMemoryDetails } from '../memory/index.ts';
import { GiB } from '../input/index.ts';
import { fitVerdict, type OomVerdict } from '../validation/index.ts';

export type FitChangeKind =
  | 'zero' | 'recompute' | 'microBatch' | 'tp' | 'pp' | 'cp' | 'ep'
  | 'offloadOptimizer' | 'offloadParameters' | 'moreGpusDp' | 'moreGpusPp' | 'qlora';


export interface FitSuggestion {
  /** The change in the field's own words: "ZeRO stage 3", "Tensor parallel 16 (DP 1)". */
  readonly label: string;
  /** What to set in the document; applying all of them gives the suggested run. */
  readonly changes: readonly FieldChange[];
  readonly memoryBytes: number;
  readonly capacityBytes: number;
  readonly verdict: Exclude<OomVerdict, 'will-not-fit'>;
  readonly tokensPerSecond: number;
  /** Relative to the current run's tokens/s: −0.1 is 10 % slower. */
  readonly tokensPerSecondChange: number;
  readonly gpus: number;
}

export interface FitSuggestions {
  /** The current run, for the "from" side of each suggestion. */
  readonly memoryBytes: number;
  readonly capacityBytes: number;
  readonly tokensPerSecond: number;
  readonly gpus: number;
  readonly fits: boolean;
  /** Best first; empty when the run fits or no single change makes it fit. */
  readonly suggestions: readonly FitSuggestion[];
}

/** One value of one knob: the fields it sets (DP is re-derived from the GPU count afterwards). */
interface Step {
  readonly kind: FitChangeKind;
  readonly parallel?: Partial<RunConfig['parallel']>;
  readonly training?: Partial<RunConfig['training']>;
  readonly gpus?: number;
}

/** The most doublings of the cluster "more GPUs" tries: 64× the GPUs is a different purchase, not a fix. */
export const MAX_GPU_DOUBLINGS = 6;
/** Below this many fixes on the same GPUs, pairs of changes are tried too. */
export const MIN_SAME_CLUSTER_FIXES = 3;
/** At most this many suggestions are returned. */
export const MAX_SUGGESTIONS = 8;
/**
 * Pairs of knobs screened at most (each a memory estimate of well under a millisecond,
 * memory.ts): a bound for clusters whose GPU count has many divisors, so the list comes
 * within about a second whatever the run.
 */
export const MAX_PAIR_SCREENS = 1500;

const GPU_KINDS: ReadonlySet<FitChangeKind> = new Set(['moreGpusDp', 'moreGpusPp']);
const ZERO_WORDS: Readonly<Record<ZeroStage, string>> = {
  0: 'no sharding', 1: 'shards optimizer states', 2: 'shards optimizer states and gradients', 3: 'shards optimizer states, gradients and weights',
};
const RECOMPUTE_WORDS = { none: 'No recomputation', selective: 'Selective recomputation', full: 'Full recomputation' } as const;

/** Each knob's values, nearest first. */
function knobs(c: RunConfig): Step[][] {
  const p = c.parallel;
  const t = c.training;
  const gpus = c.cluster.gpus;
  const lists: Step[][] = [
    ([1, 2, 3] as const).filter((z) => z > p.zero).map((zero): Step => ({ kind: 'zero', parallel: { zero } })),
    RECOMPUTES.slice(RECOMPUTES.indexOf(t.recompute) + 1).map((recompute): Step => ({ kind: 'recompute', training: { recompute } })),
    divisors(t.microBatch).filter((b) => b < t.microBatch).reverse().map((microBatch): Step => ({ kind: 'microBatch', training: { microBatch } })),
  ];
  // TP, PP and CP grow within the GPUs there are; DP follows (build), so the GPU count stays what was bought.
  // TP stays inside a node (no larger than the node, or than it already is): its four collectives per layer need NVLink
  // (Narayanan et al. 2021, arXiv 2104.04473, section 3.3; the search's tpWithinNode rule).
  const mostTp = Math.max(c.cluster.gpusPerNode, p.tp);
  for (const key of ['tp', 'pp', 'cp'] as const) {
    const others = (p.tp * p.pp * p.cp) / p[key];
    lists.push(divisors(gpus / others).filter((d) => d > p[key] && (key !== 'tp' || d <= mostTp))
      .map((value): Step => ({ kind: key, parallel: { [key]: value } })));
  }
  if (c.model.moe) lists.push(divisors(c.model.moe.experts).filter((e) => e > p.ep).map((ep): Step => ({ kind: 'ep', parallel: { ep } })));
  if (!t.offload.optimizer) lists.push([{ kind: 'offloadOptimizer', training: { offload: { ...t.offload, optimizer: true } } }]);
  // Parameter offload needs ZeRO-3 (consistency.ts): alone it passes the rules only there, otherwise in a pair with ZeRO-3.
  if (!t.offload.parameters) lists.push([{ kind: 'offloadParameters', training: { offload: { ...t.offload, parameters: true } } }]);
  // A LoRA fine-tune that does not fit: the same adapters on a 4-bit NF4 base (QLoRA, memory/adapter.ts), where the
  // compute precision allows it (document.ts: QLoRA dequantises to a 16-bit dtype, so not under fp8 or fp4).
  if (t.adapter?.method === 'lora' && t.precision !== 'fp8' && t.precision !== 'fp4') {
    lists.push([{ kind: 'qlora', training: { adapter: { ...t.adapter, method: 'qlora' } } }]);
  }
  // More GPUs: as more data-parallel replicas (what ZeRO shards over), or as more pipeline stages (fewer layers per GPU).
  const doublings = Array.from({ length: MAX_GPU_DOUBLINGS }, (_, i) => 2 ** (i + 1));
  lists.push(doublings.map((k): Step => ({ kind: 'moreGpusDp', gpus: gpus * k })));
  lists.push(doublings.map((k): Step => ({ kind: 'moreGpusPp', gpus: gpus * k, parallel: { pp: p.pp * k } })));
  return lists.filter((list) => list.length > 0);
}

/**
 * The run with these steps applied, laid out by the engine's one layout rule (input/layout-intent.ts),
 * as the page lays out the same edit: the steps' degrees and GPU count, the run's other degrees kept
 * where they fit, DP = GPUs ÷ (TP × PP × CP). Null when a step's own value cannot be laid out.
 */
function build(c: RunConfig, steps: readonly Step[]): RunConfig | null {
  let parallel = c.parallel;
  let training = c.training;
  let gpus = c.cluster.gpus;
  const asked = new Set<string>();
  for (const s of steps) {
    parallel = { ...parallel, ...s.parallel };
    training = { ...training, ...s.training };
    gpus = s.gpus ?? gpus;
    for (const key of Object.keys({ ...s.parallel, ...s.training })) asked.add(key);
  }
  // A fix must be a document the engine reads back: no field above its largest value (fields.ts).
  if (gpus > MAX_INTEGER_FIELD) return null;
  const intent = intentOfLayout({ ...layoutOfRun(c), ...parallel, microBatch: training.microBatch });
  const result = layoutFromIntent({ model: c.model, training }, intent, parallel.schedule, gpus);
  if (result.forced.some((f) => asked.has(f.key))) return null;
  const { tp, pp, dp, cp, ep, vpp, schedule, microBatch } = result.layout;
  return { ...c, parallel: { ...parallel, tp, pp, dp, cp, ep, vpp, schedule }, training: { ...training, microBatch }, cluster: { ...c.cluster, gpus } };
}

/** The fields that differ, as document changes and in words; DP, which only follows, in brackets. */
function describe(from: RunConfig, to: RunConfig): { label: string; changes: FieldChange[] } {
  const changes: FieldChange[] = [];
  const words: string[] = [];
  const diff = (path: readonly string[], a: number | string | boolean, b: number | string | boolean, text: string) => {
    if (a === b) return;
    changes.push({ path, value: b });
    words.push(text);
  };
  const [p, q, s, t] = [from.parallel, to.parallel, from.training, to.training];
  diff(['cluster', 'gpus'], from.cluster.gpus, to.cluster.gpus, `${to.cluster.gpus} GPUs`);
  diff(['parallel', 'zero'], p.zero, q.zero, `ZeRO stage ${q.zero} (${ZERO_WORDS[q.zero]})`);
  diff(['training', 'recompute'], s.recompute, t.recompute, RECOMPUTE_WORDS[t.recompute]);
  diff(['training', 'microBatch'], s.microBatch, t.microBatch, `Micro-batch ${t.microBatch} (from ${s.microBatch})`);
  diff(['parallel', 'tp'], p.tp, q.tp, `Tensor parallel ${q.tp}`);
  diff(['parallel', 'pp'], p.pp, q.pp, `Pipeline parallel ${q.pp}`);
  diff(['parallel', 'cp'], p.cp, q.cp, `Context parallel ${q.cp}`);
  diff(['parallel', 'ep'], p.ep, q.ep, `Expert parallel ${q.ep}`);
  diff(['parallel', 'vpp'], p.vpp, q.vpp, `Virtual stages ${q.vpp}`);
  diff(['parallel', 'schedule'], p.schedule, q.schedule, `Schedule ${q.schedule}`);
  diff(['parallel', 'sequenceParallel'], p.sequenceParallel, q.sequenceParallel, q.sequenceParallel ? 'Sequence parallel' : 'No sequence parallel');
  diff(['training', 'offload', 'optimizer'], s.offload.optimizer, t.offload.optimizer, 'Optimizer states offloaded to CPU memory');
  diff(['training', 'offload', 'parameters'], s.offload.parameters, t.offload.parameters, 'Parameters offloaded to CPU memory');
  if (s.adapter && t.adapter) diff(['training', 'adapter', 'method'], s.adapter.method, t.adapter.method, t.adapter.method === 'qlora' ? 'QLoRA (frozen base in 4-bit NF4)' : 'LoRA');
  let label = words.join(' + ');
  if (p.dp !== q.dp) {
    changes.push({ path: ['parallel', 'dp'], value: q.dp });
    label += ` (DP ${q.dp})`;
  }
  return { label, changes };
}

/** The engine's own per-stage memory (memory.ts), its most loaded GPU's device-used bytes against capacity: the test estimateConfig's `fits` makes. */
function fitsInMemory(c: RunConfig): boolean {
  const worst = stageMemoryDetails(c).reduce((most, s) => Math.max(most, s.deviceUsed), 0);
  // memory.fits also asks the node's CPU memory to hold what offload puts there (memory/host.ts).
  const host = hostMemory(c);
  return worst <= c.cluster.gpu.memoryGiB * GiB && host.perNode <= host.capacity;
}

function admissible(c: RunConfig | null): c is RunConfig {
  return c !== null && checkConsistency(c).errors.length === 0;
}

/** The first value of a knob that fits, as an index into its list; -1 when none does. */
function firstFit(c: RunConfig, list: readonly Step[]): number {
  return list.findIndex((step) => {
    const next = build(c, [step]);
    return admissible(next) && fitsInMemory(next);
  });
}

/** Pairs of knobs on the same GPUs, nearest combination first; a pair counts only where neither knob alone fits at its value. */
function pairFits(c: RunConfig, lists: readonly Step[][], singles: readonly number[]): RunConfig[] {
  const found: RunConfig[] = [];
  let screens = 0;
  lists.forEach((a, i) => lists.forEach((b, j) => {
    if (j <= i || GPU_KINDS.has(a[0]?.kind ?? 'zero') || GPU_KINDS.has(b[0]?.kind ?? 'zero')) return;
    const order: [number, number][] = [];
    for (let x = 0; x < a.length; x++) for (let y = 0; y < b.length; y++) order.push([x, y]);
    order.sort((u, v) => u[0] + u[1] - (v[0] + v[1]) || u[0] - v[0]);
    const si = singles[i] ?? -1;
    const sj = singles[j] ?? -1;
    for (const [x, y] of order) {
      if ((si >= 0 && si <= x) || (sj >= 0 && sj <= y)) continue;
      if (++screens > MAX_PAIR_SCREENS) return;
      const next = build(c, [a[x] as Step, b[y] as Step]);
      if (admissible(next) && fitsInMemory(next)) {
        found.push(next);
        return;
      }
    }
  }));
  return found;
}

/**
 * Where single changes and pairs leave no fix on these GPUs: the layout search's best layout
 * on them; where they leave no fix at all: the fewest GPUs that fit, with their layout (fit-fallback.ts).
 */
function fallbacks(config: RunConfig, runs: readonly RunConfig[]): RunConfig[] {
  const onTheseGpus = runs.some((r) => r.cluster.gpus === config.cluster.gpus);
  const searched = onTheseGpus ? null : bestLayoutOn(config, config.cluster.gpus);
  if (searched) return [searched];
  const fewest = runs.length > 0 ? null : fewestGpusThatFit(config);
  return fewest ? [fewest] : [];
}

const VERDICT_RANK: Readonly<Record<FitSuggestion['verdict'], number>> = { safe: 0, tight: 1 };

/**
 * The smallest changes that make `config` fit, best first: each knob's nearest fitting
 * value, and pairs of knobs when fewer than MIN_SAME_CLUSTER_FIXES single changes fit
 * on the same GPUs. Memory screens the candidates (memory.ts); each survivor gets the
 * engine's full estimate for its verdict and tokens per second. Candidates the layout
 * rules reject are skipped, never repaired.
 */
export function fitSuggestions(config: RunConfig): FitSuggestions {
  const current = estimateConfig(config);
  const tokensPerSecond = current.throughput?.tokensPerSecond ?? 0;
  const base = {
    memoryBytes: fitMemoryBytes(current), capacityBytes: current.memory.capacity,
    tokensPerSecond, gpus: config.cluster.gpus, fits: current.errors.length === 0 && current.memory.fits,
  };
  if (current.errors.length > 0 || current.memory.fits) return { ...base, suggestions: [] };

  const lists = knobs(config);
  const singles = lists.map((list) => firstFit(config, list));
  const runs: RunConfig[] = [];
  singles.forEach((index, k) => {
    const step = lists[k]?.[index];
    const run = step ? build(config, [step]) : null;
    if (run) runs.push(run);
  });
  const sameCluster = runs.filter((r) => r.cluster.gpus === config.cluster.gpus).length;
  if (sameCluster < MIN_SAME_CLUSTER_FIXES) runs.push(...pairFits(config, lists, singles));
  const searched = fallbacks(config, runs);
  runs.push(...searched);

  const suggestions: FitSuggestion[] = [];
  for (const run of runs) {
    const output = estimateConfig(run);
    if (output.errors.length > 0 || !output.throughput || !output.memory.fits) continue;
    const { verdict } = fitVerdict(fitMemoryBytes(output), output.memory.capacity);
    const described = describe(config, run);
    const source = searched.includes(run) ? `Layout search, best on ${run.cluster.gpus} GPUs: ` : '';
    suggestions.push({
      ...described,
      label: source + described.label,
      memoryBytes: fitMemoryBytes(output), capacityBytes: output.memory.capacity,
      verdict: verdict === 'safe' ? 'safe' : 'tight',
      tokensPerSecond: output.throughput.tokensPerSecond,
      tokensPerSecondChange: tokensPerSecond > 0 ? output.throughput.tokensPerSecond / tokensPerSecond - 1 : 0,
      gpus: run.cluster.gpus,
    });
  }
  const perGpu = (s: FitSuggestion) => s.tokensPerSecond / s.gpus;
  suggestions.sort((a, b) => VERDICT_RANK[a.verdict] - VERDICT_RANK[b.verdict] || perGpu(b) - perGpu(a));
  return { ...base, suggestions: suggestions.slice(0, MAX_SUGGESTIONS) };
}

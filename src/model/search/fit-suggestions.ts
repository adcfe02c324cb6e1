// From "will not fit" to "fits": the changes that bring the most loaded GPU under its
// memory, in the order a person tries them (issue 31 item 4), each priced in tokens per
// second and days. Every candidate is checked by the layout rules of consistency.ts and
// timed and sized by the engine's own estimate (estimateConfig); nothing here computes
// memory or time itself, and a fix counts only where that estimate's `fits` holds (host
// memory included, where the engine counts it).
//
// Three groups, shown in this order; ranking happens within a group only, so a 60× larger
// cluster never comes first for being cheaper per token:
//  1. On the user's own GPUs, same model: one knob at a time (micro-batch, a shorter sequence,
//     recomputation, ZeRO stage, the 8-bit optimizer, offload, QLoRA for a LoRA fine-tune, and
//     TP / PP / CP / EP with DP following), each knob's nearest value that fits; pairs where
//     fewer than MIN_SAME_CLUSTER_FIXES single changes fit, triples where no single change or
//     pair does; and the layout search's best layout on these GPUs (EP and offload included).
//     Changes that alter what the run trains (a shorter sequence, a 4-bit base) come after
//     those that keep it, and say so.
//  2. Where nothing fits on these GPUs: the fewest GPUs that fit, with the search's layout.
//  3. Labelled as such: the search's cheapest layout per token on any count.
// Within a group: safe before tight (the page's OOM verdict), then tokens per second per GPU.
// The searches (groups 1's layout, 2 and 3) take seconds; `fitSuggestions(c, { layouts: false })`
// gives the knob fixes alone in well under a second, so the page shows them first.

import { checkConsistency, frameworkOffloadProblem, frameworkZeroProblem, layoutKeptFor } from '../input/index.ts';
import { divisors, intentOfLayout, layoutFromIntent, layoutOfRun, MAX_INTEGER_FIELD } from '../input/index.ts';
import { RECOMPUTES, type FieldChange, type FieldPath, type RunConfig, type ZeroStage } from '../input/index.ts';
import { estimateConfig } from '../estimate.ts';
import { bestLayoutOn, bestLayoutOnAnyCount, fewestGpusThatFit } from './fit-fallback.ts';
import { fitMemoryBytes, hostMemory, stageMemoryDetails } from '../memory/index.ts';
import { GiB } from '../input/index.ts';
import { estimateVerdict, type OomVerdict } from '../validation/index.ts';

export type FitChangeKind =
  | 'microBatch'
  | 'seqLen'
  | 'recompute'
  | 'zero'
  | 'optimizer8bit'
  | 'offloadOptimizer'
  | 'offloadParameters'
  | 'qlora'
  | 'tp'
  | 'pp'
  | 'cp'
  | 'ep';

/** Which group a fix belongs to, in the order the groups are shown. */
export type FitGroup = 'sameGpus' | 'fewestGpus' | 'anyCount';
export const FIT_GROUPS: readonly FitGroup[] = ['sameGpus', 'fewestGpus', 'anyCount'];

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
  /** Days to train the token budget (output.time.days); null when the engine gives none. */
  readonly days: number | null;
  readonly gpus: number;
  readonly group: FitGroup;
  /** What the fix changes in the training itself, in words (a shorter sequence, a 4-bit base); null when it keeps it. */
  readonly changesTraining: string | null;
}

export interface FitSuggestions {
  /** The current run, for the "from" side of each suggestion. */
  readonly memoryBytes: number;
  readonly capacityBytes: number;
  readonly tokensPerSecond: number;
  readonly days: number | null;
  readonly gpus: number;
  readonly fits: boolean;
  /** In group order (FIT_GROUPS), best first within each; empty when the run fits or nothing makes it fit. */
  readonly suggestions: readonly FitSuggestion[];
  /** Whether the layout searches ran (false for the quick first answer: knob fixes only, layouts to come). */
  readonly searched: boolean;
}

export interface FitSuggestionOptions {
  /** Run the layout searches too (seconds); default true. */
  readonly layouts?: boolean;
}

/** One value of one knob: the fields it sets (DP is re-derived from the GPU count afterwards). */
interface Step {
  readonly kind: FitChangeKind;
  readonly parallel?: Partial<RunConfig['parallel']>;
  readonly training?: Partial<RunConfig['training']>;
}

/** Below this many fixes on the same GPUs, pairs of changes are tried too. */
export const MIN_SAME_CLUSTER_FIXES = 3;
/** At most this many fixes on the user's GPUs are returned (the other groups have one each). */
export const MAX_SAME_GPU_SUGGESTIONS = 8;
/**
 * Pairs of knobs screened at most (each a memory estimate of well under a millisecond,
 * memory.ts): a bound for clusters whose GPU count has many divisors, so the list comes
 * within about a second whatever the run.
 */
export const MAX_PAIR_SCREENS = 1500;
/** Triples screened at most, for the same reason. */
export const MAX_TRIPLE_SCREENS = 1500;
/**
 * The shortest sequence suggested: 512 tokens, BERT's and below GPT-2's 1,024 (Devlin et al. 2018;
 * Radford et al. 2019). Shorter, a run no longer trains what it was planned for.
 */
export const MIN_SUGGESTED_SEQ_LEN = 512;

/** Knobs that change what the run trains, with the words that say so. */
const CHANGES_TRAINING: Partial<Record<FitChangeKind, string>> = {
  seqLen: 'changes what each step trains on: shorter sequences (fewer tokens per step, attention over a shorter context)',
  qlora: 'changes the frozen base to 4-bit NF4 weights (QLoRA)',
};
const ZERO_WORDS: Readonly<Record<ZeroStage, string>> = {
  0: 'no sharding',
  1: 'shards optimizer states',
  2: 'shards optimizer states and gradients',
  3: 'shards optimizer states, gradients and weights',
};
const RECOMPUTE_WORDS = { none: 'No recomputation', selective: 'Selective recomputation', full: 'Full recomputation' } as const;
const count = (n: number) => n.toLocaleString('en-US');

/** Each knob's values, nearest first, in the order a person tries them. */
function knobs(c: RunConfig): Step[][] {
  const p = c.parallel;
  const t = c.training;
  const gpus = c.cluster.gpus;
  const shorter: number[] = [];
  for (let s = 2 ** Math.ceil(Math.log2(t.seqLen) - 1); s >= MIN_SUGGESTED_SEQ_LEN; s /= 2) if (s < t.seqLen) shorter.push(s);
  const lists: Step[][] = [
    divisors(t.microBatch)
      .filter((b) => b < t.microBatch)
      .reverse()
      .map((microBatch): Step => ({ kind: 'microBatch', training: { microBatch } })),
    shorter.map((seqLen): Step => ({ kind: 'seqLen', training: { seqLen } })),
    RECOMPUTES.slice(RECOMPUTES.indexOf(t.recompute) + 1).map((recompute): Step => ({ kind: 'recompute', training: { recompute } })),
    ([1, 2, 3] as const).filter((z) => z > p.zero).map((zero): Step => ({ kind: 'zero', parallel: { zero } })),
  ];
  // bitsandbytes' 8-bit Adam (Dettmers et al. 2022, arXiv 2110.02861): the two moments in 8 bits (memory.ts).
  if (t.optimizer === 'adam') lists.push([{ kind: 'optimizer8bit', training: { optimizer: 'adam8bit' } }]);
  if (!t.offload.optimizer) lists.push([{ kind: 'offloadOptimizer', training: { offload: { ...t.offload, optimizer: true } } }]);
  // Parameter offload needs ZeRO-3 (consistency.ts): alone it passes the rules only there, otherwise in a pair with ZeRO-3.
  if (!t.offload.parameters) lists.push([{ kind: 'offloadParameters', training: { offload: { ...t.offload, parameters: true } } }]);
  // A LoRA fine-tune that does not fit: the same adapters on a 4-bit NF4 base (QLoRA, memory/adapter.ts), where the
  // compute precision allows it (document.ts: QLoRA dequantises to a 16-bit dtype, so not under fp8 or fp4).
  if (t.adapter?.method === 'lora' && t.precision !== 'fp8' && t.precision !== 'fp4') {
    lists.push([{ kind: 'qlora', training: { adapter: { ...t.adapter, method: 'qlora' } } }]);
  }
  // TP, PP and CP grow within the GPUs there are; DP follows (build), so the GPU count stays what was bought.
  // TP stays inside a node (no larger than the node, or than it already is): its four collectives per layer need NVLink
  // (Narayanan et al. 2021, arXiv 2104.04473, section 3.3; the search's tpWithinNode rule).
  const mostTp = Math.max(c.cluster.gpusPerNode, p.tp);
  for (const key of ['tp', 'pp', 'cp'] as const) {
    const others = (p.tp * p.pp * p.cp) / p[key];
    lists.push(
      divisors(gpus / others)
        .filter((d) => d > p[key] && (key !== 'tp' || d <= mostTp))
        .map((value): Step => ({ kind: key, parallel: { [key]: value } })),
    );
  }
  if (c.model.moe)
    lists.push(
      divisors(c.model.moe.experts)
        .filter((e) => e > p.ep)
        .map((ep): Step => ({ kind: 'ep', parallel: { ep } })),
    );
  return lists.filter((list) => list.length > 0);
}

/**
 * The run with these steps applied, laid out by the engine's one layout rule (input/layout-intent.ts),
 * as the page lays out the same edit: the steps' degrees, the run's other degrees kept where they
 * fit, DP = GPUs ÷ (TP × PP × CP). Null when a step's own value cannot be laid out.
 */
function build(c: RunConfig, steps: readonly Step[]): RunConfig | null {
  let parallel = c.parallel;
  let training = c.training;
  const asked = new Set<string>();
  for (const s of steps) {
    parallel = { ...parallel, ...s.parallel };
    training = { ...training, ...s.training };
    for (const key of Object.keys({ ...s.parallel, ...s.training })) asked.add(key);
  }
  const gpus = c.cluster.gpus;
  // A fix must be a document the engine reads back: no field above its largest value (fields.ts).
  if (gpus > MAX_INTEGER_FIELD) return null;
  const intent = intentOfLayout({ ...layoutOfRun(c), ...parallel, microBatch: training.microBatch });
  const result = layoutFromIntent({ model: c.model, training }, intent, parallel.schedule, gpus);
  if (result.forced.some((f) => asked.has(f.key))) return null;
  const { tp, pp, dp, cp, ep, vpp, schedule, microBatch } = result.layout;
  // A stated pipeline layout stays where pp × vpp still match it; elsewhere the fix takes the even split.
  const { pipelineLayout: _stated, ...rest } = parallel;
  const kept = layoutKeptFor(c.parallel, { pp, vpp, schedule });
  return { ...c, parallel: { ...rest, ...kept, tp, pp, dp, cp, ep, vpp, schedule }, training: { ...training, microBatch } };
}

/** The fields that differ, as document changes and in words; DP, which only follows, in brackets. */
function describe(from: RunConfig, to: RunConfig): { label: string; changes: FieldChange[]; changesTraining: string | null } {
  const changes: FieldChange[] = [];
  const words: string[] = [];
  const diff = (path: FieldPath, a: number | string | boolean, b: number | string | boolean, text: string) => {
    if (a === b) return;
    changes.push({ path, value: b });
    words.push(text);
  };
  const [p, q, s, t] = [from.parallel, to.parallel, from.training, to.training];
  diff(['cluster', 'gpus'], from.cluster.gpus, to.cluster.gpus, `${count(to.cluster.gpus)} GPUs`);
  diff(['training', 'microBatch'], s.microBatch, t.microBatch, `Micro-batch ${t.microBatch} (from ${s.microBatch})`);
  diff(['training', 'seqLen'], s.seqLen, t.seqLen, `Sequence length ${count(t.seqLen)} tokens (from ${count(s.seqLen)})`);
  diff(['training', 'recompute'], s.recompute, t.recompute, RECOMPUTE_WORDS[t.recompute]);
  diff(['parallel', 'zero'], p.zero, q.zero, `ZeRO stage ${q.zero} (${ZERO_WORDS[q.zero]})`);
  diff(
    ['training', 'optimizer'],
    s.optimizer,
    t.optimizer,
    t.optimizer === 'adam8bit' ? '8-bit Adam (moments in 8 bits)' : `Optimizer ${t.optimizer}`,
  );
  diff(
    ['training', 'offload', 'optimizer'],
    s.offload.optimizer,
    t.offload.optimizer,
    t.offload.optimizer ? 'Optimizer states offloaded to CPU memory' : 'Optimizer states kept on the GPU (no offload)',
  );
  diff(
    ['training', 'offload', 'parameters'],
    s.offload.parameters,
    t.offload.parameters,
    t.offload.parameters ? 'Parameters offloaded to CPU memory' : 'Parameters kept on the GPU (no offload)',
  );
  if (s.adapter && t.adapter)
    diff(
      ['training', 'adapter', 'method'],
      s.adapter.method,
      t.adapter.method,
      t.adapter.method === 'qlora' ? 'QLoRA (frozen base in 4-bit NF4)' : 'LoRA',
    );
  diff(['parallel', 'tp'], p.tp, q.tp, `Tensor parallel ${q.tp}`);
  diff(['parallel', 'pp'], p.pp, q.pp, `Pipeline parallel ${q.pp}`);
  diff(['parallel', 'cp'], p.cp, q.cp, `Context parallel ${q.cp}`);
  diff(['parallel', 'ep'], p.ep, q.ep, `Expert parallel ${q.ep}`);
  diff(['parallel', 'vpp'], p.vpp, q.vpp, `Virtual stages ${q.vpp}`);
  diff(['parallel', 'schedule'], p.schedule, q.schedule, `Schedule ${q.schedule}`);
  // Blank text reads as no layout (input/pipeline-layout.ts readPipelineLayout): the even split.
  diff(
    ['parallel', 'pipelineLayout'],
    p.pipelineLayout ?? '',
    q.pipelineLayout ?? '',
    'Even pipeline split (the stated layout is for its own PP × VPP)',
  );
  diff(
    ['parallel', 'sequenceParallel'],
    p.sequenceParallel,
    q.sequenceParallel,
    q.sequenceParallel ? 'Sequence parallel' : 'No sequence parallel',
  );
  let label = words.join(' + ');
  if (p.dp !== q.dp) {
    changes.push({ path: ['parallel', 'dp'], value: q.dp });
    label += ` (DP ${q.dp})`;
  }
  const training = [
    s.seqLen !== t.seqLen ? CHANGES_TRAINING.seqLen : undefined,
    s.adapter?.method !== t.adapter?.method ? CHANGES_TRAINING.qlora : undefined,
  ].filter((w): w is string => w !== undefined);
  return { label, changes, changesTraining: training.length > 0 ? training.join('; ') : null };
}

/** A cheap screen: the engine's own per-stage memory (memory.ts), the most loaded GPU's device-used bytes (what memory.fits judges) against capacity. */
function fitsInMemory(c: RunConfig): boolean {
  const worst = stageMemoryDetails(c).reduce((most, s) => Math.max(most, s.deviceUsed), 0);
  // memory.fits also asks the node's CPU memory to hold what offload puts there (memory/host.ts).
  const host = hostMemory(c);
  return worst <= c.cluster.gpu.memoryGiB * GiB && host.perNode <= host.capacity;
}

/**
 * The layout rules pass and the framework runs what the fix changes (input/capabilities.ts:
 * its ZeRO stages and offloads); what the run already had is the user's, not the fix's.
 */
function admissible(c: RunConfig | null, from: RunConfig): c is RunConfig {
  if (c === null || checkConsistency(c).errors.length > 0) return false;
  const f = c.stack.framework;
  const zeroMoved = c.parallel.zero !== from.parallel.zero || c.parallel.pp !== from.parallel.pp;
  if (zeroMoved && frameworkZeroProblem(f, c.parallel.zero, c.parallel.pp) !== null) return false;
  const offloadMoved =
    c.training.offload.optimizer !== from.training.offload.optimizer || c.training.offload.parameters !== from.training.offload.parameters;
  return !(offloadMoved && frameworkOffloadProblem(f, c.training.offload) !== null);
}

/** Admissible from `from`, passes the screen, and the engine's estimate says it fits: the one test of a fix. */
function fits(c: RunConfig | null, from: RunConfig): c is RunConfig {
  return admissible(c, from) && fitsInMemory(c) && estimateConfig(c).memory.fits;
}

/** The first value of a knob that fits, as an index into its list; -1 when none does. */
function firstFit(c: RunConfig, list: readonly Step[]): number {
  return list.findIndex((step) => fits(build(c, [step]), c));
}

/** Index tuples into lists of these lengths, nearest combination (smallest index sum) first. */
function nearestFirst(lengths: readonly number[]): number[][] {
  let tuples: number[][] = [[]];
  for (const n of lengths) tuples = tuples.flatMap((t) => Array.from({ length: n }, (_, i) => [...t, i]));
  return tuples.sort((u, v) => u.reduce((a, b) => a + b, 0) - v.reduce((a, b) => a + b, 0));
}

/**
 * Combinations of `size` knobs on the same GPUs, each combination's nearest values that fit; a value
 * counts only below the index at which its knob alone fits (else the single change is the fix). At
 * most `budget` candidates are screened; for triples, a combination is walked only when its knobs'
 * farthest values together fit.
 */
function combinationFits(c: RunConfig, lists: readonly Step[][], singles: readonly number[], size: 2 | 3, budget: number): RunConfig[] {
  const found: RunConfig[] = [];
  let screens = 0;
  const pick = (chosen: number[], from: number) => {
    if (chosen.length === size) {
      const own = chosen.map((k) => lists[k] ?? []);
      const usable = own.map((list, n) => {
        const single = singles[chosen[n] ?? -1] ?? -1;
        return single >= 0 ? single : list.length;
      });
      if (usable.some((u) => u === 0)) return;
      if (size === 3) {
        if (++screens > budget) return;
        const farthest = build(
          c,
          own.map((list, n) => list[(usable[n] ?? 1) - 1] as Step),
        );
        if (!fits(farthest, c)) return;
      }
      for (const tuple of nearestFirst(usable)) {
        if (++screens > budget) return;
        const next = build(
          c,
          tuple.map((x, n) => own[n]?.[x] as Step),
        );
        if (fits(next, c)) {
          found.push(next);
          return;
        }
      }
      return;
    }
    for (let k = from; k < lists.length; k++) pick([...chosen, k], k + 1);
  };
  pick([], 0);
  return found;
}

interface Candidate {
  readonly run: RunConfig;
  readonly group: FitGroup;
  /** Words before the change, for the searches' layouts. */
  readonly source: string;
}

const VERDICT_RANK: Readonly<Record<FitSuggestion['verdict'], number>> = { safe: 0, tight: 1 };
const GROUP_RANK: Readonly<Record<FitGroup, number>> = { sameGpus: 0, fewestGpus: 1, anyCount: 2 };

/** Group first (FIT_GROUPS order), then fixes that keep the training before those that change it, then safe before tight, then tokens/s per GPU. */
export function compareFitSuggestions(a: FitSuggestion, b: FitSuggestion): number {
  const perGpu = (s: FitSuggestion) => s.tokensPerSecond / s.gpus;
  return (
    GROUP_RANK[a.group] - GROUP_RANK[b.group] ||
    Number(a.changesTraining !== null) - Number(b.changesTraining !== null) ||
    VERDICT_RANK[a.verdict] - VERDICT_RANK[b.verdict] ||
    perGpu(b) - perGpu(a)
  );
}

/**
 * The changes that make `config` fit, in group order (see the head of this file): with
 * `layouts: false`, the knob fixes on the same GPUs alone (the quick first answer). Memory
 * screens the candidates (memory.ts); each survivor gets the engine's full estimate for its
 * verdict, tokens per second and days. Candidates the layout rules reject are skipped, never repaired.
 */
export function fitSuggestions(config: RunConfig, options: FitSuggestionOptions = {}): FitSuggestions {
  const layouts = options.layouts ?? true;
  const current = estimateConfig(config);
  const tokensPerSecond = current.throughput?.tokensPerSecond ?? 0;
  const base = {
    memoryBytes: fitMemoryBytes(current),
    capacityBytes: current.memory.capacity,
    tokensPerSecond,
    days: current.time?.days ?? null,
    gpus: config.cluster.gpus,
    fits: current.errors.length === 0 && current.memory.fits,
  };
  if (current.errors.length > 0 || current.memory.fits) return { ...base, suggestions: [], searched: true };

  const lists = knobs(config);
  const singles = lists.map((list) => firstFit(config, list));
  const candidates: Candidate[] = [];
  const same = (run: RunConfig | null, source = '') => {
    if (run) candidates.push({ run, group: 'sameGpus', source });
  };
  singles.forEach((index, k) => same(index >= 0 ? build(config, [lists[k]?.[index] as Step]) : null));
  if (candidates.length < MIN_SAME_CLUSTER_FIXES) combinationFits(config, lists, singles, 2, MAX_PAIR_SCREENS).forEach((r) => same(r));
  if (candidates.length === 0) combinationFits(config, lists, singles, 3, MAX_TRIPLE_SCREENS).forEach((r) => same(r));
  if (layouts) {
    same(bestLayoutOn(config, config.cluster.gpus), `Layout search on your ${count(config.cluster.gpus)} GPUs: `);
    // The fewest GPUs that fit only where nothing fits on these (else these GPUs are already enough).
    const fewest = candidates.length === 0 ? fewestGpusThatFit(config) : null;
    if (fewest)
      candidates.push({
        run: fewest,
        group: 'fewestGpus',
        source: `Fewest GPUs that fit, ${count(fewest.cluster.gpus)}, with the layout search's best layout: `,
      });
    const any = bestLayoutOnAnyCount(config);
    if (any && any.cluster.gpus !== fewest?.cluster.gpus) {
      candidates.push({
        run: any,
        group: 'anyCount',
        source: `Best layout on any GPU count (cheapest per token), ${count(any.cluster.gpus)} GPUs: `,
      });
    }
  }

  const suggestions: FitSuggestion[] = [];
  const seen = new Set<string>();
  for (const { run, group, source } of candidates) {
    const output = estimateConfig(run);
    if (output.errors.length > 0 || !output.throughput || !output.memory.fits) continue;
    const described = describe(config, run);
    const key = JSON.stringify(described.changes);
    if (seen.has(key)) continue;
    seen.add(key);
    const { verdict } = estimateVerdict(output);
    suggestions.push({
      ...described,
      label: source + described.label,
      memoryBytes: fitMemoryBytes(output),
      capacityBytes: output.memory.capacity,
      verdict: verdict === 'safe' ? 'safe' : 'tight',
      tokensPerSecond: output.throughput.tokensPerSecond,
      tokensPerSecondChange: tokensPerSecond > 0 ? output.throughput.tokensPerSecond / tokensPerSecond - 1 : 0,
      days: output.time?.days ?? null,
      gpus: run.cluster.gpus,
      group,
    });
  }
  suggestions.sort(compareFitSuggestions);
  const sameGpus = suggestions.filter((s) => s.group === 'sameGpus').slice(0, MAX_SAME_GPU_SUGGESTIONS);
  return { ...base, suggestions: [...sameGpus, ...suggestions.filter((s) => s.group !== 'sameGpus')], searched: layouts };
}

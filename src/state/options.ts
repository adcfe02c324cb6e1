// Which values each parallelism slider offers, and why the others are not offered.
// The rules themselves live in the engine (src/model/consistency.ts); this module
// only asks them about candidate values, so the page never does model arithmetic.
// Its edits (a degree, the schedule, the GPU count) apply the engine's one layout rule
// (model/input/layout.ts) to the document; the store keeps the user's own degrees.

import { divisors, writePipelineLayout } from '../model/input/index.ts';
import { batchProblem, cpProblem, epProblem, etpProblem, ppProblem, scheduleProblem, tpProblem } from '../model/input/index.ts';
import { expertTensorParallel, pipelineChunks } from '../model/structure/index.ts';
import { readModel } from '../model/catalog/index.ts';
import { SCHEDULES, type ModelConfig, type ScheduleKind, type TrainingConfig } from '../model/input/index.ts';
import {
  findGpuPreset,
  FRAMEWORKS,
  frameworkScheduleProblem,
  microBatchMinimumProblem,
  PRECISIONS,
  precisionProblem,
  type Framework,
  type Precision,
} from '../model/input/index.ts';
import {
  defaultDp,
  describeLayoutMove,
  dpOnGpus,
  intentOfLayout,
  layoutForGpuCount,
  layoutFromIntent,
  scheduleForVpp,
  settleDependents,
  withLayoutDegree,
  layoutCures,
  withLayoutSchedule,
  DEGREE_FIELDS,
  DEGREE_WORDS,
  LAYOUT_DEGREES,
  type Cure,
  type ForcedDegree,
  type Layout,
  type LayoutDegree,
  type LayoutIntent,
} from '../model/input/index.ts';
import { countAt, getAt, isPlainObject, setAt, stringAt, type Doc, type FieldPath } from './doc.ts';
import { zeroWithoutEffect } from '../model/structure/index.ts';

// The layout's degrees and their document fields: the engine's one list (model/input/layout.ts).
export type DegreeKey = LayoutDegree;
export const DEGREE_KEYS: readonly DegreeKey[] = LAYOUT_DEGREES;
export const DEGREE_PATHS: Readonly<Record<DegreeKey, FieldPath>> = DEGREE_FIELDS;
export const GPUS_PATH: FieldPath = ['cluster', 'gpus'];
export const SCHEDULE_PATH: FieldPath = ['parallel', 'schedule'];

/** How far the sliders reach: the largest cluster the DP slider grows to, the most virtual stages per device the VPP slider offers. */
const SLIDER_MOST = { gpus: 1_048_576, vpp: 32 } as const;

export interface Excluded {
  readonly value: number;
  readonly reason: string;
}

export interface DegreeChoices {
  readonly current: number;
  /** What the slider offers, ascending; the current value is among them even when it is not valid. */
  readonly values: readonly number[];
  /** Why the current value is not valid, or null. */
  readonly currentProblem: string | null;
  /** One line: which values are candidates at all. */
  readonly rule: string;
  /** Candidates the engine's rules reject, each with its reason. */
  readonly excluded: readonly Excluded[];
}

export interface ScheduleChoice {
  readonly schedule: ScheduleKind;
  readonly problem: string | null;
}

interface Context {
  readonly model: ModelConfig;
  readonly training: Pick<TrainingConfig, 'seqLen' | 'globalBatch' | 'microBatch'>;
  readonly layout: Layout;
}
type ContextRead = { readonly ok: true; readonly ctx: Context } | { readonly ok: false; readonly reason: string };

/** Divisors of n, ascending (the engine's one helper; none above its largest field value). */
export { divisors };

function readLayout(doc: Doc): Layout {
  const count = (path: FieldPath) => countAt(doc, path) ?? 1;
  const tp = count(DEGREE_PATHS.tp),
    pp = count(DEGREE_PATHS.pp),
    cp = count(DEGREE_PATHS.cp);
  const dp = countAt(doc, DEGREE_PATHS.dp) ?? defaultDp(countAt(doc, GPUS_PATH), tp, pp, cp);
  const vpp = count(DEGREE_PATHS.vpp);
  const named = SCHEDULES.find((s) => s === stringAt(doc, SCHEDULE_PATH, ''));
  return {
    tp,
    pp,
    dp,
    cp,
    vpp,
    ep: count(DEGREE_PATHS.ep),
    microBatch: count(DEGREE_PATHS.microBatch),
    gpus: countAt(doc, GPUS_PATH) ?? tp * pp * dp * cp,
    schedule: named ?? scheduleForVpp('1f1b', vpp),
  };
}

/** The model and batch as the engine reads them (defaults filled), or why the rules cannot be asked yet. */
function readContext(doc: Doc): ContextRead {
  const layout = readLayout(doc);
  const globalBatch = countAt(doc, ['training', 'globalBatch']);
  const seqLen = countAt(doc, ['training', 'seqLen']);
  if (globalBatch === null) return { ok: false, reason: 'fix training.globalBatch first' };
  if (seqLen === null) return { ok: false, reason: 'fix training.seqLen first' };
  const model = readModel(doc);
  if (!model.ok) return { ok: false, reason: 'fix the model first' };
  return { ok: true, ctx: { model: model.model, training: { seqLen, globalBatch, microBatch: layout.microBatch }, layout } };
}

function choices(current: number, candidates: readonly number[], problemOf: (v: number) => string | null, rule: string): DegreeChoices {
  const excluded: Excluded[] = [];
  const valid: number[] = [];
  for (const v of candidates) {
    const reason = problemOf(v);
    if (reason) excluded.push({ value: v, reason });
    else valid.push(v);
  }
  const currentProblem = problemOf(current) ?? (candidates.includes(current) ? null : rule);
  const values = valid.includes(current) ? valid : [...valid, current].sort((a, b) => a - b);
  return { current, values, currentProblem, rule, excluded };
}

function batchWithDp(ctx: Context, dp: number | null): string | null {
  if (dp === null) return 'DP would not be a whole number';
  const problem = batchProblem(ctx.training, dp);
  return problem ? `DP would be ${dp}, and training.globalBatch ${problem}` : null;
}

/** The two degrees each of TP, PP and CP shares the GPUs with (DP takes what the three leave). */
const SHARED_WITH = { tp: ['pp', 'cp'], pp: ['tp', 'cp'], cp: ['tp', 'pp'] } as const;

/**
 * TP, PP or CP: the divisors of what the other two leave of the GPUs, so that DP stays whole; a value is
 * refused for its own problem (`problemOf`) or for the batch the DP it leaves cannot split.
 */
function sharingChoices(ctx: Context, key: keyof typeof SHARED_WITH, problemOf: (v: number) => string | null): DegreeChoices {
  const l = ctx.layout;
  const [a, b] = SHARED_WITH[key];
  const room = l.gpus / (l[a] * l[b]);
  const dpWith = (v: number) => {
    const d = { ...l, [key]: v };
    return dpOnGpus(l.gpus, d.tp, d.pp, d.cp);
  };
  const rule = `divisors of GPUs / (${a.toUpperCase()} × ${b.toUpperCase()}) = ${Number.isInteger(room) ? room : '—'}, so that DP stays whole`;
  return choices(l[key], divisors(room), (v) => problemOf(v) ?? batchWithDp(ctx, dpWith(v)), rule);
}

function tpChoices(ctx: Context): DegreeChoices {
  return sharingChoices(ctx, 'tp', (t) => tpProblem(ctx.model, t));
}

function ppChoices(ctx: Context): DegreeChoices {
  const { model, layout: l } = ctx;
  return sharingChoices(ctx, 'pp', (p) => ppProblem(model, p, l.vpp) ?? scheduleProblem({ pp: p, vpp: l.vpp, schedule: l.schedule }));
}

function cpChoices(ctx: Context): DegreeChoices {
  return sharingChoices(ctx, 'cp', (c) => cpProblem(ctx.training, c));
}

function dpChoices(ctx: Context): DegreeChoices {
  const { model, training, layout: l } = ctx;
  const perReplica = training.globalBatch / training.microBatch;
  const candidates = divisors(perReplica).filter((d) => l.tp * l.pp * l.cp * d <= SLIDER_MOST.gpus);
  return choices(
    l.dp,
    candidates,
    (d) => epProblem(model, { ep: l.ep, tp: l.tp, dp: d, cp: l.cp }),
    `DP sets the GPU count (TP × PP × CP × DP); divisors of training.globalBatch / training.microBatch = ` +
      `${Number.isInteger(perReplica) ? perReplica : '—'}, so every replica gets whole micro-batches`,
  );
}

function epChoices(ctx: Context): DegreeChoices {
  const { model, layout: l } = ctx;
  if (!model.moe) return choices(l.ep, [1], () => null, 'only 1: expert parallelism needs a mixture-of-experts model');
  return choices(
    l.ep,
    divisors(model.moe.experts),
    (e) => epProblem(model, { ep: e, tp: l.tp, dp: l.dp, cp: l.cp }),
    `divisors of model.moe.experts = ${model.moe.experts} that also divide TP × DP × CP`,
  );
}

function vppChoices(ctx: Context): DegreeChoices {
  const { model, layout: l } = ctx;
  if (l.pp < 2) return choices(l.vpp, [1], () => null, 'only 1: interleaving needs PP of 2 or more');
  const most = Math.min(SLIDER_MOST.vpp, Math.floor((model.layers + 2) / l.pp));
  const candidates = Array.from({ length: Math.max(1, most) }, (_, i) => i + 1);
  return choices(
    l.vpp,
    candidates,
    (v) => ppProblem(model, l.pp, v),
    `1 to ${most}: PP × VPP chunks of at most model.layers + 2; VPP above 1 uses the interleaved 1F1B schedule`,
  );
}

function microBatchChoices(ctx: Context): DegreeChoices {
  const { training, layout: l } = ctx;
  const perReplica = training.globalBatch / l.dp;
  return choices(
    l.microBatch,
    divisors(perReplica),
    (b) => batchProblem({ ...training, microBatch: b }, l.dp),
    `divisors of training.globalBatch / DP = ${Number.isInteger(perReplica) ? perReplica : '—'}, so a step is a whole number of micro-batches`,
  );
}

const CHOOSERS: Readonly<Record<DegreeKey, (ctx: Context) => DegreeChoices>> = {
  tp: tpChoices,
  pp: ppChoices,
  dp: dpChoices,
  cp: cpChoices,
  ep: epChoices,
  vpp: vppChoices,
  microBatch: microBatchChoices,
};

/** The slider choices for every degree; when the rules cannot be asked, each offers only its current value, with the reason. */
export function layoutChoices(doc: Doc): Readonly<Record<DegreeKey, DegreeChoices>> {
  const read = readContext(doc);
  const layout = readLayout(doc);
  const entries = DEGREE_KEYS.map((key) => {
    if (read.ok) return [key, CHOOSERS[key](read.ctx)] as const;
    const current = layout[key];
    return [key, { current, values: [current], currentProblem: null, rule: `unavailable: ${read.reason}`, excluded: [] }] as const;
  });
  return Object.fromEntries(entries) as Record<DegreeKey, DegreeChoices>;
}

export function scheduleChoices(doc: Doc): readonly ScheduleChoice[] {
  const read = readContext(doc);
  const framework = frameworkOfDocument(doc);
  const m = microBatchesPerStep(doc);
  return SCHEDULES.map((schedule) => {
    if (!read.ok) return { schedule, problem: null };
    const { model, layout: l } = read.ctx;
    // What the framework runs (model/input/capabilities.ts): Megatron-LM offers no DualPipe, torchtitan's needs 2 × pp micro-batches.
    const framed =
      frameworkScheduleProblem(framework, { pp: l.pp, schedule }) ??
      (m === null ? null : microBatchMinimumProblem(framework, { pp: l.pp, schedule }, m));
    if (schedule === 'interleaved-1f1b') {
      return { schedule, problem: l.pp < 2 ? 'needs PP of 2 or more' : (ppProblem(model, l.pp, Math.max(2, l.vpp)) ?? framed) };
    }
    return { schedule, problem: scheduleProblem({ pp: l.pp, vpp: 1, schedule }) ?? framed };
  });
}

/** The document's framework (generic where it names none or an unknown one). */
export function frameworkOfDocument(doc: Doc): Framework {
  const value = getAt(doc, ['training', 'framework']);
  return FRAMEWORKS.find((f) => f === value) ?? 'generic';
}

/** Why each precision cannot run on the document's GPU (model/input/capabilities.ts precisionProblem), or null. */
export function precisionChoices(doc: Doc): Readonly<Record<Precision, string | null>> {
  const gpu = getAt(doc, ['cluster', 'gpu']);
  const spec =
    typeof gpu === 'string'
      ? findGpuPreset(gpu)
      : isPlainObject(gpu)
        ? {
            name: typeof gpu['name'] === 'string' ? gpu['name'] : 'custom GPU',
            fp8Tflops: numberOr(gpu['fp8Tflops']),
            fp4Tflops: numberOr(gpu['fp4Tflops']),
          }
        : undefined;
  const out = {} as Record<Precision, string | null>;
  for (const p of PRECISIONS) out[p] = spec ? precisionProblem(spec, p) : null;
  return out;
}

const numberOr = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

function withLayout(doc: Doc, l: Layout): Doc {
  let next = doc;
  for (const key of DEGREE_KEYS) next = setAt(next, DEGREE_PATHS[key], l[key]);
  return setAt(setAt(next, GPUS_PATH, l.gpus), SCHEDULE_PATH, l.schedule);
}

/** The user's own degrees as the document states them (a link opens with its layout as the user's choice). */
export function intentOfDocument(doc: Doc): LayoutIntent {
  return intentOfLayout(readLayout(doc));
}

/**
 * The document with one degree set, the rest following the engine's rule (model/input/layout.ts):
 * DP (or, for DP, the GPU count) so tp · pp · dp · cp = GPUs, the schedule with VPP, and EP and
 * the micro-batch back to the user's values where valid, else the largest valid below them.
 */
export function degreeMove(doc: Doc, key: DegreeKey, value: number, intent: LayoutIntent = intentOfDocument(doc)): LayoutMove {
  const read = readContext(doc);
  const l0 = readLayout(doc);
  const edit = withLayoutDegree(l0, key, value);
  // DP cannot be whole (a slider never offers this): the degree is set as asked, and the engine's error names the fields.
  const l = edit.ok ? edit.layout : { ...l0, [key]: value };
  if (!read.ok || !edit.ok || key === 'ep' || key === 'microBatch') {
    const document = withLayout(doc, l);
    return { document, notes: etpNote(doc, document, `${DEGREE_WORDS[key]} ${value}`) };
  }
  const forced: ForcedDegree[] = [];
  const settled = settleDependents(read.ctx, l, intent, (p) => {
    if (p.forced) forced.push(p.forced);
    return p.got;
  });
  const after = { ...l, ...settled };
  // Only what moved besides the edited degree and DP (which follows it) is said.
  const notes = describeLayoutMove(l, { layout: after, forced, problem: null }, intent, `${DEGREE_WORDS[key]} ${value}`);
  const document = withLayout(doc, after);
  return { document, notes: [...notes, ...etpNote(doc, document, `${DEGREE_WORDS[key]} ${value}`)] };
}

/** The expert TP the engine takes for a document (its parallel.etp, else the default rule), or null for a dense or unreadable one. */
function expertTpOf(doc: Doc): number | null {
  const read = readContext(doc);
  if (!read.ok || !read.ctx.model.moe) return null;
  const l = read.ctx.layout;
  const etp = countAt(doc, ['parallel', 'etp']);
  return expertTensorParallel({ tp: l.tp, dp: l.dp, cp: l.cp, ep: l.ep, etp });
}

/**
 * A derived default said where the user looks: when parallel.etp is unset and an edit flips the expert TP the
 * engine takes (structure/params.ts expertTensorParallel: TP when EP divides DP × CP, else 1), the note names it,
 * e.g. DeepSeek-V3 at TP 8 · DP 32, EP 64 → 32: "Expert TP 1 → 8 (EP 32 …)".
 */
function etpNote(before: Doc, after: Doc, cause: string): string[] {
  if (getAt(after, ['parallel', 'etp']) != null) return [];
  const from = expertTpOf(before),
    to = expertTpOf(after);
  if (from === null || to === null || from === to) return [];
  const rule =
    to === 1
      ? 'EP no longer divides DP × CP, so each expert stays whole on one GPU'
      : 'EP now divides DP × CP, so experts split over the TP ranks as the dense layers do';
  return [`${cause}: expert TP ${from} → ${to}, the default while ETP is not set (${rule}; choose ETP to keep ${from})`];
}

/** The document with another schedule; VPP follows (2 or more for interleaved 1F1B, 1 otherwise). */
export function withSchedule(doc: Doc, schedule: ScheduleKind): Doc {
  return withLayout(doc, withLayoutSchedule(readLayout(doc), schedule));
}

/** A layout edit's result: the new document, and what it changed besides what was asked, in words. */
export interface LayoutMove {
  readonly document: Doc;
  readonly notes: readonly string[];
}

/**
 * The document on `gpus` GPUs, laid out from the user's degrees (model/input/layout-intent.ts).
 * A count the engine refuses changes only the count field (its error shows there), and the note says why.
 */
export function gpuCountMove(doc: Doc, gpus: unknown, intent: LayoutIntent = intentOfDocument(doc)): LayoutMove {
  const read = readContext(doc);
  if (!read.ok || typeof gpus !== 'number') return { document: setAt(doc, GPUS_PATH, gpus), notes: [] };
  const l0 = readLayout(doc);
  const result = layoutForGpuCount(read.ctx, intent, l0.schedule, gpus);
  if (!result.ok) return { document: setAt(doc, GPUS_PATH, gpus), notes: [result.reason] };
  const cause = `${gpus.toLocaleString('en-US')} ${gpus === 1 ? 'GPU' : 'GPUs'}`;
  const document = withLayout(doc, result.layout);
  return { document, notes: [...describeLayoutMove(l0, result, intent, cause), ...etpNote(doc, document, cause)] };
}

/** The same GPU count, every degree brought back to the user's values where the (new) model allows (after the model changed, say). */
export function modelMove(doc: Doc, intent: LayoutIntent = intentOfDocument(doc), cause = 'this model'): LayoutMove {
  const read = readContext(doc);
  const l0 = readLayout(doc);
  if (!read.ok || countAt(doc, GPUS_PATH) === null) return { document: doc, notes: [] };
  const result = layoutFromIntent(read.ctx, intent, l0.schedule, l0.gpus);
  return { document: withLayout(doc, result.layout), notes: describeLayoutMove(l0, result, intent, cause) };
}

/** The nearest values that make a layout the rules reject valid, one click each (model/input/cures.ts); none when it runs. */
export function layoutCuresOf(doc: Doc): readonly Cure[] {
  const read = readContext(doc);
  return read.ok ? layoutCures(read.ctx, readLayout(doc)) : [];
}

/** Why the document's ZeRO stage changes nothing on its layout, and what would help (model/structure/zero-groups.ts); null when it shards. */
export function zeroNoteOf(doc: Doc): string | null {
  const zero = getAt(doc, ['parallel', 'zero']);
  if (zero !== 1 && zero !== 2 && zero !== 3) return null;
  return zeroWithoutEffect({ ...readLayout(doc), zero }, isPlainObject(getAt(doc, ['model', 'moe'])));
}

/** degreeMove's document: the document's own degrees taken as the user's. */
export const withDegree = (doc: Doc, key: DegreeKey, value: number): Doc => degreeMove(doc, key, value).document;
/** gpuCountMove's document. */
export const withGpus = (doc: Doc, gpus: unknown): Doc => gpuCountMove(doc, gpus).document;
/** modelMove's document. */
export const repairLayout = (doc: Doc): Doc => modelMove(doc).document;

/** Micro-batches per step per pipeline, m = globalBatch / (microBatch × DP), or null when it is not a whole number. */
export function microBatchesPerStep(doc: Doc): number | null {
  const l = readLayout(doc);
  const globalBatch = countAt(doc, ['training', 'globalBatch']);
  if (globalBatch === null) return null;
  const m = globalBatch / (l.microBatch * l.dp);
  return Number.isInteger(m) ? m : null;
}

export interface EtpOption {
  readonly value: number;
  readonly problem: string | null;
}
export interface EtpChoices {
  /** The expert TP the engine takes when the document names none (structure/params.ts expertTensorParallel). */
  readonly fallback: number;
  /** Candidates, ascending, each with the engine's reason it cannot be used here (consistency.ts etpProblem), or null. */
  readonly options: readonly EtpOption[];
}

/** The most expert TP offered: Megatron-Bridge's MoE recipes use 1 to 8, one node's NVLink domain. */
const MAX_ETP = 64;

/** What the expert-TP control offers; null for a dense model or a model the rules cannot read yet. */
export function etpChoices(doc: Doc): EtpChoices | null {
  const read = readContext(doc);
  if (!read.ok || !read.ctx.model.moe) return null;
  const { model, layout: l } = read.ctx;
  const candidates = divisors(l.tp * l.dp * l.cp).filter((v) => v <= MAX_ETP);
  return {
    fallback: expertTensorParallel({ tp: l.tp, dp: l.dp, cp: l.cp, ep: l.ep }),
    options: candidates.map((value) => ({ value, problem: etpProblem(model, { ep: l.ep, etp: value, tp: l.tp, dp: l.dp, cp: l.cp }) })),
  };
}

/**
 * The engine's even split written as Megatron's layout (model/input/pipeline-layout.ts writePipelineLayout): what the
 * pipeline-layout field shows while it is empty. Null where the model cannot be read yet or the schedule is DualPipe.
 */
export function evenPipelineLayoutText(doc: Doc): string | null {
  const read = readContext(doc);
  if (!read.ok || read.ctx.layout.schedule === 'dualpipe') return null;
  const { model, layout: l } = read.ctx;
  return writePipelineLayout(pipelineChunks(model, { pp: l.pp, vpp: l.vpp, schedule: l.schedule }).counts, model.mtpLayers);
}

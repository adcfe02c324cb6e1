// The user's own degrees against what a GPU count (or a model) allows: each degree is
// the user's choice where the rules allow it, else the largest valid value below it,
// so that exploring 64 → 24 → 64 GPUs gives back the layout the user had at 64 (issue
// 22, ux.md principle 11). Every degree that had to move is reported with its reason,
// in the field's own words, for the page to announce with an Undo.

import { batchProblem, cpProblem, epProblem, ppProblem, scheduleProblem, tpProblem } from './consistency.ts';
import { divisors } from './counts.ts';
import { MAX_INTEGER_FIELD } from './fields.ts';
import {
  DEGREE_WORDS,
  INTENT_DEGREES,
  dpOnGpus,
  scheduleForVpp,
  type IntentDegree,
  type Layout,
  type LayoutIntent,
  type LayoutRules,
} from './layout.ts';

export interface ForcedDegree {
  readonly key: IntentDegree;
  /** The user's value. */
  readonly wanted: number;
  /** The value the rules allow. */
  readonly got: number;
  /** Why `wanted` cannot be used, in the fields' words. */
  readonly reason: string;
}

export interface IntentLayout {
  readonly layout: Layout;
  /** Degrees that differ from the user's choice, with why. */
  readonly forced: readonly ForcedDegree[];
  /** Why the layout still cannot run (a global batch that does not divide, say), or null when it can. */
  readonly problem: string | null;
}

type Problem = (value: number) => string | null;

export interface DegreePick {
  readonly got: number;
  readonly forced: ForcedDegree | null;
}

/** `wanted` when it is a candidate without a problem, else the largest such value below it, else the smallest. */
function pickDegree(key: IntentDegree, candidates: readonly number[], wanted: number, problem: Problem, notCandidate: string): DegreePick {
  const valid = candidates.filter((v) => problem(v) === null);
  if (valid.includes(wanted)) return { got: wanted, forced: null };
  const below = valid.filter((v) => v < wanted);
  const got = below.length > 0 ? Math.max(...below) : valid[0];
  if (got === undefined) return { got: wanted, forced: null };
  const reason = candidates.includes(wanted) ? (problem(wanted) ?? notCandidate) : notCandidate;
  return { got, forced: { key, wanted, got, reason } };
}

/** 1 to n; callers bound n by the model's layers, so a fuzzed VPP of 10^9 builds no huge list. */
const oneToN = (n: number) => Array.from({ length: Math.max(1, n) }, (_, i) => i + 1);

/** The schedules' own rule on PP alone (DualPipe needs an even PP); interleaving is VPP's to decide. */
function schedulePpProblem(schedule: ScheduleLike, pp: number): string | null {
  return schedule === 'dualpipe' ? scheduleProblem({ pp, vpp: 1, schedule }) : null;
}
type ScheduleLike = Layout['schedule'];

/**
 * The layout on `gpus` GPUs closest to the user's degrees: TP, then PP (with VPP), then
 * CP, each the user's value where it divides what the GPU count leaves and passes the
 * rules, else the largest valid value below it; DP = GPUs ÷ (TP × PP × CP); EP and the
 * micro-batch likewise from the user's values. `schedule` is the run's schedule.
 */
export function layoutFromIntent(rules: LayoutRules, intent: LayoutIntent, schedule: ScheduleLike, gpus: number): IntentLayout {
  const { model, training } = rules;
  const forced: ForcedDegree[] = [];
  const take = (p: DegreePick) => {
    if (p.forced) forced.push(p.forced);
    return p.got;
  };
  /** TP, PP and CP each divide what the GPU count leaves them: `room`, told in `roomWords` ("64 GPUs are"). */
  const dividing = (key: 'tp' | 'pp' | 'cp', room: number, roomWords: string, problem: Problem) =>
    take(pickDegree(key, divisors(room), intent[key], problem, `${roomWords} not a multiple of ${DEGREE_WORDS[key]} ${intent[key]}`));
  const tp = dividing('tp', gpus, `${gpus} GPUs are`, (t) => tpProblem(model, t));
  const ppRoom = gpus / tp;
  const pp = dividing(
    'pp',
    ppRoom,
    `${gpus} GPUs ÷ TP ${tp} = ${ppRoom} is`,
    (p) => ppProblem(model, p, 1) ?? schedulePpProblem(schedule, p),
  );
  const vpp =
    pp < 2
      ? take(pickDegree('vpp', [1], intent.vpp, () => null, 'interleaving needs PP of 2 or more'))
      : take(
          pickDegree(
            'vpp',
            oneToN(Math.min(intent.vpp, Math.floor((model.layers + 2) / pp))),
            intent.vpp,
            (v) => ppProblem(model, pp, v),
            `PP × VPP = ${pp} × ${intent.vpp} is more than model.layers + 2 = ${model.layers + 2} pipeline chunks`,
          ),
        );
  const cpRoom = ppRoom / pp;
  const cp = dividing('cp', cpRoom, `${gpus} GPUs ÷ (TP ${tp} × PP ${pp}) = ${cpRoom} is`, (c) => cpProblem(training, c));
  const dp = dpOnGpus(gpus, tp, pp, cp) ?? 1;
  const { ep, microBatch } = settleDependents(rules, { tp, pp, cp, dp }, intent, take);
  const layout: Layout = { tp, pp, dp, cp, ep, vpp, microBatch, gpus, schedule: scheduleForVpp(schedule, vpp) };
  const problem = batchProblem({ ...training, microBatch }, dp) ?? epProblem(model, layout);
  return { layout, forced, problem: problem && `training.globalBatch: ${problem}` };
}

/**
 * EP and the micro-batch for these degrees: the user's values where they are valid, else
 * the largest valid value below them (a micro-batch stays as it is when no value divides
 * the batch: that error has its own cure).
 */
export function settleDependents(
  rules: LayoutRules,
  l: { tp: number; pp: number; cp: number; dp: number },
  intent: Pick<LayoutIntent, 'ep' | 'microBatch'>,
  take: (p: DegreePick) => number = (p) => p.got,
): { ep: number; microBatch: number } {
  const { model, training } = rules;
  const experts = model.moe ? divisors(model.moe.experts) : [1];
  const ep = take(
    pickDegree(
      'ep',
      experts,
      intent.ep,
      (e) => epProblem(model, { ...l, ep: e }),
      model.moe
        ? `${intent.ep} does not divide model.moe.experts=${model.moe.experts}`
        : 'expert parallelism needs a mixture-of-experts model',
    ),
  );
  const perReplica = training.globalBatch / l.dp;
  const microBatch = take(
    pickDegree(
      'microBatch',
      divisors(perReplica),
      intent.microBatch,
      (b) => batchProblem({ ...training, microBatch: b }, l.dp),
      `global batch ÷ DP = ${training.globalBatch} ÷ ${l.dp} is not a multiple of ${intent.microBatch}`,
    ),
  );
  return { ep, microBatch };
}

export type GpuCountLayout = ({ readonly ok: true } & IntentLayout) | { readonly ok: false; readonly reason: string };

/**
 * The layout for a GPU count the user typed. A count is refused, and nothing else
 * changes, when it is not a whole number the document allows, or when it would force
 * one of the user's degrees to move and the run still could not run: a typo such as 7
 * must not rewrite a layout that was working. A count that only moves DP is taken even
 * when the batch then does not divide: that message offers its own cure.
 */
export function layoutForGpuCount(rules: LayoutRules, intent: LayoutIntent, schedule: ScheduleLike, gpus: number): GpuCountLayout {
  if (!Number.isInteger(gpus) || gpus < 1 || gpus > MAX_INTEGER_FIELD) {
    return {
      ok: false,
      reason: `${String(gpus)} is not a GPU count: the count is a whole number from 1 to ${MAX_INTEGER_FIELD.toLocaleString('en-US')}`,
    };
  }
  const result = layoutFromIntent(rules, intent, schedule, gpus);
  if (result.forced.length > 0 && result.problem !== null) {
    const moves = result.forced.map((f) => `${DEGREE_WORDS[f.key]} ${f.wanted} → ${f.got}`).join(', ');
    return {
      ok: false,
      reason: `${gpus} GPUs not taken: they would need ${moves}, and the run still could not run (${result.problem}). Your layout stays.`,
    };
  }
  return { ok: true, ...result };
}

/**
 * What a move from `before` to `after` did to the user's degrees, one sentence per
 * degree: forced away from the user's value (with the reason), or back to it. DP, which
 * only follows, is said last. `cause` names what moved ("64 GPUs", "Llama 3 70B").
 */
export function describeLayoutMove(before: Layout, after: IntentLayout, intent: LayoutIntent, cause: string): string[] {
  const lines: string[] = [];
  for (const key of INTENT_DEGREES) {
    const from = before[key];
    const to = after.layout[key];
    if (from === to) continue;
    const word = DEGREE_WORDS[key];
    const forced = after.forced.find((f) => f.key === key);
    if (forced)
      lines.push(
        `${word} ${from} → ${to} because ${forced.reason}; your ${word} ${intent[key]} is kept and comes back when it fits again.`,
      );
    else if (to === intent[key]) lines.push(`${word} ${from} → ${to}: your own choice, back on ${cause}.`);
    else lines.push(`${word} ${from} → ${to}.`);
  }
  if (lines.length > 0 && before.dp !== after.layout.dp) {
    lines.push(`DP ${before.dp} → ${after.layout.dp} follows, so TP × PP × DP × CP = ${after.layout.gpus} GPUs.`);
  }
  return lines;
}

// The layout-edit rule, in one place: "a degree moves, DP follows; VPP above 1 means
// interleaved 1F1B", and "the GPU count moves, the user's own degrees stay where the
// count allows". The page (state/options.ts), the trade-off sweep (sweep/knobs.ts), the
// fixes for a run that does not fit (search/fit-suggestions.ts) and the parser's
// defaults (document.ts) all edit a layout through here, so "TP 4" means the same
// rest-of-the-layout everywhere. Which degrees are valid is consistency.ts's to say.

import type { FieldChange } from './edit.ts';
import type { FieldPath } from './schema.ts';
import type { ModelConfig, RunConfig, ScheduleKind, TrainingConfig } from './types.ts';

export const LAYOUT_DEGREES = ['tp', 'pp', 'dp', 'cp', 'ep', 'vpp', 'microBatch'] as const;
export type LayoutDegree = (typeof LAYOUT_DEGREES)[number];

/** A run's layout: its degrees, micro-batch, GPU count and schedule, with tp · pp · dp · cp = gpus when it is whole. */
export interface Layout extends Readonly<Record<LayoutDegree, number>> {
  readonly gpus: number;
  readonly schedule: ScheduleKind;
}

/** The degrees the user chose; DP is not among them, it follows from the GPU count. */
export const INTENT_DEGREES = ['tp', 'pp', 'cp', 'ep', 'vpp', 'microBatch'] as const;
export type IntentDegree = (typeof INTENT_DEGREES)[number];
export type LayoutIntent = Readonly<Record<IntentDegree, number>>;

/** What the rules need besides the layout: the model, and the batch and sequence length of a step. */
export interface LayoutRules {
  readonly model: ModelConfig;
  readonly training: Pick<TrainingConfig, 'seqLen' | 'globalBatch'>;
}

/** The names the page uses for each degree. */
export const DEGREE_WORDS: Readonly<Record<LayoutDegree, string>> = {
  tp: 'TP',
  pp: 'PP',
  dp: 'DP',
  cp: 'CP',
  ep: 'EP',
  vpp: 'VPP',
  microBatch: 'Micro-batch',
};

export const DEGREE_FIELDS: Readonly<Record<LayoutDegree, FieldPath>> = {
  tp: ['parallel', 'tp'],
  pp: ['parallel', 'pp'],
  dp: ['parallel', 'dp'],
  cp: ['parallel', 'cp'],
  ep: ['parallel', 'ep'],
  vpp: ['parallel', 'vpp'],
  microBatch: ['training', 'microBatch'],
};

/** DP when the other three degrees are these: GPUs ÷ (TP × PP × CP), or null when that is not a whole number. */
export function dpOnGpus(gpus: number, tp: number, pp: number, cp: number): number | null {
  const width = tp * pp * cp;
  return Number.isInteger(gpus) && width > 0 && gpus % width === 0 ? gpus / width : null;
}

/**
 * DP where a document leaves it out, the one rule the parser (document.ts) and the page (state/options.ts) share:
 * GPUs ÷ (TP × PP × CP) when that is whole, else 1, so the consistency check names cluster.gpus against the
 * degrees as stated (20 GPUs at TP 8: DP 1, and "20 does not equal … 8×1×1×1 = 8"), rather than a DP rounded
 * down that would quietly leave GPUs idle. 1 as well where the GPU count is absent or not a count.
 */
export function defaultDp(gpus: unknown, tp: number, pp: number, cp: number): number {
  const dp = typeof gpus === 'number' ? dpOnGpus(gpus, tp, pp, cp) : null;
  return dp !== null && dp >= 1 ? dp : 1;
}

/** Interleaving needs its schedule: VPP above 1 is interleaved 1F1B, and VPP 1 takes plain 1F1B back from it. */
export function scheduleForVpp(schedule: ScheduleKind, vpp: number): ScheduleKind {
  if (vpp > 1) return 'interleaved-1f1b';
  return schedule === 'interleaved-1f1b' ? '1f1b' : schedule;
}

export type LayoutEdit = { readonly ok: true; readonly layout: Layout } | { readonly ok: false; readonly reason: string };

/**
 * One degree set, the rest following: TP, PP or CP move DP so the GPU count stays; DP
 * moves the GPU count; VPP moves the schedule; EP and the micro-batch move nothing else.
 */
export function withLayoutDegree(l: Layout, key: LayoutDegree, value: number): LayoutEdit {
  const next: Layout = { ...l, [key]: value };
  if (key === 'dp') return { ok: true, layout: { ...next, gpus: next.tp * next.pp * next.cp * value } };
  if (key === 'vpp') return { ok: true, layout: { ...next, schedule: scheduleForVpp(l.schedule, value) } };
  if (key !== 'tp' && key !== 'pp' && key !== 'cp') return { ok: true, layout: next };
  const dp = dpOnGpus(l.gpus, next.tp, next.pp, next.cp);
  if (dp === null) return { ok: false, reason: `${l.gpus} GPUs do not split into TP × PP × CP = ${next.tp}×${next.pp}×${next.cp}` };
  return { ok: true, layout: { ...next, dp } };
}

/** The layout's schedule set, VPP following: 2 or more for interleaved 1F1B, 1 for every other schedule. */
export function withLayoutSchedule(l: Layout, schedule: ScheduleKind): Layout {
  return { ...l, schedule, vpp: schedule === 'interleaved-1f1b' ? Math.max(2, l.vpp) : 1 };
}

/** The fields that differ between two layouts, as document changes (the GPU count and schedule too); `always` listed even when equal. */
export function layoutChanges(from: Layout, to: Layout, always: readonly LayoutDegree[] = []): FieldChange[] {
  const changes: FieldChange[] = LAYOUT_DEGREES.filter((k) => from[k] !== to[k] || always.includes(k)).map((k) => ({
    path: DEGREE_FIELDS[k],
    value: to[k],
  }));
  if (from.schedule !== to.schedule) changes.push({ path: ['parallel', 'schedule'], value: to.schedule });
  if (from.gpus !== to.gpus) changes.push({ path: ['cluster', 'gpus'], value: to.gpus });
  return changes;
}

export function intentOfLayout(l: Layout): LayoutIntent {
  return { tp: l.tp, pp: l.pp, cp: l.cp, ep: l.ep, vpp: l.vpp, microBatch: l.microBatch };
}

/** A parsed run's layout. */
export function layoutOfRun(c: RunConfig): Layout {
  const { tp, pp, dp, cp, ep, vpp, schedule } = c.parallel;
  return { tp, pp, dp, cp, ep, vpp, schedule, microBatch: c.training.microBatch, gpus: c.cluster.gpus };
}

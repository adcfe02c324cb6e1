// "Cannot run" with a way out (ux.md principle 12): for a layout the rules reject, the
// nearest values that make it valid, each a set of field changes one click applies. Every
// cure is checked against the same rules (consistency.ts) before it is offered, so a
// button never leads to another "cannot run" for the same reason.

import { batchProblem, cpProblem, epProblem, ppProblem, scheduleProblem, tpProblem } from './consistency.ts';
import { divisors } from './counts.ts';
import type { FieldChange } from './edit.ts';
import { MAX_INTEGER_FIELD } from './fields.ts';
import { dpOnGpus, layoutChanges, type Layout, type LayoutRules } from './layout.ts';

export interface Cure {
  /** What the click sets, in the fields' words: "GBS 255", "PP 3 (DP 4)". */
  readonly label: string;
  readonly changes: readonly FieldChange[];
}

/** At most this many cures of each kind: the nearest ones, below and above. */
const PER_KIND = 2;

/** Why the layout cannot run, or null: the rules the cures must satisfy. */
export function layoutProblem(rules: LayoutRules, l: Layout): string | null {
  const { model, training } = rules;
  if (l.tp * l.pp * l.dp * l.cp !== l.gpus) return `${l.gpus} GPUs is not TP × PP × DP × CP = ${l.tp * l.pp * l.dp * l.cp}`;
  return (
    tpProblem(model, l.tp) ??
    ppProblem(model, l.pp, l.vpp) ??
    cpProblem(training, l.cp) ??
    epProblem(model, l) ??
    scheduleProblem(l) ??
    batchProblem({ ...training, microBatch: l.microBatch }, l.dp)
  );
}

/** The nearest values below and above `value` that pass `ok`, nearest first, at most PER_KIND. */
function nearestValid(candidates: readonly number[], value: number, ok: (v: number) => boolean): number[] {
  return candidates
    .filter((v) => v !== value && ok(v))
    .sort((a, b) => Math.abs(a - value) - Math.abs(b - value) || a - b)
    .slice(0, PER_KIND);
}

/** Global batches that are whole multiples of MBS × DP, the nearest below and above. */
function globalBatchCures(rules: LayoutRules, l: Layout): Cure[] {
  const unit = l.microBatch * l.dp;
  const gbs = rules.training.globalBatch;
  const below = Math.floor(gbs / unit) * unit;
  const values = [below, below + unit].filter((v) => v >= unit && v !== gbs && v <= MAX_INTEGER_FIELD);
  return values.map((v) => ({ label: `GBS ${v.toLocaleString('en-US')}`, changes: [{ path: ['training', 'globalBatch'], value: v }] }));
}

/** Micro-batches that divide GBS ÷ DP. */
function microBatchCures(rules: LayoutRules, l: Layout): Cure[] {
  const perReplica = rules.training.globalBatch / l.dp;
  return nearestValid(divisors(perReplica), l.microBatch, () => true).map((b) => ({
    label: `MBS ${b}`,
    changes: [{ path: ['training', 'microBatch'], value: b }],
  }));
}

/** On the same GPUs, another PP, TP or CP so that DP (which follows) makes the layout valid. */
function sameGpuCures(rules: LayoutRules, l: Layout): Cure[] {
  const cures: Cure[] = [];
  for (const key of ['pp', 'tp', 'cp'] as const) {
    const others = (l.tp * l.pp * l.cp) / l[key];
    const moved = (v: number): Layout => ({
      ...l,
      [key]: v,
      dp: dpOnGpus(l.gpus, key === 'tp' ? v : l.tp, key === 'pp' ? v : l.pp, key === 'cp' ? v : l.cp) ?? 0,
    });
    for (const v of nearestValid(divisors(l.gpus / others), l[key], (v) => layoutProblem(rules, moved(v)) === null)) {
      const next = moved(v);
      cures.push({ label: `${key.toUpperCase()} ${v} (DP ${next.dp})`, changes: layoutChanges(l, next) });
    }
  }
  return cures;
}

/** DP moved, and the GPU count with it: the nearest data-parallel widths that make the layout valid. */
function dpCures(rules: LayoutRules, l: Layout): Cure[] {
  const width = l.tp * l.pp * l.cp;
  const candidates = divisors(rules.training.globalBatch).filter((d) => d * width <= MAX_INTEGER_FIELD);
  return nearestValid(candidates, l.dp, (d) => layoutProblem(rules, { ...l, dp: d, gpus: d * width }) === null).map((d) => {
    const next = { ...l, dp: d, gpus: d * width };
    return { label: `DP ${d} (${next.gpus.toLocaleString('en-US')} GPUs)`, changes: layoutChanges(l, next) };
  });
}

/** The GPU count the degrees already make, when a typed count does not match them. */
function gpuCountCures(l: Layout): Cure[] {
  const product = l.tp * l.pp * l.dp * l.cp;
  if (product === l.gpus || product > MAX_INTEGER_FIELD) return [];
  return [{ label: `${product.toLocaleString('en-US')} GPUs, as laid out`, changes: [{ path: ['cluster', 'gpus'], value: product }] }];
}

/** EP values that divide both the experts and TP × DP × CP. */
function epCures(rules: LayoutRules, l: Layout): Cure[] {
  const experts = rules.model.moe ? divisors(rules.model.moe.experts) : [1];
  return nearestValid(experts, l.ep, (e) => epProblem(rules.model, { ...l, ep: e }) === null).map((e) => ({
    label: `EP ${e}`,
    changes: [{ path: ['parallel', 'ep'], value: e }],
  }));
}

/**
 * The nearest valid values for a layout that cannot run, one click each: the global
 * batch and micro-batch, the other degrees on the same GPUs, DP with the GPU count, EP.
 * Each cure, applied alone, leaves a layout the rules accept. Empty when the layout runs.
 */
export function layoutCures(rules: LayoutRules, l: Layout): Cure[] {
  if (layoutProblem(rules, l) === null) return [];
  const candidates = [
    ...gpuCountCures(l),
    ...globalBatchCures(rules, l),
    ...microBatchCures(rules, l),
    ...sameGpuCures(rules, l),
    ...dpCures(rules, l),
    ...epCures(rules, l),
  ];
  return candidates.filter((cure) => layoutProblem(applyToRules(rules, cure), applyToLayout(l, cure)) === null);
}

function valueAt(cure: Cure, field: string): number | undefined {
  const change = cure.changes.find((c) => c.path.join('.') === field);
  return typeof change?.value === 'number' ? change.value : undefined;
}

function applyToRules(rules: LayoutRules, cure: Cure): LayoutRules {
  const globalBatch = valueAt(cure, 'training.globalBatch') ?? rules.training.globalBatch;
  return { ...rules, training: { ...rules.training, globalBatch } };
}

function applyToLayout(l: Layout, cure: Cure): Layout {
  const at = (field: string, fallback: number) => valueAt(cure, field) ?? fallback;
  return {
    ...l,
    tp: at('parallel.tp', l.tp),
    pp: at('parallel.pp', l.pp),
    dp: at('parallel.dp', l.dp),
    cp: at('parallel.cp', l.cp),
    ep: at('parallel.ep', l.ep),
    microBatch: at('training.microBatch', l.microBatch),
    gpus: at('cluster.gpus', l.gpus),
  };
}

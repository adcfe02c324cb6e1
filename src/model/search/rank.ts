// The search's two answers, kept up to date as layouts are scored: the K best by the
// objective (by default K different layouts, each its best variant), and the Pareto
// front of throughput (higher is better) against per-GPU memory (lower is better), or
// for cluster sizing of days against dollars. Both break ties by a canonical key, so
// that the order in which layouts are met (pruned best-first or exhaustive) cannot
// change the answer.

import type { ScoredLayout } from './types.ts';

/** A layout's canonical key: the degrees in enumeration order, compared lexicographically. */
export type CanonicalKey = readonly number[];

export interface RankedEntry {
  readonly layout: ScoredLayout;
  readonly key: CanonicalKey;
}

/**
 * The layout a variant belongs to: GPU type, cluster size, TP, PP, DP, CP, EP and ZeRO
 * stage (issue 15). Variants differ in pipeline schedule, virtual stages, micro-batch,
 * sequence parallelism, recomputation and offload.
 */
export function layoutGroupKey(l: Pick<ScoredLayout, 'gpuId' | 'gpus' | 'parallel'>): string {
  const p = l.parallel;
  return `${l.gpuId ?? ''}/${l.gpus}/${p.tp}/${p.pp}/${p.dp}/${p.cp}/${p.ep}/${p.zero}`;
}

function compareKeys(a: CanonicalKey, b: CanonicalKey): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** Negative when a ranks before b: higher score, then higher throughput, then less memory, then the canonical key. */
export function compareRanked(a: RankedEntry, b: RankedEntry): number {
  if (a.layout.score !== b.layout.score) return b.layout.score - a.layout.score;
  if (a.layout.tokensPerSecond !== b.layout.tokensPerSecond) return b.layout.tokensPerSecond - a.layout.tokensPerSecond;
  if (a.layout.memoryBytes !== b.layout.memoryBytes) return a.layout.memoryBytes - b.layout.memoryBytes;
  return compareKeys(a.key, b.key);
}

/** Relative slack on bounds, so that rounding in their arithmetic can never prune a layout that ties. */
export const BOUND_SLACK = 1e-9;

/**
 * The K best entries; with `grouped`, the K best layouts (layoutGroupKey), each held by its
 * best variant. Pruning against the threshold stays sound when grouped: a variant scoring
 * below the K-th layout's best can neither be its own layout's best (that one scores higher
 * if its layout is held) nor lift its layout into the K (its best would have to beat the K-th).
 */
export class TopK {
  private readonly entries: RankedEntry[] = [];
  private readonly groups: string[] = [];
  /** The score a layout must at least reach to enter; −Infinity while fewer than K are held. */
  threshold = -Infinity;
  constructor(
    private readonly k: number,
    private readonly grouped = false,
  ) {}

  /** Whether a layout scoring `score` could still enter (cheap, before building an entry). */
  admits(score: number): boolean {
    return score >= this.threshold;
  }

  /** True when no layout with score at most `bound` can enter. */
  excludesBound(bound: number): boolean {
    return bound + BOUND_SLACK * Math.abs(bound) < this.threshold;
  }

  offer(entry: RankedEntry): void {
    const list = this.entries;
    const group = this.grouped ? layoutGroupKey(entry.layout) : '';
    if (this.grouped) {
      const held = this.groups.indexOf(group);
      if (held >= 0) {
        if (compareRanked(entry, list[held] as RankedEntry) >= 0) return;
        list.splice(held, 1);
        this.groups.splice(held, 1);
      }
    }
    let at = list.length;
    while (at > 0 && compareRanked(entry, list[at - 1] as RankedEntry) < 0) at--;
    if (at >= this.k) return;
    list.splice(at, 0, entry);
    this.groups.splice(at, 0, group);
    if (list.length > this.k) {
      list.pop();
      this.groups.pop();
    }
    if (list.length >= this.k) this.threshold = list[list.length - 1]?.layout.score ?? -Infinity;
  }

  best(): ScoredLayout | null {
    return this.entries[0]?.layout ?? null;
  }

  layouts(): ScoredLayout[] {
    return this.entries.map((e) => e.layout);
  }
}

/** The two figures of a front: `up` the higher the better, `down` the lower the better. */
export interface FrontAxes {
  up(l: ScoredLayout): number;
  down(l: ScoredLayout): number;
}

/** Throughput against the most loaded GPU's memory. */
export const THROUGHPUT_MEMORY: FrontAxes = { up: (l) => l.tokensPerSecond, down: (l) => l.memoryBytes };

/** What the search keeps besides the top K: the Pareto front, or cluster sizing's best layout per cluster size. */
export interface SecondAnswer {
  /** True when some entry beats every layout of `gpus` GPUs whose figures are at most `up` and at least `down`. */
  dominatesBound(up: number, down: number, gpus: number): boolean;
  admits(up: number, down: number, gpus: number): boolean;
  offer(entry: RankedEntry): void;
  layouts(): ScoredLayout[];
}

/**
 * Different layouts kept per cluster size for sizing's curve. The search ranks by the
 * closed-form bubble; the engine's simulated schedule can put a layout well behind it
 * (interleaving with fewer micro-batches than stages, docs/search.md), so the curve keeps a few and
 * results.ts shows the soonest of them by the engine.
 */
export const CURVE_CANDIDATES = 4;

/**
 * Cluster sizing's curve: for each cluster size, its CURVE_CANDIDATES soonest different
 * layouts (layoutGroupKey; on one cluster size days and dollars both grow with the step
 * time, so they are also the cheapest there); of ties the smallest canonical key. `up` is −days.
 */
export class SizeCurve implements SecondAnswer {
  private readonly bySize = new Map<number, { up: number; group: string; entry: RankedEntry }[]>();

  /** The up a layout of `gpus` GPUs must beat to enter; −Infinity while fewer are held. */
  private floor(gpus: number): number {
    const held = this.bySize.get(gpus);
    return held && held.length >= CURVE_CANDIDATES ? (held[held.length - 1]?.up ?? -Infinity) : -Infinity;
  }

  dominatesBound(up: number, _down: number, gpus: number): boolean {
    return this.floor(gpus) > up + BOUND_SLACK * Math.abs(up);
  }

  admits(up: number, _down: number, gpus: number): boolean {
    return up >= this.floor(gpus);
  }

  offer(entry: RankedEntry): void {
    const up = -entry.layout.days;
    const group = layoutGroupKey(entry.layout);
    let held = this.bySize.get(entry.layout.gpus);
    if (!held) this.bySize.set(entry.layout.gpus, (held = []));
    const before = (a: { up: number; entry: RankedEntry }) => a.up > up || (a.up === up && compareKeys(a.entry.key, entry.key) <= 0);
    const same = held.findIndex((h) => h.group === group);
    if (same >= 0) {
      if (before(held[same] as { up: number; entry: RankedEntry })) return;
      held.splice(same, 1);
    }
    let at = held.length;
    while (at > 0 && !before(held[at - 1] as { up: number; entry: RankedEntry })) at--;
    if (at >= CURVE_CANDIDATES) return;
    held.splice(at, 0, { up, group, entry });
    if (held.length > CURVE_CANDIDATES) held.pop();
  }

  /** By cluster size, soonest first within a size. */
  layouts(): ScoredLayout[] {
    return [...this.bySize.entries()].sort((a, b) => a[0] - b[0]).flatMap(([, held]) => held.map((h) => h.entry.layout));
  }
}

/**
 * Layouts no other beats on both figures (at least as good on both, better on one); of
 * exact duplicates the one with the smallest canonical key. Kept sorted by `up` ascending,
 * where `down` then ascends strictly too. The method parameters say throughput (t) and
 * memory (m) for the default axes; any FrontAxes reads the same way.
 */
export class ParetoFront implements SecondAnswer {
  constructor(private readonly axes: FrontAxes = THROUGHPUT_MEMORY) {}
  private readonly entries: RankedEntry[] = [];
  /** Throughput and memory of the entries, as plain number arrays for the binary search. */
  private readonly throughput: number[] = [];
  private readonly memory: number[] = [];

  /** Index of the first entry with throughput ≥ t (binary search). */
  private firstAtLeast(t: number): number {
    const ts = this.throughput;
    let lo = 0;
    let hi = ts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((ts[mid] ?? 0) < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** True when some entry beats (t, m) on both counts: no layout with throughput ≤ t and memory ≥ m can be on the front. */
  dominatesBound(tokensPerSecondUpper: number, memoryLower: number): boolean {
    // The first entry at or above the throughput bound has the least memory of all such entries.
    const i = this.firstAtLeast(tokensPerSecondUpper * (1 + BOUND_SLACK));
    return i < this.memory.length && (this.memory[i] ?? 0) < memoryLower * (1 - BOUND_SLACK);
  }

  /** Cheap pre-check: could (t, m) join the front (or replace a duplicate)? */
  admits(t: number, m: number): boolean {
    const i = this.firstAtLeast(t);
    if (i >= this.memory.length) return true;
    const mi = this.memory[i] ?? 0;
    return mi > m || (mi === m && this.throughput[i] === t);
  }

  offer(entry: RankedEntry): void {
    const t = this.axes.up(entry.layout);
    const m = this.axes.down(entry.layout);
    const list = this.entries;
    const i = this.firstAtLeast(t);
    const next = list[i];
    const nextT = this.throughput[i] ?? 0;
    const nextM = this.memory[i] ?? 0;
    if (next && nextM <= m) {
      const duplicate = nextM === m && nextT === t;
      if (duplicate && compareKeys(entry.key, next.key) < 0) list[i] = entry;
      return;
    }
    // Entries below i have less throughput; those with memory ≥ m are now dominated (a suffix, as memory ascends).
    let from = i;
    while (from > 0 && (this.memory[from - 1] ?? 0) >= m) from--;
    // An entry with the same throughput and more memory is dominated too.
    const removed = i - from + (next && nextT === t ? 1 : 0);
    list.splice(from, removed, entry);
    this.throughput.splice(from, removed, t);
    this.memory.splice(from, removed, m);
  }

  layouts(): ScoredLayout[] {
    return this.entries.map((e) => e.layout);
  }
}

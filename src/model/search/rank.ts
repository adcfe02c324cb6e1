// The search's two answers, kept up to date as layouts are scored: the K best by the
// objective, and the Pareto front of throughput (higher is better) against per-GPU
// memory (lower is better). Both break ties by a canonical key, so that the order in
// which layouts are met (pruned best-first or exhaustive) cannot change the answer.

import type { ScoredLayout } from './types.ts';

/** A layout's canonical key: the degrees in enumeration order, compared lexicographically. */
export type CanonicalKey = readonly number[];

export interface RankedEntry {
  readonly layout: ScoredLayout;
  readonly key: CanonicalKey;
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

export class TopK {
  private readonly entries: RankedEntry[] = [];
  /** The score a layout must at least reach to enter; −Infinity while fewer than K are held. */
  threshold = -Infinity;
  constructor(private readonly k: number) {}

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
    let at = list.length;
    while (at > 0 && compareRanked(entry, list[at - 1] as RankedEntry) < 0) at--;
    if (at >= this.k) return;
    list.splice(at, 0, entry);
    if (list.length > this.k) list.pop();
    if (list.length >= this.k) this.threshold = list[list.length - 1]?.layout.score ?? -Infinity;
  }

  best(): ScoredLayout | null {
    return this.entries[0]?.layout ?? null;
  }

  layouts(): ScoredLayout[] {
    return this.entries.map((e) => e.layout);
  }
}

/**
 * Layouts no other beats on both throughput and memory (at least as good on both, better
 * on one); of exact duplicates the one with the smallest canonical key. Kept sorted by
 * throughput ascending, where memory then ascends strictly too.
 */
export class ParetoFront {
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
    const { tokensPerSecond: t, memoryBytes: m } = entry.layout;
    const list = this.entries;
    const i = this.firstAtLeast(t);
    const next = list[i];
    if (next && next.layout.memoryBytes <= m) {
      const duplicate = next.layout.memoryBytes === m && next.layout.tokensPerSecond === t;
      if (duplicate && compareKeys(entry.key, next.key) < 0) list[i] = entry;
      return;
    }
    // Entries below i have less throughput; those with memory ≥ m are now dominated (a suffix, as memory ascends).
    let from = i;
    while (from > 0 && (list[from - 1]?.layout.memoryBytes ?? 0) >= m) from--;
    // An entry with the same throughput and more memory is dominated too.
    const removed = i - from + (next && next.layout.tokensPerSecond === t ? 1 : 0);
    list.splice(from, removed, entry);
    this.throughput.splice(from, removed, t);
    this.memory.splice(from, removed, m);
  }

  layouts(): ScoredLayout[] {
    return this.entries.map((e) => e.layout);
  }
}

// Automatic parallel-layout search (issue 5; the article's section 3.2): every valid
// layout of a model on a cluster for a global batch, those that do not fit in memory
// rejected, the rest ranked by the objective; returns the top K and the Pareto front of
// throughput against per-GPU memory.
//
// Branch and bound. The space is cut into groups (every degree but the pipeline shape
// and the ZeRO/offload combo, search-space.ts); each group and each of its shapes gets a
// lower bound on step time and on memory (search-eval.ts). A group or shape is skipped
// only when its bounds prove that none of its layouts can fit, meet the budget, enter
// the top K (its best possible score is below the K-th found) and, when the front is
// asked for, reach the Pareto front (a found layout is faster than its fastest and
// smaller than its smallest). Groups are visited best bound first so that the K-th
// score rises early. search-prune.test.ts checks that the pruned search returns what
// the exhaustive one does.
//
// For a Web Worker: searchSteps is a generator that yields progress every
// `progressEvery` layouts; the worker can await between steps (so that a cancel message
// is handled) and stop through `control.shouldStop`, getting the part searched.

import { Scoring, SearchRun } from './run.ts';
import { layoutGroups, groupLayoutCount } from './space.ts';
import type { SearchOptions, SearchProgress, SearchResult } from './types.ts';
import type { RunConfig } from '../input/index.ts';
import { GiB } from '../input/index.ts';

export interface SearchControl {
  /** Checked at every progress point; true ends the search with what it has (stopped: true). */
  readonly shouldStop?: () => boolean;
  readonly onProgress?: (progress: SearchProgress) => void;
}

export const DEFAULT_TOP_K = 10;
const DEFAULT_PROGRESS_EVERY = 65_536;

/** Resolved options with their defaults. */
function settle(base: RunConfig, options: SearchOptions) {
  return {
    objective: options.objective ?? 'tokensPerSecond',
    topK: Math.max(1, Math.floor(options.topK ?? DEFAULT_TOP_K)),
    pareto: options.pareto ?? true,
    exhaustive: options.exhaustive ?? false,
    progressEvery: Math.max(1, options.progressEvery ?? DEFAULT_PROGRESS_EVERY),
    capacityBytes: options.memoryCapacityBytes ?? base.cluster.gpu.memoryGiB * GiB,
    maxUsd: options.maxUsd ?? Infinity,
    maxDays: options.maxDays ?? Infinity,
  };
}

export function* searchSteps(base: RunConfig, options: SearchOptions = {}, control: SearchControl = {}): Generator<SearchProgress, SearchResult, void> {
  const o = settle(base, options);
  const groups = layoutGroups(base, options);
  const layouts = groups.reduce((n, g) => n + groupLayoutCount(g), 0);
  const scoring = new Scoring(base, o.objective, o.capacityBytes, o.maxUsd, o.maxDays);
  const run = new SearchRun(base, groups, scoring, o);
  const progress = (): SearchProgress => {
    const c = run.snapshot(layouts);
    return { ...c, fraction: layouts > 0 ? (c.evaluated + c.memoryOnly + c.pruned) / layouts : 1, best: run.top.best() };
  };

  // Best bound first: the K-th score rises fastest. The exhaustive search keeps the canonical order.
  const order = groups.map((_, i) => i);
  const groupStep = new Float64Array(groups.length);
  const groupMemory = new Float64Array(groups.length);
  if (!o.exhaustive) {
    const bound = new Float64Array(groups.length);
    groups.forEach((g, i) => {
      const b = run.groupBounds(g);
      groupStep[i] = b.step;
      groupMemory[i] = b.memory;
      bound[i] = scoring.score(b.step, b.memory, g.gpus);
    });
    order.sort((a, b) => (bound[b] ?? 0) - (bound[a] ?? 0) || a - b);
  }

  let sinceProgress = 0;
  for (const gi of order) {
    const g = groups[gi];
    if (!g) continue;
    if (!o.exhaustive && run.prunable(groupStep[gi] ?? 0, groupMemory[gi] ?? 0, g.gpus)) run.prune(g);
    else run.runGroup(g);
    sinceProgress += groupLayoutCount(g);
    if (sinceProgress >= o.progressEvery) {
      sinceProgress = 0;
      const p = progress();
      control.onProgress?.(p);
      yield p;
      if (control.shouldStop?.()) return finish(true);
    }
  }
  return finish(false);

  function finish(stopped: boolean): SearchResult {
    const warnings: string[] = [];
    const errors: string[] = [];
    const fitting = run.counts.fitting;
    if (layouts === 0) errors.push('search: no parallel layout is valid for this model, cluster size and global batch under the constraints given');
    else if (!stopped && fitting === 0) warnings.push(`search: none of the ${layouts} valid layouts fits in ${(o.capacityBytes / GiB).toFixed(1)} GiB per GPU${o.maxUsd < Infinity || o.maxDays < Infinity ? ' within the budget' : ''}`);
    return { top: run.top.layouts(), pareto: o.pareto ? run.front.layouts() : [], counts: run.snapshot(layouts), stopped, warnings, errors };
  }
}

/** Runs the search to the end (or until control.shouldStop says so). */
export function searchLayouts(base: RunConfig, options: SearchOptions = {}, control: SearchControl = {}): SearchResult {
  const steps = searchSteps(base, options, control);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

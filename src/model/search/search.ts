// Automatic parallel-layout search (issue 5; the article's section 3.2): every valid
// layout of a model on a cluster for a global batch, those that do not fit in memory
// (less the margin kept free) rejected, the rest ranked by the objective; returns the
// top K (K different layouts, each its best variant, unless asked otherwise) and the
// Pareto front of throughput against per-GPU memory.
//
// Branch and bound. The space is cut into groups (every degree but the pipeline shape
// and the ZeRO/offload combo, space.ts); each group and each of its shapes gets a
// lower bound on step time and on memory (evaluate.ts). A group or shape is skipped
// only when its bounds prove that none of its layouts can fit, meet the budget, enter
// the top K (its best possible score is below the K-th found) and, when the front is
// asked for, reach the Pareto front (a found layout is faster than its fastest and
// smaller than its smallest). Groups are visited best bound first so that the K-th
// score rises early. prune.test.ts checks that the pruned search returns what the
// exhaustive one does.
//
// Cluster sizing (issue 15) searches several lanes (one base run per GPU type) over a
// range of cluster sizes with one shared top K: the bounds of every (lane, size) block
// are computed first, then blocks are visited best bound first, and a block whose every
// group is ruled out is skipped without enumerating it again.
//
// For a Web Worker: searchSteps is a generator that yields progress every
// `progressEvery` layouts; the worker can await between steps (so that a cancel message
// is handled) and stop through `control.shouldStop`, getting the part searched.

import { Scoring, SearchRun, type RunSettings } from './run.ts';
import { TopK } from './rank.ts';
import { allowedGpuCounts, sizingGranularity } from './sizing.ts';
import { LayoutSpace, groupLayoutCount, searchGpuCounts, type LayoutGroup } from './space.ts';
import {
  DEFAULT_MEMORY_MARGIN,
  laneMargin,
  type ScoredLayout,
  type SearchOptions,
  type SearchProgress,
  type SearchResult,
  type StackSwitches,
} from './types.ts';
import type { RunConfig } from '../input/index.ts';
import { GiB, osNodeGpus } from '../input/index.ts';

export interface SearchControl {
  /** Checked at every progress point; true ends the search with what it has (stopped: true). */
  readonly shouldStop?: () => boolean;
  readonly onProgress?: (progress: SearchProgress) => void;
}

/** One base run searched: a GPU type (its preset id when several are searched together). */
export interface SearchLane {
  readonly base: RunConfig;
  readonly gpuId?: string;
  /** The framework switches set on this lane's base (document.ts), reported on its layouts. */
  readonly switches?: StackSwitches;
}

export const DEFAULT_TOP_K = 10;
const DEFAULT_PROGRESS_EVERY = 65_536;
/** Share of the progress bar the bounds pass takes when several blocks are searched (it computes every piece). */
const BOUNDS_SHARE = 0.3;
/** Blocks whose groups are kept between the bounds pass and the search; more are enumerated again (memory). */
const KEPT_BLOCKS = 4;
/** Group bounds kept between the passes (24 bytes each); blocks beyond compute theirs again when visited (memory). */
const DEFAULT_KEPT_BOUNDS = 2_000_000;
/** (GPU type, cluster size) pairs one search covers: a wider range is refused with a message rather than run for minutes. */
export const MAX_SEARCH_BLOCKS = 2000;

/** Resolved options with their defaults. */
function settle(options: SearchOptions) {
  const margin = options.memoryMargin ?? DEFAULT_MEMORY_MARGIN;
  return {
    objective: options.objective ?? 'tokensPerSecond',
    topK: Math.max(1, Math.floor(options.topK ?? DEFAULT_TOP_K)),
    pareto: options.pareto ?? true,
    exhaustive: options.exhaustive ?? false,
    progressEvery: Math.max(1, options.progressEvery ?? DEFAULT_PROGRESS_EVERY),
    maxUsd: options.maxUsd ?? Infinity,
    maxDays: options.maxDays ?? Infinity,
    margin: Number.isFinite(margin) ? Math.min(Math.max(margin, 0), 1) : DEFAULT_MEMORY_MARGIN,
    evenLayerSplit: options.evenLayerSplit ?? true,
    interleaveWithFullPipeline: options.interleaveWithFullPipeline ?? true,
    groupByLayout: options.groupByLayout ?? true,
  };
}

/** Lower bounds of a block's groups, in enumeration order: step time, memory, and the score they allow. */
interface Bounds {
  readonly step: Float64Array;
  readonly memory: Float64Array;
  readonly bound: Float64Array;
}

/**
 * One cluster size of one lane: its best bound, the least step and memory bounds of its
 * groups (every group's bounds are at least these, so when they are ruled out the block
 * is), each group's bounds while few are held, and the groups while few blocks are searched.
 */
interface Block {
  readonly lane: number;
  readonly gpus: number;
  readonly layouts: number;
  best: number;
  leastStep: number;
  leastMemory: number;
  bounds: Bounds | null;
  groups: LayoutGroup[] | null;
}

function boundsOf(groups: readonly LayoutGroup[], run: SearchRun, scoring: Scoring): Bounds {
  const n = groups.length;
  const b: Bounds = { step: new Float64Array(n), memory: new Float64Array(n), bound: new Float64Array(n) };
  groups.forEach((g, i) => {
    const lower = run.groupBounds(g);
    b.step[i] = lower.step;
    b.memory[i] = lower.memory;
    b.bound[i] = scoring.score(lower.step, lower.memory, g.gpus);
  });
  return b;
}

export function* searchSteps(
  base: RunConfig,
  options: SearchOptions = {},
  control: SearchControl = {},
): Generator<SearchProgress, SearchResult, void> {
  return yield* searchLaneSteps([{ base }], options, control);
}

export function* searchLaneSteps(
  lanes: readonly SearchLane[],
  options: SearchOptions = {},
  control: SearchControl = {},
): Generator<SearchProgress, SearchResult, void> {
  const o = settle(options);
  const spaceOptions: SearchOptions = {
    ...options,
    evenLayerSplit: o.evenLayerSplit,
    interleaveWithFullPipeline: o.interleaveWithFullPipeline,
  };
  const top = new TopK(o.topK, o.groupByLayout);
  const settings: RunSettings = {
    pareto: o.pareto,
    exhaustive: o.exhaustive,
    topK: o.topK,
    groupByLayout: o.groupByLayout,
    front: lanes.length > 1 || options.gpuRange ? 'sizeCurve' : 'throughputMemory',
  };
  const runs = lanes.map((lane, i) => {
    const capacity = options.memoryCapacityBytes ?? lane.base.cluster.gpu.memoryGiB * GiB;
    const scoring = new Scoring(lane.base, o.objective, capacity, o.maxUsd, o.maxDays, capacity * (1 - laneMargin(lane.base, o.margin)));
    const counts = options.gpuRange
      ? allowedGpuCounts(lane.base, spaceOptions, options.gpuRange)
      : searchGpuCounts(lane.base, spaceOptions);
    const run = new SearchRun(lane.base, [], scoring, settings, {
      top,
      lane: i,
      ...(lane.gpuId !== undefined ? { gpuId: lane.gpuId } : {}),
      ...(lane.switches ? { switches: lane.switches } : {}),
    });
    return { lane, scoring, counts, run, space: new LayoutSpace(lane.base, spaceOptions) };
  });
  const blockCount = runs.reduce((n, r) => n + r.counts.length, 0);
  const keep = blockCount <= KEPT_BLOCKS;
  const counts = () => {
    const c = { evaluated: 0, memoryOnly: 0, pruned: 0, fitting: 0 };
    for (const { run } of runs) {
      c.evaluated += run.counts.evaluated;
      c.memoryOnly += run.counts.memoryOnly;
      c.pruned += run.counts.pruned;
      c.fitting += run.counts.fitting;
    }
    return c;
  };
  let layouts = 0;
  let bounded = 0;
  const boundsShare = o.exhaustive || blockCount <= 1 ? 0 : BOUNDS_SHARE;
  const progress = (): SearchProgress => {
    const c = counts();
    const searched = layouts > 0 ? (c.evaluated + c.memoryOnly + c.pruned) / layouts : 1;
    const fraction = boundsShare * (blockCount > 0 ? bounded / blockCount : 1) + (1 - boundsShare) * (bounded < blockCount ? 0 : searched);
    return { layouts, ...c, fraction, best: top.best() };
  };
  let sinceProgress = 0;
  if (blockCount > MAX_SEARCH_BLOCKS) {
    return {
      top: [],
      pareto: [],
      counts: { layouts: 0, evaluated: 0, memoryOnly: 0, pruned: 0, fitting: 0 },
      stopped: false,
      warnings: [],
      errors: [
        `search: ${blockCount.toLocaleString('en-US')} pairs of GPU type and cluster size are more than one ` +
          `search covers (${MAX_SEARCH_BLOCKS.toLocaleString('en-US')}); narrow the GPU range or the GPU types`,
      ],
    };
  }
  // The bounds pass: every block's groups, their bounds and the block's best bound.
  const blocks: Block[] = [];
  let keptBounds = 0;
  for (const [lane, r] of runs.entries()) {
    for (const gpus of r.counts) {
      const groups = r.space.groupsFor(gpus);
      const block: Block = {
        lane,
        gpus,
        layouts: groups.reduce((sum, g) => sum + groupLayoutCount(g), 0),
        best: -Infinity,
        leastStep: Infinity,
        leastMemory: Infinity,
        bounds: null,
        groups: keep ? groups : null,
      };
      if (!o.exhaustive) {
        const b = boundsOf(groups, r.run, r.scoring);
        for (let i = 0; i < groups.length; i++) {
          block.best = Math.max(block.best, b.bound[i] ?? -Infinity);
          block.leastStep = Math.min(block.leastStep, b.step[i] ?? Infinity);
          block.leastMemory = Math.min(block.leastMemory, b.memory[i] ?? Infinity);
        }
        if (keptBounds + groups.length <= (options.keptBounds ?? DEFAULT_KEPT_BOUNDS)) {
          block.bounds = b;
          keptBounds += groups.length;
        }
      }
      layouts += block.layouts;
      bounded++;
      if (block.layouts > 0) blocks.push(block);
      sinceProgress += boundsShare > 0 ? Math.max(block.layouts, o.progressEvery / 4) : 0;
      if (sinceProgress >= o.progressEvery && (yield* report())) return finish(true);
    }
  }
  bounded = blockCount;
  // Best block first (the canonical order for the exhaustive search).
  if (!o.exhaustive) blocks.sort((a, b) => b.best - a.best || a.lane - b.lane || a.gpus - b.gpus);

  for (const block of blocks) {
    const r = runs[block.lane];
    if (!r) continue;
    if (!o.exhaustive) {
      // Ruled out whole, without enumerating it again: by its least bounds, or by every group's.
      let open = !r.run.prunable(block.leastStep, block.leastMemory, block.gpus);
      const held = block.bounds;
      if (open && held) {
        open = false;
        for (let i = 0; i < held.step.length && !open; i++) open = !r.run.prunable(held.step[i] ?? 0, held.memory[i] ?? 0, block.gpus);
      }
      if (!open) {
        r.run.counts.pruned += block.layouts;
        sinceProgress += block.layouts;
        if (sinceProgress >= o.progressEvery && (yield* report())) return finish(true);
        continue;
      }
    }
    const groups = block.groups ?? r.space.groupsFor(block.gpus);
    block.groups = null;
    const bounds = o.exhaustive ? null : (block.bounds ?? boundsOf(groups, r.run, r.scoring));
    block.bounds = null;
    const order = groups.map((_, i) => i);
    if (bounds) order.sort((a, b) => (bounds.bound[b] ?? 0) - (bounds.bound[a] ?? 0) || a - b);
    for (const gi of order) {
      const g = groups[gi];
      if (!g) continue;
      if (bounds && r.run.prunable(bounds.step[gi] ?? 0, bounds.memory[gi] ?? 0, g.gpus)) r.run.prune(g);
      else r.run.runGroup(g);
      sinceProgress += groupLayoutCount(g);
      if (sinceProgress >= o.progressEvery && (yield* report())) return finish(true);
    }
  }
  return finish(false);

  /** A progress point: hands progress back; true when the caller asked to stop. */
  function* report(): Generator<SearchProgress, boolean, void> {
    sinceProgress = 0;
    const p = progress();
    control.onProgress?.(p);
    yield p;
    return control.shouldStop?.() ?? false;
  }

  function finish(stopped: boolean): SearchResult {
    const warnings: string[] = [];
    const errors: string[] = [];
    const c = counts();
    if (options.gpuRange) {
      // Sizing states its granularity, and why a GPU type has no result (issue 36).
      const range = options.gpuRange;
      for (const r of runs) {
        warnings.push(`sizing: ${sizingGranularity(r.lane.base)}`);
        if (r.counts.length === 0)
          warnings.push(
            `sizing: no ${r.lane.gpuId ?? r.lane.base.cluster.gpu.name} cluster from ` +
              `${range.min} to ${range.max} GPUs: no count in the range is whole nodes ` +
              `and splits into degrees the model, the global batch and the framework allow`,
          );
        else if (!stopped && r.run.counts.fitting === 0 && runs.length > 1)
          warnings.push(`sizing: no ${r.lane.gpuId ?? r.lane.base.cluster.gpu.name} layout fits from ${range.min} to ${range.max} GPUs`);
      }
    } else {
      for (const r of runs) {
        const domain = r.lane.base.cluster.gpusPerNode;
        const node = osNodeGpus(r.lane.base.cluster);
        for (const n of r.counts) {
          if (domain > node && n > domain && n % domain !== 0) {
            warnings.push(
              `search: ${n} ${r.lane.gpuId ?? r.lane.base.cluster.gpu.name} GPUs are ${n / node} nodes of ${node} ` +
                `but not whole NVLink domains of ${domain} (${Math.floor(n / domain)} full, one with ${n % domain})`,
            );
          }
        }
      }
    }
    if (layouts === 0 && !stopped)
      errors.push('search: no parallel layout is valid for this model, cluster size and global batch under the constraints given');
    else if (!stopped && c.fitting === 0)
      warnings.push(
        noFitWarning(
          runs.map((r) => r.scoring.limitBytes),
          layouts,
          o.margin,
          o.maxUsd < Infinity || o.maxDays < Infinity,
        ),
      );
    const fronts = runs.map((r) => r.run.front.layouts());
    return { top: top.layouts(), pareto: o.pareto ? fronts.flat() : [], counts: { layouts, ...c }, stopped, warnings, errors };
  }
}

function noFitWarning(limits: readonly number[], layouts: number, margin: number, budget: boolean): string {
  const gib = [...new Set(limits.map((l) => (l / GiB).toFixed(1)))].join(' or ');
  const kept = margin > 0 ? ` (${Math.round(margin * 100)} % of each GPU kept free)` : '';
  return `search: none of the ${layouts} valid layouts fits in ${gib} GiB per GPU${kept}${budget ? ' within the budget' : ''}`;
}

/** Runs the search to the end (or until control.shouldStop says so). */
export function searchLayouts(base: RunConfig, options: SearchOptions = {}, control: SearchControl = {}): SearchResult {
  return runToEnd(searchSteps(base, options, control));
}

export function runToEnd<T>(steps: Generator<SearchProgress, T, void>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * The variants of one found layout (same GPU type, cluster size, TP, PP, DP, CP, EP and
 * ZeRO stage), best first: the search again with those held, one entry per variant.
 * Exact, unlike keeping the variants met on the way (pruning skips most of them).
 */
export function layoutVariants(base: RunConfig, layout: ScoredLayout, options: SearchOptions, count: number): ScoredLayout[] {
  const p = layout.parallel;
  const { gpuRange: _range, maxGpus: _max, ...rest } = options;
  const result = searchLayouts(base, {
    ...rest,
    fixed: { ...options.fixed, tp: p.tp, pp: p.pp, dp: p.dp, cp: p.cp, ep: p.ep, zero: p.zero },
    gpuCounts: [layout.gpus],
    topK: count,
    groupByLayout: false,
    pareto: false,
    progressEvery: Number.MAX_SAFE_INTEGER,
  });
  return result.top.map((l) => ({
    ...l,
    ...(layout.gpuId !== undefined ? { gpuId: layout.gpuId } : {}),
    ...(layout.switches ? { switches: layout.switches } : {}),
  }));
}

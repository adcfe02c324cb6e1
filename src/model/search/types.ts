// Types of the parallel-layout search (issue 5): what the caller may fix or limit,
// what the search reports. The page's worker, the command line and the tests share them.

import type { OffloadConfig, ParallelConfig, Recompute, ScheduleKind, ZeroStage } from '../input/types.ts';

/** What the ranking maximises: throughput, or the least time, money or memory. */
export type SearchObjective = 'tokensPerSecond' | 'days' | 'usd' | 'memoryHeadroom';
export const SEARCH_OBJECTIVES: readonly SearchObjective[] = ['tokensPerSecond', 'days', 'usd', 'memoryHeadroom'];

/** Degrees the caller pins (any subset); the rest are searched. */
export interface FixedDegrees {
  readonly tp?: number;
  readonly pp?: number;
  readonly dp?: number;
  readonly cp?: number;
  readonly ep?: number;
  readonly vpp?: number;
  readonly sequenceParallel?: boolean;
  readonly zero?: ZeroStage;
  readonly schedule?: ScheduleKind;
  readonly microBatch?: number;
  readonly recompute?: Recompute;
}

export interface SearchOptions {
  /** Default 'tokensPerSecond'. */
  readonly objective?: SearchObjective;
  /** Layouts ranked and returned; default 10. */
  readonly topK?: number;
  readonly fixed?: FixedDegrees;
  /** Keep tensor parallelism inside one node (tp ≤ cluster.gpusPerNode). Default false. */
  readonly tpWithinNode?: boolean;
  /** Only layer counts that split evenly over pp × vpp chunks (the engine itself allows uneven splits). Default false. */
  readonly evenLayerSplit?: boolean;
  /** Also search optimizer and parameter offload; otherwise training.offload is kept as given. Default false. */
  readonly searchOffload?: boolean;
  /** Cluster sizes to search; default [cluster.gpus]. */
  readonly gpuCounts?: readonly number[];
  /** Search every cluster size gpusPerNode × 2^k up to this, and this (used when gpuCounts is absent). */
  readonly maxGpus?: number;
  /** Budget: leave out layouts whose training run would cost more (cost.usdPerGpuHour × GPU-hours). */
  readonly maxUsd?: number;
  /** Leave out layouts whose training run would take longer. */
  readonly maxDays?: number;
  /** Memory limit per GPU in bytes; default the GPU's memory. */
  readonly memoryCapacityBytes?: number;
  /** Also return the Pareto front of throughput against per-GPU memory. Default true. */
  readonly pareto?: boolean;
  /** Evaluate every layout, no pruning (the reference the pruned search is tested against; the benchmark's mode). Default false. */
  readonly exhaustive?: boolean;
  /** Hand back progress (a generator yield) after about this many layouts; default 65,536. */
  readonly progressEvery?: number;
}

/** One point of the layout space: the interchange document's `parallel`, the searched `training` fields and the cluster size. */
export interface LayoutChoice {
  readonly gpus: number;
  readonly parallel: ParallelConfig;
  readonly microBatch: number;
  readonly recompute: Recompute;
  readonly offload: OffloadConfig;
}

/** A layout as the search's fast evaluator scored it (step time by the closed-form pipeline bubble). */
export interface ScoredLayout extends LayoutChoice {
  readonly stepSeconds: number;
  readonly tokensPerSecond: number;
  /** The most loaded GPU's memory, bytes. */
  readonly memoryBytes: number;
  /** The objective as a number to maximise: tokens/s, −days, −usd or capacity − memory. */
  readonly score: number;
}

/**
 * How the layouts of the space were treated: layouts = evaluated + memoryOnly + pruned.
 * evaluated: memory and step time both computed. memoryOnly: memory computed and over the
 * limit, so the time was skipped (pruned search only). pruned: never evaluated one by one,
 * because a bound proved that none of them could fit, enter the top K or reach the Pareto front.
 */
export interface SearchCounts {
  readonly layouts: number;
  readonly evaluated: number;
  readonly memoryOnly: number;
  readonly pruned: number;
  /** Evaluated layouts that fit in memory and within the budget. */
  readonly fitting: number;
}

export interface SearchProgress extends SearchCounts {
  /** Share of the space done, 0..1. */
  readonly fraction: number;
  readonly best: ScoredLayout | null;
}

export interface SearchResult {
  /** Best first. */
  readonly top: readonly ScoredLayout[];
  /** Throughput against per-GPU memory, least memory first; empty when not asked for. */
  readonly pareto: readonly ScoredLayout[];
  readonly counts: SearchCounts;
  /** True when the caller stopped the search early: the figures cover the part searched. */
  readonly stopped: boolean;
  readonly warnings: readonly string[];
  readonly errors: readonly string[];
}

// Types of the parallel-layout search (issue 5): what the caller may fix or limit,
// what the search reports. The page's worker, the command line and the tests share them.

import { segmentTightFromShare, VERDICT_TIGHT_FROM_SHARE } from '../validation/index.ts';
import type { CudaGraphScope, OffloadConfig, ParallelConfig, Recompute, RunConfig, ScheduleKind, ZeroStage } from '../input/index.ts';

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
  /**
   * Only layer counts that split evenly over pp × vpp chunks (the engine itself allows
   * uneven splits; Megatron-LM then needs --pipeline-model-parallel-layout). Default true
   * for searchLayouts and the document search; the bare enumerator (space.ts) keeps every split.
   */
  readonly evenLayerSplit?: boolean;
  /**
   * Interleaved 1F1B only with at least pp micro-batches per step. With fewer, the engine's
   * simulated schedule gains nothing over 1F1B (one micro-batch visits the stages' chunks in
   * turn) while the closed-form bubble (p − 1)/(v·m) the search ranks by counts a large gain,
   * so such layouts would be ranked high and shown slow. Default true for searchLayouts and
   * the document search; the bare enumerator (space.ts) keeps them.
   */
  readonly interleaveWithFullPipeline?: boolean;
  /** Also search optimizer and parameter offload; otherwise training.offload is kept as given. Default false. */
  readonly searchOffload?: boolean;
  /** Cluster sizes to search; default [cluster.gpus]. */
  readonly gpuCounts?: readonly number[];
  /**
   * Cluster sizing: every whole-node GPU count from min to max for which the layout rules
   * admit at least one layout (sizing.ts allowedGpuCounts). Wins over gpuCounts and maxGpus.
   */
  readonly gpuRange?: { readonly min: number; readonly max: number };
  /** Search every cluster size gpusPerNode × 2^k up to this, and this (used when gpuCounts is absent). */
  readonly maxGpus?: number;
  /** Budget: leave out layouts whose training run would cost more (cost.usdPerGpuHour × GPU-hours). */
  readonly maxUsd?: number;
  /** Leave out layouts whose training run would take longer. */
  readonly maxDays?: number;
  /** Memory per GPU in bytes; default the GPU's memory. The margin below applies to it. */
  readonly memoryCapacityBytes?: number;
  /**
   * Share of the capacity kept free: a layout fits when its most loaded GPU needs at most
   * capacity × (1 − memoryMargin). Default DEFAULT_MEMORY_MARGIN (the verdict's margin).
   */
  readonly memoryMargin?: number;
  /**
   * Rank layouts (TP, PP, DP, CP, EP, ZeRO; with the cluster's size and GPU type) rather than
   * variants: the top K are K different layouts, each its best variant. Default true.
   */
  readonly groupByLayout?: boolean;
  /** Variants folded under each layout of a document search's results (best first, the engine's figures). Default 4. */
  readonly variants?: number;
  /**
   * Document search only: GPU preset ids searched together (cluster sizing), each with its
   * preset's price and GPUs per node unless it is the document's own GPU. Default: the document's GPU.
   */
  readonly gpuTypes?: readonly string[];
  /** Also return the Pareto front of throughput against per-GPU memory. Default true. */
  readonly pareto?: boolean;
  /** Evaluate every layout, no pruning (the reference the pruned search is tested against; the benchmark's mode). Default false. */
  readonly exhaustive?: boolean;
  /** Group bounds held between the bounds pass and the search (24 bytes each; the rest are computed again). Default 2,000,000. */
  readonly keptBounds?: number;
  /** Hand back progress (a generator yield) after about this many layouts; default 65,536. */
  readonly progressEvery?: number;
}

/**
 * Kept free of each GPU's memory unless the caller says otherwise: the verdict's own margin,
 * 1 − the share where the page's OOM verdict turns "tight" (validation/verdict.ts,
 * VERDICT_TIGHT_FROM_SHARE, from the validation set's memory band; 25 % with the current
 * table), so that a recommended layout is never one the page then flags tight.
 */
export const DEFAULT_MEMORY_MARGIN = 1 - VERDICT_TIGHT_FROM_SHARE;

/**
 * The margin a lane (one GPU type and cluster size) is held to: at the default margin or a
 * wider one, at least its own segment's (issue 35: "tight" starts where the top of the run's
 * own memory range reaches capacity, validation/verdict.ts), so no listed layout is tight; a
 * narrower margin is the caller's choice to see tight layouts too.
 */
export function laneMargin(base: RunConfig, margin: number): number {
  return margin >= DEFAULT_MEMORY_MARGIN - 1e-9 ? Math.max(margin, 1 - segmentTightFromShare(base)) : margin;
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
  /** Wall days to train training.tokens (goodput included) and its cost, as the ranking computed them. */
  readonly days: number;
  readonly usd: number;
  /** The GPU preset id, when several GPU types were searched together (cluster sizing). */
  readonly gpuId?: string;
  /** The framework's own switches this layout was scored with, when the search tried them (document.ts stackSwitchLanes). */
  readonly switches?: StackSwitches;
}

/** The framework switches the search tries as layout dimensions (issue 36): EP overlap and CUDA graphs. */
export interface StackSwitches {
  readonly epComm: boolean;
  readonly cudaGraph: CudaGraphScope;
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
  /** Best first; with groupByLayout, K different layouts. */
  readonly top: readonly ScoredLayout[];
  /** Throughput against per-GPU memory, least memory first; empty when not asked for. */
  readonly pareto: readonly ScoredLayout[];
  readonly counts: SearchCounts;
  /** True when the caller stopped the search early: the figures cover the part searched. */
  readonly stopped: boolean;
  readonly warnings: readonly string[];
  readonly errors: readonly string[];
}

// A document search's answer as the interchange spec describes it: each found layout
// re-evaluated with estimateConfig (the engine's own figures, simulated schedule
// included), its variants folded under it, and for cluster sizing the cost against days
// of each GPU type (the soonest layout of each cluster size). The search ranked by the closed-form bubble; the engine's
// simulated schedule can reorder close calls, so layouts and variants are re-sorted by it.

import { estimateConfig } from '../estimate.ts';
import { fitMemoryBytes } from '../memory/index.ts';
import { layoutConfig } from './pieces.ts';
import { layoutVariants } from './search.ts';
import { DEFAULT_MEMORY_MARGIN, laneMargin, type ScoredLayout, type SearchObjective, type SearchOptions } from './types.ts';

/** The search's memory and the engine's agree to 1e-9 (evaluate.test.ts): a result at the limit is not dropped for rounding. */
const MEMORY_TOLERANCE = 1e-9;
import type { CudaGraphScope, EstimateOutput, GpuSpec, OffloadConfig, ParallelConfig, Recompute, RunConfig } from '../input/index.ts';

/** Folded under each layout unless the caller asks otherwise. */
export const DEFAULT_VARIANTS = 4;

/** The memory a result is held to the margin by: the figure the verdict judges (memory/fit.ts, fitMemoryBytes). */
export function heldMemoryBytes(out: EstimateOutput): number {
  return fitMemoryBytes(out);
}

export interface LayoutTraining {
  readonly microBatch: number;
  readonly recompute: Recompute;
  readonly offload: OffloadConfig;
  /** The framework's switches the search tried (switches.ts), when it tried them: training.overlap.epComm and training.cudaGraph. */
  readonly epComm?: boolean;
  readonly cudaGraph?: CudaGraphScope;
}

/** One variant of a layout: the document's `parallel` and searched `training` fields, with the engine's output for them. */
export interface SearchVariant {
  readonly parallel: ParallelConfig;
  readonly training: LayoutTraining;
  /** estimateConfig's output for the layout (timeline left out: null). */
  readonly output: EstimateOutput;
  /** What the search ranked by: the closed-form step time and the most loaded GPU's memory. */
  readonly search: { readonly stepSeconds: number; readonly memoryBytes: number };
}

/** One layout found (GPU type, size, TP, PP, DP, CP, EP, ZeRO): its best variant, the others best first. */
export interface SearchDocumentResult extends SearchVariant {
  /** The GPU preset id (or the document's custom GPU) and the cluster size. */
  readonly cluster: { readonly gpu: string | GpuSpec; readonly gpus: number };
  readonly variants: readonly SearchVariant[];
}

/** One cluster size of a GPU type (cluster sizing): its soonest layout within the limits, which on one size is also its cheapest; the engine's figures. */
export interface CostPoint {
  readonly gpus: number;
  readonly days: number;
  readonly usd: number;
  readonly tokensPerSecond: number;
  readonly parallel: ParallelConfig;
  readonly training: LayoutTraining;
}

export interface CostFront {
  /** GPU preset id (or "custom"), and its name. */
  readonly gpu: string;
  readonly name: string;
  readonly points: readonly CostPoint[];
}

/** The objective read off an estimate output, as a score to maximise. */
export function outputScore(objective: SearchObjective, out: EstimateOutput): number {
  switch (objective) {
    case 'tokensPerSecond':
      return out.throughput?.tokensPerSecond ?? -Infinity;
    case 'days':
      return -(out.time?.days ?? Infinity);
    case 'usd':
      return -(out.cost?.usd ?? Infinity);
    case 'memoryHeadroom':
      return out.memory.capacity - fitMemoryBytes(out);
  }
}

const trainingOf = (l: ScoredLayout): LayoutTraining => ({
  microBatch: l.microBatch,
  recompute: l.recompute,
  offload: l.offload,
  ...(l.switches ? { epComm: l.switches.epComm, cudaGraph: l.switches.cudaGraph } : {}),
});

function variantOf(base: RunConfig, layout: ScoredLayout): SearchVariant {
  const output = estimateConfig(layoutConfig(base, layout));
  return {
    parallel: layout.parallel,
    training: trainingOf(layout),
    output: { ...output, timeline: null },
    search: { stepSeconds: layout.stepSeconds, memoryBytes: layout.memoryBytes },
  };
}

/** The base run of a layout's lane (by GPU id). */
export type LaneOf = (layout: ScoredLayout) => RunConfig;

/**
 * The top layouts as results: each layout's variants found again exactly (search.ts
 * layoutVariants), every variant re-evaluated, the best by the engine shown, the others
 * folded under it; layouts sorted by their shown variant.
 */
export function documentResults(
  top: readonly ScoredLayout[],
  laneOf: LaneOf,
  objective: SearchObjective,
  options: SearchOptions,
): SearchDocumentResult[] {
  const folded = Math.max(0, Math.floor(options.variants ?? DEFAULT_VARIANTS));
  const grouped = options.groupByLayout ?? true;
  // The search held the budget by the closed-form step and memory by its own figure; a variant the engine puts
  // over the budget (simulated schedule) or over the margin (what the device holds) is left out.
  const margin = options.memoryMargin ?? DEFAULT_MEMORY_MARGIN;
  const withinBudget = (out: EstimateOutput, held: number) =>
    (out.time?.days ?? Infinity) <= (options.maxDays ?? Infinity) &&
    (out.cost?.usd ?? Infinity) <= (options.maxUsd ?? Infinity) &&
    heldMemoryBytes(out) <= (options.memoryCapacityBytes ?? out.memory.capacity) * (1 - held) * (1 + MEMORY_TOLERANCE);
  const results: { rank: number; result: SearchDocumentResult }[] = [];
  top.forEach((layout, rank) => {
    const base = laneOf(layout);
    const held = laneMargin(base, margin);
    const found = grouped && folded > 0 ? layoutVariants(base, layout, options, folded + 1) : [layout];
    const variants = (found.length > 0 ? found : [layout])
      .map((l, i) => ({ i, v: variantOf(base, l) }))
      .filter((x) => withinBudget(x.v.output, held))
      .sort((a, b) => outputScore(objective, b.v.output) - outputScore(objective, a.v.output) || a.i - b.i)
      .map((x) => x.v);
    const [shown, ...others] = variants;
    if (!shown) return;
    results.push({
      rank,
      result: { ...shown, cluster: { gpu: base.cluster.gpuId ?? base.cluster.gpu, gpus: layout.gpus }, variants: others },
    });
  });
  return results
    .sort((a, b) => outputScore(objective, b.result.output) - outputScore(objective, a.result.output) || a.rank - b.rank)
    .map((r) => r.result);
}

/**
 * Each lane's cost against days: one point per cluster size that met the limits, soonest
 * first, in the engine's figures. The search kept each size's few soonest layouts by the
 * closed-form step (rank.ts SizeCurve); the engine's simulated schedule can disagree, so
 * the point is the soonest by the engine of those and of the results of that size.
 */
export function costFronts(
  curve: readonly ScoredLayout[],
  lanes: readonly { readonly gpuId?: string; readonly base: RunConfig }[],
  results: readonly SearchDocumentResult[],
): CostFront[] {
  return lanes.map((lane) => {
    const gpu = lane.base.cluster.gpuId ?? lane.base.cluster.gpu;
    const mine = curve.filter((l) => l.gpuId === lane.gpuId);
    const points = [...new Set(mine.map((l) => l.gpus))]
      .map((gpus) => {
        const found = results.filter((r) => r.cluster.gpu === gpu && r.cluster.gpus === gpus).flatMap((r) => [r, ...r.variants]);
        const candidates = [...mine.filter((l) => l.gpus === gpus).map((l) => variantOf(lane.base, l)), ...found];
        const soonest = candidates.reduce((a, b) => ((b.output.time?.days ?? Infinity) < (a.output.time?.days ?? Infinity) ? b : a));
        const out = soonest.output;
        return {
          gpus,
          days: out.time?.days ?? Infinity,
          usd: out.cost?.usd ?? Infinity,
          tokensPerSecond: out.throughput?.tokensPerSecond ?? 0,
          parallel: soonest.parallel,
          training: soonest.training,
        };
      })
      .filter((p) => Number.isFinite(p.days) && Number.isFinite(p.usd))
      .sort((a, b) => a.days - b.days || a.gpus - b.gpus);
    return { gpu: lane.gpuId ?? 'custom', name: lane.base.cluster.gpu.name, points };
  });
}

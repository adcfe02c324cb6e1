// One run of the layout search: the pieces cache, the scoring of the objective, and the
// loops over a group's pipeline shapes and ZeRO/offload combos (the hot path), kept in
// plain methods so that the generator in search.ts only schedules groups.

import { microBatchesPerStep } from '../input/counts.ts';
import { optimizerBytesPerParameter } from '../memory/memory.ts';
import { parameterCounts } from '../structure/params.ts';
import { reliabilityPlan } from '../run/reliability.ts';
import { LayoutEvaluator, type GroupPieces } from './evaluate.ts';
import {
  activationEdgePieces, activationPieces, gridPieces, layerTimePieces, parameterKey, parameterPieces, pipelineMessagePieces, stageCandidates,
  type ActivationEdgePieces, type ActivationPieces, type GridPieces, type ParameterPieces, type LayerTimePieces, type StageCandidates,
} from './pieces.ts';
import { BOUND_SLACK, ParetoFront, TopK, type CanonicalKey } from './rank.ts';
import { groupLayoutCount, type LayoutGroup, type PipelineShape } from './space.ts';
import type { LayoutChoice, ScoredLayout, SearchCounts, SearchObjective } from './types.ts';
import { RECOMPUTES, SCHEDULES, type RunConfig } from '../input/types.ts';
import { SECONDS_PER_DAY, SECONDS_PER_HOUR, WEIGHT_BYTES } from '../input/units.ts';

/** Pieces shared by the groups of one search, keyed by the few degrees each depends on. */
export class PieceCache {
  private readonly times: (LayerTimePieces | undefined)[];
  private readonly activations: (ActivationPieces | undefined)[];
  /** By activation slot / 3: the edges depend on (tp, cp, sequenceParallel), not on recompute. */
  private readonly edges: (ActivationEdgePieces | undefined)[];
  private readonly grids: (GridPieces | undefined)[];
  /** By grid slot × 2 + sequenceParallel. */
  private readonly messages: (GroupPieces['pipelineMessage'] | undefined)[];
  private readonly parameters = new Map<string, ParameterPieces>();
  private readonly stages: (StageCandidates | undefined)[] = [];

  /** `groups` sizes the slot tables (packed arrays, filled as groups are met in any order). */
  constructor(private readonly base: RunConfig, groups: readonly LayoutGroup[] = []) {
    let time = 0;
    let activation = 0;
    let grid = 0;
    for (const g of groups) {
      time = Math.max(time, g.timeSlot + 1);
      activation = Math.max(activation, g.activationSlot + 1);
      grid = Math.max(grid, g.gridSlot + 1);
    }
    const slots = <T>(n: number): (T | undefined)[] => new Array<T | undefined>(n).fill(undefined);
    this.times = slots(time);
    this.activations = slots(activation);
    this.edges = slots(Math.ceil(activation / 3));
    this.grids = slots(grid);
    this.messages = slots(2 * grid);
  }

  group(g: LayoutGroup): GroupPieces {
    let time = this.times[g.timeSlot];
    if (!time) this.times[g.timeSlot] = time = layerTimePieces(this.base, g);
    let activation = this.activations[g.activationSlot];
    if (!activation) {
      const edgeSlot = Math.floor(g.activationSlot / 3);
      let edges = this.edges[edgeSlot];
      if (!edges) this.edges[edgeSlot] = edges = activationEdgePieces(this.base, g);
      this.activations[g.activationSlot] = activation = activationPieces(this.base, g, edges);
    }
    let grid = this.grids[g.gridSlot];
    if (!grid) {
      const key = parameterKey(g);
      let parameters = this.parameters.get(key);
      if (!parameters) this.parameters.set(key, (parameters = parameterPieces(this.base, g)));
      this.grids[g.gridSlot] = grid = gridPieces(this.base, g, parameters);
    }
    const messageSlot = 2 * g.gridSlot + (g.sequenceParallel ? 1 : 0);
    let pipelineMessage = this.messages[messageSlot];
    if (!pipelineMessage) this.messages[messageSlot] = pipelineMessage = pipelineMessagePieces(this.base, g);
    return { time, activation, grid, pipelineMessage };
  }

  stagesOf(shape: PipelineShape): StageCandidates {
    let stages = this.stages[shape.id];
    if (!stages) this.stages[shape.id] = stages = stageCandidates(this.base.model, shape.pp, shape.vpp, shape.schedule);
    return stages;
  }
}

/** The objective as a score to maximise, from a step time and a memory figure (estimate.ts, cost.ts), per cluster size. */
export class Scoring {
  readonly tokensPerStep: number;
  private readonly goodput = new Map<number, number>();
  constructor(private readonly base: RunConfig, readonly objective: SearchObjective, readonly capacityBytes: number, readonly maxUsd: number, readonly maxDays: number) {
    this.tokensPerStep = base.training.globalBatch * base.training.seqLen;
  }

  private goodputOf(gpus: number): number {
    let g = this.goodput.get(gpus);
    if (g === undefined) {
      const t = this.base.training;
      const bytesPerParameter = WEIGHT_BYTES[t.precision] + optimizerBytesPerParameter(t);
      g = reliabilityPlan(this.base.cost, gpus, parameterCounts(this.base.model).total * bytesPerParameter).goodput;
      this.goodput.set(gpus, g);
    }
    return g;
  }

  /** Wall seconds of the whole run (cost.ts trainingTime). */
  wallSeconds(stepSeconds: number, gpus: number): number {
    return this.base.training.tokens / (this.tokensPerStep / stepSeconds) / this.goodputOf(gpus);
  }

  usd(stepSeconds: number, gpus: number): number {
    return gpus * (this.wallSeconds(stepSeconds, gpus) / SECONDS_PER_HOUR) * this.base.cost.usdPerGpuHour;
  }

  score(stepSeconds: number, memoryBytes: number, gpus: number): number {
    switch (this.objective) {
      case 'tokensPerSecond': return this.tokensPerStep / stepSeconds;
      case 'days': return -this.wallSeconds(stepSeconds, gpus) / SECONDS_PER_DAY;
      case 'usd': return -this.usd(stepSeconds, gpus);
      case 'memoryHeadroom': return this.capacityBytes - memoryBytes;
    }
  }

  withinBudget(stepSeconds: number, gpus: number, slack = 0): boolean {
    if (this.maxUsd < Infinity && this.usd(stepSeconds, gpus) > this.maxUsd * (1 + slack)) return false;
    if (this.maxDays < Infinity && this.wallSeconds(stepSeconds, gpus) / SECONDS_PER_DAY > this.maxDays * (1 + slack)) return false;
    return true;
  }
}

function canonicalKey(g: LayoutGroup, shape: PipelineShape, combo: number): CanonicalKey {
  return [g.gpus, g.tp, g.cp, g.pp, g.ep, g.microBatch, g.sequenceParallel ? 1 : 0, g.recomputeIndex, shape.scheduleIndex, shape.vpp, combo];
}

function scoredLayout(g: LayoutGroup, shape: PipelineShape, combo: number, stepSeconds: number, memoryBytes: number, score: number, tokensPerSecond: number): ScoredLayout {
  const state = g.combos[combo] ?? { zero: 0, offload: { optimizer: false, parameters: false } };
  return {
    gpus: g.gpus,
    parallel: { tp: g.tp, pp: g.pp, dp: g.dp, cp: g.cp, ep: g.ep, vpp: shape.vpp, sequenceParallel: g.sequenceParallel, zero: state.zero, schedule: shape.schedule },
    microBatch: g.microBatch,
    recompute: g.recompute,
    offload: state.offload,
    stepSeconds,
    tokensPerSecond,
    memoryBytes,
    score,
  };
}

export interface RunSettings {
  readonly pareto: boolean;
  readonly exhaustive: boolean;
  readonly topK: number;
}

export class SearchRun {
  readonly top: TopK;
  readonly front = new ParetoFront();
  readonly counts = { evaluated: 0, memoryOnly: 0, pruned: 0, fitting: 0 };
  private readonly evaluator: LayoutEvaluator;
  private readonly pieces: PieceCache;

  constructor(base: RunConfig, groups: readonly LayoutGroup[], readonly scoring: Scoring, readonly settings: RunSettings) {
    this.top = new TopK(settings.topK);
    this.evaluator = new LayoutEvaluator(base);
    this.pieces = new PieceCache(base, groups);
  }

  snapshot(layouts: number): SearchCounts {
    return { layouts, ...this.counts };
  }

  /** Group lower bounds on step time and memory, for ordering and pruning. */
  groupBounds(g: LayoutGroup): { step: number; memory: number } {
    this.evaluator.setGroup(g, this.pieces.group(g));
    return this.evaluator.groupLowerBounds(g.shapes, (shape) => this.pieces.stagesOf(shape));
  }

  /** True when no layout with step time ≥ stepLower and memory ≥ memoryLower on `gpus` GPUs can fit, meet the budget, enter the top K or reach the front. */
  prunable(stepLower: number, memoryLower: number, gpus: number): boolean {
    const s = this.scoring;
    if (memoryLower > s.capacityBytes * (1 + BOUND_SLACK)) return true;
    if (!s.withinBudget(stepLower, gpus, BOUND_SLACK)) return true;
    if (!this.top.excludesBound(s.score(stepLower, memoryLower, gpus))) return false;
    return !this.settings.pareto || this.front.dominatesBound(s.tokensPerStep / stepLower, memoryLower);
  }

  /** Evaluates (or prunes) every layout of the group whose own bounds did not already prune it. */
  runGroup(g: LayoutGroup): void {
    const { exhaustive, pareto } = this.settings;
    const ev = this.evaluator;
    const s = this.scoring;
    const n = this.counts;
    const capacity = s.capacityBytes;
    ev.setGroup(g, this.pieces.group(g));
    const combos = g.combos.length;
    for (const shape of g.shapes) {
      ev.setShape(shape, this.pieces.stagesOf(shape));
      if (!exhaustive && this.prunable(ev.shapeStepLowerBound(), ev.shapeMemoryLowerBound(), g.gpus)) {
        n.pruned += combos;
        continue;
      }
      for (let k = 0; k < combos; k++) {
        const memory = ev.memoryBytes(k);
        const fits = memory <= capacity;
        if (!fits && !exhaustive) {
          n.memoryOnly++;
          continue;
        }
        const step = ev.stepSeconds(k);
        n.evaluated++;
        if (!fits || !s.withinBudget(step, g.gpus)) continue;
        n.fitting++;
        const score = s.score(step, memory, g.gpus);
        const tokensPerSecond = s.tokensPerStep / step;
        const forTop = this.top.admits(score);
        const forFront = pareto && this.front.admits(tokensPerSecond, memory);
        if (!forTop && !forFront) continue;
        const entry = { layout: scoredLayout(g, shape, k, step, memory, score, tokensPerSecond), key: canonicalKey(g, shape, k) };
        if (forTop) this.top.offer(entry);
        if (forFront) this.front.offer(entry);
      }
    }
  }

  prune(g: LayoutGroup): void {
    this.counts.pruned += groupLayoutCount(g);
  }
}

/**
 * The fast evaluator on one layout: the per-GPU memory and closed-form step time the search
 * ranks by (for tests and for a page that wants the search's own figure for a layout).
 */
export function fastEvaluate(base: RunConfig, choice: LayoutChoice): { readonly memoryBytes: number; readonly stepSeconds: number } {
  const p = choice.parallel;
  const recomputeIndex = RECOMPUTES.indexOf(choice.recompute);
  const shape: PipelineShape = { id: 0, pp: p.pp, schedule: p.schedule, scheduleIndex: SCHEDULES.indexOf(p.schedule), vpp: p.vpp };
  const group: LayoutGroup = {
    gpus: choice.gpus, tp: p.tp, cp: p.cp, pp: p.pp, dp: p.dp, ep: p.ep,
    microBatch: choice.microBatch, microBatches: microBatchesPerStep({ globalBatch: base.training.globalBatch, microBatch: choice.microBatch }, p),
    sequenceParallel: p.sequenceParallel, recompute: choice.recompute, recomputeIndex,
    shapes: [shape], combos: [{ zero: p.zero, offload: choice.offload }],
    timeSlot: 0, activationSlot: 0, gridSlot: 0,
  };
  const evaluator = new LayoutEvaluator(base);
  const pieces = new PieceCache(base);
  evaluator.setGroup(group, pieces.group(group));
  evaluator.setShape(shape, pieces.stagesOf(shape));
  return { memoryBytes: evaluator.memoryBytes(0), stepSeconds: evaluator.stepSeconds(0) };
}

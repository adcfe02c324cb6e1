// One run of the layout search: the pieces cache, the scoring of the objective, and the
// loops over a group's pipeline shapes and ZeRO/offload combos (the hot path), kept in
// plain methods so that the generator in search.ts only schedules groups.

import { layoutKeptFor, microBatchesPerStep } from '../input/index.ts';
import { hostMemory } from '../memory/index.ts';
import { checkpointBytesOf, runPlan } from '../run/index.ts';
import { LayoutEvaluator, type GroupPieces } from './evaluate.ts';
import {
  activationEdgePieces,
  activationPieces,
  explicitEtp,
  gridPieces,
  layoutConfig,
  layerTimePieces,
  parameterKey,
  parameterPieces,
  pipelineMessagePieces,
  stageCandidates,
  type ActivationEdgePieces,
  type ActivationPieces,
  type GridPieces,
  type ParameterPieces,
  type LayerTimePieces,
  type StageCandidates,
} from './pieces.ts';
import { BOUND_SLACK, ParetoFront, SizeCurve, THROUGHPUT_MEMORY, TopK, type CanonicalKey, type SecondAnswer } from './rank.ts';
import { groupLayoutCount, type LayoutGroup, type PipelineShape } from './space.ts';
import type { LayoutChoice, ScoredLayout, SearchCounts, SearchObjective, StackSwitches } from './types.ts';
import { RECOMPUTES, SCHEDULES, type RunConfig } from '../input/index.ts';
import { SECONDS_PER_DAY, SECONDS_PER_HOUR } from '../input/index.ts';

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

  /**
   * `groups` sizes the slot tables (packed arrays, filled as groups are met in any order);
   * groups enumerated later (cluster sizing adds cluster sizes one at a time) grow them.
   */
  constructor(
    private readonly base: RunConfig,
    groups: readonly LayoutGroup[] = [],
  ) {
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
      const key = parameterKey(this.base, g);
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
    if (!stages) {
      const kept = layoutKeptFor(this.base.parallel, shape);
      this.stages[shape.id] = stages = stageCandidates(this.base.model, shape.pp, shape.vpp, shape.schedule, kept);
    }
    return stages;
  }
}

/** The objective as a score to maximise, from a step time and a memory figure (estimate.ts, cost.ts), per cluster size. */
export class Scoring {
  readonly tokensPerStep: number;
  private readonly goodput = new Map<number, number>();
  private readonly checkpointBytes: number;
  private readonly usdPerGpuHour: number;
  /**
   * capacityBytes: one GPU's memory (the headroom objective's reference); limitBytes: the
   * most a layout may need to count as fitting (capacity less the margin kept free).
   */
  constructor(
    private readonly base: RunConfig,
    readonly objective: SearchObjective,
    readonly capacityBytes: number,
    readonly maxUsd: number,
    readonly maxDays: number,
    readonly limitBytes = capacityBytes,
  ) {
    this.tokensPerStep = base.training.globalBatch * base.training.seqLen;
    // The page's own rule (run/plan.ts): spot preemptions over the nodes count, and spot GPUs are paid at the spot price.
    this.checkpointBytes = checkpointBytesOf(base);
    this.usdPerGpuHour = runPlan(base, base.cluster.gpus, this.checkpointBytes).usdPerGpuHour;
  }

  private goodputOf(gpus: number): number {
    let g = this.goodput.get(gpus);
    if (g === undefined) {
      g = runPlan(this.base, gpus, this.checkpointBytes).plan.goodput;
      this.goodput.set(gpus, g);
    }
    return g;
  }

  /** Wall seconds of the whole run (cost.ts trainingTime). */
  wallSeconds(stepSeconds: number, gpus: number): number {
    return this.base.training.tokens / (this.tokensPerStep / stepSeconds) / this.goodputOf(gpus);
  }

  usd(stepSeconds: number, gpus: number): number {
    return gpus * (this.wallSeconds(stepSeconds, gpus) / SECONDS_PER_HOUR) * this.usdPerGpuHour;
  }

  score(stepSeconds: number, memoryBytes: number, gpus: number): number {
    switch (this.objective) {
      case 'tokensPerSecond':
        return this.tokensPerStep / stepSeconds;
      case 'days':
        return -this.wallSeconds(stepSeconds, gpus) / SECONDS_PER_DAY;
      case 'usd':
        return -this.usd(stepSeconds, gpus);
      case 'memoryHeadroom':
        return this.capacityBytes - memoryBytes;
    }
  }

  withinBudget(stepSeconds: number, gpus: number, slack = 0): boolean {
    if (this.maxUsd < Infinity && this.usd(stepSeconds, gpus) > this.maxUsd * (1 + slack)) return false;
    if (this.maxDays < Infinity && this.wallSeconds(stepSeconds, gpus) / SECONDS_PER_DAY > this.maxDays * (1 + slack)) return false;
    return true;
  }
}

/** The lane (GPU type, in the order searched) first, then the degrees in enumeration order. */
function canonicalKey(lane: number, g: LayoutGroup, shape: PipelineShape, combo: number): CanonicalKey {
  return [
    lane,
    g.gpus,
    g.tp,
    g.cp,
    g.pp,
    g.ep,
    g.microBatch,
    g.sequenceParallel ? 1 : 0,
    g.recomputeIndex,
    shape.scheduleIndex,
    shape.vpp,
    combo,
  ];
}

interface Figures {
  readonly stepSeconds: number;
  readonly memoryBytes: number;
  readonly score: number;
  readonly tokensPerSecond: number;
}

/**
 * `etp`: the document's explicit expert tensor-parallel degree (pieces.ts explicitEtp), which the layout was scored with;
 * `kept`: the document's stated pipeline layout on the layouts of its own pp × vpp (layoutKeptFor); every other one takes the even split.
 */
function scoredLayout(
  s: Scoring,
  gpuId: string | undefined,
  switches: { switches?: StackSwitches },
  etp: { etp?: number },
  g: LayoutGroup,
  shape: PipelineShape,
  combo: number,
  f: Figures,
  kept: { pipelineLayout?: string },
): ScoredLayout {
  const state = g.combos[combo] ?? { zero: 0, offload: { optimizer: false, parameters: false } };
  return {
    gpus: g.gpus,
    parallel: {
      tp: g.tp,
      pp: g.pp,
      dp: g.dp,
      cp: g.cp,
      ep: g.ep,
      ...etp,
      vpp: shape.vpp,
      sequenceParallel: g.sequenceParallel,
      zero: state.zero,
      schedule: shape.schedule,
      ...kept,
    },
    microBatch: g.microBatch,
    recompute: g.recompute,
    offload: state.offload,
    ...f,
    days: s.wallSeconds(f.stepSeconds, g.gpus) / SECONDS_PER_DAY,
    usd: s.usd(f.stepSeconds, g.gpus),
    ...(gpuId !== undefined ? { gpuId } : {}),
    ...switches,
  };
}

export interface RunSettings {
  readonly pareto: boolean;
  readonly exhaustive: boolean;
  readonly topK: number;
  /** Rank layouts, not variants (TopK grouped). Default false here; search.ts sets it. */
  readonly groupByLayout?: boolean;
  /** The second answer: the Pareto front of throughput against memory (default), or cluster sizing's soonest layout per cluster size. */
  readonly front?: 'throughputMemory' | 'sizeCurve';
}

/** Several runs (one per GPU type) can share one top K; each keeps its own front. */
export interface LaneSettings {
  readonly top?: TopK;
  /** Index of the lane, first in the canonical key. */
  readonly lane?: number;
  readonly gpuId?: string;
  readonly switches?: StackSwitches;
}

export class SearchRun {
  readonly top: TopK;
  readonly front: SecondAnswer;
  readonly counts = { evaluated: 0, memoryOnly: 0, pruned: 0, fitting: 0 };
  private readonly evaluator: LayoutEvaluator;
  private readonly pieces: PieceCache;
  private readonly costFront: boolean;
  private readonly lane: number;
  private readonly gpuId: string | undefined;
  private readonly switches: { switches?: StackSwitches };
  private readonly etp: { etp?: number };
  private readonly base: RunConfig;

  constructor(
    base: RunConfig,
    groups: readonly LayoutGroup[],
    readonly scoring: Scoring,
    readonly settings: RunSettings,
    lane: LaneSettings = {},
  ) {
    this.base = base;
    this.top = lane.top ?? new TopK(settings.topK, settings.groupByLayout ?? false);
    this.costFront = settings.front === 'sizeCurve';
    this.front = this.costFront ? new SizeCurve() : new ParetoFront(THROUGHPUT_MEMORY);
    this.lane = lane.lane ?? 0;
    this.gpuId = lane.gpuId;
    this.switches = lane.switches ? { switches: lane.switches } : {};
    this.etp = explicitEtp(base);
    this.evaluator = new LayoutEvaluator(base);
    this.pieces = new PieceCache(base, groups);
  }

  /** A point's figures for the second answer: (throughput, memory), or (−days, dollars) on the size curve. */
  private frontUp(step: number, gpus: number): number {
    return this.costFront ? -this.scoring.wallSeconds(step, gpus) / SECONDS_PER_DAY : this.scoring.tokensPerStep / step;
  }

  private frontDown(step: number, memory: number, gpus: number): number {
    return this.costFront ? this.scoring.usd(step, gpus) : memory;
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
    if (memoryLower > s.limitBytes * (1 + BOUND_SLACK)) return true;
    if (!s.withinBudget(stepLower, gpus, BOUND_SLACK)) return true;
    if (!this.top.excludesBound(s.score(stepLower, memoryLower, gpus))) return false;
    // Days and dollars both grow with the step time on a given cluster: the step's lower bound bounds both.
    return (
      !this.settings.pareto || this.front.dominatesBound(this.frontUp(stepLower, gpus), this.frontDown(stepLower, memoryLower, gpus), gpus)
    );
  }

  /** Evaluates (or prunes) every layout of the group whose own bounds did not already prune it. */
  runGroup(g: LayoutGroup): void {
    const { exhaustive, pareto } = this.settings;
    const ev = this.evaluator;
    const s = this.scoring;
    const n = this.counts;
    const capacity = s.limitBytes;
    ev.setGroup(g, this.pieces.group(g));
    const combos = g.combos.length;
    const hostHolds = g.combos.map((_, k) => this.hostHolds(g, k));
    for (const shape of g.shapes) {
      ev.setShape(shape, this.pieces.stagesOf(shape));
      if (!exhaustive && this.prunable(ev.shapeStepLowerBound(), ev.shapeMemoryLowerBound(), g.gpus)) {
        n.pruned += combos;
        continue;
      }
      for (let k = 0; k < combos; k++) {
        const memory = ev.memoryBytes(k);
        // memory.fits also asks the host to hold what offload puts there (memory/host.ts).
        const fits = memory <= capacity && hostHolds[k] !== false;
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
        const forFront = pareto && this.front.admits(this.frontUp(step, g.gpus), this.frontDown(step, memory, g.gpus), g.gpus);
        if (!forTop && !forFront) continue;
        const figures = { stepSeconds: step, memoryBytes: memory, score, tokensPerSecond };
        const entry = {
          layout: scoredLayout(s, this.gpuId, this.switches, this.etp, g, shape, k, figures, layoutKeptFor(this.base.parallel, shape)),
          key: canonicalKey(this.lane, g, shape, k),
        };
        if (forTop) this.top.offer(entry);
        if (forFront) this.front.offer(entry);
      }
    }
  }

  /** Whether one node's CPU memory holds what the combo's offload (and the document's activation offload) puts there (memory/host.ts); true without. */
  private hostHolds(g: LayoutGroup, combo: number): boolean {
    const state = g.combos[combo];
    const offloadsActivations = this.base.stack.activationOffloadLayers > 0;
    if (!state || (!state.offload.optimizer && !state.offload.parameters && !offloadsActivations)) return true;
    const parallel = {
      tp: g.tp,
      pp: g.pp,
      dp: g.dp,
      cp: g.cp,
      ep: g.ep,
      ...this.etp,
      vpp: 1,
      sequenceParallel: g.sequenceParallel,
      zero: state.zero,
      schedule: '1f1b' as const,
    };
    const host = hostMemory(
      layoutConfig(this.base, { gpus: g.gpus, parallel, microBatch: g.microBatch, recompute: g.recompute, offload: state.offload }),
    );
    return host.perNode <= host.capacity;
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
    gpus: choice.gpus,
    tp: p.tp,
    cp: p.cp,
    pp: p.pp,
    dp: p.dp,
    ep: p.ep,
    microBatch: choice.microBatch,
    microBatches: microBatchesPerStep({ globalBatch: base.training.globalBatch, microBatch: choice.microBatch }, p),
    sequenceParallel: p.sequenceParallel,
    recompute: choice.recompute,
    recomputeIndex,
    shapes: [shape],
    combos: [{ zero: p.zero, offload: choice.offload }],
    timeSlot: 0,
    activationSlot: 0,
    gridSlot: 0,
  };
  const evaluator = new LayoutEvaluator(base);
  const pieces = new PieceCache(base);
  evaluator.setGroup(group, pieces.group(group));
  evaluator.setShape(shape, pieces.stagesOf(shape));
  return { memoryBytes: evaluator.memoryBytes(0), stepSeconds: evaluator.stepSeconds(0) };
}

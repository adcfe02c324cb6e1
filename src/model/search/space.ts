// The layout space of the search: every combination of parallel degrees, micro-batch,
// recomputation, pipeline schedule, ZeRO stage and offload that the validity rules of
// consistency.ts accept (the same functions the sliders ask), grouped so that the
// costly pieces are computed once per group and the inner loops are arithmetic.
//
// Two canonicalisations keep the results free of clones: at pp = 1 there is no
// pipeline, so only gpipe and 1f1b are enumerated (1f1b, zero-bubble and interleaving
// are then the same run); with a data-parallel group of one GPU, ZeRO shards over
// nothing, so only the stages that change what is offloaded are enumerated. A fixed
// degree overrides both.

import {
  divisors,
  frameworkOffloadProblem,
  frameworkScheduleProblem,
  frameworkZeroProblem,
  microBatchesPerStep,
  minMicroBatches,
} from '../input/index.ts';
import {
  batchProblem,
  cpProblem,
  epProblem,
  etpProblem,
  ppProblem,
  scheduleProblem,
  stageLayerCountProblems,
  tpProblem,
} from '../input/index.ts';
import { expertDataParallel, expertTensorParallel } from '../structure/index.ts';
import type { FixedDegrees, SearchOptions } from './types.ts';
import {
  RECOMPUTES,
  SCHEDULES,
  type Framework,
  type ModelConfig,
  type OffloadConfig,
  type Recompute,
  type RunConfig,
  type ScheduleKind,
  type TrainingConfig,
  type ZeroStage,
} from '../input/index.ts';

/** One pipeline schedule with its virtual stages. */
export interface PipelineShape {
  /** Distinct within one space: an index for per-shape tables. */
  readonly id: number;
  readonly pp: number;
  readonly schedule: ScheduleKind;
  /** Index in SCHEDULES: the canonical order. */
  readonly scheduleIndex: number;
  readonly vpp: number;
}

/** A ZeRO stage with what is offloaded. */
export interface StateCombo {
  readonly zero: ZeroStage;
  readonly offload: OffloadConfig;
}

/**
 * The unit of pruning: every degree but the pipeline shape and the ZeRO/offload combo.
 * Its layouts number shapes.length × combos.length.
 */
export interface LayoutGroup {
  readonly gpus: number;
  readonly tp: number;
  readonly cp: number;
  readonly pp: number;
  readonly dp: number;
  readonly ep: number;
  readonly microBatch: number;
  /** Micro-batches per step per pipeline. */
  readonly microBatches: number;
  readonly sequenceParallel: boolean;
  readonly recompute: Recompute;
  readonly recomputeIndex: number;
  readonly shapes: readonly PipelineShape[];
  readonly combos: readonly StateCombo[];
  /**
   * Slots of the engine-computed pieces this group shares with others (run.ts
   * PieceCache), numbered while enumerating, the same in every cluster size of one
   * LayoutSpace: per-layer time (tp, cp, ep, microBatch, sequenceParallel, recompute,
   * and whether the cluster spans nodes), activations (tp, cp, sequenceParallel,
   * recompute), the grid (gpus, tp, cp, pp, ep).
   */
  readonly timeSlot: number;
  readonly activationSlot: number;
  readonly gridSlot: number;
}

const allowed = <T>(fixed: T | undefined, value: T): boolean => fixed === undefined || fixed === value;

/** The pipeline shapes valid for pp stages under the framework (input/capabilities.ts: only the schedules it runs). */
export function pipelineShapes(
  model: ModelConfig,
  pp: number,
  fixed: FixedDegrees,
  evenLayerSplit: boolean,
  framework: Framework,
  firstId = 0,
): PipelineShape[] {
  const shapes: PipelineShape[] = [];
  const splitsEvenly = (chunks: number) => !evenLayerSplit || model.layers % chunks === 0;
  SCHEDULES.forEach((schedule, scheduleIndex) => {
    if (!allowed(fixed.schedule, schedule)) return;
    if (frameworkScheduleProblem(framework, { pp, schedule }) !== null) return;
    // Without a pipeline the schedules differ only in the activations gpipe holds for every micro-batch.
    if (pp === 1 && fixed.schedule === undefined && schedule !== 'gpipe' && schedule !== '1f1b') return;
    const vpps =
      schedule === 'interleaved-1f1b' ? Array.from({ length: Math.max(0, Math.floor((model.layers + 2) / pp) - 1) }, (_, i) => i + 2) : [1];
    for (const vpp of vpps) {
      if (!allowed(fixed.vpp, vpp)) continue;
      if (ppProblem(model, pp, vpp) !== null || scheduleProblem({ pp, vpp, schedule }) !== null) continue;
      if (!splitsEvenly(schedule === 'dualpipe' ? pp : pp * vpp)) continue;
      shapes.push({ id: firstId + shapes.length, pp, schedule, scheduleIndex, vpp });
    }
  });
  return shapes;
}

/** ZeRO stages × offload choices the framework has; `trivialGroups` when every group ZeRO shards over has one GPU. */
export function stateCombos(
  training: TrainingConfig,
  fixed: FixedDegrees,
  searchOffload: boolean,
  trivialGroups: boolean,
  framework: Framework = 'generic',
): StateCombo[] {
  const offloads: OffloadConfig[] = searchOffload
    ? [
        { optimizer: false, parameters: false },
        { optimizer: true, parameters: false },
        { optimizer: false, parameters: true },
        { optimizer: true, parameters: true },
      ]
    : [training.offload];
  const combos: StateCombo[] = [];
  const seen = new Set<string>();
  for (const offload of offloads) {
    for (const zero of [0, 1, 2, 3] as const) {
      if (!allowed(fixed.zero, zero)) continue;
      // consistency.ts: parameter offload needs ZeRO-3 (ZeRO-Infinity).
      if (offload.parameters && zero !== 3) continue;
      // What the framework has (input/capabilities.ts); a searched offload must be one it runs, a fixed one is the user's.
      if (fixed.zero === undefined && frameworkZeroProblem(framework, zero, 1) !== null) continue;
      if (searchOffload && frameworkOffloadProblem(framework, offload) !== null) continue;
      if (trivialGroups && fixed.zero === undefined) {
        // Groups of one: what differs between stages is only what offload then moves (ZeRO-2/3 offload the gradients too).
        const effect = `${offload.optimizer}/${offload.parameters}/${offload.optimizer && zero >= 2}`;
        if (seen.has(effect)) continue;
        seen.add(effect);
      }
      combos.push({ zero, offload });
    }
  }
  return combos;
}

/** Cluster sizes to search. */
export function searchGpuCounts(c: RunConfig, options: SearchOptions): number[] {
  if (options.gpuCounts && options.gpuCounts.length > 0)
    return [...new Set(options.gpuCounts)].filter((n) => Number.isInteger(n) && n >= 1).sort((a, b) => a - b);
  if (options.maxGpus !== undefined && options.maxGpus >= 1) {
    const sizes = new Set<number>([Math.floor(options.maxGpus)]);
    for (let n = c.cluster.gpusPerNode; n < options.maxGpus; n *= 2) sizes.add(n);
    return [...sizes].sort((a, b) => a - b);
  }
  return [c.cluster.gpus];
}

interface SpaceContext {
  readonly base: RunConfig;
  readonly fixed: FixedDegrees;
  readonly options: SearchOptions;
  readonly trainingByMicroBatch: Map<number, TrainingConfig>;
  readonly shapesByPp: Map<number, PipelineShape[]>;
  /** The same without interleaving, for groups with fewer micro-batches than stages. */
  readonly uninterleavedByPp: Map<number, PipelineShape[]>;
  /** Shapes whose schedule's micro-batch minimum (capabilities.ts minMicroBatches) `microBatches` meets, by `pp/microBatches/full`. */
  readonly shapesByMicroBatches: Map<string, PipelineShape[]>;
  /** State combos the framework runs with a pipeline (DeepSpeed: ZeRO ≤ 1), by the combos list. */
  readonly pipelineCombos: Map<readonly StateCombo[], StateCombo[]>;
  /** The most micro-batches any of pp's shapes needs (capabilities.ts minMicroBatches), by pp. */
  readonly leastMicroBatchesByPp: Map<number, number>;
  /** Shapes EP overlap runs with, by the shapes list. */
  readonly overlappable: Map<readonly PipelineShape[], PipelineShape[]>;
  shapeCount: number;
  slots: { time: number; activation: number; grid: number };
  /** Slot blocks by key, so that a cluster size enumerated again, or another one, meets the same slots. */
  readonly tpCpSlots: Map<string, TpCpSlots>;
  readonly gridSlots: Map<string, number>;
  readonly combos: { readonly full: StateCombo[]; readonly trivial: StateCombo[] };
}

/** The slot (block) of a key, numbered at first sight. */
function slotOf<K>(map: Map<K, number>, key: K, ctx: SpaceContext, kind: 'time' | 'activation' | 'grid', size: number): number {
  let slot = map.get(key);
  if (slot === undefined) {
    slot = ctx.slots[kind];
    ctx.slots[kind] += size;
    map.set(key, slot);
  }
  return slot;
}

function trainingWith(ctx: SpaceContext, microBatch: number): TrainingConfig {
  let t = ctx.trainingByMicroBatch.get(microBatch);
  if (!t) {
    t = { ...ctx.base.training, microBatch };
    ctx.trainingByMicroBatch.set(microBatch, t);
  }
  return t;
}

function shapesFor(ctx: SpaceContext, pp: number): PipelineShape[] {
  let shapes = ctx.shapesByPp.get(pp);
  if (!shapes) {
    shapes = pipelineShapes(ctx.base.model, pp, ctx.fixed, ctx.options.evenLayerSplit ?? false, ctx.base.stack.framework, ctx.shapeCount);
    ctx.shapeCount += shapes.length;
    ctx.shapesByPp.set(pp, shapes);
  }
  return shapes;
}

/** True when ZeRO has nothing to shard over: memory groups of one GPU and no expert gradients synchronised (comm.ts parallelGroups). */
function zeroIsTrivial(model: ModelConfig, p: { tp: number; dp: number; cp: number; ep: number }): boolean {
  if (p.dp * p.cp > 1) return false;
  if (!model.moe) return true;
  return expertDataParallel(p) === 1 && (p.tp * p.cp * p.dp) / p.ep === 1;
}

/**
 * What the slot keys of one (gpus, tp, cp) start with. A layer's time depends on the
 * cluster size only through whether groups may span nodes (comm.ts groupSpansNodes:
 * never on a cluster of one node), so every multi-node size shares its time pieces;
 * activations do not depend on it at all. space.test.ts checks both against the engine.
 */
interface TpCpSlots {
  readonly activation: number;
  /** Time blocks by epIndex × (globalBatch + 1) + microBatch. */
  readonly time: Map<number, number>;
}

/** Slot of a (sequenceParallel, recompute) pair within a block of six. */
const pairSlot = (sequenceParallel: boolean, recomputeIndex: number) => (sequenceParallel ? 3 : 0) + recomputeIndex;

/** The shapes whose schedule the framework runs on this many micro-batches (DualPipe: at least 2 × pp). */
function meetingMinimum(ctx: SpaceContext, shapes: PipelineShape[], pp: number, microBatches: number): PipelineShape[] {
  if (pp === 1) return shapes;
  const framework = ctx.base.stack.framework;
  // Fast path: enough micro-batches for every schedule of this pp (the usual case), no key built.
  let least = ctx.leastMicroBatchesByPp.get(pp);
  if (least === undefined) {
    // Over every shape of this pp (the uninterleaved list is a part of it).
    least = Math.max(1, ...shapesFor(ctx, pp).map((s) => minMicroBatches(framework, s)));
    ctx.leastMicroBatchesByPp.set(pp, least);
  }
  if (microBatches >= least) return shapes;
  const key = `${pp}/${microBatches}/${shapes.length}`;
  let kept = ctx.shapesByMicroBatches.get(key);
  if (!kept) {
    const all = shapes.filter((s) => microBatches >= minMicroBatches(framework, s));
    kept = all.length === shapes.length ? shapes : all;
    ctx.shapesByMicroBatches.set(key, kept);
  }
  return kept;
}

/** The shapes EP overlap runs with under a pipeline: interleaved (Megatron-Core needs virtual stages) or DualPipe. */
function overlappable(ctx: SpaceContext, shapes: PipelineShape[]): PipelineShape[] {
  let kept = ctx.overlappable.get(shapes);
  if (!kept) {
    kept = shapes.filter((s) => s.schedule === 'interleaved-1f1b' || s.schedule === 'dualpipe');
    ctx.overlappable.set(shapes, kept);
  }
  return kept;
}

/** The combos the framework runs at this pipeline depth (DeepSpeed's PipelineEngine: ZeRO ≤ 1); a fixed ZeRO stage is the user's. */
function withPipeline(ctx: SpaceContext, combos: StateCombo[], pp: number): StateCombo[] {
  if (pp === 1 || ctx.fixed.zero !== undefined) return combos;
  let kept = ctx.pipelineCombos.get(combos);
  if (!kept) {
    const framework = ctx.base.stack.framework;
    kept = combos.filter((c) => frameworkZeroProblem(framework, c.zero, pp) === null);
    ctx.pipelineCombos.set(combos, kept);
  }
  return kept;
}

function addGroupsForGrid(
  ctx: SpaceContext,
  grid: { gpus: number; tp: number; cp: number; pp: number; dp: number },
  slots: TpCpSlots,
  out: LayoutGroup[],
): void {
  const { model, training } = ctx.base;
  const { fixed } = ctx;
  const { tp, cp, pp, dp } = grid;
  const shapes = shapesFor(ctx, pp);
  if (shapes.length === 0) return;
  let uninterleaved = ctx.uninterleavedByPp.get(pp);
  if (!uninterleaved) ctx.uninterleavedByPp.set(pp, (uninterleaved = shapes.filter((s) => s.schedule !== 'interleaved-1f1b')));
  const sparseInterleaving = !(ctx.options.interleaveWithFullPipeline ?? false);
  const experts = model.moe ? model.moe.experts : 1;
  // With EP overlap on (a lane of the framework's switches, or the user's own), only layouts it runs
  // (input/capabilities.ts epOverlapProblem): ep > 1, no full recomputation, interleaving when pp > 1.
  const epOverlap = ctx.base.stack.overlap.epComm && ctx.base.stack.framework !== 'generic' && model.moe !== null;
  divisors(experts).forEach((ep, epIndex) => {
    if (epOverlap && ep === 1) return;
    const etp = ctx.base.parallel.etp ?? null;
    if (!allowed(fixed.ep, ep) || epProblem(model, { ep, tp, dp, cp }) !== null || etpProblem(model, { ep, etp, tp, dp, cp }) !== null)
      return;
    // A MoE layer's time depends on the expert tensor-parallel degree, which the default rule takes from dp (structure/params.ts).
    const etpIndex = expertTensorParallel({ tp, dp, cp, ep, etp }) === tp ? 0 : 1;
    const combos = withPipeline(ctx, zeroIsTrivial(model, { tp, dp, cp, ep }) ? ctx.combos.trivial : ctx.combos.full, pp);
    if (combos.length === 0) return;
    const gridSlot = slotOf(ctx.gridSlots, `${grid.gpus}/${tp}/${cp}/${pp}/${ep}`, ctx, 'grid', 1);
    for (const microBatch of divisors(training.globalBatch / dp)) {
      if (!allowed(fixed.microBatch, microBatch) || batchProblem(trainingWith(ctx, microBatch), dp) !== null) continue;
      const microBatches = microBatchesPerStep({ globalBatch: training.globalBatch, microBatch }, { dp });
      const fitting = meetingMinimum(ctx, sparseInterleaving || microBatches >= pp ? shapes : uninterleaved, pp, microBatches);
      const groupShapes = epOverlap && pp > 1 ? overlappable(ctx, fitting) : fitting;
      if (groupShapes.length === 0) continue;
      const timeBlock = slotOf(slots.time, (2 * epIndex + etpIndex) * (training.globalBatch + 1) + microBatch, ctx, 'time', 6);
      for (const sequenceParallel of tp > 1 ? [false, true] : [false]) {
        if (!allowed(fixed.sequenceParallel, sequenceParallel)) continue;
        RECOMPUTES.forEach((recompute, recomputeIndex) => {
          if (!allowed(fixed.recompute, recompute)) return;
          if (epOverlap && recompute === 'full') return;
          const pair = pairSlot(sequenceParallel, recomputeIndex);
          out.push({
            gpus: grid.gpus,
            tp,
            cp,
            pp,
            dp,
            ep,
            microBatch,
            microBatches,
            sequenceParallel,
            recompute,
            recomputeIndex,
            shapes: groupShapes,
            combos,
            timeSlot: timeBlock + pair,
            activationSlot: slots.activation + pair,
            gridSlot,
          });
        });
      }
    }
  });
}

/**
 * The layout space of one base run, cluster size by cluster size: groupsFor(n) gives the
 * groups of n GPUs in the canonical order (tp, cp, pp, ep, microBatch, sequenceParallel,
 * recompute), with piece slots consistent across every size asked for (and the same slots
 * when a size is asked for again), so one PieceCache serves them all.
 */
export class LayoutSpace {
  private readonly ctx: SpaceContext;

  constructor(base: RunConfig, options: SearchOptions) {
    const fixed = options.fixed ?? {};
    const searchOffload = options.searchOffload ?? false;
    this.ctx = {
      base,
      fixed,
      options,
      trainingByMicroBatch: new Map(),
      shapesByPp: new Map(),
      uninterleavedByPp: new Map(),
      shapesByMicroBatches: new Map(),
      pipelineCombos: new Map(),
      overlappable: new Map(),
      leastMicroBatchesByPp: new Map(),
      shapeCount: 0,
      slots: { time: 0, activation: 0, grid: 0 },
      tpCpSlots: new Map(),
      gridSlots: new Map(),
      combos: {
        full: stateCombos(base.training, fixed, searchOffload, false, base.stack.framework),
        trivial: stateCombos(base.training, fixed, searchOffload, true, base.stack.framework),
      },
    };
  }

  /** Activations are shared by every cluster size; time by every size on one side of the node boundary. */
  private tpCpSlots(multiNode: boolean, tp: number, cp: number): TpCpSlots {
    const ctx = this.ctx;
    const key = `${multiNode}/${tp}/${cp}`;
    let slots = ctx.tpCpSlots.get(key);
    if (!slots) {
      const other = ctx.tpCpSlots.get(`${!multiNode}/${tp}/${cp}`);
      const activation = other ? other.activation : ctx.slots.activation;
      if (!other) ctx.slots.activation += 6;
      slots = { activation, time: new Map() };
      ctx.tpCpSlots.set(key, slots);
    }
    return slots;
  }

  groupsFor(gpus: number): LayoutGroup[] {
    const ctx = this.ctx;
    const { fixed, options } = ctx;
    const { model, training, cluster } = ctx.base;
    const groups: LayoutGroup[] = [];
    const multiNode = gpus > cluster.gpusPerNode;
    for (const tp of divisors(gpus)) {
      if (!allowed(fixed.tp, tp) || tpProblem(model, tp) !== null) continue;
      if (options.tpWithinNode && tp > cluster.gpusPerNode) continue;
      for (const cp of divisors(gpus / tp)) {
        if (!allowed(fixed.cp, cp) || cpProblem(training, cp) !== null) continue;
        const slots = this.tpCpSlots(multiNode, tp, cp);
        for (const pp of divisors(gpus / (tp * cp))) {
          if (!allowed(fixed.pp, pp) || ppProblem(model, pp, 1) !== null) continue;
          // The document's per-stage layer counts (activation offload, recomputed layers) must fit a stage of this pipeline.
          if (stageLayerCountProblems(model, ctx.base.stack, pp).length > 0) continue;
          const dp = gpus / (tp * cp * pp);
          if (!allowed(fixed.dp, dp) || training.globalBatch % dp !== 0) continue;
          addGroupsForGrid(ctx, { gpus, tp, cp, pp, dp }, slots, groups);
        }
      }
    }
    return groups;
  }
}

/** Every group of the space, in the canonical order (gpus, then as LayoutSpace.groupsFor). */
export function layoutGroups(base: RunConfig, options: SearchOptions): LayoutGroup[] {
  const space = new LayoutSpace(base, options);
  return searchGpuCounts(base, options).flatMap((gpus) => space.groupsFor(gpus));
}

export function groupLayoutCount(g: LayoutGroup): number {
  return g.shapes.length * g.combos.length;
}

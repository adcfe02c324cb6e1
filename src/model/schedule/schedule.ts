// Discrete-event simulation of pipeline-parallel schedules: which device runs which
// micro-batch's forward or backward when, honouring dependencies. The order in which
// each device takes its blocks is the schedule (schedule-orders.ts,
// schedule-dualpipe.ts); schedule-engine.ts times it.

import {
  DUALPIPE_CHUNK_SHARE,
  MAX_SIMULATED_BLOCKS,
  blockCount,
  closedFormSummary,
  nonNegativeSeconds as seconds,
  positiveCount as count,
} from './closed-form.ts';
import { timeProgram } from './engine.ts';
import type { BlockTimes } from './engine.ts';
import { dualPipeProgram } from './dualpipe.ts';
import { gpipeProgram, interleavedGroupSize, interleavedProgram, oneFOneBProgram, zeroBubbleH1Program } from './orders.ts';
import type { LinearShape } from './orders.ts';
import { gpipeLikeReorder, linkDependencies } from './program.ts';
import type { ChunkTimes, Program, Topology } from './program.ts';
import type { BlockKind, ScheduleBlock, ScheduleKind, Timeline } from '../input/index.ts';
import type { ScheduleInput, ScheduleSummary } from './types.ts';

export interface ScheduleTimeline extends Timeline {
  /** Why the schedule was simulated differently from what was asked (and how), or null when it ran as asked. */
  readonly adjustment: string | null;
}

interface Built {
  readonly prog: Program;
  readonly topo: Topology;
  readonly times: BlockTimes;
  readonly adjustment: string | null;
}

/** Every chunk of device d takes `perChunkShare` of the device's time. */
function chunkTimes(input: ScheduleInput, p: number, chunks: number, perChunkShare: number): ChunkTimes {
  const forwardSeconds = new Float64Array(p * chunks);
  const backwardSeconds = new Float64Array(p * chunks);
  for (let d = 0; d < p; d++) {
    for (let c = 0; c < chunks; c++) {
      forwardSeconds[d * chunks + c] = seconds(input.forwardSeconds[d]) * perChunkShare;
      backwardSeconds[d * chunks + c] = seconds(input.backwardSeconds[d]) * perChunkShare;
    }
  }
  const f = input.weightGradFraction;
  return { chunks, forwardSeconds, backwardSeconds, weightGradFraction: Number.isFinite(f) ? Math.min(1, Math.max(0, f)) : 0 };
}

function linearBuild(
  input: ScheduleInput,
  kind: ScheduleKind,
  shape: LinearShape,
  groupSize = shape.stages,
  perChunkShare = 1 / shape.virtualStages,
): { prog: Program; topo: Topology } {
  const { stages: p, microBatches: m, virtualStages: v } = shape;
  const times = chunkTimes(input, p, v, perChunkShare);
  const prog =
    kind === 'gpipe'
      ? gpipeProgram(shape, times)
      : kind === 'zero-bubble'
        ? zeroBubbleH1Program(shape, times)
        : kind === 'interleaved-1f1b'
          ? interleavedProgram(shape, times, groupSize)
          : oneFOneBProgram(shape, times);
  return { prog, topo: { directions: 1, positions: v * p, microBatchesPerDirection: m, microBatchOffset: [0] } };
}

function dualPipeBuild(input: ScheduleInput, p: number, m: number): { prog: Program; topo: Topology } {
  const m0 = Math.ceil(m / 2);
  const m1 = m - m0;
  const times = chunkTimes(input, p, 2, DUALPIPE_CHUNK_SHARE);
  const prog = dualPipeProgram({ stages: p, perDirection: [m0, m1] }, times);
  return { prog, topo: { directions: 2, positions: p, microBatchesPerDirection: Math.max(1, m0), microBatchOffset: [0, m0] } };
}

/** Picks the order for the request, noting every way it departs from the request. */
function buildProgram(input: ScheduleInput): { prog: Program; topo: Topology; notes: string[] } {
  const p = count(input.stages);
  const m = count(input.microBatches);
  const v = count(input.virtualStages);
  const notes: string[] = [];
  if (input.kind === 'dualpipe') {
    if (v > 1) notes.push(`dualpipe ignores virtualStages=${v}`);
    if (p % 2 === 0) {
      if (m % 2 !== 0 || m < 2 * p) {
        notes.push(
          `dualpipe expects an even micro-batch count of at least 2p = ${2 * p} (got ` +
            `${m}); simulated the reference order with the missing micro-batches left out`,
        );
      }
      return { ...dualPipeBuild(input, p, m), notes };
    }
    notes.push(`dualpipe needs an even number of stages (got ${p}); simulated zero-bubble ZB-H1 instead, each block one chunk`);
    return { ...linearBuild(input, 'zero-bubble', { stages: p, microBatches: m, virtualStages: 1 }, p, DUALPIPE_CHUNK_SHARE), notes };
  }
  if (input.kind === 'interleaved-1f1b') {
    if (v === 1) {
      notes.push('interleaved-1f1b with virtualStages=1 is plain 1F1B; simulated 1f1b');
      return { ...linearBuild(input, '1f1b', { stages: p, microBatches: m, virtualStages: 1 }), notes };
    }
    const groupSize = interleavedGroupSize(p, m);
    if (m < p) {
      notes.push(
        `interleaving needs at least as many micro-batches as stages (${m} < ${p}; Megatron-Core refuses); simulated one group of ${m}`,
      );
    } else if (groupSize !== p) {
      notes.push(
        `Megatron-Core's default group of p=${p} micro-batches does not divide m=${m}; simulated ` +
          `microbatch_group_size_per_vp_stage=${groupSize}, which holds more micro-batches in flight`,
      );
    }
    return { ...linearBuild(input, input.kind, { stages: p, microBatches: m, virtualStages: v }, groupSize), notes };
  }
  if (v > 1) notes.push(`${input.kind} ignores virtualStages=${v}`);
  return { ...linearBuild(input, input.kind, { stages: p, microBatches: m, virtualStages: 1 }), notes };
}

function run(input: ScheduleInput): Built {
  const { prog, topo, notes } = buildProgram(input);
  const p2p = seconds(input.p2pSeconds);
  const times = timeProgram(prog, linkDependencies(prog, topo), p2p);
  if (times) return { prog, topo, times, adjustment: notes.length > 0 ? notes.join('; ') : null };
  // Not reached by the orders above (the tests check that); kept so that no input can hang or throw.
  const safe = gpipeLikeReorder(prog, topo);
  const safeTimes = timeProgram(safe, linkDependencies(safe, topo), p2p) ?? {
    startSeconds: new Float64Array(safe.length),
    endSeconds: new Float64Array(safe.length),
  };
  notes.push(`the ${input.kind} order deadlocked; simulated every forward before any backward instead`);
  return { prog: safe, topo, times: safeTimes, adjustment: notes.join('; ') };
}

function summarize(built: Built): ScheduleSummary {
  const { prog, times } = built;
  let makespanSeconds = 0;
  let busySeconds = 0;
  for (let i = 0; i < prog.length; i++) {
    const end = times.endSeconds[i] ?? 0;
    if (end > makespanSeconds) makespanSeconds = end;
    busySeconds += prog.duration[i] ?? 0;
  }
  const capacity = prog.devices * makespanSeconds;
  const bubbleFraction = capacity > 0 ? Math.max(0, 1 - busySeconds / capacity) : 0;
  return { makespanSeconds, busySeconds, bubbleFraction, adjustment: built.adjustment };
}

/** The closed-form summary when the simulation would need more than `maxBlocks` blocks, else null. */
function tooLargeToSimulate(input: ScheduleInput, maxBlocks: number): ScheduleSummary | null {
  const blocks = blockCount(input.kind, count(input.stages), count(input.microBatches), count(input.virtualStages));
  if (blocks <= maxBlocks) return null;
  return closedFormSummary(input, `${blocks} blocks: timed by the closed form, not simulated`);
}

/** Makespan and bubble without materialising the blocks (for searches that need only the step time). */
export function simulateScheduleSummary(input: ScheduleInput, maxBlocks: number = MAX_SIMULATED_BLOCKS): ScheduleSummary {
  return tooLargeToSimulate(input, maxBlocks) ?? summarize(run(input));
}

const KIND_LETTER: readonly BlockKind[] = ['F', 'B', 'W', 'B'];

/** Every block with its start and end; makespan; bubbleFraction = 1 − busy / (p · makespan). */
export function simulateSchedule(input: ScheduleInput, maxBlocks: number = MAX_SIMULATED_BLOCKS): ScheduleTimeline {
  const closedForm = tooLargeToSimulate(input, maxBlocks);
  if (closedForm) {
    const { makespanSeconds, bubbleFraction, adjustment } = closedForm;
    return {
      stages: count(input.stages),
      microBatches: count(input.microBatches),
      blocks: [],
      makespanSeconds,
      bubbleFraction,
      adjustment,
    };
  }
  const built = run(input);
  const { prog, topo, times } = built;
  const blocks: ScheduleBlock[] = new Array<ScheduleBlock>(prog.length);
  for (let i = 0; i < prog.length; i++) {
    blocks[i] = {
      stage: prog.device[i] ?? 0,
      microBatch: (prog.microBatch[i] ?? 0) + (topo.microBatchOffset[prog.dir[i] ?? 0] ?? 0),
      chunk: prog.chunk[i] ?? 0,
      kind: KIND_LETTER[prog.kind[i] ?? 0] ?? 'F',
      startSeconds: times.startSeconds[i] ?? 0,
      endSeconds: times.endSeconds[i] ?? 0,
    };
  }
  const summary = summarize(built);
  return {
    stages: prog.devices,
    microBatches: count(input.microBatches),
    blocks,
    makespanSeconds: summary.makespanSeconds,
    bubbleFraction: summary.bubbleFraction,
    adjustment: built.adjustment,
  };
}

export {
  bubbleOverIdeal,
  blockCount,
  DUALPIPE_CHUNK_SHARE,
  MAX_SIMULATED_BLOCKS,
  pipelineBoundarySeconds,
  pipelineTimeFactor,
} from './closed-form.ts';

/**
 * Most micro-batch chunks whose activations stage `stage` holds at once: from the start
 * of a forward to the end of its last backward block (W when the backward was split,
 * since weight gradients need the layer inputs). Interleaved chunks count one each.
 */
export function maxInFlight(timeline: Timeline, stage: number): number {
  const mine = timeline.blocks.filter((b) => b.stage === stage);
  const chunks = 1 + mine.reduce((most, b) => Math.max(most, b.chunk), 0);
  const key = (b: ScheduleBlock): number => b.microBatch * chunks + b.chunk;
  const split = new Set<number>();
  for (const b of mine) if (b.kind === 'W') split.add(key(b));
  // Stable: ties (zero-length blocks) keep the device's execution order.
  mine.sort((a, b) => a.startSeconds - b.startSeconds);
  let held = 0;
  let most = 0;
  for (const b of mine) {
    if (b.kind === 'F') {
      held++;
      if (held > most) most = held;
    } else if (b.kind === 'W' || !split.has(key(b))) {
      held--;
    }
  }
  return most;
}

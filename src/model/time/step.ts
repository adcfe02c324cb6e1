// Step time: per-stage forward and backward time of one micro-batch (compute plus the
// communication that is not hidden), laid out by the pipeline-schedule simulator, plus
// the exposed data-parallel synchronisation and the optimizer step
// (docs/spec/model-reference.md, "Time, cost, reliability").

import { dataParallelOverlapped, zero3GatherExposedFraction } from './stack-time.ts';
import { calibration } from '../calibration.ts';
import { dataParallelStepSeconds, stageComm, type CommRecord } from './comm.ts';
import { expertParallelExposedFraction } from './moe-time.ts';
import { hostBound, moeLayerForwardSeconds } from './moe-host.ts';
import { layerForwardSeconds, outputLayerForwardSeconds, type LayerComputeSeconds } from './compute.ts';
import { isMoeLayer, layerKind } from '../structure/index.ts';
import { optimizerStepSeconds } from './optimizer.ts';
import { adapterLayerSeconds, FROZEN_BACKWARD_GEMMS_PER_FORWARD, type AdapterLayerSeconds } from './adapter-time.ts';
import { stageAdapterParameters, stageLayerWeights } from '../memory/index.ts';
import { pipelineLayout, stageGpuParameters, type PipelineStage } from '../structure/index.ts';
import {
  blockCount,
  DUALPIPE_CHUNK_SHARE,
  MAX_SIMULATED_BLOCKS,
  pipelineBoundarySeconds,
  simulateSchedule,
  simulateScheduleSummary,
  type ScheduleInput,
} from '../schedule/index.ts';
import { microBatchesPerStep } from '../input/index.ts';
import type { RunConfig, TimePart, Timeline, ZeroStage } from '../input/index.ts';

/** The timeline handed to the chart: more blocks than this cannot be drawn legibly anyway. */
export const MAX_DRAWN_BLOCKS = 20_000;

export interface StageTimes {
  readonly forwardComputeSeconds: number;
  readonly backwardComputeSeconds: number;
  readonly recomputeSeconds: number;
  /** Exposed communication of one micro-batch (forward + backward). */
  readonly exposed: Readonly<Record<'tp' | 'cp' | 'ep' | 'zero3', number>>;
  readonly p2pSeconds: number;
  /** Data-parallel synchronisation of one step before overlap. */
  readonly dpSeconds: number;
  readonly optimizerSeconds: number;
}

export interface StepTime {
  readonly stepSeconds: number;
  readonly bubbleFraction: number;
  readonly breakdown: Readonly<Record<TimePart, number>>;
  readonly timeline: Timeline | null;
  readonly scheduleNote: string | null;
}

function sumLayers(c: RunConfig, layers: readonly number[], tokens: number): { forward: number; backward: number; recompute: number } {
  // A layer's times depend on its kind only (structure/layer-kind.ts).
  const cache = new Map<string, LayerComputeSeconds>();
  const adapter = c.training.adapter ?? null;
  const adapterCache = new Map<boolean, AdapterLayerSeconds>();
  // A frozen base computes input gradients only (adapter-time.ts): its GEMMs' backward is one forward, not K.backwardOverForward.
  const K = calibration().time;
  const matmulBackward = adapter ? FROZEN_BACKWARD_GEMMS_PER_FORWARD : K.backwardOverForward;
  let forward = 0;
  let backward = 0;
  let recompute = 0;
  for (const index of layers) {
    const moe = isMoeLayer(c.model, index);
    const kind = layerKind(c.model, index);
    let t = cache.get(kind);
    if (!t) {
      t = layerForwardSeconds(c, index, tokens);
      cache.set(kind, t);
    }
    let a: AdapterLayerSeconds | undefined;
    if (adapter) {
      a = adapterCache.get(moe);
      if (!a) {
        a = adapterLayerSeconds(c, index, tokens, adapter);
        adapterCache.set(moe, a);
      }
    }
    // An eager MoE layer's forward stalls at the dispatcher's synchronisation and then runs no faster than the host issues what
    // follows; its backward no faster than the host issues it (moe-host.ts).
    const gpuForward = t.matmulForward + t.attentionForward + t.elementwiseForward + (a?.forward ?? 0);
    const layerForward = moeLayerForwardSeconds(gpuForward, t.expertMatmulForward, {
      beforeSync: t.hostBeforeSync,
      afterSync: t.hostForward,
      stall: t.hostForwardStall,
    });
    forward += layerForward;
    backward += hostBound(
      t.matmulForward * matmulBackward + t.elementwiseForward * K.backwardOverForward + t.attentionBackward + (a?.backward ?? 0),
      t.hostBackward,
    );
    // Full recomputation reruns each layer's forward; selective the attention core
    // (Korthikanti et al. 2022, section 5) and the element-wise outputs it did not keep
    // (activations.ts, ENGINE_SELECTIVE_SCOPE), never a weight matmul.
    if (c.training.recompute === 'full') recompute += layerForward;
    else if (c.training.recompute === 'selective') recompute += t.attentionForward + t.elementwiseForward;
  }
  return { forward, backward, recompute };
}

/** A stage's work per micro-batch: StageTimes without the step's data-parallel sync and optimizer (the search's per-layer pieces). */
export type StageWorkTimes = Omit<StageTimes, 'dpSeconds' | 'optimizerSeconds'>;

export function stageTimes(c: RunConfig, stage: PipelineStage, parameters: { dense: number; expert: number }): StageTimes {
  const work = stageWorkTimes(c, stage, parameters);
  const { training } = c;
  // A fine-tune reduces and updates the adapters' parameters only; ZeRO-3 still gathers the frozen base for every micro-batch.
  const trainable = training.adapter ? stageAdapterParameters(c, stage, training.adapter).adapter : parameters;
  const dpSeconds = training.adapter ? dataParallelStepSeconds(c, trainable) : work.comm.dp;
  const { comm: _comm, ...times } = work;
  return { ...times, dpSeconds, optimizerSeconds: optimizerStepSeconds(c, trainable) };
}

/** The forward, backward and recomputation of one micro-batch on the stage and its exposed communication (and the stage's traffic). */
export function stageWorkTimes(
  c: RunConfig,
  stage: PipelineStage,
  parameters: { dense: number; expert: number },
): StageWorkTimes & { readonly comm: CommRecord } {
  const { time: K, exposed: EXPOSED } = calibration();
  const { model, training } = c;
  const tokens = (training.microBatch * training.seqLen) / c.parallel.cp;
  const layers = sumLayers(c, stage.layers, tokens);
  let forward = layers.forward;
  let backward = layers.backward;
  if (stage.output) {
    const head = outputLayerForwardSeconds(c, tokens);
    // The output head of a fine-tune is frozen too (no adapter sits on it): input gradient only.
    const headBackward = head * (training.adapter ? FROZEN_BACKWARD_GEMMS_PER_FORWARD : K.backwardOverForward);
    forward += head;
    backward += headBackward;
    // Multi-token prediction: one more MoE layer and one more pass through the output head per module (DeepSeek-V3 report, section 2.2).
    if (model.mtpLayers > 0) {
      const mtp = sumLayers(c, [model.layers], tokens);
      forward += model.mtpLayers * (mtp.forward + head);
      backward += model.mtpLayers * (mtp.backward + headBackward);
    }
  }
  const moeLayers = stage.layers.filter((i) => isMoeLayer(model, i)).length;
  const comm = stageComm(c, stage.layers.length, parameters, moeLayers, stageLayerWeights(c, stage)).seconds;
  return {
    forwardComputeSeconds: forward,
    backwardComputeSeconds: backward,
    recomputeSeconds: layers.recompute,
    exposed: {
      tp: comm.tp * EXPOSED.tp,
      cp: comm.cp * EXPOSED.cp,
      ep: comm.ep * expertParallelExposedFraction(c),
      zero3: comm.zero3Gather * zero3GatherExposedFraction(c, EXPOSED.zero3Gather),
    },
    p2pSeconds: comm.ppPerMessage,
    comm,
  };
}

/**
 * Exposed communication splits over forward and backward as the traffic does: a third forward, two thirds backward (backward
 * moves gradients for inputs and, with recompute, repeats forward traffic).
 */
const FORWARD_SHARE_OF_COMM = 1 / 3;

function exposedTotal(t: StageTimes): number {
  return t.exposed.tp + t.exposed.cp + t.exposed.ep + t.exposed.zero3;
}

function scheduleInput(c: RunConfig, times: readonly StageTimes[]): ScheduleInput {
  return {
    kind: c.parallel.schedule,
    stages: c.parallel.pp,
    microBatches: microBatchesPerStep(c.training, c.parallel),
    virtualStages: c.parallel.vpp,
    forwardSeconds: times.map((t) => t.forwardComputeSeconds + FORWARD_SHARE_OF_COMM * exposedTotal(t)),
    backwardSeconds: times.map((t) => t.backwardComputeSeconds + t.recomputeSeconds + (1 - FORWARD_SHARE_OF_COMM) * exposedTotal(t)),
    // Input and weight gradients are one GEMM each per forward GEMM (zero-bubble's B and W are equal).
    weightGradFraction: 0.5,
    p2pSeconds: c.parallel.pp > 1 ? Math.max(...times.map((t) => t.p2pSeconds)) : 0,
  };
}

interface PipelineResult {
  readonly makespan: number;
  readonly bubbleFraction: number;
  readonly timeline: Timeline | null;
  readonly note: string | null;
}

function runPipeline(input: ScheduleInput, maxSimulatedBlocks: number): PipelineResult {
  const blocks = blockCount(input.kind, input.stages, input.microBatches, input.virtualStages);
  if (blocks <= Math.min(MAX_DRAWN_BLOCKS, maxSimulatedBlocks)) {
    const timeline = simulateSchedule(input, maxSimulatedBlocks);
    return { makespan: timeline.makespanSeconds, bubbleFraction: timeline.bubbleFraction, timeline, note: timeline.adjustment };
  }
  // Beyond maxSimulatedBlocks the schedule wing times the step by its closed form.
  const summary = simulateScheduleSummary(input, maxSimulatedBlocks);
  return { makespan: summary.makespanSeconds, bubbleFraction: summary.bubbleFraction, timeline: null, note: summary.adjustment };
}

/**
 * The part of a step's data-parallel sync (`dpSeconds`) that compute does not hide.
 * ZeRO 0/1 reduce once per step, under the last micro-batch's backward, and gather
 * the updated weights under the first forward (Megatron --overlap-grad-reduce,
 * --overlap-param-gather; PyTorch DDP buckets, Li et al. 2020, arXiv 2006.15704,
 * section 3.2.3): one micro-batch's work is the window. ZeRO 2/3 reduce-scatter every
 * micro-batch's gradients during that micro-batch's backward: the whole step is.
 */
export function exposedDataParallelSeconds(
  dpSeconds: number,
  workPerMicroBatchSeconds: number,
  microBatches: number,
  zero: ZeroStage,
): number {
  const window = (zero >= 2 ? microBatches : 1) * workPerMicroBatchSeconds;
  const DP_OVERLAP = calibration().dpOverlap;
  return Math.max(dpSeconds * DP_OVERLAP.minimumExposedFraction, dpSeconds - window * DP_OVERLAP.overlapEfficiency);
}

/** `maxSimulatedBlocks` lower than the default trades the simulated schedule for the closed form (the calibration fit uses it for speed). */
export function stepTime(c: RunConfig, maxSimulatedBlocks = MAX_SIMULATED_BLOCKS): StepTime {
  const layout = pipelineLayout(c.model, c.parallel);
  const parameters = stageGpuParameters(c.model, c.parallel);
  const times = layout.map((stage, s) => stageTimes(c, stage, parameters[s] ?? { dense: 0, expert: 0 }));
  const input = scheduleInput(c, times);
  const pipeline = runPipeline(input, maxSimulatedBlocks);
  const m = input.microBatches;

  // The critical stage: the one whose own work per micro-batch is largest.
  const workPerMicroBatch = (s: number) => (input.forwardSeconds[s] ?? 0) + (input.backwardSeconds[s] ?? 0);
  let critical = 0;
  for (let s = 1; s < times.length; s++) if (workPerMicroBatch(s) > workPerMicroBatch(critical)) critical = s;
  const t = times[critical] as StageTimes;
  // Without gradient-reduce overlap (training.overlap.dpGrad false) the whole sync is exposed (stack-time.ts).
  const dpExposed = Math.max(
    ...times.map((x) =>
      dataParallelOverlapped(c) ? exposedDataParallelSeconds(x.dpSeconds, workPerMicroBatch(critical), m, c.parallel.zero) : x.dpSeconds,
    ),
  );
  const optimizer = Math.max(...times.map((x) => x.optimizerSeconds));

  // A DualPipe device holds two chunks (one per direction) and each micro-batch passes only one of them.
  const passes = m * (c.parallel.schedule === 'dualpipe' ? DUALPIPE_CHUNK_SHARE : 1);
  const compute = passes * (t.forwardComputeSeconds + t.backwardComputeSeconds);
  const recompute = passes * t.recomputeSeconds;
  const tp = passes * t.exposed.tp;
  const cp = passes * t.exposed.cp;
  const ep = passes * (t.exposed.ep + t.exposed.zero3);
  const pp = pipelineBoundarySeconds(c.parallel.pp, input.p2pSeconds);
  const bubble = Math.max(0, pipeline.makespan - compute - recompute - tp - cp - ep - pp);
  const stepSeconds = compute + recompute + tp + cp + ep + pp + bubble + dpExposed + optimizer;
  const drawn = pipeline.timeline && pipeline.timeline.blocks.length <= MAX_DRAWN_BLOCKS ? pipeline.timeline : null;
  return {
    stepSeconds,
    // The one bubble figure: the share of the step the critical stage spends in the
    // schedule's idle time, the breakdown's `bubble` part over the step. The card, the
    // step breakdown and the formula view all show this number (issue 16, item 6).
    bubbleFraction: stepSeconds > 0 ? bubble / stepSeconds : 0,
    breakdown: { compute, recompute, tp, cp, ep, pp, dp: dpExposed, bubble, optimizer },
    timeline: drawn,
    scheduleNote: pipeline.note,
  };
}

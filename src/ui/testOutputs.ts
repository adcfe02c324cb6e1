// Hand-built estimate outputs for the UI tests (and for looking at the charts
// before the engine computes everything). Not imported by the page.

import type { EstimateOutput, MemoryBreakdown, ScheduleBlock, StageOnDevice, Timeline, TimePart } from '../model/input/index.ts';

const GIB = 2 ** 30;

export function breakdownGiB(
  parameters: number,
  gradients: number,
  optimizer: number,
  activations: number,
  other: number,
): MemoryBreakdown {
  return {
    parameters: parameters * GIB,
    gradients: gradients * GIB,
    optimizer: optimizer * GIB,
    activations: activations * GIB,
    other: other * GIB,
    total: (parameters + gradients + optimizer + activations + other) * GIB,
  };
}

/**
 * GPipe on p stages and m micro-batches, forward tf and backward tb seconds per
 * block: forward j on stage s starts at (s + j)·tf; backward j on stage s starts
 * at (m + p − 1)·tf + (p − 1 − s + j)·tb. Makespan (m + p − 1)(tf + tb), bubble
 * (p − 1)/(m + p − 1) (Narayanan 2021 §2.2: bubble/ideal = (p − 1)/m).
 */
export function gpipeTimeline(stages: number, microBatches: number, forwardSeconds: number, backwardSeconds: number): Timeline {
  const blocks: ScheduleBlock[] = [];
  const backwardStart = (microBatches + stages - 1) * forwardSeconds;
  for (let stage = 0; stage < stages; stage++) {
    for (let microBatch = 0; microBatch < microBatches; microBatch++) {
      const f = (stage + microBatch) * forwardSeconds;
      blocks.push({ stage, microBatch, chunk: 0, kind: 'F', startSeconds: f, endSeconds: f + forwardSeconds });
      const b = backwardStart + (stages - 1 - stage + microBatch) * backwardSeconds;
      blocks.push({ stage, microBatch, chunk: 0, kind: 'B', startSeconds: b, endSeconds: b + backwardSeconds });
    }
  }
  const slots = microBatches + stages - 1;
  return {
    stages,
    microBatches,
    blocks,
    makespanSeconds: slots * (forwardSeconds + backwardSeconds),
    bubbleFraction: (stages - 1) / slots,
  };
}

/** The layers above each stage's allocated total: a 10 % allocator reserve, then 1.5 GiB of CUDA context, NCCL and cuBLAS. */
function onDevice(stages: readonly MemoryBreakdown[]): StageOnDevice[] {
  return stages.map((s) => ({ reserved: s.total * 1.1, deviceUsed: s.total * 1.1 + 1.5 * GIB }));
}

const BREAKDOWN: Readonly<Record<TimePart, number>> = {
  compute: 3.6,
  recompute: 0.4,
  tp: 0.5,
  cp: 0,
  ep: 0,
  pp: 0.05,
  dp: 0.1,
  bubble: 0.5,
  optimizer: 0.06,
};

/** No offload: nothing on the host, a DGX H100's 2 TiB. */
const NO_HOST = { perNode: 0, capacity: 2048 * GIB, perGpu: 0 };

/** A complete output for an 8-stage run whose first stage does not fit on an 80 GiB GPU. */
export function sampleOutput(): EstimateOutput {
  // Stage 1 holds 92 GiB allocated, 102.7 GiB on the device (onDevice); the others 70 GiB allocated, 78.5 GiB on the device.
  const stages = [breakdownGiB(20, 20, 30, 20, 2), ...Array.from({ length: 7 }, () => breakdownGiB(20, 20, 20, 8, 2))];
  const perGpu = stages[0] ?? breakdownGiB(0, 0, 0, 0, 0);
  return {
    memory: {
      perGpu,
      stages,
      reserved: perGpu.total * 1.1,
      deviceUsed: perGpu.total * 1.1 + 1.5 * GIB,
      stagesOnDevice: onDevice(stages),
      capacity: 80 * GIB,
      fits: false,
      host: NO_HOST,
    },
    // Llama 3 70B (structure/params.test.ts): 70,553,706,496 parameters; 6N + attention at 8k ≈ 4.3e11 FLOPs/token.
    model: { parameters: 70_553_706_496, activeParameters: 70_553_706_496, flopsPerToken: 4.3e11 },
    flops: { modelPerStep: 3.35e18, hardwarePerStep: 4.35e18 },
    throughput: {
      stepSeconds: 5.21,
      tokensPerSecond: 603_800,
      tflopsPerGpu: 128.9,
      mfu: 0.4132,
      hfu: 0.5364,
      // One bubble (step.ts): the breakdown's bubble over the step, 0.5 / 5.21 = 9.6 %.
      bubbleFraction: BREAKDOWN.bubble / 5.21,
      breakdown: BREAKDOWN,
    },
    // 3e11 tokens in 5.75 days: 5.2174e10 tokens/day; $424,000 / 300,000 million tokens = $1.413 per million.
    time: { days: 5.75, gpuHours: 212_000, tokensPerDay: 3e11 / 5.75 },
    cost: { usd: 424_000, energyKwh: 203_500, co2Kg: 81_400, usdPerMillionTokens: 424_000 / 3e5 },
    reliability: { expectedFailures: 4.24, checkpointIntervalMinutes: 42.5, goodput: 0.962, expectedInterruptions: 4.24 },
    timeline: gpipeTimeline(8, 8, 0.1, 0.2),
    warnings: [],
    errors: [],
  };
}

/** What the engine returns today: memory and FLOPs, no time model, no timeline. */
export function partialOutput(): EstimateOutput {
  const stage = breakdownGiB(10, 10, 20, 15, 1);
  return {
    memory: {
      perGpu: stage,
      stages: [stage, stage],
      reserved: stage.total * 1.1,
      deviceUsed: stage.total * 1.1 + 1.5 * GIB,
      stagesOnDevice: onDevice([stage, stage]),
      capacity: 80 * GIB,
      fits: true,
      host: NO_HOST,
    },
    model: { parameters: 8.03e9, activeParameters: 8.03e9, flopsPerToken: 5.3e10 },
    flops: { modelPerStep: 1e18, hardwarePerStep: 1.3e18 },
    throughput: null,
    time: null,
    cost: null,
    reliability: null,
    timeline: null,
    warnings: ['throughput, time, cost and reliability are not computed yet'],
    errors: [],
  };
}

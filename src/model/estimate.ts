// The engine's front door: an untrusted document in, the interchange output out.
// Never throws on user input; an invalid document gives { errors } and nulls.

import { peakFlopsPerSecond } from './time/index.ts';
import { trainingCost, trainingTime } from './run/index.ts';
import { parseDocument } from './input/index.ts';
import { modelSummary, stepFlops } from './structure/index.ts';
import { hostMemory, optimizerBytesPerParameter, stageMemoryDetails } from './memory/index.ts';
import { parameterCounts } from './structure/index.ts';
import { dataLoaderRate, expectedFailures, reliabilityPlan } from './run/index.ts';
import { adapterStepFlops, stepTime } from './time/index.ts';
import type { EstimateOutput, MemoryBreakdown, RunConfig } from './input/index.ts';
import { GiB, SECONDS_PER_MINUTE, WEIGHT_BYTES } from './input/index.ts';

const EMPTY_BREAKDOWN: MemoryBreakdown = { parameters: 0, gradients: 0, optimizer: 0, activations: 0, other: 0, total: 0 };

export function invalidOutput(errors: readonly string[], warnings: readonly string[]): EstimateOutput {
  return {
    memory: { perGpu: EMPTY_BREAKDOWN, stages: [], reserved: 0, deviceUsed: 0, stagesOnDevice: [], capacity: 0, fits: false, host: { perNode: 0, capacity: 0, perGpu: 0 } },
    model: null,
    flops: { modelPerStep: 0, hardwarePerStep: 0 },
    throughput: null, time: null, cost: null, reliability: null, timeline: null,
    warnings, errors,
  };
}

export function estimate(raw: unknown): EstimateOutput {
  const parsed = parseDocument(raw);
  if (!parsed.ok) return invalidOutput(parsed.errors, parsed.warnings);
  return estimateConfig(parsed.config, parsed.warnings);
}

/** Every number the output carries must be finite: anything else becomes an error naming the figure, never NaN in a chart. */
function nonFiniteFigures(value: unknown, path: string, found: string[]): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) found.push(path);
  } else if (Array.isArray(value)) {
    if (path !== 'timeline.blocks') value.forEach((v, i) => nonFiniteFigures(v, `${path}[${i}]`, found));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) nonFiniteFigures(v, path ? `${path}.${k}` : k, found);
  }
}

export function estimateConfig(config: RunConfig, warnings: readonly string[] = []): EstimateOutput {
  const details = stageMemoryDetails(config);
  const stages = details.map((s) => s.breakdown);
  const stagesOnDevice = details.map((s) => ({ reserved: s.reserved, deviceUsed: s.deviceUsed }));
  // The most loaded GPU is the one whose process holds the most on the device (what fits is judged on).
  const worst = details.reduce<{ breakdown: MemoryBreakdown; reserved: number; deviceUsed: number }>(
    (a, s) => (s.deviceUsed > a.deviceUsed ? s : a), { breakdown: EMPTY_BREAKDOWN, reserved: 0, deviceUsed: 0 });
  const perGpu = worst.breakdown;
  const { reserved, deviceUsed } = worst;
  const capacity = config.cluster.gpu.memoryGiB * GiB;
  // What offload keeps in one node's CPU memory (memory/host.ts): the run fits only where the host holds it too.
  const host = hostMemory(config);
  // A fine-tune's FLOPs skip the frozen weights' gradients and add the adapters' (time/adapter-time.ts).
  const flops = config.training.adapter ? adapterStepFlops(config, config.training.adapter) : stepFlops(config);
  const { gpus } = config.cluster;
  const step = stepTime(config);
  const peak = peakFlopsPerSecond(config.cluster.gpu, config.training.precision);
  const tokensPerStep = config.training.globalBatch * config.training.seqLen;
  const checkpointBytesPerParameter = WEIGHT_BYTES[config.training.precision] + optimizerBytesPerParameter(config.training, config.stack.optimizerStateDtype);
  const checkpointBytes = parameterCounts(config.model).total * checkpointBytesPerParameter;
  const plan = reliabilityPlan(config.cost, gpus, checkpointBytes);
  const tokensPerSecond = tokensPerStep / step.stepSeconds;
  const time = trainingTime(config.training.tokens, tokensPerSecond, gpus, plan.goodput);
  const extraWarnings: string[] = [];
  if (step.scheduleNote) extraWarnings.push(`parallel.schedule: ${step.scheduleNote}`);
  if (deviceUsed > capacity) {
    extraWarnings.push(`memory: needs ${(deviceUsed / GiB).toFixed(1)} GiB per GPU on the device (${(reserved / GiB).toFixed(1)} GiB reserved by the allocator, ${(perGpu.total / GiB).toFixed(1)} GiB allocated), the ${config.cluster.gpu.name} has ${config.cluster.gpu.memoryGiB} GiB`);
  }
  if (host.perNode > host.capacity) {
    extraWarnings.push(`memory.host: offload needs ${(host.perNode / GiB).toFixed(0)} GiB of CPU memory per node, the node has ${(host.capacity / GiB).toFixed(0)} GiB (cluster.hostMemoryGiB)`);
  }
  const output: EstimateOutput = {
    memory: { perGpu, stages, reserved, deviceUsed, stagesOnDevice, capacity, fits: deviceUsed <= capacity && host.perNode <= host.capacity, host },
    model: modelSummary(config.model, config.training.seqLen),
    flops,
    throughput: {
      stepSeconds: step.stepSeconds,
      tokensPerSecond,
      tflopsPerGpu: flops.modelPerStep / step.stepSeconds / gpus / 1e12,
      mfu: flops.modelPerStep / (step.stepSeconds * gpus * peak),
      hfu: flops.hardwarePerStep / (step.stepSeconds * gpus * peak),
      bubbleFraction: step.bubbleFraction,
      breakdown: step.breakdown,
    },
    time: { days: time.days, gpuHours: time.gpuHours },
    cost: trainingCost(config.cost, config.cluster.gpu, time.gpuHours),
    reliability: {
      expectedFailures: expectedFailures(time.gpuHours, config.cost.gpuMtbfHours),
      checkpointIntervalMinutes: plan.checkpointIntervalSeconds / SECONDS_PER_MINUTE,
      goodput: plan.goodput,
      optimalCheckpointIntervalMinutes: plan.optimalCheckpointIntervalSeconds / SECONDS_PER_MINUTE,
      checkpointBytes,
      checkpointWriteSeconds: plan.checkpointWriteSeconds,
      clusterMtbfHours: plan.clusterMtbfSeconds / 3600,
    },
    dataPipeline: dataLoaderRate(tokensPerSecond, config.model.vocab, gpus, config.cluster.gpusPerNode),
    timeline: step.timeline,
    warnings: [...warnings, ...extraWarnings],
    errors: [],
  };
  const bad: string[] = [];
  nonFiniteFigures({ ...output, timeline: null }, '', bad);
  if (bad.length > 0) return invalidOutput([`the figures ${bad.slice(0, 5).join(', ')} cannot be computed for this configuration (not finite)`], output.warnings);
  return output;
}

// The engine's front door: an untrusted document in, the interchange output out.
// Never throws on user input; an invalid document gives { errors } and nulls.

import { peakFlopsPerSecond } from './time/index.ts';
import { interruptionRates, runCompletionWithNotes, runPlan, scheduleRates, trainingCost, trainingTime } from './run/index.ts';
import { parseDocument } from './input/index.ts';
import { modelSummary, stepFlops } from './structure/index.ts';
import { hostMemory, stageMemoryDetails } from './memory/index.ts';
import { dataLoaderRate, expectedFailures } from './run/index.ts';
import { adapterStepFlops, stepTime } from './time/index.ts';
import type { CostConfig, EstimateOutput, MemoryBreakdown, RunConfig } from './input/index.ts';
import { SEGMENT_TABLE, uncertaintyDetail } from './uncertainty/index.ts';
import { GiB, SECONDS_PER_MINUTE } from './input/index.ts';

const EMPTY_BREAKDOWN: MemoryBreakdown = { parameters: 0, gradients: 0, optimizer: 0, activations: 0, other: 0, total: 0 };

export function invalidOutput(errors: readonly string[], warnings: readonly string[]): EstimateOutput {
  return {
    memory: {
      perGpu: EMPTY_BREAKDOWN,
      stages: [],
      reserved: 0,
      deviceUsed: 0,
      stagesOnDevice: [],
      capacity: 0,
      fits: false,
      host: { perNode: 0, capacity: 0, perGpu: 0 },
    },
    model: null,
    flops: { modelPerStep: 0, hardwarePerStep: 0 },
    throughput: null,
    time: null,
    cost: null,
    reliability: null,
    timeline: null,
    uncertainty: null,
    warnings,
    errors,
  };
}

export function estimate(raw: unknown, options: EstimateOptions = { completion: true }): EstimateOutput {
  const parsed = parseDocument(raw);
  if (!parsed.ok) return invalidOutput(parsed.errors, parsed.warnings);
  return estimateConfig(parsed.config, parsed.warnings, options);
}

export interface EstimateOptions {
  /**
   * Simulate the run's end as a distribution (reliability.completion, run/completion.ts):
   * a few milliseconds, and an elastic run's reduced-DP step time. estimate() asks for it;
   * the searches and fits that call estimateConfig by the thousand do not. 'range': the
   * percentiles alone, without the interval chosen against the distribution, the quarters
   * of the budget or the waiting comparison (a sweep's rows, a dozen simulations fewer each).
   */
  readonly completion?: boolean | 'range';
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

function allFinite(value: unknown): boolean {
  const bad: string[] = [];
  nonFiniteFigures(value, '', bad);
  return bad.length === 0;
}

export function estimateConfig(config: RunConfig, warnings: readonly string[] = [], options: EstimateOptions = {}): EstimateOutput {
  const details = stageMemoryDetails(config);
  const stages = details.map((s) => s.breakdown);
  const stagesOnDevice = details.map((s) => ({ reserved: s.reserved, deviceUsed: s.deviceUsed }));
  // The most loaded GPU is the one whose process holds the most on the device (what fits is judged on).
  const worst = details.reduce<{ breakdown: MemoryBreakdown; reserved: number; deviceUsed: number }>(
    (a, s) => (s.deviceUsed > a.deviceUsed ? s : a),
    { breakdown: EMPTY_BREAKDOWN, reserved: 0, deviceUsed: 0 },
  );
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
  const { gpusPerNode } = config.cluster;
  // The run's checkpointing plan and price, by the rule the layout search ranks with (run/plan.ts).
  const { plan, checkpointBytes, usdPerGpuHour } = runPlan(config);
  const tokensPerSecond = tokensPerStep / step.stepSeconds;
  const time = trainingTime(config.training.tokens, tokensPerSecond, gpus, plan.goodput);
  // Spot capacity is paid at the spot price (run/interruptions.ts).
  const priced: CostConfig = { ...config.cost, usdPerGpuHour };
  const rates = scheduleRates(tokensPerSecond, plan.goodput, gpus, priced.usdPerGpuHour);
  const interruptionsPerSecond = interruptionRates(config.cost, gpus, gpusPerNode).perSecond;
  const extraWarnings: string[] = [];
  const simulated = options.completion
    ? runCompletionWithNotes(config, tokensPerSecond, step.stepSeconds, checkpointBytes, options.completion === true)
    : null;
  let completion = simulated?.completion ?? null;
  if (simulated) extraWarnings.push(...simulated.warnings);
  if (completion && !allFinite(completion)) {
    // Interruptions so frequent that a simulated run never ends in a representable time: the rest still stands.
    completion = null;
    extraWarnings.push('reliability.completion: interruptions come too often for any simulated run to end; no range is given');
  }
  if (step.scheduleNote) extraWarnings.push(`parallel.schedule: ${step.scheduleNote}`);
  if (deviceUsed > capacity) {
    extraWarnings.push(
      `memory: needs ${(deviceUsed / GiB).toFixed(1)} GiB per GPU on the device ` +
        `(${(reserved / GiB).toFixed(1)} GiB reserved by the allocator, ${(perGpu.total / GiB).toFixed(1)} ` +
        `GiB allocated), the ${config.cluster.gpu.name} has ${config.cluster.gpu.memoryGiB} GiB`,
    );
  }
  if (host.perNode > host.capacity) {
    extraWarnings.push(
      `memory.host: offload needs ${(host.perNode / GiB).toFixed(0)} GiB of CPU memory per ` +
        `node, the node has ${(host.capacity / GiB).toFixed(0)} GiB (cluster.hostMemoryGiB)`,
    );
  }
  const output: EstimateOutput = {
    memory: {
      perGpu,
      stages,
      reserved,
      deviceUsed,
      stagesOnDevice,
      capacity,
      fits: deviceUsed <= capacity && host.perNode <= host.capacity,
      host,
    },
    model: modelSummary(config.model, config.training.seqLen),
    flops,
    throughput: {
      stepSeconds: step.stepSeconds,
      tokensPerSecond,
      tflopsPerGpu: flops.modelPerStep / step.stepSeconds / gpus / 1e12,
      mfu: flops.modelPerStep / (step.stepSeconds * gpus * peak),
      mfuPeak: { precision: config.training.precision, tflopsPerGpu: peak / 1e12 },
      mfuBf16: flops.modelPerStep / (step.stepSeconds * gpus * peakFlopsPerSecond(config.cluster.gpu, 'bf16')),
      hfu: flops.hardwarePerStep / (step.stepSeconds * gpus * peak),
      bubbleFraction: step.bubbleFraction,
      breakdown: step.breakdown,
    },
    time: { days: time.days, gpuHours: time.gpuHours, tokensPerDay: rates.tokensPerDay },
    cost: { ...trainingCost(priced, config.cluster.gpu, time.gpuHours), usdPerMillionTokens: rates.usdPerMillionTokens },
    reliability: {
      expectedFailures: expectedFailures(time.gpuHours, config.cost.gpuMtbfHours),
      checkpointIntervalMinutes: plan.checkpointIntervalSeconds / SECONDS_PER_MINUTE,
      goodput: plan.goodput,
      optimalCheckpointIntervalMinutes: plan.optimalCheckpointIntervalSeconds / SECONDS_PER_MINUTE,
      checkpointBytes,
      checkpointWriteSeconds: plan.checkpointWriteSeconds,
      clusterMtbfHours: plan.clusterMtbfSeconds / 3600,
      expectedInterruptions: interruptionsPerSecond * time.wallSeconds,
      ...(completion ? { completion } : {}),
    },
    dataPipeline: dataLoaderRate(tokensPerSecond, config.model.vocab, gpus, config.cluster.gpusPerNode),
    timeline: step.timeline,
    // How far published runs like this one fell from their estimates (uncertainty/ranges.ts): on the figure fits judges.
    uncertainty: uncertaintyDetail(config, tokensPerSecond, deviceUsed, SEGMENT_TABLE)?.uncertainty ?? null,
    warnings: [...warnings, ...extraWarnings],
    errors: [],
  };
  const bad: string[] = [];
  nonFiniteFigures({ ...output, timeline: null }, '', bad);
  if (bad.length > 0)
    return invalidOutput(
      [`the figures ${bad.slice(0, 5).join(', ')} cannot be computed for this configuration (not finite)`],
      output.warnings,
    );
  return output;
}

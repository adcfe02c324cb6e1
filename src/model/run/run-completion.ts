// reliability.completion for a whole run: the seeded Monte Carlo (completion.ts) fed with
// the run's own plan (plan.ts), the checkpoint interval chosen against the distribution,
// the dates each quarter of the token budget is reached, on spot capacity the same run on
// demand beside it, and for an elastic run what carrying on buys over waiting.

import type { Completion, CostConfig, RunConfig } from '../input/index.ts';
import { GiB, SECONDS_PER_HOUR, SECONDS_PER_MINUTE } from '../input/index.ts';
import { hostMemory, stageMemoryDetails } from '../memory/index.ts';
import { stepTime } from '../time/index.ts';
import { budgetMilestones, completionFigures, type CompletionInput, p50OptimalInterval, simulateCompletion } from './completion.ts';
import { effectivePreemptionsPerNodeDay, elasticDataParallel, interruptionRates, nodeCount, usdPerGpuHourFor } from './interruptions.ts';
import { reliabilityPlan } from './reliability.ts';

/** A run at a reduced data-parallel degree, the global batch kept: each replica takes ⌈batch ÷ replicas⌉ micro-batches. */
export function reducedRun(config: RunConfig, dp: number): RunConfig {
  const { tp, pp, cp } = config.parallel;
  const { globalBatch, microBatch } = config.training;
  const microBatches = Math.ceil(globalBatch / (microBatch * dp));
  return {
    ...config,
    parallel: { ...config.parallel, dp },
    training: { ...config.training, globalBatch: microBatches * microBatch * dp },
    cluster: { ...config.cluster, gpus: tp * pp * cp * dp },
  };
}

type Shortfall = NonNullable<NonNullable<Parameters<typeof completionFigures>[1]['elasticMemory']>>;

/** Where a run does not fit, by the estimate's own rule (memory.fits: what the device holds, and what offload puts on the host), or null. */
export function memoryShortfall(config: RunConfig): Shortfall | null {
  const deviceUsed = Math.max(0, ...stageMemoryDetails(config).map((s) => s.deviceUsed));
  const capacity = config.cluster.gpu.memoryGiB * GiB;
  if (deviceUsed > capacity) return { needBytes: deviceUsed, capacityBytes: capacity, where: 'device' };
  const host = hostMemory(config);
  return host.perNode > host.capacity ? { needBytes: host.perNode, capacityBytes: host.capacity, where: 'host' } : null;
}

export interface ElasticPlan {
  /** The degree carried on at (null: the run waits; 0: no replica is left without the node). */
  readonly dp: number | null;
  /** Share of the full rate kept while a node is away: the engine's own step time at that degree; 0 when the run waits. */
  readonly rate: number;
  /** Set when the reduced degree would not fit: the run waits instead. */
  readonly memory: Shortfall | null;
}

export function elasticPlan(config: RunConfig, stepSeconds: number): ElasticPlan {
  if (!config.cost.elastic) return { dp: null, rate: 0, memory: null };
  const dp = elasticDataParallel(config.parallel, config.cluster.gpusPerNode);
  if (dp === 0) return { dp, rate: 0, memory: null };
  const reduced = reducedRun(config, dp);
  const memory = memoryShortfall(reduced);
  if (memory) return { dp, rate: 0, memory };
  return { dp, rate: Math.min(1, stepSeconds / stepTime(reduced).stepSeconds), memory: null };
}

/**
 * The completion of `config` (tokens at `tokensPerSecond` while it runs). One plan per
 * capacity; the interval chosen against the distribution, the milestones and the waiting
 * comparison are the document's own capacity's.
 */
export function runCompletion(config: RunConfig, tokensPerSecond: number, stepSeconds: number, checkpointBytes: number): Completion {
  return runCompletionWithNotes(config, tokensPerSecond, stepSeconds, checkpointBytes).completion;
}

/** Why an elastic run waits after all, as a warning on cost.elastic; null when it carries on or was not asked to. */
export function elasticWarning(elastic: ElasticPlan, dp: number): string | null {
  if (elastic.dp === null) return null;
  if (elastic.dp === 0) return 'cost.elastic: no data-parallel replica is left when a node goes, so the run waits for the node';
  if (!elastic.memory) return null;
  const where = elastic.memory.where === 'device' ? 'GPU memory per GPU' : 'CPU memory per node';
  return (
    `cost.elastic: data parallel ${elastic.dp} of ${dp} would need ${(elastic.memory.needBytes / GiB).toFixed(1)} GiB of ${where}, ` +
    `more than the ${(elastic.memory.capacityBytes / GiB).toFixed(1)} GiB there, so the run waits for the node instead of carrying on`
  );
}

/** The completion, and the warnings it raises (an elastic run that cannot carry on). */
export function runCompletionWithNotes(
  config: RunConfig,
  tokensPerSecond: number,
  stepSeconds: number,
  checkpointBytes: number,
  full = true,
): { completion: Completion; warnings: string[] } {
  const elastic = elasticPlan(config, stepSeconds);
  const warning = elasticWarning(elastic, config.parallel.dp);
  return { completion: completionOf(config, elastic, tokensPerSecond, checkpointBytes, full), warnings: warning ? [warning] : [] };
}

/** full = false: the percentiles (and on spot the on-demand answer) alone, without the interval chosen, the quarters or the waiting comparison. */
function completionOf(
  config: RunConfig,
  elastic: ElasticPlan,
  tokensPerSecond: number,
  checkpointBytes: number,
  full: boolean,
): Completion {
  const { gpus, gpusPerNode } = config.cluster;
  const usefulSeconds = config.training.tokens / tokensPerSecond;
  const inputOf = (cost: CostConfig) => {
    const plan = reliabilityPlan(cost, gpus, checkpointBytes, gpusPerNode);
    const interruptionsPerSecond = interruptionRates(cost, gpus, gpusPerNode).perSecond;
    const input: CompletionInput = {
      usefulSeconds,
      checkpointIntervalSeconds: plan.checkpointIntervalSeconds,
      checkpointWriteSeconds: plan.checkpointWriteSeconds,
      restartSeconds: plan.restartSeconds,
      interruptionsPerSecond,
      elasticRate: elastic.rate,
      usdPerSecond: (gpus * usdPerGpuHourFor(cost)) / SECONDS_PER_HOUR,
    };
    return { plan, input, expectedInterruptions: (interruptionsPerSecond * usefulSeconds) / plan.goodput };
  };
  const figuresOf = (cost: CostConfig, input: CompletionInput) =>
    completionFigures(
      input,
      {
        gpuMtbfHours: cost.gpuMtbfHours,
        preemptionsPerNodeDay: effectivePreemptionsPerNodeDay(cost),
        nodes: nodeCount(gpus, gpusPerNode),
        dp: config.parallel.dp,
        elasticDp: elastic.dp,
        elasticMemory: elastic.memory,
      },
      cost.startDate,
    );
  const own = inputOf(config.cost);
  const figures = figuresOf(config.cost, own.input);
  const best = full ? p50OptimalInterval(own.input, own.plan.optimalCheckpointIntervalSeconds) : null;
  const completion: Completion = !full
    ? figures
    : {
        ...figures,
        ...(best ? { p50OptimalInterval: { minutes: best.seconds / SECONDS_PER_MINUTE, days: best.days, usd: best.usd } } : {}),
        milestones: budgetMilestones(own.input, config.cost.startDate, figures.days),
        ...(elastic.rate > 0 ? { waiting: waitingFigures(own.input) } : {}),
      };
  if (config.cost.capacity !== 'spot') return completion;
  const onDemandCost: CostConfig = { ...config.cost, capacity: 'on-demand' };
  const onDemand = inputOf(onDemandCost);
  const beside = figuresOf(onDemandCost, onDemand.input);
  return { ...completion, onDemand: { days: beside.days, usd: beside.usd, expectedInterruptions: onDemand.expectedInterruptions } };
}

/** The same run waiting for each lost node instead of carrying on (same runs, same seed): the elastic choice's effect. */
function waitingFigures(input: CompletionInput): NonNullable<Completion['waiting']> {
  const { days, usd } = simulateCompletion({ ...input, elasticRate: 0 });
  return { days, usd };
}

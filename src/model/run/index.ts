// run/: "how long, how much, how often will it fail?". Days, GPU-hours, dollars, energy
// and CO2 (cost.ts); failures, the Young/Daly checkpoint interval, goodput and the data
// rate the input pipeline must sustain (reliability.ts); what interrupts a run and its price
// (interruptions.ts); the run's end and cost as a seeded Monte Carlo distribution (completion.ts).
// This file is the wing's one public entry: code outside the wing imports from here.

export { scheduleRates, trainingCost, trainingTime } from './cost.ts';
export { dalyGoodput, dataLoaderRate, expectedFailures, reliabilityPlan } from './reliability.ts';
export {
  COMPLETION_RUNS,
  COMPLETION_SEED,
  type CompletionContext,
  type CompletionFigures,
  type CompletionInput,
  completionFigures,
  type Histogram,
  p50OptimalInterval,
  type Percentiles,
  simulateCompletion,
} from './completion.ts';
export { checkpointBytesOf, type RunPlan, runPlan } from './plan.ts';
export {
  elasticPlan,
  type ElasticPlan,
  elasticWarning,
  memoryShortfall,
  reducedRun,
  runCompletion,
  runCompletionWithNotes,
} from './run-completion.ts';
export { effectivePreemptionsPerNodeDay, elasticDataParallel, interruptionRates, nodeCount, usdPerGpuHourFor } from './interruptions.ts';

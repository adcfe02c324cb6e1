// How long the completion Monte Carlo takes (reliability.completion, src/model/run/completion.ts):
// 1,000 simulated runs of a 1,024-GPU job, Llama 3 70B on H100s (tp 8, pp 4, dp 32), on spot
// capacity with the engine's own inputs. Prints the median of 50 timings in ms; the budget
// is 20 ms (fast enough to follow a slider).
//   npx tsx scripts/bench-completion.ts

import { parseDocument } from '../src/model/input/index.ts';
import { estimate } from '../src/model/estimate.ts';
import {
  COMPLETION_RUNS,
  interruptionRates,
  p50OptimalInterval,
  reliabilityPlan,
  simulateCompletion,
  usdPerGpuHourFor,
} from '../src/model/run/index.ts';

const DOCUMENT = {
  version: 1,
  model: { name: 'Llama 3 70B', layers: 80, hidden: 8192, heads: 64, kvHeads: 8, ffnHidden: 28672, ffnType: 'swiglu', vocab: 128256 },
  training: { seqLen: 8192, globalBatch: 512, microBatch: 1, tokens: 15e12, precision: 'bf16', recompute: 'selective' },
  parallel: { tp: 8, pp: 4, dp: 32, zero: 1 },
  cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 1024 },
  cost: { usdPerGpuHour: 3, capacity: 'spot', spotUsdPerGpuHour: 1.2, preemptionsPerNodeDay: 0.05 },
};

const parsed = parseDocument(DOCUMENT);
if (!parsed.ok) throw new Error(parsed.errors.join('; '));
const out = estimate(DOCUMENT);
if (!out.throughput || !out.reliability?.checkpointBytes) throw new Error(out.errors.join('; '));
const { cost, cluster, training } = parsed.config;
const plan = reliabilityPlan(cost, cluster.gpus, out.reliability.checkpointBytes, cluster.gpusPerNode);
const input = {
  usefulSeconds: training.tokens / out.throughput.tokensPerSecond,
  checkpointIntervalSeconds: plan.checkpointIntervalSeconds,
  checkpointWriteSeconds: plan.checkpointWriteSeconds,
  restartSeconds: plan.restartSeconds,
  interruptionsPerSecond: interruptionRates(cost, cluster.gpus, cluster.gpusPerNode).perSecond,
  elasticRate: 0,
  usdPerSecond: (cluster.gpus * usdPerGpuHourFor(cost)) / 3600,
};

function median(values: number[]): number {
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)] ?? NaN;
}

const timings: number[] = [];
let last = simulateCompletion(input, COMPLETION_RUNS);
for (let i = 0; i < 50; i++) {
  const start = performance.now();
  last = simulateCompletion(input, COMPLETION_RUNS);
  timings.push(performance.now() - start);
}
console.log(
  `completion: ${COMPLETION_RUNS} runs of a ${cluster.gpus}-GPU job, ${last.meanInterruptions.toFixed(0)} interruptions a run, ` +
    `p50 ${last.days.p50.toFixed(1)} days: median ${median(timings).toFixed(2)} ms`,
);

// The interval chosen against the distribution: a descent of a few such simulations (completion.ts p50OptimalInterval).
const choice: number[] = [];
let best = p50OptimalInterval(input, plan.optimalCheckpointIntervalSeconds);
for (let i = 0; i < 20; i++) {
  const start = performance.now();
  best = p50OptimalInterval(input, plan.optimalCheckpointIntervalSeconds);
  choice.push(performance.now() - start);
}
console.log(
  `interval against the distribution: ${((best?.seconds ?? NaN) / 60).toFixed(1)} ` +
    `min (Young/Daly ${(plan.optimalCheckpointIntervalSeconds / 60).toFixed(1)} min), ` +
    `p50 ${best?.days.p50.toFixed(1)} days: median ${median(choice).toFixed(2)} ms`,
);

// The engine's front door: an untrusted document in, the interchange output out.
// Never throws on user input; an invalid document gives { errors } and nulls.

import { parseDocument } from './document.ts';
import { stageMemoryBreakdowns } from './memory.ts';
import { stepFlops } from './flops.ts';
import type { EstimateOutput, MemoryBreakdown, RunConfig } from './types.ts';
import { GiB } from './units.ts';

const EMPTY_BREAKDOWN: MemoryBreakdown = { parameters: 0, gradients: 0, optimizer: 0, activations: 0, other: 0, total: 0 };

export function invalidOutput(errors: readonly string[], warnings: readonly string[]): EstimateOutput {
  return {
    memory: { perGpu: EMPTY_BREAKDOWN, stages: [], capacity: 0, fits: false },
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

export function estimateConfig(config: RunConfig, warnings: readonly string[] = []): EstimateOutput {
  const stages = stageMemoryBreakdowns(config);
  const perGpu = stages.reduce((worst, s) => (s.total > worst.total ? s : worst), EMPTY_BREAKDOWN);
  const capacity = config.cluster.gpu.memoryGiB * GiB;
  return {
    memory: { perGpu, stages, capacity, fits: perGpu.total <= capacity },
    flops: stepFlops(config),
    throughput: null, time: null, cost: null, reliability: null, timeline: null,
    warnings: [...warnings, 'throughput, time, cost and reliability are not computed yet (time-model issue)'],
    errors: [],
  };
}

// What offload keeps in one node's CPU memory (memory.host, model/memory/host.ts), in words:
// the verdict's reason when the host cannot hold it, and the memory card's line when offload
// is on. memory.fits already counts it; these only say so.

import type { EstimateOutput } from '../../model/input/index.ts';
import type { OomVerdict } from '../../model/validation/index.ts';
import { formatBytes, formatCount, formatPercent } from '../format.ts';
import { fitAssessment } from './memoryVerdict.ts';

/** True when offload puts something in the host's memory (the memory card then shows it). */
export function hostInUse(output: EstimateOutput): boolean {
  return output.errors.length === 0 && output.memory.host.perNode > 0;
}

/** True when the host cannot hold what offload puts there (the run does not fit, whatever the GPU holds). */
export function hostOverCapacity(output: EstimateOutput): boolean {
  return hostInUse(output) && output.memory.host.perNode > output.memory.host.capacity;
}

/** "needs 8.12 TiB of CPU memory per node; this node has 2 TiB", or null when the host holds it. */
export function hostShortfallWords(output: EstimateOutput): string | null {
  if (!hostOverCapacity(output)) return null;
  const { perNode, capacity } = output.memory.host;
  return `needs ${formatBytes(perNode)} of CPU memory per node; this node has ${formatBytes(capacity)}`;
}

/** "1.28 TiB of 2 TiB (64 %), 8 GPUs × 164 GiB", or null without offload. */
export function hostUseWords(output: EstimateOutput): string | null {
  if (!hostInUse(output)) return null;
  const { perNode, capacity, perGpu } = output.memory.host;
  const share = capacity > 0 ? ` (${formatPercent(perNode / capacity)})` : '';
  const gpus = perGpu > 0 ? Math.round(perNode / perGpu) : 0;
  const split = gpus > 1 ? `, ${formatCount(gpus)} GPUs × ${formatBytes(perGpu)}` : '';
  return `${formatBytes(perNode)} of ${formatBytes(capacity)}${share}${split}`;
}

/** The output's memory verdict: the device's (memoryVerdict), and "will not fit" where the host cannot hold what offload puts there. */
export function outputVerdict(output: EstimateOutput): OomVerdict {
  return hostOverCapacity(output) ? 'will-not-fit' : fitAssessment(output).verdict;
}

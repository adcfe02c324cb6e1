// The layout search's part of "Make it fit" (issue 22 item 6, issue 31 item 4): the best
// layout on the user's own GPUs (EP and offload included), the fewest GPUs that fit with
// their best layout (cluster sizing, sizing.ts), and, labelled as such, the best layout on
// any count. Each asks the search itself, so the layout offered is one the search panel
// would rank first.

import type { RunConfig } from '../input/index.ts';
import { searchLayouts } from './search.ts';
import { allowedGpuCounts } from './sizing.ts';
import type { SearchOptions } from './types.ts';
import { layoutConfig } from './pieces.ts';

/** The most GPU counts the fewest-GPUs bisection searches: each is one layout search of up to a second or two. */
export const MAX_SIZING_SEARCHES = 8;
/** Up to this many times the current GPUs: 64× the GPUs is a different purchase, not a fix. */
export const MAX_GPU_FACTOR = 64;

/**
 * TP within a node, as the search panel's default and fit-suggestions.ts's TP rule; offload searched
 * too (issue 31 item 4: "the search restricted to the user's count, EP and offload included"), kept
 * only where the engine's estimate says the run, host memory included, fits.
 */
const SEARCH: SearchOptions = {
  topK: 1,
  tpWithinNode: true,
  pareto: false,
  groupByLayout: false,
  progressEvery: 16_384,
  searchOffload: true,
};

/** The search's best layout that fits on `gpus` GPUs, or null. */
export function bestLayoutOn(c: RunConfig, gpus: number): RunConfig | null {
  const best = searchLayouts(c, { ...SEARCH, gpuCounts: [gpus] }).top[0];
  return best ? layoutConfig(c, best) : null;
}

/**
 * The fewest GPUs above the current count (up to 64×) on which the search finds a layout
 * that fits, with that layout: a bisection over the counts the layout rules allow (more
 * GPUs shard more, so fitting is taken as monotone in the count), at most MAX_SIZING_SEARCHES searches.
 */
export function fewestGpusThatFit(c: RunConfig): RunConfig | null {
  const counts = allowedGpuCounts(c, SEARCH, { min: c.cluster.gpus + 1, max: c.cluster.gpus * MAX_GPU_FACTOR });
  let lo = 0;
  let hi = counts.length - 1;
  const top = counts[hi];
  if (top === undefined) return null;
  // The largest count first: when even that does not fit, no bisection is worth its searches.
  let found = bestLayoutOn(c, top);
  if (!found) return null;
  hi -= 1;
  for (let searches = 1; lo <= hi && searches < MAX_SIZING_SEARCHES; searches++) {
    const mid = Math.floor((lo + hi) / 2);
    const at = bestLayoutOn(c, counts[mid] ?? top);
    if (at) {
      found = at;
      hi = mid - 1;
    } else lo = mid + 1;
  }
  return found;
}

/**
 * The cheapest layout per token (the search's 'usd' objective: least GPU-hours × price for the
 * token budget) over the counts the current one doubled or halved up to MAX_GPU_FACTOR, the
 * current count left out (its best is bestLayoutOn's). Null when none fits.
 */
export function bestLayoutOnAnyCount(c: RunConfig): RunConfig | null {
  const gpus = c.cluster.gpus;
  const counts: number[] = [];
  for (let k = MAX_GPU_FACTOR; k >= 2; k /= 2) if (gpus % k === 0) counts.push(gpus / k);
  for (let k = 2; k <= MAX_GPU_FACTOR; k *= 2) counts.push(gpus * k);
  const best = searchLayouts(c, { ...SEARCH, objective: 'usd', gpuCounts: counts }).top[0];
  return best ? layoutConfig(c, best) : null;
}

// When no single change or pair makes a run fit, "Make it fit" still ends in something to
// click (issue 22 item 6): the best layout on these GPUs from the layout search, and else
// the fewest GPUs that fit with their best layout (cluster sizing, sizing.ts). Both ask
// the search itself, so the layout offered is one the search panel would rank first.

import type { RunConfig } from '../input/index.ts';
import { searchLayouts } from './search.ts';
import { allowedGpuCounts } from './sizing.ts';
import type { SearchOptions } from './types.ts';
import { layoutConfig } from './pieces.ts';

/** The most GPU counts the fewest-GPUs bisection searches: each is one layout search of up to a second or two. */
export const MAX_SIZING_SEARCHES = 8;
/** Up to this many times the current GPUs, as "more GPUs" tries (fit-suggestions.ts MAX_GPU_DOUBLINGS = 6 doublings). */
const MAX_GPU_FACTOR = 64;

/** TP within a node, as the search panel's default and fit-suggestions.ts's TP rule. */
const SEARCH: SearchOptions = { topK: 1, tpWithinNode: true, pareto: false, groupByLayout: false, progressEvery: 16_384 };

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

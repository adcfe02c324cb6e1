// Cluster sizing (issue 15): which GPU counts of a range the layout rules allow. A count n
// is a candidate when n = tp × cp × pp × dp for degrees that each pass their own rule of
// consistency.ts (the functions the sliders ask) and, with the even-split option, a
// pipeline shape exists for pp; the search then enumerates each candidate's layouts (a
// candidate whose every layout fails a joint rule, such as the batch, simply has none).
// Clusters are rented by the OS node (a server, or an NVL72 compute tray of 4 GPUs: input/gpus.ts
// osNodeGpus): from one node up, only whole nodes are candidates (sizingGranularity says so).

import { divisors } from '../input/index.ts';
import { cpProblem, osNodeGpus, ppProblem, tpProblem } from '../input/index.ts';
import type { RunConfig } from '../input/index.ts';
import { pipelineShapes } from './space.ts';
import type { SearchOptions } from './types.ts';

/** Whole-number degrees from 1 to max that pass `ok`. */
function degrees(max: number, ok: (d: number) => boolean): number[] {
  const out: number[] = [];
  for (let d = 1; d <= max; d++) if (ok(d)) out.push(d);
  return out;
}

/** Products a·b·c·d ≤ max of one value from each list (every list ascending). */
function products(lists: readonly (readonly number[])[], max: number): Set<number> {
  const found = new Set<number>();
  const walk = (i: number, product: number) => {
    const list = lists[i];
    if (!list) {
      found.add(product);
      return;
    }
    for (const v of list) {
      if (product * v > max) break;
      walk(i + 1, product * v);
    }
  };
  walk(0, 1);
  return found;
}

/**
 * GPU counts from range.min to range.max (whole nodes from one node up) that some layout
 * of the base run may use, ascending. `options` carries the fixed degrees, the even-split
 * rule and tp within a node, as the search will apply them.
 */
export function allowedGpuCounts(base: RunConfig, options: SearchOptions, range: { readonly min: number; readonly max: number }): number[] {
  const { model, training, cluster } = base;
  const fixed = options.fixed ?? {};
  const min = Math.max(1, Math.ceil(range.min));
  const max = Math.floor(range.max);
  if (!(max >= min)) return [];
  const pin = (value: number | undefined, d: number) => value === undefined || value === d;
  const tps = degrees(
    max,
    (tp) => pin(fixed.tp, tp) && tpProblem(model, tp) === null && !(options.tpWithinNode && tp > cluster.gpusPerNode),
  );
  const cps = degrees(max, (cp) => pin(fixed.cp, cp) && cpProblem(training, cp) === null);
  const pps = degrees(
    Math.min(max, model.layers + 2),
    (pp) =>
      pin(fixed.pp, pp) &&
      ppProblem(model, pp, 1) === null &&
      pipelineShapes(model, pp, fixed, options.evenLayerSplit ?? false, base.stack.framework).length > 0,
  );
  const dps = divisors(training.globalBatch).filter((dp) => dp <= max && pin(fixed.dp, dp));
  const node = osNodeGpus(cluster);
  const wholeNodes = (n: number) => n < node || n % node === 0;
  return [...products([tps, cps, pps, dps], max)].filter((n) => n >= min && wholeNodes(n)).sort((a, b) => a - b);
}

/** The unit cluster sizes are counted in, in words: whole OS nodes, and for a rack-scale NVLink domain, how it relates. */
export function sizingGranularity(base: RunConfig): string {
  const node = osNodeGpus(base.cluster);
  const domain = base.cluster.gpusPerNode;
  const name = base.cluster.gpuId ?? base.cluster.gpu.name;
  if (domain > node)
    return (
      `${name}: whole compute trays of ${node} GPUs (one OS node each); an NVLink domain ` +
      `holds ${domain}, so sizes that are not multiples of ${domain} leave a rack partly used`
    );
  return `${name}: whole nodes of ${node} GPUs`;
}

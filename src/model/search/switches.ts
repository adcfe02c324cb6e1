// The framework's own switches as layout dimensions (issue 36), and the labelled note when a
// better plan needs another framework. The search tries EP overlap (Megatron-LM's
// --overlap-moe-expert-parallel-comm) and whole-iteration CUDA graphs where the framework
// and the dispatcher allow them (input/capabilities.ts), each as a lane of its own: one base
// run per combination, searched together, their layouts marked with the switches they used.
// A switch the document states is the user's and stays as stated.

import { estimateConfig } from '../estimate.ts';
import {
  cudaGraphProblem,
  epOverlapProblem,
  frameworkCapabilities,
  frameworkShortName,
  frameworksRunning,
  isObject,
  own,
  type CudaGraphScope,
  type JsonObject,
  type RunConfig,
} from '../input/index.ts';
import { layoutConfig } from './pieces.ts';
import { searchLayouts, type SearchLane } from './search.ts';
import type { SearchOptions, StackSwitches } from './types.ts';

/** True when the document states training[key] (or training.overlap.epComm). */
function stated(raw: unknown, key: 'epComm' | 'cudaGraph'): boolean {
  const training = isObject(raw) ? own(raw, 'training') : undefined;
  if (!isObject(training)) return false;
  if (key === 'cudaGraph') return own(training, 'cudaGraph') != null;
  const overlap = own(training, 'overlap');
  return isObject(overlap) && own(overlap as JsonObject, 'epComm') != null;
}

/** The switch values worth trying for this run: the base's own, and what the framework adds where its rules allow. */
export function switchValues(
  raw: unknown,
  base: RunConfig,
): { readonly epComm: readonly boolean[]; readonly cudaGraph: readonly CudaGraphScope[] } {
  const { framework } = base.stack;
  const own = { epComm: [base.stack.overlap.epComm], cudaGraph: [base.stack.cudaGraph] };
  // The generic profile is no framework: nothing of its own to try. Dense models: the MoE switches change nothing.
  if (framework === 'generic' || !base.model.moe) return own;
  const caps = frameworkCapabilities(framework);
  // The lane-wide conditions of EP overlap (dispatcher, precision); the per-layout ones are the space's (space.ts).
  const epOk =
    caps.epOverlap &&
    epOverlapProblem({
      framework,
      model: base.model,
      ep: 2,
      pp: 1,
      vpp: 1,
      schedule: '1f1b',
      recompute: 'none',
      dispatcher: base.stack.moeDispatcher,
      precision: base.training.precision,
    }) === null;
  const graphOk = cudaGraphProblem(framework, 'full', base.model, base.stack.moeDispatcher) === null;
  return {
    epComm: stated(raw, 'epComm') || !epOk || base.stack.overlap.epComm ? own.epComm : [false, true],
    cudaGraph: stated(raw, 'cudaGraph') || !graphOk || base.stack.cudaGraph === 'full' ? own.cudaGraph : [base.stack.cudaGraph, 'full'],
  };
}

/** One lane per combination of switch values (just the base when there is nothing to try). */
export function stackSwitchLanes(raw: unknown, base: RunConfig): SearchLane[] {
  const values = switchValues(raw, base);
  if (values.epComm.length * values.cudaGraph.length === 1) return [{ base }];
  const lanes: SearchLane[] = [];
  for (const epComm of values.epComm) {
    for (const cudaGraph of values.cudaGraph) {
      const switches: StackSwitches = { epComm, cudaGraph };
      lanes.push({ base: { ...base, stack: { ...base.stack, overlap: { ...base.stack.overlap, epComm }, cudaGraph } }, switches });
    }
  }
  return lanes;
}

/**
 * A labelled suggestion, apart from the results, when a schedule the chosen framework does
 * not run would train a MoE model sooner on the same cluster: "Another framework:
 * torchtitan's DualPipeV would take N days …". The other framework's search keeps every other
 * stack field as the document has it; a real switch changes its defaults too, which it says.
 */
export function otherFrameworkNote(base: RunConfig, options: SearchOptions, days: number | undefined): string | null {
  const { framework } = base.stack;
  if (!base.model.moe || options.fixed?.schedule !== undefined || frameworkCapabilities(framework).schedules.dualpipe !== undefined)
    return null;
  const other = frameworksRunning('dualpipe', framework)[0];
  if (other === undefined) return null;
  const otherBase: RunConfig = {
    ...base,
    stack: { ...base.stack, framework: other, overlap: { ...base.stack.overlap, epComm: false }, cudaGraph: 'none' },
  };
  const { gpuRange: _range, ...rest } = options;
  const found = searchLayouts(otherBase, {
    ...rest,
    fixed: { ...options.fixed, schedule: 'dualpipe' },
    topK: 1,
    pareto: false,
    groupByLayout: false,
    progressEvery: Number.MAX_SAFE_INTEGER,
  }).top[0];
  if (!found) return null;
  const out = estimateConfig(layoutConfig(otherBase, found));
  const otherDays = out.time?.days;
  if (otherDays === undefined || out.errors.length > 0 || !out.memory.fits || (days !== undefined && otherDays >= days)) return null;
  const p = found.parallel;
  const name = frameworkCapabilities(other).schedules.dualpipe ?? 'DualPipe';
  const here =
    days === undefined
      ? `no layout fits with ${frameworkShortName(framework)}`
      : `${days.toFixed(1)} days with ${frameworkShortName(framework)}'s best`;
  return (
    `Another framework: ${frameworkShortName(other)}'s ${name} would take ${otherDays.toFixed(1)} ` +
    `days on ${found.gpus} GPUs (TP ${p.tp}, PP ${p.pp}, DP ${p.dp}, EP ` +
    `${p.ep}, micro-batch ${found.microBatch}), against ${here}; ${frameworkShortName(framework)} ` +
    `does not run it, and switching frameworks changes its other defaults too`
  );
}

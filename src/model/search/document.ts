// The search's front door for interchange documents (`npm run search`, the page): a
// document whose `parallel` part may be partly or wholly absent, with an optional
// `search` block (search-block.ts). The `parallel` fields it does give are held fixed;
// the rest are searched, with training.microBatch and training.recompute. With
// search.gpuTypes and a GPU range (search.minGpus–maxGpus) it sizes the cluster: which
// GPU, how many, and which layout. The best layouts are re-evaluated with estimateConfig
// (results.ts), so the figures reported are the engine's own output.

import { parseDocument } from '../input/index.ts';
import { FieldReader, isObject, own, type JsonObject } from '../input/index.ts';
import { costFronts, documentResults, type CostFront, type LayoutTraining, type SearchDocumentResult } from './results.ts';
import { readSearchBlock } from './search-block.ts';
import { searchLaneSteps, type SearchControl, type SearchLane } from './search.ts';
import type { FixedDegrees, ScoredLayout, SearchObjective, SearchOptions, SearchProgress, StackSwitches } from './types.ts';
import { SCHEDULES, ZERO_STAGES, type ParallelConfig, type RunConfig } from '../input/index.ts';
import { otherFrameworkNote, stackSwitchLanes } from './switches.ts';

export type { SearchDocumentResult, SearchVariant, CostFront, CostPoint } from './results.ts';

export type SearchDocumentParse =
  | {
      readonly ok: true;
      readonly base: RunConfig;
      readonly fixed: FixedDegrees;
      readonly gpus: number;
      readonly warnings: readonly string[];
    }
  | { readonly ok: false; readonly errors: readonly string[]; readonly warnings: readonly string[] };

const INTEGER_DEGREES = ['tp', 'pp', 'dp', 'cp', 'ep', 'vpp'] as const;

/** The `parallel` fields a document gives, read as fixed degrees (field-named errors for bad values). */
function fixedDegrees(r: FieldReader, parallel: JsonObject): FixedDegrees {
  const present = (key: string) => own(parallel, key) !== undefined && own(parallel, key) !== null;
  r.unknownKeys(parallel, [...INTEGER_DEGREES, 'sequenceParallel', 'zero', 'schedule'], 'parallel');
  const fixed: { -readonly [K in keyof FixedDegrees]: FixedDegrees[K] } = {};
  for (const key of INTEGER_DEGREES) if (present(key)) fixed[key] = r.integer(parallel, key, 'parallel', 1);
  if (present('sequenceParallel')) fixed.sequenceParallel = r.boolean(parallel, 'sequenceParallel', 'parallel', false);
  if (present('zero')) fixed.zero = r.choice(parallel, 'zero', 'parallel', ZERO_STAGES, 1);
  if (present('schedule')) fixed.schedule = r.choice(parallel, 'schedule', 'parallel', SCHEDULES, '1f1b');
  return fixed;
}

/**
 * The run without its layout: the document parsed with a trivial layout on one GPU, so
 * that only model, training, cluster and cost are validated here (the layouts are the
 * search's business). `gpusGiven`: the cluster sizes come from elsewhere (options or the
 * search block), so cluster.gpus is not required.
 */
export function parseSearchDocument(raw: unknown, gpusGiven = false): SearchDocumentParse {
  if (!isObject(raw)) return { ok: false, errors: ['document: must be a JSON object'], warnings: [] };
  const r = new FieldReader();
  const parallelRaw = own(raw, 'parallel');
  const parallel = isObject(parallelRaw) ? parallelRaw : {};
  if (parallelRaw !== undefined && parallelRaw !== null && !isObject(parallelRaw)) r.error('parallel', 'must be an object');
  const fixed = fixedDegrees(r, parallel);
  const clusterRaw = own(raw, 'cluster');
  const cluster = isObject(clusterRaw) ? clusterRaw : {};
  const gpusValue = own(cluster, 'gpus');
  let gpus = 1;
  if (gpusValue === undefined || gpusValue === null) {
    if (!gpusGiven)
      r.error(
        'cluster.gpus',
        'is required for a search: the number of GPUs to lay out (or give search.minGpus and search.maxGpus to size the cluster)',
      );
  } else {
    gpus = r.integer(cluster, 'gpus', 'cluster', 1);
  }
  const trainingRaw = own(raw, 'training');
  const training = isObject(trainingRaw) ? trainingRaw : {};
  for (const key of ['microBatch', 'recompute']) {
    if (own(training, key) !== undefined) r.warn(`training.${key}`, "is searched; the document's value is not held fixed");
  }
  const offload = own(training, 'offload');
  const parameterOffload = isObject(offload) && own(offload, 'parameters') === true;
  const { search: _block, ...rest } = raw;
  const trivial = {
    ...rest,
    parallel: { zero: parameterOffload ? 3 : 0 },
    training: isObject(trainingRaw) ? { ...trainingRaw, microBatch: 1 } : trainingRaw,
    cluster: isObject(clusterRaw) ? { ...clusterRaw, gpus: 1 } : clusterRaw,
  };
  const parsed = parseDocument(trivial);
  const warnings = [...r.warnings, ...parsed.warnings];
  const errors = [...r.errors, ...(parsed.ok ? [] : parsed.errors)];
  if (!parsed.ok || errors.length > 0) return { ok: false, errors, warnings };
  const base: RunConfig = { ...parsed.config, cluster: { ...parsed.config.cluster, gpus } };
  return { ok: true, base, fixed, gpus, warnings };
}

/**
 * The document on another GPU type: the preset's own GPUs per node and price, unless it
 * is the document's GPU (whose cluster.gpusPerNode and cost.usdPerGpuHour stay).
 */
function onGpu(raw: JsonObject, gpuId: string): JsonObject {
  const cluster = isObject(own(raw, 'cluster')) ? (own(raw, 'cluster') as JsonObject) : {};
  if (own(cluster, 'gpu') === gpuId) return raw;
  const { gpusPerNode: _perNode, ...clusterRest } = cluster;
  const cost = isObject(own(raw, 'cost')) ? (own(raw, 'cost') as JsonObject) : undefined;
  const { usdPerGpuHour: _price, ...costRest } = cost ?? {};
  return { ...raw, cluster: { ...clusterRest, gpu: gpuId }, ...(cost ? { cost: costRest } : {}) };
}

export interface SearchDocumentOutput {
  readonly evaluated: number;
  /** Different layouts, best first by the engine's figures; each its best variant with the others under `variants`. */
  readonly results: readonly SearchDocumentResult[];
  readonly objective: SearchObjective;
  readonly layouts: number;
  readonly memoryOnly: number;
  readonly pruned: number;
  readonly fitting: number;
  /** Throughput against per-GPU memory (closed-form step time), least memory first; empty when sizing. */
  readonly pareto: readonly {
    readonly parallel: ParallelConfig;
    readonly training: LayoutTraining;
    readonly gpus: number;
    readonly tokensPerSecond: number;
    readonly memoryBytes: number;
  }[];
  /** Cluster sizing: each GPU type's cost against days, one point per cluster size (its soonest layout); empty otherwise. */
  readonly costFronts: readonly CostFront[];
  /** Cluster sizing: the GPU types and the cluster sizes searched for each. */
  readonly sizing: {
    readonly gpuTypes: readonly string[];
    readonly gpuRange: { readonly min: number; readonly max: number } | null;
  } | null;
  readonly stopped: boolean;
  readonly warnings: readonly string[];
  readonly errors: readonly string[];
}

/** The options the search runs with: the caller's, then the document's search block, then the defaults. */
function mergedOptions(block: SearchOptions, options: SearchOptions): SearchOptions {
  const merged: Record<string, unknown> = { ...block };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) merged[key] = value;
  return merged as SearchOptions;
}

/**
 * The search of a document, step by step for a Web Worker: yields progress every
 * options.progressEvery layouts (await between steps so a cancel message can set the flag
 * control.shouldStop reads), returns the command line's output (without `seconds`).
 */
export function* searchDocumentSteps(
  raw: unknown,
  options: SearchOptions = {},
  control: SearchControl = {},
): Generator<SearchProgress, SearchDocumentOutput, void> {
  const block = readSearchBlock(raw);
  const o = mergedOptions(block.options, options);
  const objective = o.objective ?? 'tokensPerSecond';
  const empty = {
    evaluated: 0,
    results: [],
    objective,
    layouts: 0,
    memoryOnly: 0,
    pruned: 0,
    fitting: 0,
    pareto: [],
    costFronts: [],
    sizing: null,
    stopped: false,
  };
  if (block.errors.length > 0 || !isObject(raw)) {
    const parsed = parseSearchDocument(raw, true);
    return { ...empty, warnings: [...block.warnings, ...parsed.warnings], errors: [...block.errors, ...(parsed.ok ? [] : parsed.errors)] };
  }
  const gpusGiven = (o.gpuCounts?.length ?? 0) > 0 || o.maxGpus !== undefined || o.gpuRange !== undefined;
  const typeIds = o.gpuTypes && o.gpuTypes.length > 0 ? o.gpuTypes : [null];
  const lanes: SearchLane[] = [];
  const errors = new Set<string>();
  const warnings = new Set<string>(block.warnings);
  let fixed: FixedDegrees = {};
  let documentGpus = 1;
  const dropped: string[] = [];
  for (const gpuId of typeIds) {
    const parsed = parseSearchDocument(gpuId === null ? raw : onGpu(raw, gpuId), gpusGiven);
    parsed.warnings.forEach((w) => warnings.add(w));
    if (!parsed.ok) {
      // Several GPU types: one that cannot run the document (a precision without its tensor
      // cores, say) has no result, and says why; the others are still searched.
      if (typeIds.length > 1 && gpuId !== null) dropped.push(`search.gpuTypes: ${gpuId} has no result: ${parsed.errors.join('; ')}`);
      else parsed.errors.forEach((e) => errors.add(e));
      continue;
    }
    fixed = parsed.fixed;
    documentGpus = parsed.gpus;
    const gpuLane = parsed.base.cluster.gpuId !== null ? { gpuId: parsed.base.cluster.gpuId } : {};
    for (const lane of stackSwitchLanes(raw, parsed.base)) lanes.push({ ...lane, ...gpuLane });
  }
  if (lanes.length === 0) dropped.forEach((d) => errors.add(d));
  else dropped.forEach((d) => warnings.add(d));
  if (errors.size > 0) return { ...empty, warnings: [...warnings], errors: [...errors] };
  const sizing = o.gpuRange !== undefined || lanes.length > 1;
  if (o.gpuRange && isObject(raw) && isObject(own(raw, 'cluster')) && own(own(raw, 'cluster') as JsonObject, 'gpus') != null) {
    warnings.add(`cluster.gpus: not used; the search sizes the cluster from ${o.gpuRange.min} to ${o.gpuRange.max} GPUs`);
  }
  const searchOptions: SearchOptions = {
    ...o,
    ...(gpusGiven ? {} : { gpuCounts: [documentGpus] }),
    fixed: { ...fixed, ...o.fixed },
  };
  const result = yield* searchLaneSteps(lanes, searchOptions, control);
  const sameSwitches = (a: StackSwitches | undefined, b: StackSwitches | undefined) =>
    a?.epComm === b?.epComm && a?.cudaGraph === b?.cudaGraph;
  const laneOf = (l: ScoredLayout) =>
    (lanes.find((lane) => lane.gpuId === l.gpuId && sameSwitches(lane.switches, l.switches)) ?? (lanes[0] as SearchLane)).base;
  const results = documentResults(result.top, laneOf, objective, searchOptions);
  if (!sizing && !result.stopped && lanes[0]) {
    const note = otherFrameworkNote(lanes[0].base, searchOptions, results[0]?.output.time?.days);
    if (note) warnings.add(note);
  }
  return {
    evaluated: result.counts.evaluated,
    results,
    objective,
    layouts: result.counts.layouts,
    memoryOnly: result.counts.memoryOnly,
    pruned: result.counts.pruned,
    fitting: result.counts.fitting,
    pareto: sizing
      ? []
      : result.pareto.map((l) => ({
          parallel: l.parallel,
          training: {
            microBatch: l.microBatch,
            recompute: l.recompute,
            offload: l.offload,
            ...(l.switches ? { epComm: l.switches.epComm, cudaGraph: l.switches.cudaGraph } : {}),
          },
          gpus: l.gpus,
          tokensPerSecond: l.tokensPerSecond,
          memoryBytes: l.memoryBytes,
        })),
    costFronts: sizing ? costFronts(result.pareto, lanes, results) : [],
    sizing: sizing ? { gpuTypes: lanes.map((l) => l.gpuId ?? 'custom'), gpuRange: o.gpuRange ?? null } : null,
    stopped: result.stopped,
    warnings: [...warnings, ...result.warnings],
    errors: [...result.errors],
  };
}

/** The whole search of a document (the command line's output, without `seconds`). */
export function searchDocument(raw: unknown, options: SearchOptions = {}, control: SearchControl = {}): SearchDocumentOutput {
  const steps = searchDocumentSteps(raw, options, control);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

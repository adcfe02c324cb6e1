// The search's front door for interchange documents (`npm run search`, the page): a
// document whose `parallel` part may be partly or wholly absent. The `parallel` fields it
// does give are held fixed; the rest are searched, with training.microBatch and
// training.recompute. The best layouts are re-evaluated with estimateConfig, so the
// figures reported are the engine's own output (simulated schedule included).

import { estimateConfig } from '../estimate.ts';
import { parseDocument } from '../input/index.ts';
import { FieldReader, isObject, own, type JsonObject } from '../input/index.ts';
import { layoutConfig } from './pieces.ts';
import { searchSteps, type SearchControl } from './search.ts';
import type { FixedDegrees, ScoredLayout, SearchObjective, SearchOptions, SearchProgress } from './types.ts';
import { SCHEDULES, ZERO_STAGES, type EstimateOutput, type OffloadConfig, type ParallelConfig, type Recompute, type RunConfig } from '../input/index.ts';

export type SearchDocumentParse =
  | { readonly ok: true; readonly base: RunConfig; readonly fixed: FixedDegrees; readonly gpus: number; readonly warnings: readonly string[] }
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
 * search's business).
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
    if (!gpusGiven) r.error('cluster.gpus', 'is required for a search: the number of GPUs to lay out');
  } else {
    gpus = r.integer(cluster, 'gpus', 'cluster', 1);
  }
  const trainingRaw = own(raw, 'training');
  const training = isObject(trainingRaw) ? trainingRaw : {};
  for (const key of ['microBatch', 'recompute']) {
    if (own(training, key) !== undefined) r.warn(`training.${key}`, 'is searched; the document\'s value is not held fixed');
  }
  const offload = own(training, 'offload');
  const parameterOffload = isObject(offload) && own(offload, 'parameters') === true;
  const trivial = {
    ...raw,
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

/** One result as the interchange spec describes it: the input document's layout parts plus the engine's output for them. */
export interface SearchDocumentResult {
  readonly parallel: ParallelConfig;
  readonly training: { readonly microBatch: number; readonly recompute: Recompute; readonly offload: OffloadConfig };
  readonly cluster: { readonly gpus: number };
  /** estimateConfig's output for the layout (timeline left out: null). */
  readonly output: EstimateOutput;
  /** What the search ranked by: the closed-form step time and the most loaded GPU's memory. */
  readonly search: { readonly stepSeconds: number; readonly memoryBytes: number };
}

export interface SearchDocumentOutput {
  readonly evaluated: number;
  readonly results: readonly SearchDocumentResult[];
  readonly objective: SearchObjective;
  readonly layouts: number;
  readonly memoryOnly: number;
  readonly pruned: number;
  readonly fitting: number;
  /** Throughput against per-GPU memory (closed-form step time), least memory first. */
  readonly pareto: readonly { readonly parallel: ParallelConfig; readonly training: { readonly microBatch: number; readonly recompute: Recompute; readonly offload: OffloadConfig }; readonly gpus: number; readonly tokensPerSecond: number; readonly memoryBytes: number }[];
  readonly stopped: boolean;
  readonly warnings: readonly string[];
  readonly errors: readonly string[];
}

/** The objective read off an estimate output, as a score to maximise. */
function outputScore(objective: SearchObjective, out: EstimateOutput): number {
  switch (objective) {
    case 'tokensPerSecond': return out.throughput?.tokensPerSecond ?? -Infinity;
    case 'days': return -(out.time?.days ?? Infinity);
    case 'usd': return -(out.cost?.usd ?? Infinity);
    case 'memoryHeadroom': return out.memory.capacity - out.memory.perGpu.total;
  }
}

function documentResult(base: RunConfig, layout: ScoredLayout): SearchDocumentResult {
  const output = estimateConfig(layoutConfig(base, layout));
  return {
    parallel: layout.parallel,
    training: { microBatch: layout.microBatch, recompute: layout.recompute, offload: layout.offload },
    cluster: { gpus: layout.gpus },
    output: { ...output, timeline: null },
    search: { stepSeconds: layout.stepSeconds, memoryBytes: layout.memoryBytes },
  };
}

/**
 * The search of a document, step by step for a Web Worker: yields progress every
 * options.progressEvery layouts (await between steps so a cancel message can set the flag
 * control.shouldStop reads), returns the command line's output (without `seconds`).
 */
export function* searchDocumentSteps(raw: unknown, options: SearchOptions = {}, control: SearchControl = {}): Generator<SearchProgress, SearchDocumentOutput, void> {
  const objective = options.objective ?? 'tokensPerSecond';
  const empty = { evaluated: 0, results: [], objective, layouts: 0, memoryOnly: 0, pruned: 0, fitting: 0, pareto: [], stopped: false };
  const gpusGiven = (options.gpuCounts?.length ?? 0) > 0 || options.maxGpus !== undefined;
  const parsed = parseSearchDocument(raw, gpusGiven);
  if (!parsed.ok) return { ...empty, warnings: parsed.warnings, errors: parsed.errors };
  const gpuCounts = gpusGiven ? options.gpuCounts : [parsed.gpus];
  const result = yield* searchSteps(parsed.base, {
    ...options,
    ...(gpuCounts ? { gpuCounts } : {}),
    fixed: { ...parsed.fixed, ...options.fixed },
  }, control);
  // The search ranked by the closed-form bubble; the engine's simulated schedule can reorder close calls.
  const results = result.top
    .map((layout, rank) => ({ rank, result: documentResult(parsed.base, layout) }))
    .sort((a, b) => outputScore(objective, b.result.output) - outputScore(objective, a.result.output) || a.rank - b.rank)
    .map((r) => r.result);
  return {
    evaluated: result.counts.evaluated,
    results,
    objective,
    layouts: result.counts.layouts,
    memoryOnly: result.counts.memoryOnly,
    pruned: result.counts.pruned,
    fitting: result.counts.fitting,
    pareto: result.pareto.map((l) => ({
      parallel: l.parallel,
      training: { microBatch: l.microBatch, recompute: l.recompute, offload: l.offload },
      gpus: l.gpus,
      tokensPerSecond: l.tokensPerSecond,
      memoryBytes: l.memoryBytes,
    })),
    stopped: result.stopped,
    warnings: [...parsed.warnings, ...result.warnings],
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

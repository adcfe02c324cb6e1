// Compares the engine with published measurements (validation/published-runs.json):
// one row per case and figure, and the summary statistics the time-model issue asks
// for (median and 90th-percentile absolute error). Pure: the caller reads the file.

import { estimate } from '../estimate.ts';
import { isObject, own } from '../input/index.ts';
import { parseDocument } from '../input/index.ts';
import { stageMemoryDetails, stageMemoryForMetric } from '../memory/index.ts';
import type { EstimateOutput } from '../input/index.ts';

export interface ValidationCase {
  readonly id: string;
  readonly source: string;
  readonly reliability: string;
  readonly input: unknown;
  readonly expected: {
    readonly tokensPerSecondPerGpu: number | null;
    readonly mfu: number | null;
    readonly tflopsPerGpu: number | null;
    readonly memoryBytesPerGpu: number | null;
    readonly memoryMetric: string | null;
    /** The pipeline stage the memory figure was measured on ("first" / "last"); absent: the most loaded. */
    readonly measuredStage?: string | null;
  };
}

export type Figure = 'tokensPerSecondPerGpu' | 'mfu' | 'memoryBytesPerGpu';

export interface ValidationRow {
  readonly id: string;
  readonly source: string;
  readonly gpu: string;
  /** training.framework of the case ("generic" when absent). */
  readonly framework: string;
  readonly figure: Figure;
  readonly published: number;
  /** null when the engine rejected the input (its errors are in `errors`). */
  readonly predicted: number | null;
  /** (predicted − published) / published; null when not predicted. */
  readonly error: number | null;
  readonly errors: readonly string[];
  /**
   * The engine's memory verdict for the case; null when it rejected the input or the
   * case is not a run (an analytical figure, as the ZeRO paper's). A published run ran,
   * so its peak fit its GPU: false here is memory over-predicted.
   */
  readonly fits: boolean | null;
}

export interface ErrorSummary {
  readonly cases: number;
  readonly invalid: number;
  readonly medianAbsError: number;
  readonly p90AbsError: number;
  /** Most negative error (under-prediction), 0 if none. */
  readonly worstUnderPrediction: number;
}

/** Reads the cases of a published-runs file; skips malformed entries. */
export function readValidationCases(file: unknown): ValidationCase[] {
  if (!isObject(file)) return [];
  const cases = own(file, 'cases');
  if (!Array.isArray(cases)) return [];
  return cases.filter((c): c is ValidationCase => isObject(c) && typeof own(c, 'id') === 'string' && isObject(own(c, 'expected')));
}

function gpuLabel(input: unknown): string {
  const cluster = isObject(input) ? own(input, 'cluster') : undefined;
  const gpu = isObject(cluster) ? own(cluster, 'gpu') : undefined;
  if (typeof gpu === 'string') return gpu;
  return isObject(gpu) && typeof own(gpu, 'name') === 'string' ? String(own(gpu, 'name')) : 'custom';
}

/** One row per published figure: tokens/s per GPU where given, else MFU; memory where given. */
export function validateCase(c: ValidationCase, output: EstimateOutput = estimate(c.input)): ValidationRow[] {
  const rows: ValidationRow[] = [];
  const run = c.expected.memoryMetric !== ANALYTICAL_METRIC;
  const base = {
    id: c.id,
    source: c.source,
    gpu: gpuLabel(c.input),
    framework: frameworkLabel(c.input),
    errors: output.errors,
    fits: output.errors.length === 0 && run ? output.memory.fits : null,
  };
  const gpus =
    isObject(c.input) && isObject(own(c.input, 'cluster'))
      ? Number(own(own(c.input, 'cluster') as object as Record<string, unknown>, 'gpus'))
      : NaN;
  const row = (figure: Figure, published: number, predicted: number | null): ValidationRow => ({
    ...base,
    figure,
    published,
    predicted,
    error: predicted === null ? null : (predicted - published) / published,
  });
  const t = output.errors.length === 0 ? output.throughput : null;
  if (c.expected.tokensPerSecondPerGpu !== null && c.expected.tokensPerSecondPerGpu > 0) {
    const predicted = t && Number.isFinite(gpus) && gpus > 0 ? t.tokensPerSecond / gpus : null;
    rows.push(row('tokensPerSecondPerGpu', c.expected.tokensPerSecondPerGpu, predicted));
  } else if (c.expected.mfu !== null && c.expected.mfu > 0) {
    rows.push(row('mfu', c.expected.mfu, t ? t.mfu : null));
  }
  if (c.expected.memoryBytesPerGpu !== null && c.expected.memoryBytesPerGpu > 0) {
    const predicted =
      output.errors.length === 0 ? predictedMemoryForMetric(c.input, c.expected.memoryMetric, c.expected.measuredStage ?? null) : null;
    rows.push(row('memoryBytesPerGpu', c.expected.memoryBytesPerGpu, predicted));
  }
  return rows;
}

/**
 * The part of a stage's memory that a published figure measured (memory.ts,
 * stageMemoryForMetric): the named stage ("first" / "last") where the case says which,
 * else the most loaded one (by what the figure counts).
 */
export function predictedMemoryForMetric(input: unknown, metric: string | null, measuredStage: string | null = null): number | null {
  const parsed = parseDocument(input);
  if (!parsed.ok) return null;
  const stages = stageMemoryDetails(parsed.config);
  if (measuredStage === 'first' && stages[0]) return stageMemoryForMetric(stages[0], metric);
  const last = stages[stages.length - 1];
  if (measuredStage === 'last' && last) return stageMemoryForMetric(last, metric);
  return Math.max(...stages.map((s) => stageMemoryForMetric(s, metric)));
}

function frameworkLabel(input: unknown): string {
  const training = isObject(input) ? own(input, 'training') : undefined;
  const framework = isObject(training) ? own(training, 'framework') : undefined;
  return typeof framework === 'string' ? framework : 'generic';
}

/** The memory metric of figures computed on paper rather than measured on a run. */
const ANALYTICAL_METRIC = 'analytical model states';

/**
 * Of the cases that were runs, how many the engine predicts to fit their GPU. Every one
 * of them ran, so each "does not fit" is memory over-predicted: a false alarm.
 */
export function fitVerdicts(rows: readonly ValidationRow[]): {
  readonly runs: number;
  readonly predictedToFit: number;
  readonly falseAlarms: number;
} {
  const byCase = new Map<string, boolean>();
  for (const r of rows) if (r.fits !== null) byCase.set(r.id, r.fits);
  const predictedToFit = [...byCase.values()].filter(Boolean).length;
  return { runs: byCase.size, predictedToFit, falseAlarms: byCase.size - predictedToFit };
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const a = sorted[lower] ?? 0;
  const b = sorted[upper] ?? a;
  return a + (b - a) * (position - lower);
}

/** The error summary of any rows with a signed error (null: not predicted): published runs here, fine-tunes in finetune.ts. */
export function summarize(rows: readonly Pick<ValidationRow, 'error'>[]): ErrorSummary {
  const errors = rows.flatMap((r) => (r.error === null ? [] : [r.error]));
  const absolute = errors.map(Math.abs).sort((a, b) => a - b);
  return {
    cases: rows.length,
    invalid: rows.length - errors.length,
    medianAbsError: quantile(absolute, 0.5),
    p90AbsError: quantile(absolute, 0.9),
    worstUnderPrediction: Math.min(0, ...errors),
  };
}

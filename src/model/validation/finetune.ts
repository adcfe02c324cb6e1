// The engine against published fine-tuning measurements (validation/finetune-runs.json,
// the project's copy of ../shared/validation/finetune-runs.json; issue 24): one row per
// case and figure (memory per GPU; tokens/s per GPU, or seconds per optimizer step where
// the source timed steps), summaries, and leave-one-source-out. Pure: the caller reads
// the file.

import { estimate } from '../estimate.ts';
import { isObject, own } from '../input/index.ts';
import { predictedMemoryForMetric, summarize } from './validate.ts';
import { parseDocument } from '../input/index.ts';
import { adapterHostSecondsPerStep } from '../time/index.ts';

export type FineTuneFigure = 'memoryBytesPerGpu' | 'tokensPerSecondPerGpu' | 'stepSeconds';

export interface FineTuneCase {
  readonly id: string;
  readonly source: string;
  readonly input: unknown;
  readonly assumptions: readonly string[];
  readonly expected: {
    readonly memoryBytesPerGpu: number | null;
    readonly memoryMetric: string | null;
    readonly tokensPerSecondPerGpu: number | null;
    readonly stepSeconds: number | null;
  };
}

export interface FineTuneRow {
  readonly id: string;
  /** The publication the figure came from (the case's source up to its first parenthesis): the unit left out in leave-one-source-out. */
  readonly source: string;
  /** "lora", "qlora" or "full". */
  readonly method: string;
  readonly figure: FineTuneFigure;
  readonly metric: string | null;
  readonly published: number;
  readonly predicted: number | null;
  /** (predicted − published) / published; for step time, positive = predicted slower. */
  readonly error: number | null;
  /**
   * Why the engine's figure is not the measured one, when the case says so: a setting the
   * document cannot express (optimizer in backward, GPTQ instead of NF4). Reported, not hidden.
   */
  readonly caveat: string | null;
  /**
   * The step's eager adapter dispatch time (time/adapter-time.ts EAGER_OP_HOST_SECONDS,
   * the one constant fitted on this file), and the step it is part of: leave-one-source-out
   * takes it out of the rows of the source it was fitted on.
   */
  readonly fittedHostSeconds: number;
  readonly stepSeconds: number | null;
}

/** Reads the cases of a fine-tuning runs file; skips malformed entries. */
export function readFineTuneCases(file: unknown): FineTuneCase[] {
  if (!isObject(file)) return [];
  const cases = own(file, 'cases');
  if (!Array.isArray(cases)) return [];
  return cases.filter((c): c is FineTuneCase => isObject(c) && typeof own(c, 'id') === 'string' && isObject(own(c, 'expected')));
}

export function sourceOf(source: string): string {
  const cut = source.indexOf(' (');
  return cut > 0 ? source.slice(0, cut) : source;
}

function methodOf(input: unknown): string {
  const training = isObject(input) ? own(input, 'training') : undefined;
  const adapter = isObject(training) ? own(training, 'adapter') : undefined;
  const method = isObject(adapter) ? own(adapter, 'method') : undefined;
  return typeof method === 'string' ? method : 'full';
}

/** Assumptions that say the document only approximates the run. */
const NOT_EXPRESSIBLE = [
  {
    pattern: /optimizer_in_bwd: True/i,
    note: 'optimizer step fused into backward (not expressible: the engine counts a full gradient buffer)',
  },
  {
    pattern: /paged optimizer state lives in CUDA unified memory/i,
    note: 'paged 8-bit optimizer read as optimizer offload (the engine then times a host-side optimizer step)',
  },
  { pattern: /APPROXIMATES the run: Qwen's Q-LoRA fine-tunes the GPTQ int4/i, note: 'GPTQ int4 base (auto-gptq kernels), not NF4' },
];

function caveatOf(c: FineTuneCase): string | null {
  const notes = NOT_EXPRESSIBLE.filter((n) => c.assumptions.some((a) => n.pattern.test(a))).map((n) => n.note);
  return notes.length > 0 ? notes.join('; ') : null;
}

/** One row per published figure of a case: memory where given; tokens/s per GPU where given, else step time. */
export function fineTuneRows(c: FineTuneCase): FineTuneRow[] {
  const output = estimate(c.input);
  const ok = output.errors.length === 0 && output.throughput !== null;
  const cluster = isObject(c.input) ? own(c.input, 'cluster') : undefined;
  const gpus = isObject(cluster) ? Number(own(cluster, 'gpus')) : NaN;
  const parsed = parseDocument(c.input);
  const adapter = parsed.ok ? (parsed.config.training.adapter ?? null) : null;
  const fittedHostSeconds = parsed.ok && adapter ? adapterHostSecondsPerStep(parsed.config, adapter) : 0;
  const base = {
    id: c.id,
    source: sourceOf(c.source),
    method: methodOf(c.input),
    fittedHostSeconds,
    stepSeconds: ok && output.throughput ? output.throughput.stepSeconds : null,
  };
  const row = (figure: FineTuneFigure, published: number, predicted: number | null, metric: string | null = null): FineTuneRow => ({
    ...base,
    figure,
    metric,
    published,
    predicted,
    error: predicted === null ? null : (predicted - published) / published,
    caveat: caveatOf(c),
  });
  const rows: FineTuneRow[] = [];
  const e = c.expected;
  if (e.memoryBytesPerGpu !== null && e.memoryBytesPerGpu > 0) {
    rows.push(row('memoryBytesPerGpu', e.memoryBytesPerGpu, ok ? predictedMemoryForMetric(c.input, e.memoryMetric) : null, e.memoryMetric));
  }
  if (e.tokensPerSecondPerGpu !== null && e.tokensPerSecondPerGpu > 0) {
    const predicted = ok && output.throughput && Number.isFinite(gpus) && gpus > 0 ? output.throughput.tokensPerSecond / gpus : null;
    rows.push(row('tokensPerSecondPerGpu', e.tokensPerSecondPerGpu, predicted));
  } else if (e.stepSeconds !== null && e.stepSeconds > 0) {
    rows.push(row('stepSeconds', e.stepSeconds, ok && output.throughput ? output.throughput.stepSeconds : null));
  }
  return rows;
}

export interface FineTuneSummary {
  readonly rows: number;
  readonly invalid: number;
  readonly medianAbsError: number;
  readonly p90AbsError: number;
  /** Most negative error (memory: under-prediction), 0 if none. */
  readonly worstUnder: number;
  /** Rows under-predicted by more than 15 % (memory: the run would be told it fits when it may not). */
  readonly underBy15: number;
}

export function summarizeFineTune(rows: readonly FineTuneRow[]): FineTuneSummary {
  const s = summarize(rows);
  return {
    rows: s.cases,
    invalid: s.invalid,
    medianAbsError: s.medianAbsError,
    p90AbsError: s.p90AbsError,
    worstUnder: s.worstUnderPrediction,
    underBy15: rows.filter((r) => r.error !== null && r.error < -0.15).length,
  };
}

/** Throughput as a rate: a step-time error turns into the tokens/s error it implies (published/predicted − 1 in steps). */
export function throughputError(r: FineTuneRow): number | null {
  if (r.error === null || r.predicted === null) return null;
  return r.figure === 'stepSeconds' ? r.published / r.predicted - 1 : r.error;
}

/**
 * The rows as a source held out of the fit would see them: EAGER_OP_HOST_SECONDS is fitted
 * on the sources whose runs have eager adapter time (fittedHostSeconds > 0); a source that
 * is the only one of them gets no constant when held out (nothing left to fit it on), so
 * its rows lose that time. Other sources' rows are unchanged (the constant does not touch them).
 */
export function heldOutRows(rows: readonly FineTuneRow[], source: string): FineTuneRow[] {
  const fitting = new Set(rows.filter((r) => r.fittedHostSeconds > 0).map((r) => r.source));
  const refitIsEmpty = fitting.size === 1 && fitting.has(source);
  return rows
    .filter((r) => r.source === source)
    .map((r) => {
      if (!refitIsEmpty || r.fittedHostSeconds === 0 || r.predicted === null || r.stepSeconds === null || r.figure === 'memoryBytesPerGpu')
        return r;
      const step = r.stepSeconds - r.fittedHostSeconds;
      const predicted = r.figure === 'stepSeconds' ? step : r.predicted * (r.stepSeconds / step);
      return { ...r, predicted, error: (predicted - r.published) / r.published };
    });
}

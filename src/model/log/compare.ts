// The log beside the planner: the estimate's figures for a document, measured ÷ predicted
// figure by figure, unless the log states a different model or layout than the document's
// (then it says which, and compares nothing).

import { estimateConfig } from '../estimate.ts';
import { parseDocument, type EstimateOutput, type RunConfig } from '../input/index.ts';
import { MEASURED_FIGURES, type LogFacts, type LogReport, type MeasuredFigure } from './types.ts';

export type Figures = Readonly<Record<MeasuredFigure, number | null>>;

export interface LogComparison {
  /** The estimate's figures for the document (memory of the kind the log printed); null for an invalid document. */
  readonly predicted: Figures | null;
  /** measured ÷ predicted; null when either is missing, or for every figure when the log is of another run. */
  readonly ratio: Figures | null;
  /** Where the log's own run differs from the document's ("global batch: the log's 128, the document's 1024"). */
  readonly mismatch: readonly string[];
  readonly errors: readonly string[];
}

const FACT_NAMES: ReadonlyArray<[keyof LogFacts, string, (c: RunConfig) => number]> = [
  ['globalBatch', 'global batch (sequences)', (c) => c.training.globalBatch],
  ['seqLen', 'sequence length', (c) => c.training.seqLen],
  ['microBatch', 'micro-batch', (c) => c.training.microBatch],
  ['gpus', 'GPUs', (c) => c.cluster.gpus],
  ['tp', 'tensor parallel', (c) => c.parallel.tp],
  ['pp', 'pipeline parallel', (c) => c.parallel.pp],
  ['cp', 'context parallel', (c) => c.parallel.cp],
  ['ep', 'expert parallel', (c) => c.parallel.ep],
  ['layers', 'layers', (c) => c.model.layers],
  ['hidden', 'hidden size', (c) => c.model.hidden],
];

/** The facts the log states that the document contradicts. */
export function runMismatch(facts: Readonly<LogFacts>, config: RunConfig): string[] {
  const out: string[] = [];
  for (const [key, name, of] of FACT_NAMES) {
    const stated = facts[key];
    if (stated !== undefined && stated !== of(config)) out.push(`${name}: the log's ${stated}, the document's ${of(config)}`);
  }
  return out;
}

/** The estimate's figure of each kind the log measures. */
export function predictedFigures(output: EstimateOutput, config: RunConfig, memoryMetric: LogReport['measured']['memoryMetric']): Figures {
  const t = output.throughput;
  const m = output.memory;
  const memoryBytes =
    memoryMetric === 'peak allocated'
      ? m.perGpu.total
      : memoryMetric === 'after setup'
        ? m.perGpu.parameters + m.perGpu.gradients + m.perGpu.optimizer
        : m.reserved;
  return {
    stepSeconds: t?.stepSeconds ?? null,
    tokensPerSecondPerGpu: t ? t.tokensPerSecond / config.cluster.gpus : null,
    tflopsPerGpu: t?.tflopsPerGpu ?? null,
    mfu: t?.mfu ?? null,
    memoryBytes,
  };
}

export function compareWithDocument(report: LogReport, raw: unknown): LogComparison {
  const parsed = parseDocument(raw);
  if (!parsed.ok) return { predicted: null, ratio: null, mismatch: [], errors: parsed.errors };
  const output = estimateConfig(parsed.config, parsed.warnings);
  if (output.errors.length > 0) return { predicted: null, ratio: null, mismatch: [], errors: output.errors };
  const predicted = predictedFigures(output, parsed.config, report.measured.memoryMetric);
  const mismatch = runMismatch(report.facts, parsed.config);
  if (mismatch.length > 0) return { predicted, ratio: null, mismatch, errors: [] };
  const ratio = Object.fromEntries(
    MEASURED_FIGURES.map((k) => {
      const measured = report.measured[k];
      const p = predicted[k];
      return [k, measured !== null && p !== null && p > 0 ? measured / p : null];
    }),
  ) as Record<MeasuredFigure, number | null>;
  return { predicted, ratio, mismatch, errors: [] };
}

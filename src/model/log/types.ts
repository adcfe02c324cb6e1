// The shapes of a training log as this wing reads it: one record per logged step, the
// facts the log states about its run (batch, sequence, GPUs, layout), and the report
// the interchange spec's `npm run log` prints ("Command line").

export type LogFramework = 'megatron' | 'megatron-deepspeed' | 'nemo' | 'nemo-automodel' | 'torchtitan' | 'deepspeed' | 'hf-trainer';

/** Which memory figure the log printed (interchange spec, `memoryMetric`). */
export type MemoryMetric = 'peak allocated' | 'peak reserved' | 'device used' | 'after setup';

export const MEMORY_METRICS: readonly MemoryMetric[] = ['peak allocated', 'peak reserved', 'device used', 'after setup'];

/** Preference when a log prints several: what the allocator holds (what runs out) first. */
export const MEMORY_METRIC_ORDER: readonly MemoryMetric[] = ['peak reserved', 'device used', 'peak allocated'];

/** One logged step; a figure the lines do not give is undefined. Every field is always present (one object shape: 100,000 steps stay fast). */
export interface StepRecord {
  step: number;
  loss: number | undefined;
  gradNorm: number | undefined;
  stepSeconds: number | undefined;
  tokensPerSecondPerGpu: number | undefined;
  tflopsPerGpu: number | undefined;
  /** A fraction (0.34), not a percentage. */
  mfu: number | undefined;
  samplesPerSecond: number | undefined;
  /** Memory figures by kind, bytes. */
  memory: Partial<Record<MemoryMetric, number>> | undefined;
  /** Milliseconds since the epoch from the line's timestamp (for step times the line does not print). */
  time: number | undefined;
  /** Megatron's per-interval counters ("number of nan iterations"). */
  nanIterations: number | undefined;
  skippedIterations: number | undefined;
  /** DeepSpeed's skipped= counts from the start of the run. */
  skippedTotal: number | undefined;
}

/** What the log says about its own run (arguments dumps, per-line fields). */
export interface LogFacts {
  globalBatch?: number;
  microBatch?: number;
  seqLen?: number;
  gpus?: number;
  tp?: number;
  pp?: number;
  cp?: number;
  ep?: number;
  layers?: number;
  hidden?: number;
}

export const SERIES_NAMES = ['loss', 'gradNorm', 'stepSeconds', 'tokensPerSecondPerGpu', 'tflopsPerGpu', 'mfu', 'memoryBytes'] as const;
export type SeriesName = (typeof SERIES_NAMES)[number];

export type AnomalyKind =
  | 'loss-nan'
  | 'loss-spike'
  | 'grad-norm-nan'
  | 'grad-norm-spike'
  | 'nan-iterations'
  | 'skipped-iterations'
  | 'throughput-drop'
  | 'stall'
  | 'memory-growth';

export interface Anomaly {
  readonly step: number;
  readonly kind: AnomalyKind;
  /** What was seen and the rule that flagged it, in the user's words. */
  readonly detail: string;
}

export interface Measured {
  readonly stepSeconds: number | null;
  readonly tokensPerSecondPerGpu: number | null;
  readonly tflopsPerGpu: number | null;
  readonly mfu: number | null;
  readonly memoryBytes: number | null;
  readonly memoryMetric: MemoryMetric | null;
}

export type MeasuredFigure = Exclude<keyof Measured, 'memoryMetric'>;
export const MEASURED_FIGURES: readonly MeasuredFigure[] = ['stepSeconds', 'tokensPerSecondPerGpu', 'tflopsPerGpu', 'mfu', 'memoryBytes'];

export interface LogReport {
  readonly framework: LogFramework | null;
  readonly steps: number;
  readonly steady: { readonly from: number; readonly to: number; readonly skipped: string } | null;
  readonly measured: Measured;
  readonly series: Readonly<Record<SeriesName, ReadonlyArray<readonly [number, number]>>>;
  readonly anomalies: readonly Anomaly[];
  readonly warnings: readonly string[];
  /** Project addition: what the log states about its run (the "different model or layout" check reads it). */
  readonly facts: Readonly<LogFacts>;
}

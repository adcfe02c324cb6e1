// From the records of a log to its report: the figures the log gives only indirectly
// (step time from samples/s and the batch, tokens/s per GPU from batch × sequence ÷ step ÷
// GPUs, all stated in the log itself), the steady range after warm-up, the medians over
// it, the series, and the anomalies (anomalies.ts).

import { findAnomalies } from './anomalies.ts';
import { median } from './numbers.ts';
import {
  MEMORY_METRIC_ORDER,
  SERIES_NAMES,
  type LogFacts,
  type LogFramework,
  type LogReport,
  type Measured,
  type MemoryMetric,
  type SeriesName,
  type StepRecord,
} from './types.ts';

export interface Gathered {
  readonly records: StepRecord[];
  readonly framework: LogFramework | null;
  readonly facts: Readonly<LogFacts>;
  readonly setupMemory: { readonly metric: MemoryMetric; readonly bytes: number } | null;
  readonly summary: {
    readonly runtimeSeconds?: number | undefined;
    readonly samplesPerSecond?: number | undefined;
    readonly stepsPerSecond?: number | undefined;
  } | null;
  /** The framework numbers no steps: steps are counted in logged entries. */
  readonly ordinalSteps: boolean;
  readonly linesRead: number;
}

/** The share of the logged steps always skipped as warm-up (compilation, allocator growth, first data loads), at least one. */
export const WARMUP_SHARE = 0.1;
/** …but no more than this many logged steps (a long log's warm-up is its first minutes, not its first tenth). */
export const WARMUP_MAX_STEPS = 20;
/** A step after those still counts as warm-up while its step time exceeds the steady median by this factor. */
export const WARMUP_SLOW_FACTOR = 1.5;

const isTimed = (r: StepRecord) =>
  r.stepSeconds !== undefined ||
  r.tokensPerSecondPerGpu !== undefined ||
  r.tflopsPerGpu !== undefined ||
  r.mfu !== undefined ||
  r.samplesPerSecond !== undefined;
const finite = (x: number | undefined): x is number => x !== undefined && Number.isFinite(x);

/** Fills the figures the log gives only through its own stated batch, sequence and GPUs. */
function derive(records: StepRecord[], facts: Readonly<LogFacts>, warnings: string[]): void {
  let fromSamples = false;
  let fromTimestamps = false;
  let previous: StepRecord | undefined;
  for (const r of records) {
    if (r.stepSeconds === undefined && finite(r.samplesPerSecond) && r.samplesPerSecond > 0 && facts.globalBatch) {
      r.stepSeconds = facts.globalBatch / r.samplesPerSecond;
      fromSamples = true;
    }
    if (
      r.stepSeconds === undefined &&
      isTimed(r) &&
      r.time !== undefined &&
      previous?.time !== undefined &&
      r.step > previous.step &&
      r.time > previous.time
    ) {
      r.stepSeconds = (r.time - previous.time) / 1000 / (r.step - previous.step);
      fromTimestamps = true;
    }
    if (
      r.tokensPerSecondPerGpu === undefined &&
      finite(r.stepSeconds) &&
      r.stepSeconds > 0 &&
      facts.globalBatch &&
      facts.seqLen &&
      facts.gpus
    ) {
      r.tokensPerSecondPerGpu = (facts.globalBatch * facts.seqLen) / r.stepSeconds / facts.gpus;
    }
    if (isTimed(r) && r.time !== undefined) previous = r;
  }
  if (fromSamples) warnings.push(`step time: the log's samples per second with its batch of ${facts.globalBatch} sequences`);
  if (fromTimestamps)
    warnings.push(
      'step time: from the timestamps of consecutive logged steps (the log prints no step time; logging and evaluation between them count)',
    );
}

function steadyRange(timed: readonly StepRecord[]): { start: number; skipped: string } {
  const n = timed.length;
  if (n <= 2)
    return {
      start: 0,
      skipped: n === 0 ? 'no timed steps' : `only ${n} timed step${n === 1 ? '' : 's'} logged: none skipped (the figures include warm-up)`,
    };
  let start = Math.min(WARMUP_MAX_STEPS, Math.max(1, Math.ceil(n * WARMUP_SHARE)));
  const typical = median(timed.slice(Math.floor(n / 2)).map((r) => r.stepSeconds ?? Number.NaN));
  if (typical !== null) {
    while (start < Math.floor(n / 2) && (timed[start]?.stepSeconds ?? 0) > WARMUP_SLOW_FACTOR * typical) start += 1;
  }
  const first = timed[0]?.step ?? 0;
  const last = timed[start - 1]?.step ?? 0;
  const steps = first === last ? `step ${first}` : `steps ${first}–${last}`;
  return {
    start,
    skipped:
      `${steps} (${start} of ${n} logged): warm-up, the first ` +
      `${Math.round(WARMUP_SHARE * 100)} % of logged steps (at most ${WARMUP_MAX_STEPS}) ` +
      `and any still ${WARMUP_SLOW_FACTOR}× slower than the steady median`,
  };
}

/** The median of one figure over records, without an intermediate array of objects. */
function medianOf(records: readonly StepRecord[], pick: (r: StepRecord) => number | undefined): number | null {
  const values = new Float64Array(records.length);
  for (let i = 0; i < records.length; i += 1) values[i] = pick(records[i] as StepRecord) ?? Number.NaN;
  return median(values);
}

function memoryMetricOf(records: readonly StepRecord[]): MemoryMetric | null {
  for (const metric of MEMORY_METRIC_ORDER) if (records.some((r) => finite(r.memory?.[metric]))) return metric;
  return null;
}

export function analyze(g: Gathered): LogReport {
  const warnings: string[] = [];
  const { records, facts } = g;
  derive(records, facts, warnings);
  if (g.ordinalSteps) warnings.push("steps: the log's loss entries carry no step number; they are counted in logged entries");
  const timed = records.filter(isTimed);
  const range = steadyRange(timed);
  const steadyRecords = timed.length > 0 ? records.filter((r) => r.step >= (timed[range.start]?.step ?? 0)) : [];
  const steady =
    timed.length > 0 ? { from: timed[range.start]?.step ?? 0, to: timed[timed.length - 1]?.step ?? 0, skipped: range.skipped } : null;
  const med = (pick: (r: StepRecord) => number | undefined) => medianOf(steadyRecords, pick);

  let memoryMetric = memoryMetricOf(steadyRecords);
  let memoryBytes: number | null = memoryMetric ? med((r) => r.memory?.[memoryMetric as MemoryMetric]) : null;
  const anyMetric = memoryMetric ?? memoryMetricOf(records);
  if (memoryBytes === null && anyMetric) {
    memoryMetric = anyMetric;
    memoryBytes = medianOf(records, (r) => r.memory?.[anyMetric]);
    warnings.push('memory: reported only during warm-up');
  }
  if (memoryBytes === null && g.setupMemory) {
    memoryMetric = 'after setup';
    memoryBytes = g.setupMemory.bytes;
  }
  let stepSeconds = med((r) => r.stepSeconds);
  if (stepSeconds === null && finite(g.summary?.stepsPerSecond) && (g.summary?.stepsPerSecond ?? 0) > 0) {
    stepSeconds = 1 / (g.summary?.stepsPerSecond as number);
    warnings.push('step time: the mean of the whole run (train_steps_per_second), warm-up included: the log prints no per-step time');
  }
  const measured: Measured = {
    stepSeconds,
    tokensPerSecondPerGpu: med((r) => r.tokensPerSecondPerGpu),
    tflopsPerGpu: med((r) => r.tflopsPerGpu),
    mfu: med((r) => r.mfu),
    memoryBytes,
    memoryMetric: memoryBytes === null ? null : memoryMetric,
  };

  const series = Object.fromEntries(SERIES_NAMES.map((name) => [name, [] as Array<[number, number]>])) as Record<
    SeriesName,
    Array<[number, number]>
  >;
  const seriesMetric = measured.memoryMetric === 'after setup' ? null : measured.memoryMetric;
  for (const r of records) {
    if (finite(r.loss)) series.loss.push([r.step, r.loss]);
    if (finite(r.gradNorm)) series.gradNorm.push([r.step, r.gradNorm]);
    if (finite(r.stepSeconds)) series.stepSeconds.push([r.step, r.stepSeconds]);
    if (finite(r.tokensPerSecondPerGpu)) series.tokensPerSecondPerGpu.push([r.step, r.tokensPerSecondPerGpu]);
    if (finite(r.tflopsPerGpu)) series.tflopsPerGpu.push([r.step, r.tflopsPerGpu]);
    if (finite(r.mfu)) series.mfu.push([r.step, r.mfu]);
    const bytes = seriesMetric ? r.memory?.[seriesMetric] : undefined;
    if (finite(bytes)) series.memoryBytes.push([r.step, bytes]);
  }
  const counted = records.filter((r) => isTimed(r) || r.loss !== undefined || r.gradNorm !== undefined);
  if (counted.length === 0)
    warnings.push(
      `no training steps found in ${g.linesRead} lines: the reader knows Megatron-LM, ` +
        `NeMo, Megatron-Bridge, torchtitan, DeepSpeed and Hugging Face Trainer logs`,
    );
  const anomalies = findAnomalies(records, g.framework, steady, measured, warnings);
  return { framework: g.framework, steps: counted.length, steady, measured, series, anomalies, warnings, facts: { ...facts } };
}

// Calibration from the user's own run: the two multipliers of CalibrationOverride
// (types.ts) fitted so that the engine predicts what the user measured for the
// configuration they ran. The compute-efficiency scale multiplies the achievable
// tensor-core rate (compute.ts), so the predicted step time falls as it grows; the
// memory-overhead scale multiplies the "other" memory terms (memory.ts), so the
// predicted peak memory rises with it. Each prediction is monotone in its scale, so
// bisection on the engine itself finds the one scale that reproduces the measurement.

import { GiB } from '../input/index.ts';
import { parseDocument } from '../input/index.ts';
import { estimateConfig } from '../estimate.ts';
import type { CalibrationOverride, RunConfig } from '../input/index.ts';

/** The document's bounds (document.ts readCalibration): compute scale in (0.05, 20], memory scale in [0, 20]. */
export const COMPUTE_SCALE_BOUNDS = { min: 0.05, max: 20 } as const;
export const MEMORY_SCALE_BOUNDS = { min: 0, max: 20 } as const;

/** Bisection stops when the bracket is this narrow, relative to the scale: far below any measurement's precision. */
const RELATIVE_TOLERANCE = 1e-10;
/** log2(ln(400) / 1e-10) ≈ 36 halvings cover the compute range; the cap only guards against a flat function. */
const MAX_ITERATIONS = 100;

export interface RunMeasurement {
  /** Measured seconds per optimizer step, for the whole configuration as run. */
  readonly stepSeconds?: number;
  /** Measured peak memory of the most loaded GPU, bytes, of the kind `peakMemoryMetric` says. */
  readonly peakMemoryBytes?: number;
  /**
   * What the measurement counts: "device used" (nvidia-smi's figure: the CUDA context and
   * NCCL's buffers included; the default) or "peak reserved" (torch.cuda.max_memory_reserved).
   * Compared with memory.deviceUsed or memory.reserved.
   */
  readonly peakMemoryMetric?: PeakMemoryMetric;
}

export type PeakMemoryMetric = 'device used' | 'peak reserved';

export type ScaleFit =
  | {
      readonly ok: true;
      readonly scale: number;
      /** The engine's prediction with the configuration's own calibration, before the fit. */
      readonly predictedBefore: number;
      /** The engine's prediction at the fitted scale (equals the measurement to the bisection's tolerance). */
      readonly predictedAfter: number;
    }
  | { readonly ok: false; readonly reason: string };

export interface RunFit {
  /** null when no step time was given. */
  readonly computeEfficiencyScale: ScaleFit | null;
  /** null when no peak memory was given. */
  readonly memoryOverheadScale: ScaleFit | null;
}

export type RunFitResult = { readonly ok: true; readonly fit: RunFit } | { readonly ok: false; readonly errors: readonly string[] };

function withCalibration(c: RunConfig, override: Partial<CalibrationOverride>): RunConfig {
  return { ...c, calibration: { ...c.calibration, ...override } };
}

function predictedStepSeconds(c: RunConfig, scale: number): number {
  return estimateConfig(withCalibration(c, { computeEfficiencyScale: scale })).throughput?.stepSeconds ?? NaN;
}

function predictedPeakBytes(c: RunConfig, scale: number, metric: PeakMemoryMetric): number {
  const output = estimateConfig(withCalibration(c, { memoryOverheadScale: scale }));
  if (output.errors.length > 0) return NaN;
  return metric === 'peak reserved' ? output.memory.reserved : output.memory.deviceUsed;
}

interface Bracket {
  readonly lo: number;
  readonly hi: number;
  /** f grows with x (else it falls). */
  readonly rising: boolean;
  /** Where to split: geometric for a range spanning decades. */
  readonly midpoint: (a: number, b: number) => number;
}

/** The x in [lo, hi] with f(x) = target, for f monotone on the interval. */
function bisect(f: (x: number) => number, target: number, { lo, hi, rising, midpoint }: Bracket): number {
  let a = lo;
  let b = hi;
  for (let i = 0; i < MAX_ITERATIONS && b - a > RELATIVE_TOLERANCE * Math.max(b, 1e-12); i++) {
    const m = midpoint(a, b);
    const below = f(m) < target;
    if (below === rising) a = m;
    else b = m;
  }
  return midpoint(a, b);
}

const geometric = (a: number, b: number) => Math.sqrt(a * b);
const arithmetic = (a: number, b: number) => (a + b) / 2;

function formatSeconds(seconds: number): string {
  return `${Number(seconds.toPrecision(4))} s`;
}

function formatGiB(bytes: number): string {
  return `${Number((bytes / GiB).toPrecision(4))} GiB`;
}

/** The compute-efficiency scale at which the engine's step time equals `measuredStepSeconds`. */
export function fitComputeEfficiencyScale(c: RunConfig, measuredStepSeconds: number): ScaleFit {
  if (!(measuredStepSeconds > 0) || !Number.isFinite(measuredStepSeconds)) {
    return { ok: false, reason: 'the measured step time must be a positive number of seconds' };
  }
  const { min, max } = COMPUTE_SCALE_BOUNDS;
  const predictedBefore = predictedStepSeconds(c, c.calibration.computeEfficiencyScale);
  const slowest = predictedStepSeconds(c, min);
  const fastest = predictedStepSeconds(c, max);
  if (!Number.isFinite(predictedBefore) || !Number.isFinite(slowest) || !Number.isFinite(fastest)) {
    return { ok: false, reason: 'the engine cannot time this configuration' };
  }
  if (measuredStepSeconds >= slowest) {
    return {
      ok: false,
      reason:
        `${formatSeconds(measuredStepSeconds)} is slower than the engine predicts even at ${min}× the ` +
        `calibrated efficiency (${formatSeconds(slowest)}): check the configuration matches the run`,
    };
  }
  if (measuredStepSeconds <= fastest) {
    return {
      ok: false,
      reason:
        `${formatSeconds(measuredStepSeconds)} is faster than the engine predicts even at ${max}× the ` +
        `calibrated efficiency (${formatSeconds(fastest)}): ` +
        `communication and memory-bound work alone take longer`,
    };
  }
  const scale = bisect((s) => predictedStepSeconds(c, s), measuredStepSeconds, { lo: min, hi: max, rising: false, midpoint: geometric });
  return { ok: true, scale, predictedBefore, predictedAfter: predictedStepSeconds(c, scale) };
}

/** The memory-overhead scale at which the engine's peak memory per GPU equals `measuredPeakBytes`. */
export function fitMemoryOverheadScale(c: RunConfig, measuredPeakBytes: number, metric: PeakMemoryMetric = 'device used'): ScaleFit {
  if (!(measuredPeakBytes > 0) || !Number.isFinite(measuredPeakBytes)) {
    return { ok: false, reason: 'the measured peak memory must be a positive number' };
  }
  const { min, max } = MEMORY_SCALE_BOUNDS;
  const predictedBefore = predictedPeakBytes(c, c.calibration.memoryOverheadScale, metric);
  const lowest = predictedPeakBytes(c, min, metric);
  const highest = predictedPeakBytes(c, max, metric);
  if (!Number.isFinite(predictedBefore) || !Number.isFinite(lowest) || !Number.isFinite(highest)) {
    return { ok: false, reason: 'the engine cannot size this configuration' };
  }
  if (measuredPeakBytes < lowest) {
    return {
      ok: false,
      reason:
        `${formatGiB(measuredPeakBytes)} is less than the weights, gradients, ` +
        `optimizer states and activations the engine counts (${formatGiB(lowest)}); ` +
        `scaling the runtime, buffers and allocator reserve cannot reach it`,
    };
  }
  if (measuredPeakBytes > highest) {
    return {
      ok: false,
      reason:
        `${formatGiB(measuredPeakBytes)} is more than the engine predicts even at ${max}× the ` +
        `calibrated overheads (${formatGiB(highest)}): check the configuration matches the run`,
    };
  }
  const scale = bisect((s) => predictedPeakBytes(c, s, metric), measuredPeakBytes, {
    lo: min,
    hi: max,
    rising: true,
    midpoint: arithmetic,
  });
  return { ok: true, scale, predictedBefore, predictedAfter: predictedPeakBytes(c, scale, metric) };
}

/** Both fits for what was measured; a measurement left out gives null. */
export function fitRun(c: RunConfig, measurement: RunMeasurement): RunFit {
  const { stepSeconds, peakMemoryBytes, peakMemoryMetric } = measurement;
  return {
    computeEfficiencyScale: stepSeconds === undefined ? null : fitComputeEfficiencyScale(c, stepSeconds),
    memoryOverheadScale: peakMemoryBytes === undefined ? null : fitMemoryOverheadScale(c, peakMemoryBytes, peakMemoryMetric),
  };
}

/** fitRun for an untrusted interchange document: its errors come back as values. */
export function fitRunDocument(raw: unknown, measurement: RunMeasurement): RunFitResult {
  const parsed = parseDocument(raw);
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  return { ok: true, fit: fitRun(parsed.config, measurement) };
}

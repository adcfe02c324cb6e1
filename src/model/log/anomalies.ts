// What went wrong in a run, step by step, each with the rule that flagged it:
//   loss or grad norm NaN/Inf; a loss spike against the trend of the previous logged steps
//   (detrended: a loss still falling does not widen the spread it is judged against); a
//   grad-norm spike against their median; Megatron's nan / skipped iterations and DeepSpeed's skipped steps; in the
//   steady range, a step slower than the steady median (a throughput drop, or a stall when
//   much slower); the peak memory growing after warm-up.

import { GiB, MiB } from './numbers.ts';
import type { Anomaly, LogFramework, Measured, StepRecord } from './types.ts';

/** How many previous logged values a spike is judged against, and the fewest it needs. */
export const SPIKE_WINDOW = 20;
export const SPIKE_MIN_HISTORY = 5;
/** Robust spread: 1.4826 × the median absolute deviation estimates a normal standard deviation. */
const MAD_TO_SIGMA = 1.4826;
/** A loss spike: above the window's median by more than this many robust spreads and by more than LOSS_SPIKE_SHARE of it. */
export const LOSS_SPIKE_SIGMAS = 6;
export const LOSS_SPIKE_SHARE = 0.1;
/** A grad-norm spike: more than this multiple of the window's median (and 6 robust spreads above it). */
export const GRAD_SPIKE_FACTOR = 3;
/** In the steady range: a step this much slower than the steady median is a drop, this much a stall. */
export const DROP_FACTOR = 1.5;
export const STALL_FACTOR = 5;
/** Memory growth after warm-up: more than this share of the first steady figure, and more than MEMORY_GROWTH_MIN_BYTES. */
export const MEMORY_GROWTH_SHARE = 0.05;
export const MEMORY_GROWTH_MIN_BYTES = 512 * MiB;
/** The most anomalies listed (a log of a diverged run flags every step after it). */
export const MAX_ANOMALIES = 500;

const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(3) : x.toPrecision(3));
const gib = (bytes: number) => `${(bytes / GiB).toFixed(2)} GiB`;

/** A rolling window of the last SPIKE_WINDOW finite values and their steps (a ring buffer: 100,000 steps allocate nothing per step). */
class Window {
  private readonly ring = new Float64Array(SPIKE_WINDOW);
  private readonly steps = new Float64Array(SPIKE_WINDOW);
  private readonly scratch = new Float64Array(SPIKE_WINDOW);
  private count = 0;
  push(v: number, step = 0): void {
    this.ring[this.count % SPIKE_WINDOW] = v;
    this.steps[this.count % SPIKE_WINDOW] = step;
    this.count += 1;
  }
  private size(): number {
    return Math.min(this.count, SPIKE_WINDOW);
  }
  /** The window's median and robust spread (1.4826 × the median absolute deviation). */
  stats(): { median: number; sigma: number } | null {
    const n = this.size();
    if (n < SPIKE_MIN_HISTORY) return null;
    const s = this.scratch.subarray(0, n);
    s.set(this.ring.subarray(0, n));
    sortSmall(s);
    const m = middle(s);
    for (let i = 0; i < n; i += 1) s[i] = Math.abs((s[i] as number) - m);
    sortSmall(s);
    return { median: m, sigma: MAD_TO_SIGMA * middle(s) };
  }
  /**
   * The window's trend extrapolated to `step`, and the robust spread about that trend. The slope is the
   * change between the medians of the older and the newer half of the window over the change of their
   * median steps (a median-of-halves line: a spike inside the window does not tilt it); the spread is
   * 1.4826 × the median absolute residual about the line. The expected value never goes below the window's
   * smallest (a curve that bends flat is not extrapolated past what it reached).
   */
  trend(step: number): { expected: number; sigma: number } | null {
    const n = this.size();
    if (n < SPIKE_MIN_HISTORY) return null;
    const start = this.count > SPIKE_WINDOW ? this.count % SPIKE_WINDOW : 0;
    const at = (i: number) => (start + i) % SPIKE_WINDOW;
    const half = n >> 1;
    const s = this.scratch;
    const medianOf = (from: number, to: number, of: Float64Array) => {
      const part = s.subarray(0, to - from);
      for (let i = from; i < to; i += 1) part[i - from] = of[at(i)] as number;
      sortSmall(part);
      return middle(part);
    };
    const v0 = medianOf(0, half, this.ring),
      x0 = medianOf(0, half, this.steps);
    const v1 = medianOf(n - half, n, this.ring),
      x1 = medianOf(n - half, n, this.steps);
    const slope = x1 > x0 ? (v1 - v0) / (x1 - x0) : 0;
    const all = s.subarray(0, n);
    let lowest = Infinity;
    for (let i = 0; i < n; i += 1) {
      const v = this.ring[at(i)] as number;
      lowest = Math.min(lowest, v);
      all[i] = v - slope * (this.steps[at(i)] as number);
    }
    sortSmall(all);
    const intercept = middle(all);
    for (let i = 0; i < n; i += 1) all[i] = Math.abs((this.ring[at(i)] as number) - (intercept + slope * (this.steps[at(i)] as number)));
    sortSmall(all);
    return { expected: Math.max(intercept + slope * step, lowest), sigma: MAD_TO_SIGMA * middle(all) };
  }
}

/** An insertion sort, ascending: for SPIKE_WINDOW finite values it beats TypedArray#sort's call overhead (twice a step, 100,000 steps). */
function sortSmall(a: Float64Array): void {
  for (let i = 1; i < a.length; i += 1) {
    const v = a[i] as number;
    let j = i - 1;
    while (j >= 0 && (a[j] as number) > v) {
      a[j + 1] = a[j] as number;
      j -= 1;
    }
    a[j + 1] = v;
  }
}

function middle(sorted: Float64Array): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function findAnomalies(
  records: readonly StepRecord[],
  framework: LogFramework | null,
  steady: { from: number; to: number } | null,
  measured: Measured,
  warnings: string[],
): Anomaly[] {
  const found: Anomaly[] = [];
  const add = (a: Anomaly) => found.push(a);
  const loss = new Window();
  const grad = new Window();
  let skippedTotal = 0;
  const cumulativeSkips = framework === 'deepspeed';
  for (const r of records) {
    if (r.loss !== undefined) {
      if (!Number.isFinite(r.loss))
        add({ step: r.step, kind: 'loss-nan', detail: `loss is ${r.loss} at step ${r.step} (rule: a loss that is not a finite number)` });
      else {
        const t = loss.trend(r.step);
        if (t && r.loss > t.expected + Math.max(LOSS_SPIKE_SIGMAS * t.sigma, LOSS_SPIKE_SHARE * Math.abs(t.expected))) {
          add({
            step: r.step,
            kind: 'loss-spike',
            detail:
              `loss ${fmt(r.loss)} at step ${r.step} against ${fmt(t.expected)} expected from the ` +
              `trend of the previous ${SPIKE_WINDOW} logged steps (rule: more than ${LOSS_SPIKE_SIGMAS} ` +
              `robust spreads about that trend and ${LOSS_SPIKE_SHARE * 100} % above it)`,
          });
        }
        loss.push(r.loss, r.step);
      }
    }
    if (r.gradNorm !== undefined) {
      if (!Number.isFinite(r.gradNorm))
        add({
          step: r.step,
          kind: 'grad-norm-nan',
          detail: `grad norm is ${r.gradNorm} at step ${r.step} (rule: a gradient norm that is not a finite number)`,
        });
      else {
        const s = grad.stats();
        if (s && r.gradNorm > GRAD_SPIKE_FACTOR * s.median && r.gradNorm > s.median + LOSS_SPIKE_SIGMAS * s.sigma) {
          add({
            step: r.step,
            kind: 'grad-norm-spike',
            detail:
              `grad norm ${fmt(r.gradNorm)} at step ${r.step} against a median of ${fmt(s.median)} over ` +
              `the previous ${SPIKE_WINDOW} logged steps (rule: more than ${GRAD_SPIKE_FACTOR}× that median)`,
          });
        }
        grad.push(r.gradNorm);
      }
    }
    if (r.nanIterations !== undefined && r.nanIterations > 0) {
      add({
        step: r.step,
        kind: 'nan-iterations',
        detail:
          `${r.nanIterations} iteration(s) with NaN gradients in the interval ending ` +
          `at step ${r.step} (rule: Megatron's "number of nan iterations" above 0)`,
      });
    }
    if (r.skippedIterations !== undefined && r.skippedIterations > 0) {
      add({
        step: r.step,
        kind: 'skipped-iterations',
        detail:
          `${r.skippedIterations} optimizer step(s) skipped in the interval ending at step ${r.step}, ` +
          `usually an fp16 loss-scale overflow (rule: Megatron's "number of skipped iterations" above 0)`,
      });
    }
    if (r.skippedTotal !== undefined) {
      if (cumulativeSkips && r.skippedTotal > skippedTotal) {
        add({
          step: r.step,
          kind: 'skipped-iterations',
          detail:
            `${r.skippedTotal - skippedTotal} optimizer step(s) skipped by step ${r.step}, ` +
            `usually an fp16 loss-scale overflow (rule: DeepSpeed's skipped= count rose)`,
        });
      }
      skippedTotal = Math.max(skippedTotal, r.skippedTotal);
    }
  }
  if (steady) {
    const inSteady = records.filter((r) => !(r.step < steady.from || r.step > steady.to));
    throughputAnomalies(inSteady, measured, add);
    memoryGrowth(inSteady, measured, add);
  }
  found.sort((a, b) => a.step - b.step);
  if (found.length > MAX_ANOMALIES) {
    warnings.push(`anomalies: ${found.length - MAX_ANOMALIES} more after step ${found[MAX_ANOMALIES - 1]?.step} not listed`);
    return found.slice(0, MAX_ANOMALIES);
  }
  return found;
}

/** Over the steady phase's records. */
function throughputAnomalies(records: readonly StepRecord[], measured: Measured, add: (a: Anomaly) => void): void {
  const typical = measured.stepSeconds;
  const typicalTps = measured.tokensPerSecondPerGpu;
  for (const r of records) {
    let slowdown: number | null = null;
    let what = '';
    if (typical && r.stepSeconds !== undefined && Number.isFinite(r.stepSeconds)) {
      slowdown = r.stepSeconds / typical;
      what = `step time ${fmt(r.stepSeconds)} s against the steady median ${fmt(typical)} s`;
    } else if (typicalTps && r.tokensPerSecondPerGpu !== undefined && r.tokensPerSecondPerGpu > 0) {
      slowdown = typicalTps / r.tokensPerSecondPerGpu;
      what = `${fmt(r.tokensPerSecondPerGpu)} tokens/s per GPU against the steady median ${fmt(typicalTps)}`;
    }
    if (slowdown === null) continue;
    if (slowdown > STALL_FACTOR)
      add({
        step: r.step,
        kind: 'stall',
        detail: `${what} at step ${r.step} (rule: more than ${STALL_FACTOR}× slower than the steady median)`,
      });
    else if (slowdown > DROP_FACTOR)
      add({
        step: r.step,
        kind: 'throughput-drop',
        detail: `${what} at step ${r.step} (rule: more than ${DROP_FACTOR}× slower than the steady median)`,
      });
  }
}

/** Over the steady phase's records. */
function memoryGrowth(records: readonly StepRecord[], measured: Measured, add: (a: Anomaly) => void): void {
  const metric = measured.memoryMetric;
  if (!metric || metric === 'after setup') return;
  let first: { step: number; bytes: number } | null = null;
  for (const r of records) {
    const bytes = r.memory?.[metric];
    if (bytes === undefined || !Number.isFinite(bytes)) continue;
    if (!first) {
      first = { step: r.step, bytes };
      continue;
    }
    const limit = Math.max(MEMORY_GROWTH_SHARE * first.bytes, MEMORY_GROWTH_MIN_BYTES);
    if (bytes - first.bytes > limit) {
      add({
        step: r.step,
        kind: 'memory-growth',
        detail:
          `${metric} memory ${gib(bytes)} at step ${r.step}, up from ${gib(first.bytes)} ` +
          `at step ${first.step} (rule: more than ${MEMORY_GROWTH_SHARE * 100} ` +
          `% and ${MEMORY_GROWTH_MIN_BYTES / MiB} MiB above the first steady step)`,
      });
      return;
    }
  }
}

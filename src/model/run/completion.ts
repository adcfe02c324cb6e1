// When the run really ends and what it really costs, as a distribution: a seeded Monte
// Carlo of the interruptions (failures and spot preemptions, run/interruptions.ts) over
// many runs of the same job. Pure and deterministic: the same input and seed always give
// the same figures.
//
// Each simulated run is drawn in aggregate, not step by step. Interruptions form a
// Poisson process at the job's rate Λ, so over a stretch of wall time t their number is
// Poisson(Λt), and each costs the work since the last checkpoint (uniform over the
// interval τ: Young 1974's and Daly 2006's assumption, reliability.ts) plus the restart R
// (an elastic run spends R at its reduced rate instead of idle). That lost time is wall
// time too, in which further interruptions can strike: the draw repeats over it until a
// stretch brings none (a branching process; it ends while Λ·(τ/2 + R) < 1).

import { SECONDS_PER_DAY } from '../input/index.ts';

export interface CompletionInput {
  /** Wall seconds to train the token budget with the whole cluster, nothing lost: tokens ÷ tokens per second. */
  readonly usefulSeconds: number;
  /** τ, the time between checkpoints. */
  readonly checkpointIntervalSeconds: number;
  /** δ, the time one checkpoint blocks the job. */
  readonly checkpointWriteSeconds: number;
  /** R, after each interruption. */
  readonly restartSeconds: number;
  /** Λ, interruptions of the whole job per second. */
  readonly interruptionsPerSecond: number;
  /**
   * Share of the full rate an elastic run keeps while a node is away (its reduced data
   * parallel degree's throughput over the full one's), 0 for a run that waits.
   */
  readonly elasticRate: number;
  /** What the whole cluster costs per second of wall time. */
  readonly usdPerSecond: number;
}

export interface Percentiles {
  readonly p10: number;
  readonly p50: number;
  readonly p90: number;
}

export interface CompletionDistribution {
  readonly days: Percentiles;
  readonly usd: Percentiles;
  /** Mean interruptions per simulated run. */
  readonly meanInterruptions: number;
  /** Mean days over the simulated runs. */
  readonly meanDays: number;
  readonly runs: number;
  /** The runs' end days counted in equal bins, for the page's picture. */
  readonly histogram: Histogram;
}

export interface Histogram {
  /** The first bin's lower edge (the fastest run), days. */
  readonly fromDays: number;
  /** Width of every bin, days; 0 when all runs end together (one bin). */
  readonly binDays: number;
  readonly counts: readonly number[];
}

/** Bins of the page's histogram. */
export const HISTOGRAM_BINS = 24;

/** Counts of sorted values in `bins` equal bins from the smallest to the largest (the largest falls in the last). */
export function histogram(sorted: ArrayLike<number>, bins: number = HISTOGRAM_BINS): Histogram {
  const n = sorted.length;
  if (n === 0) return { fromDays: 0, binDays: 0, counts: [] };
  const lo = sorted[0] as number;
  const hi = sorted[n - 1] as number;
  if (!(hi > lo)) return { fromDays: lo, binDays: 0, counts: [n] };
  const width = (hi - lo) / bins;
  const counts = new Array<number>(bins).fill(0);
  for (let i = 0; i < n; i++) {
    const bin = Math.min(bins - 1, Math.floor(((sorted[i] as number) - lo) / width));
    counts[bin] = (counts[bin] as number) + 1;
  }
  return { fromDays: lo, binDays: width, counts };
}

/** The number of runs the estimate simulates, and its seed (any fixed value: it only has to be the same every time). */
export const COMPLETION_RUNS = 1000;
export const COMPLETION_SEED = 20_240_723;

/** Stretches of lost time simulated before a run is closed (reached only when Λ·(τ/2 + R) is near 1 or above). */
const MAX_GENERATIONS = 200;

/** mulberry32 (Tommy Ettinger's 32-bit generator, public domain): uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Stirling's series for ln Γ(x), shifted up to x ≥ 7 (numpy's random_loggam, numpy/random/src/distributions/distributions.c). */
const LOGGAM_COEFFICIENTS = [
  8.333333333333333e-2, -2.777777777777778e-3, 7.936507936507937e-4, -5.952380952380952e-4, 8.417508417508418e-4,
  -1.917526917526918e-3, 6.41025641025641e-3, -2.955065359477124e-2, 1.796443723688307e-1, -1.3924322169059,
];

export function logGamma(x: number): number {
  if (x === 1 || x === 2) return 0;
  const shift = x <= 7 ? Math.floor(7 - x) : 0;
  let x0 = x + shift;
  const x2 = 1 / (x0 * x0);
  let series = 0;
  for (let k = LOGGAM_COEFFICIENTS.length - 1; k >= 0; k--) series = series * x2 + (LOGGAM_COEFFICIENTS[k] as number);
  let value = series / x0 + 0.5 * Math.log(2 * Math.PI) + (x0 - 0.5) * Math.log(x0) - x0;
  for (let k = 0; k < shift; k++) {
    x0 -= 1;
    value -= Math.log(x0);
  }
  return value;
}

/** Below this mean, Knuth's multiplication method; above, Hörmann's PTRS. */
const PTRS_MIN_MEAN = 10;

/**
 * A Poisson(mean) draw. Small means: multiply uniforms until below e^−mean (Knuth, TAOCP
 * vol. 2, 3.4.1). Large ones: transformed rejection with squeeze, PTRS (Hörmann 1993,
 * "The transformed rejection method for generating Poisson random variables", Insurance:
 * Mathematics and Economics 12(1)), exact and about two uniforms a draw at any mean.
 */
export function poisson(mean: number, random: () => number): number {
  if (!(mean > 0)) return 0;
  if (mean < PTRS_MIN_MEAN) {
    const limit = Math.exp(-mean);
    let k = 0;
    let product = random();
    while (product > limit) {
      k++;
      product *= random();
    }
    return k;
  }
  const sqrtMean = Math.sqrt(mean);
  const logMean = Math.log(mean);
  const b = 0.931 + 2.53 * sqrtMean;
  const a = -0.059 + 0.02483 * b;
  const invAlpha = 1.1239 + 1.1328 / (b - 3.4);
  const vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const u = random() - 0.5;
    const v = random();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + mean + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (Math.log(v) + Math.log(invAlpha) - Math.log(a / (us * us) + b) <= -mean + k * logMean - logGamma(k + 1)) return k;
  }
}

/** Above this many terms a sum of uniforms is drawn from its normal limit (Irwin–Hall: mean n/2, variance n/12). */
const EXACT_UNIFORM_SUM_TERMS = 24;

/** The sum of n independent uniforms on [0, 1): exactly for few terms, from the normal limit (Box–Muller) for many. */
export function uniformSum(n: number, random: () => number): number {
  if (n <= EXACT_UNIFORM_SUM_TERMS) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += random();
    return sum;
  }
  const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Math.min(n, Math.max(0, n / 2 + Math.sqrt(n / 12) * z));
}

/** The q-quantile of sorted values, linear between order statistics (Hyndman & Fan 1996, definition 7: R's and numpy's default). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const position = (n - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(n - 1, below + 1);
  const lo = sorted[below] as number;
  return lo + ((sorted[above] as number) - lo) * (position - below);
}

/** Wall seconds of a run with no interruption: the useful work plus one checkpoint write per interval of it. */
export function uninterruptedSeconds(input: Pick<CompletionInput, 'usefulSeconds' | 'checkpointIntervalSeconds' | 'checkpointWriteSeconds'>): number {
  const { usefulSeconds, checkpointIntervalSeconds: tau, checkpointWriteSeconds: delta } = input;
  return tau > 0 ? usefulSeconds * (1 + delta / tau) : usefulSeconds;
}

export function simulateCompletion(input: CompletionInput, runs: number = COMPLETION_RUNS, seed: number = COMPLETION_SEED): CompletionDistribution {
  const random = mulberry32(seed);
  const base = uninterruptedSeconds(input);
  const rate = Math.max(0, input.interruptionsPerSecond);
  const tau = Math.max(0, input.checkpointIntervalSeconds);
  const idleRestart = input.restartSeconds * (1 - Math.min(1, Math.max(0, input.elasticRate)));
  const seconds = new Float64Array(runs);
  let interruptions = 0;
  for (let run = 0; run < runs; run++) {
    let total = base;
    let exposure = base;
    for (let generation = 0; generation < MAX_GENERATIONS && exposure > 0; generation++) {
      const n = poisson(rate * exposure, random);
      if (n === 0) break;
      interruptions += n;
      exposure = tau * uniformSum(n, random) + n * idleRestart;
      total += exposure;
    }
    seconds[run] = total;
  }
  seconds.sort();
  const days = new Float64Array(runs);
  let sum = 0;
  for (let i = 0; i < runs; i++) {
    days[i] = (seconds[i] as number) / SECONDS_PER_DAY;
    sum += days[i] as number;
  }
  const at = (q: number) => quantile(seconds, q);
  const usd = (s: number) => s * input.usdPerSecond;
  const [s10, s50, s90] = [at(0.1), at(0.5), at(0.9)];
  return {
    days: { p10: s10 / SECONDS_PER_DAY, p50: s50 / SECONDS_PER_DAY, p90: s90 / SECONDS_PER_DAY },
    usd: { p10: usd(s10), p50: usd(s50), p90: usd(s90) },
    meanInterruptions: runs > 0 ? interruptions / runs : 0,
    meanDays: runs > 0 ? sum / runs : 0,
    runs,
    histogram: histogram(days),
  };
}

/** An ISO date (YYYY-MM-DD) `days` after the first day `startDate` (taken as its midnight, UTC): the day the run ends on. */
export function isoDateAfter(startDate: string, days: number): string {
  const start = Date.parse(`${startDate}T00:00:00Z`);
  return new Date(start + Math.max(0, days) * SECONDS_PER_DAY * 1000).toISOString().slice(0, 10);
}

/** What a completion's basis names besides the simulation's own inputs. */
export interface CompletionContext {
  readonly gpuMtbfHours: number;
  /** The preemption rate that counts (0 on-demand), and the nodes it applies to. */
  readonly preemptionsPerNodeDay: number;
  readonly nodes: number;
  /** Data parallel degree, and what an elastic run keeps when a node goes (null: the run waits). */
  readonly dp: number;
  readonly elasticDp: number | null;
}

export interface CompletionFigures {
  readonly days: Percentiles;
  readonly usd: Percentiles;
  readonly endDate?: { readonly p10: string; readonly p50: string; readonly p90: string };
  readonly basis: string;
  /** Project additions: mean interruptions over the simulated runs, and their end days in bins. */
  readonly meanInterruptions: number;
  readonly histogram: Histogram;
}

function minutes(seconds: number): string {
  const m = seconds / 60;
  return m >= 10 ? `${Math.round(m)} min` : `${m.toPrecision(2)} min`;
}

/** The simulation, its dated ends from `startDate`, and a sentence on what was drawn. */
export function completionFigures(
  input: CompletionInput, context: CompletionContext, startDate: string | null,
  runs: number = COMPLETION_RUNS, seed: number = COMPLETION_SEED,
): CompletionFigures {
  const d = simulateCompletion(input, runs, seed);
  const drawn = [`failures at 1 per ${context.gpuMtbfHours.toLocaleString('en-US')} GPU-hours`];
  if (context.preemptionsPerNodeDay > 0) {
    drawn.push(`spot preemptions at ${context.preemptionsPerNodeDay.toPrecision(2)} per node-day over ${context.nodes.toLocaleString('en-US')} nodes`);
  }
  const elastic = context.elasticDp === null
    ? `a ${minutes(input.restartSeconds)} restart`
    : context.elasticDp > 0
      ? `a ${minutes(input.restartSeconds)} wait for the node, carried on at data parallel ${context.elasticDp} of ${context.dp} (${Math.round(input.elasticRate * 100)} % of the rate)`
      : `a ${minutes(input.restartSeconds)} restart (elastic, but no data-parallel replica is left without the node)`;
  const basis = `${runs.toLocaleString('en-US')} simulated runs (seed ${seed}): interruptions as Poisson processes, ${drawn.join(' and ')}; `
    + `each loses the work since the last checkpoint (uniform over the ${minutes(input.checkpointIntervalSeconds)} interval) and ${elastic}; `
    + `checkpoints block ${input.checkpointWriteSeconds.toPrecision(2)} s each; every GPU is paid for the whole wall time.`;
  const figures = { days: d.days, usd: d.usd, basis, meanInterruptions: d.meanInterruptions, histogram: d.histogram };
  if (startDate === null) return figures;
  return {
    ...figures,
    endDate: { p10: isoDateAfter(startDate, d.days.p10), p50: isoDateAfter(startDate, d.days.p50), p90: isoDateAfter(startDate, d.days.p90) },
  };
}

// When the run really ends and what it really costs, as a distribution: a seeded Monte
// Carlo of the interruptions (failures and spot preemptions, run/interruptions.ts) over
// many runs of the same job. Pure and deterministic: the same input and seed always give
// the same figures.
//
// Each simulated run is drawn in aggregate, not step by step, under the model behind
// Young's and Daly's interval (reliability.ts): interruptions strike as a Poisson process
// at the job's rate Λ; the work is K = useful time ÷ τ segments of s = τ + δ (an interval's
// work and its checkpoint write), each of which must run through uninterrupted; an
// interruption loses the work since the segment began and costs the restart R (an elastic
// run spends R at its reduced rate instead of idle). A segment is then interrupted a
// geometric number of times (success probability e^(−Λs)), so a run's interruptions are
// negative binomial, drawn as Poisson over a Gamma(K) mixture; each loses a time
// exponential truncated to [0, s] (for Λs ≪ 1 nearly uniform: s/2 on average). The mean
// wall time is (e^(Λs) − 1)(1/Λ + R) per segment, Daly's to first order in R/M; restarts
// themselves are taken as uninterrupted.

import { GiB, SECONDS_PER_DAY } from '../input/index.ts';

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
  8.333333333333333e-2, -2.777777777777778e-3, 7.936507936507937e-4, -5.952380952380952e-4, 8.417508417508418e-4, -1.917526917526918e-3,
  6.41025641025641e-3, -2.955065359477124e-2, 1.796443723688307e-1, -1.3924322169059,
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
 * Above this mean, the normal limit N(mean, mean), rounded: PTRS's acceptance test
 * subtracts numbers of the order of mean·ln(mean), whose rounding error outgrows the
 * test's own scale for astronomically large means; here the Poisson's skewness, 1/√mean,
 * is 0.0003 already.
 */
const NORMAL_MIN_MEAN = 1e7;
/** PTRS accepts 9 draws in 10 or more (Hörmann 1993); a guard against a rounding trap, never reached in practice. */
const PTRS_MAX_TRIES = 1000;

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
  if (mean >= NORMAL_MIN_MEAN) return normalPoisson(mean, sqrtMean, random);
  const logMean = Math.log(mean);
  const b = 0.931 + 2.53 * sqrtMean;
  const a = -0.059 + 0.02483 * b;
  const invAlpha = 1.1239 + 1.1328 / (b - 3.4);
  const vr = 0.9277 - 3.6224 / (b - 2);
  for (let tries = 0; tries < PTRS_MAX_TRIES; tries++) {
    const u = random() - 0.5;
    const v = random();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + mean + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (Math.log(v) + Math.log(invAlpha) - Math.log(a / (us * us) + b) <= -mean + k * logMean - logGamma(k + 1)) return k;
  }
  return normalPoisson(mean, sqrtMean, random);
}

/** A standard normal draw (Box–Muller). */
function standardNormal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function normalPoisson(mean: number, sqrtMean: number, random: () => number): number {
  return Math.max(0, Math.round(mean + sqrtMean * standardNormal(random)));
}

/** Above this many terms a sum of lost times is drawn from its normal limit (central limit theorem). */
const EXACT_SUM_TERMS = 24;
/** Below this Λs the truncated exponential's moments come from their series (the closed forms cancel). */
const SERIES_MAX_X = 1e-3;

/**
 * Mean and variance of an exponential of rate x truncated to [0, 1] (the lost share of a
 * segment, with x = Λs): mean 1/x − 1/(eˣ − 1), variance 1/x² − eˣ/(eˣ − 1)²; for small x
 * 1/2 − x/12 and 1/12 − x²/240 (their Taylor series); for x → ∞, 1/x and 1/x².
 */
export function truncatedExponentialMoments(x: number): { readonly mean: number; readonly variance: number } {
  if (x < SERIES_MAX_X) return { mean: 0.5 - x / 12, variance: 1 / 12 - (x * x) / 240 };
  const em1 = Math.expm1(x);
  if (!Number.isFinite(em1)) return { mean: 1 / x, variance: 1 / (x * x) };
  return { mean: 1 / x - 1 / em1, variance: 1 / (x * x) - (em1 + 1) / (em1 * em1) };
}

/** The sum of n lost shares of a segment (exponential of rate x truncated to [0, 1]): exactly for few, from the normal limit for many. */
export function truncatedExponentialSum(n: number, x: number, random: () => number): number {
  if (n <= EXACT_SUM_TERMS) {
    let sum = 0;
    if (x < SERIES_MAX_X) {
      for (let i = 0; i < n; i++) sum += random();
    } else {
      // Inverse CDF: F(t) = (1 − e^(−xt)) / (1 − e^(−x)).
      const q = -Math.expm1(-x);
      for (let i = 0; i < n; i++) sum += -Math.log1p(-random() * q) / x;
    }
    return sum;
  }
  const { mean, variance } = truncatedExponentialMoments(x);
  return Math.min(n, Math.max(0, n * mean + Math.sqrt(n * variance) * standardNormal(random)));
}

/** Above this shape, a Gamma draw from its normal limit N(k, k) (skewness 2/√k = 0.0002). */
const NORMAL_MIN_SHAPE = 1e8;
const GAMMA_MAX_TRIES = 1000;

/** A Gamma(shape, 1) draw: Marsaglia & Tsang 2000 ("A simple method for generating gamma variables", ACM TOMS 26(3)), boosted below shape 1. */
export function gamma(shape: number, random: () => number): number {
  if (!(shape > 0)) return 0;
  if (shape < 1) return gamma(shape + 1, random) * Math.pow(1 - random(), 1 / shape);
  if (shape >= NORMAL_MIN_SHAPE) return Math.max(0, shape + Math.sqrt(shape) * standardNormal(random));
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (let tries = 0; tries < GAMMA_MAX_TRIES; tries++) {
    const z = standardNormal(random);
    const v = (1 + c * z) ** 3;
    if (v <= 0) continue;
    if (Math.log(1 - random()) < 0.5 * z * z + d - d * v + d * Math.log(v)) return d * v;
  }
  return shape;
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
export function uninterruptedSeconds(
  input: Pick<CompletionInput, 'usefulSeconds' | 'checkpointIntervalSeconds' | 'checkpointWriteSeconds'>,
): number {
  const { usefulSeconds, checkpointIntervalSeconds: tau, checkpointWriteSeconds: delta } = input;
  return tau > 0 ? usefulSeconds * (1 + delta / tau) : usefulSeconds;
}

export function simulateCompletion(
  input: CompletionInput,
  runs: number = COMPLETION_RUNS,
  seed: number = COMPLETION_SEED,
): CompletionDistribution {
  const random = mulberry32(seed);
  const base = uninterruptedSeconds(input);
  const rate = Math.max(0, input.interruptionsPerSecond);
  const tau = Math.max(0, input.checkpointIntervalSeconds);
  const segment = tau + Math.max(0, input.checkpointWriteSeconds);
  const segments = tau > 0 ? input.usefulSeconds / tau : Infinity;
  const x = rate * segment;
  // Interruptions a segment meets on average: (1 − p)/p with p = e^(−x).
  const odds = Math.expm1(x);
  const idleRestart = input.restartSeconds * (1 - Math.min(1, Math.max(0, input.elasticRate)));
  const seconds = new Float64Array(runs);
  let interruptions = 0;
  for (let run = 0; run < runs; run++) {
    let n: number;
    let lost: number;
    if (Number.isFinite(segments) && segment > 0) {
      n = poisson(gamma(segments, random) * odds, random);
      lost = segment * truncatedExponentialSum(n, x, random);
    } else {
      // Checkpoints at no cost, continuously: nothing is lost but the restarts, over the useful time.
      n = poisson(rate * base, random);
      lost = 0;
    }
    interruptions += n;
    seconds[run] = base + lost + n * idleRestart;
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

/**
 * The intervals tried against the distribution: from Young's τ a whole octave at a time
 * (×2 or ÷2) while the median end improves, at most 3 octaves down and 6 up (with few
 * interruptions in a run the median run meets none, and a longer interval only saves
 * checkpoint writes), then quarter octaves either side of the best; never past the run's
 * own useful time (one checkpoint at its end).
 */
const INTERVAL_OCTAVES_BELOW = 3;
const INTERVAL_OCTAVES_ABOVE = 6;
const INTERVAL_STEPS_PER_OCTAVE = 4;

export interface IntervalChoice {
  readonly seconds: number;
  readonly days: Percentiles;
  readonly usd: Percentiles;
}

/**
 * The checkpoint interval whose simulated runs end soonest at the median (issue 37 item 3):
 * a descent on log τ from Young's interval (the optimum of the mean, Young 1974), each
 * interval simulated with the same runs and seed as the estimate's own, and the interval
 * `input` uses tried too, so the choice is never worse than what the estimate shows. The
 * median over simulated runs is not smooth in τ, so the descent stops at the first step
 * that does not improve it. Null when there is nothing to choose: no interruptions, or
 * checkpoints that cost nothing (the best is then continuous).
 */
export function p50OptimalInterval(
  input: CompletionInput,
  youngSeconds: number,
  runs: number = COMPLETION_RUNS,
  seed: number = COMPLETION_SEED,
): IntervalChoice | null {
  if (!(input.interruptionsPerSecond > 0) || !(input.checkpointWriteSeconds > 0) || !(youngSeconds > 0) || !Number.isFinite(youngSeconds))
    return null;
  const longest = Math.max(youngSeconds, input.usefulSeconds);
  const tried = new Map<number, IntervalChoice>();
  const at = (seconds: number): IntervalChoice => {
    const tau = Math.min(longest, seconds);
    let choice = tried.get(tau);
    if (!choice) {
      const d = simulateCompletion({ ...input, checkpointIntervalSeconds: tau }, runs, seed);
      tried.set(tau, (choice = { seconds: tau, days: d.days, usd: d.usd }));
    }
    return choice;
  };
  /** From step `from` (in 1/perOctave octaves of Young's τ), step while the median end improves, within [−below, above] octaves. */
  const walk = (from: number, direction: 1 | -1, perOctave: number): number => {
    const p50 = (k: number) => at(youngSeconds * 2 ** (k / perOctave)).days.p50;
    let k = from;
    while (
      (k + direction) / perOctave >= -INTERVAL_OCTAVES_BELOW &&
      (k + direction) / perOctave <= INTERVAL_OCTAVES_ABOVE &&
      p50(k + direction) < p50(k)
    ) {
      k += direction;
    }
    return k;
  };
  const upOrDown = (from: number, perOctave: number) => {
    const up = walk(from, 1, perOctave);
    return up !== from ? up : walk(from, -1, perOctave);
  };
  const step = upOrDown(upOrDown(0, 1) * INTERVAL_STEPS_PER_OCTAVE, INTERVAL_STEPS_PER_OCTAVE);
  const found = at(youngSeconds * 2 ** (step / INTERVAL_STEPS_PER_OCTAVE));
  const own = at(input.checkpointIntervalSeconds);
  return own.days.p50 < found.days.p50 ? own : found;
}

/** An ISO date (YYYY-MM-DD) `days` after the first day `startDate` (taken as its midnight, UTC): the day the run ends on. */
export function isoDateAfter(startDate: string, days: number): string {
  const start = Date.parse(`${startDate}T00:00:00Z`);
  return new Date(start + Math.max(0, days) * SECONDS_PER_DAY * 1000).toISOString().slice(0, 10);
}

/** The shares of the token budget whose dates the page shows (issue 37 item 6): each quarter. */
export const BUDGET_QUARTERS = [0.25, 0.5, 0.75, 1] as const;

export interface Milestone {
  /** Share of the token budget trained. */
  readonly fraction: number;
  readonly days: Percentiles;
  /** ISO dates, when a start date is given. */
  readonly date?: { readonly p10: string; readonly p50: string; readonly p90: string };
}

function datedPercentiles(startDate: string, days: Percentiles) {
  return { p10: isoDateAfter(startDate, days.p10), p50: isoDateAfter(startDate, days.p50), p90: isoDateAfter(startDate, days.p90) };
}

/**
 * When each quarter of the token budget is reached: a run of that share of the useful
 * work, simulated as the whole run is (the time to train a share of the tokens is a run of
 * that length: interruptions are a renewal process), with the same runs and seed; the last
 * quarter is the run's end itself.
 */
export function budgetMilestones(
  input: CompletionInput,
  startDate: string | null,
  whole: Percentiles,
  runs: number = COMPLETION_RUNS,
  seed: number = COMPLETION_SEED,
): Milestone[] {
  return BUDGET_QUARTERS.map((fraction) => {
    const days = fraction === 1 ? whole : simulateCompletion({ ...input, usefulSeconds: input.usefulSeconds * fraction }, runs, seed).days;
    return startDate === null ? { fraction, days } : { fraction, days, date: datedPercentiles(startDate, days) };
  });
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
  /**
   * Set when an elastic run's reduced degree (elasticDp > 0) would not fit in memory
   * (fewer replicas to shard ZeRO's states over, or more micro-batches in flight): the run
   * then waits for the node, and the basis says why.
   */
  readonly elasticMemory?: { readonly needBytes: number; readonly capacityBytes: number; readonly where: 'device' | 'host' } | null;
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

function gib(bytes: number): string {
  return (bytes / GiB).toFixed(1);
}

function minutes(seconds: number): string {
  const m = seconds / 60;
  return m >= 10 ? `${Math.round(m)} min` : `${m.toPrecision(2)} min`;
}

/** The simulation, its dated ends from `startDate`, and a sentence on what was drawn. */
export function completionFigures(
  input: CompletionInput,
  context: CompletionContext,
  startDate: string | null,
  runs: number = COMPLETION_RUNS,
  seed: number = COMPLETION_SEED,
): CompletionFigures {
  const d = simulateCompletion(input, runs, seed);
  const drawn = [`failures at 1 per ${context.gpuMtbfHours.toLocaleString('en-US')} GPU-hours`];
  if (context.preemptionsPerNodeDay > 0) {
    drawn.push(
      `spot preemptions at ${context.preemptionsPerNodeDay.toPrecision(2)} per node-day over ${context.nodes.toLocaleString('en-US')} nodes`,
    );
  }
  const unfit = context.elasticMemory;
  const elastic =
    context.elasticDp === null
      ? `a ${minutes(input.restartSeconds)} restart`
      : unfit && context.elasticDp > 0
        ? `a ${minutes(input.restartSeconds)} restart (elastic, but data parallel ${context.elasticDp} of ${context.dp} would need ` +
          `${gib(unfit.needBytes)} GiB of ${unfit.where === 'device' ? 'GPU' : 'CPU'} memory ${unfit.where === 'device' ? 'per GPU' : 'per node'}, ` +
          `more than the ${gib(unfit.capacityBytes)} GiB there, so the run waits for the node)`
        : context.elasticDp > 0
          ? `a ${minutes(input.restartSeconds)} wait for the node, carried on at data parallel ` +
            `${context.elasticDp} of ${context.dp} (${Math.round(input.elasticRate * 100)} % of the rate)`
          : `a ${minutes(input.restartSeconds)} restart (elastic, but no data-parallel replica is left without the node)`;
  const basis =
    `${runs.toLocaleString('en-US')} simulated runs (seed ${seed}): interruptions as Poisson processes, ${drawn.join(' and ')}; ` +
    `each loses the work since the last checkpoint (up ` +
    `to the ${minutes(input.checkpointIntervalSeconds)} ` +
    `interval) and ${elastic}, restarts taken as uninterrupted; ` +
    `checkpoints block ${input.checkpointWriteSeconds.toPrecision(2)} s each; every GPU is paid for the whole wall time.`;
  const figures = { days: d.days, usd: d.usd, basis, meanInterruptions: d.meanInterruptions, histogram: d.histogram };
  if (startDate === null) return figures;
  return {
    ...figures,
    endDate: datedPercentiles(startDate, d.days),
  };
}

// `uncertainty` of every estimate (../shared/spec/interchange.md, "Output"; issue 35): a 90 %
// range for tokens per second and for the memory `fits` judges, from the validation errors
// of the published runs like this one (segments.ts, the table segment-table.ts). A run
// measured as predicted / (1 + e) lies in [predicted / (1 + upper), predicted / (1 + lower)].

import type { FigureRange, RunConfig } from '../input/index.ts';
import { runTraits, scaleSegment, segmentChain, segmentWords, type RunTraits, type SegmentId } from './segments.ts';
import type { SegmentBand, SegmentEntry, SegmentTable } from './table.ts';

/**
 * A segment needs this many published figures to carry its own band ("fewer than about 8",
 * issue 35): with 8 the outward 5th–95th percentiles are the extremes (band.ts), with fewer
 * one odd run would set the band alone. A smaller segment borrows the next wider one's.
 */
export const MIN_SEGMENT_RUNS = 8;

/**
 * How much the range widens, on each side, per step beyond what the segment's published
 * runs cover: per doubling of GPUs or experts past the largest published run, and once for
 * a GPU or a precision no published run of the segment used. Not fitted (no published run
 * lies there to fit it on): a stated convention, the order of the dense Megatron error's
 * own p90 (15.6 %, `npm run validate -- --summary`) rounded down, so that two doublings
 * past the data (×1.21) widen a range by more than that error.
 */
export const WIDENING_PER_STEP = 0.1;

export interface Uncertainty {
  readonly tokensPerSecond: FigureRange;
  readonly memory: FigureRange;
}

type Figure = 'tokensPerSecond' | 'memory';

export interface ChosenBand {
  readonly segment: SegmentId;
  /** Published figures of the segment whose band it is. */
  readonly runs: number;
  readonly lowerError: number;
  readonly upperError: number;
  readonly basis: string;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');
const runsWord = (n: number) => `${count(n)} published run${n === 1 ? '' : 's'}`;

/** The narrowest segment of the chain with MIN_SEGMENT_RUNS figures; the narrower ones' own errors widen its band. */
export function chooseBand(chain: readonly SegmentId[], table: SegmentTable, figure: Figure): ChosenBand | null {
  let lower = 0;
  let upper = 0;
  for (const [i, id] of chain.entries()) {
    const band: SegmentBand | null = table.segments[id]?.[figure] ?? null;
    if (!band) continue;
    if (band.runs < MIN_SEGMENT_RUNS) {
      lower = Math.min(lower, band.minError);
      upper = Math.max(upper, band.maxError);
      continue;
    }
    const basis = `${segmentWords(id)}: ${runsWord(band.runs)}`;
    if (i === 0) return { segment: id, runs: band.runs, lowerError: band.lowerError, upperError: band.upperError, basis };
    const own = table.segments[chain[0] ?? '']?.[figure]?.runs ?? 0;
    const why =
      own === 0
        ? `no published runs of ${segmentWords(chain[0] ?? '')}`
        : `${segmentWords(chain[0] ?? '')}: only ${runsWord(own)}, fewer than ${MIN_SEGMENT_RUNS}; the range also holds their errors`;
    return {
      segment: id,
      runs: band.runs,
      lowerError: Math.min(band.lowerError, lower),
      upperError: Math.max(band.upperError, upper),
      basis: `${basis} (${why})`,
    };
  }
  return null;
}

function familyWords(t: RunTraits): string {
  if (t.fineTune) return segmentWords(scaleSegment(t)).replace(/, all GPUs$/, '');
  return t.kind === 'dense' ? 'dense' : 'MoE';
}

export interface Beyond {
  /** Widening steps (doublings, or one per unseen GPU or precision). */
  readonly steps: number;
  readonly reasons: readonly string[];
}

/** Where the run lies outside what its segment's published runs cover (scaleSegment). */
export function beyondValidated(config: RunConfig, t: RunTraits, table: SegmentTable): Beyond {
  const entry: SegmentEntry | undefined = table.segments[scaleSegment(t)];
  const what = familyWords(t);
  if (!entry) return { steps: 1, reasons: [`no published ${what} run`] };
  const reasons: string[] = [];
  let steps = 0;
  const { gpus } = config.cluster;
  if (entry.maxGpus > 0 && gpus > entry.maxGpus) {
    steps += Math.log2(gpus / entry.maxGpus);
    reasons.push(`largest published ${what} run ${count(entry.maxGpus)} GPUs (this run ${count(gpus)})`);
  }
  const experts = config.model.moe?.experts ?? 0;
  if (t.kind !== 'dense' && entry.maxExperts > 0 && experts > entry.maxExperts) {
    steps += Math.log2(experts / entry.maxExperts);
    reasons.push(`most experts in a published ${what} run ${count(entry.maxExperts)} (this run ${count(experts)})`);
  }
  if (!entry.gpuNames.includes(config.cluster.gpu.name)) {
    steps += 1;
    reasons.push(`no published ${what} run on the ${config.cluster.gpu.name}`);
  }
  if (!entry.precisions.includes(config.training.precision)) {
    steps += 1;
    reasons.push(`no published ${what} run in ${config.training.precision}`);
  }
  return { steps, reasons };
}

/** The widening factor for `steps` steps beyond the validated range (≥ 1). */
export function wideningFactor(steps: number): number {
  return (1 + WIDENING_PER_STEP) ** Math.max(0, steps);
}

/** The smallest 1 + error a band may divide by: a published figure is finite, so the engine never predicted 0. */
const MIN_FACTOR = 0.01;

function rangeOf(predicted: number, band: ChosenBand, beyond: Beyond): FigureRange {
  const widen = wideningFactor(beyond.steps);
  const low = predicted / (Math.max(MIN_FACTOR, 1 + band.upperError) * widen);
  const high = (predicted * widen) / Math.max(MIN_FACTOR, 1 + band.lowerError);
  const past =
    beyond.reasons.length === 0
      ? ''
      : `; beyond the validated range: ${beyond.reasons.join('; ')}, ` +
        `so the range is widened ×${widen.toFixed(2)} ` +
        `on each side (${Math.round(WIDENING_PER_STEP * 100)} % per doubling or unseen GPU or precision)`;
  return {
    low: Math.min(low, predicted),
    high: Math.max(high, predicted),
    basis: `${band.basis}${past}`,
    runs: band.runs,
    beyondValidated: beyond.reasons.length > 0,
  };
}

export interface UncertaintyDetail {
  readonly uncertainty: Uncertainty;
  /** The segments whose bands were used (for the coverage test and the page's "why this range"). */
  readonly segments: { readonly tokensPerSecond: SegmentId; readonly memory: SegmentId };
  readonly beyond: Beyond;
}

/** The ranges of a run's tokens per second (whole cluster) and of the memory `fits` judges (bytes per GPU). */
export function uncertaintyDetail(
  config: RunConfig,
  tokensPerSecond: number,
  fitBytes: number,
  table: SegmentTable,
  fullFineTune = false,
): UncertaintyDetail | null {
  const traits = runTraits(config, fullFineTune);
  const chain = segmentChain(traits);
  const speed = chooseBand(chain, table, 'tokensPerSecond');
  const memory = chooseBand(chain, table, 'memory');
  if (!speed || !memory || !Number.isFinite(tokensPerSecond) || !Number.isFinite(fitBytes)) return null;
  const beyond = beyondValidated(config, traits, table);
  return {
    uncertainty: { tokensPerSecond: rangeOf(tokensPerSecond, speed, beyond), memory: rangeOf(fitBytes, memory, beyond) },
    segments: { tokensPerSecond: speed.segment, memory: memory.segment },
    beyond,
  };
}

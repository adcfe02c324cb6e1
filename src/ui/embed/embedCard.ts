// What the embed card says, in words: the run's layout as one line, and the memory
// verdict with its margin. Reads the parsed document (defaults filled by the engine's
// own parser) and the engine's output; no arithmetic of the model's here.

import { expertTensorParallel } from '../../model/structure/index.ts';
import { parseDocument } from '../../model/input/index.ts';
import type { EstimateOutput, RunConfig, ScheduleKind } from '../../model/input/index.ts';
import type { OomVerdict } from '../../model/validation/index.ts';
import { fitAssessment, tightWords } from '../uncertainty/memoryVerdict.ts';
import { fitMemoryBytes } from '../../model/memory/index.ts';
import { hostShortfallWords } from '../uncertainty/hostMemoryWords.ts';
import { formatCount, formatDays, formatGiB, formatPercent, formatTokenCount, formatUsd } from '../format.ts';
import { endRangeWords, percentileText } from '../reliability/completionWords.ts';

/** The figures the embed card shows, by their ids (data-testid): memory, and the five a planner asks for. */
export const CARD_FIGURES: readonly string[] = ['memory-total', 'step-time', 'tokens-per-second', 'mfu', 'training-days', 'cost-usd'];

/** The ranges the card shows on one line (issue 35): memory, and tokens/s with the days and dollars that follow from it. */
export const CARD_RANGE_FIGURES: readonly { readonly id: string; readonly words: string }[] = [
  { id: 'memory-total', words: 'memory' },
  { id: 'tokens-per-second', words: 'speed' },
  { id: 'training-days', words: 'time' },
  { id: 'cost-usd', words: 'cost' },
];

const SCHEDULE_WORDS: Readonly<Record<ScheduleKind, string>> = {
  gpipe: 'GPipe',
  '1f1b': '1F1B',
  'interleaved-1f1b': 'interleaved 1F1B',
  'zero-bubble': 'zero-bubble (ZB-H1)',
  dualpipe: 'DualPipe',
};

/**
 * The pipeline schedule in words ("1F1B", "interleaved 1F1B (VPP 2)"), or null at PP 1: with one stage there is no
 * pipeline, so no schedule to name (the document may still carry one, unused).
 */
export function scheduleWords(schedule: ScheduleKind, pp: number, vpp: number): string | null {
  if (pp <= 1) return null;
  return schedule === 'interleaved-1f1b' ? `${SCHEDULE_WORDS[schedule]} (VPP ${vpp})` : SCHEDULE_WORDS[schedule];
}

export interface LayoutWords {
  /** "64 × NVIDIA H100 SXM5 80GB" */
  readonly cluster: string;
  /** "TP 8 · PP 4 · DP 2 · CP 1 · EP 1" */
  readonly degrees: string;
  /** "ZeRO-1 · 1F1B schedule · selective recompute" */
  readonly memoryAndSchedule: string;
  /** "global batch 256 × 8,192 tokens (micro-batch 1)" */
  readonly batch: string;
  /** What the days and dollars assume: "1 trillion tokens at $2.50 per GPU-hour" (ux.md principle 15). */
  readonly budget: string;
}

/** The layout of the document in words, or null when the document cannot be read. */
export function layoutWords(document: unknown): LayoutWords | null {
  const parsed = parseDocument(document);
  return parsed.ok ? describeLayout(parsed.config) : null;
}

export function describeLayout(c: RunConfig): LayoutWords {
  const p = c.parallel;
  const schedule = scheduleWords(p.schedule, p.pp, p.vpp);
  const offload = [c.training.offload.optimizer && 'optimizer', c.training.offload.parameters && 'parameters'].filter(Boolean);
  const extras = [
    `ZeRO-${p.zero}`,
    ...(schedule ? [`${schedule} schedule`] : []),
    c.training.recompute === 'none' ? 'no recompute' : `${c.training.recompute} recompute`,
    ...(offload.length > 0 ? [`${offload.join(' and ')} offloaded`] : []),
  ];
  return {
    cluster: `${formatCount(c.cluster.gpus)} × ${c.cluster.gpu.name}`,
    // Expert TP is named once experts are split (EP above 1): its default follows TP, DP and EP (structure/params.ts).
    degrees: `TP ${p.tp} · PP ${p.pp} · DP ${p.dp} · CP ${p.cp} · EP ${p.ep}${p.ep > 1 ? ` · ETP ${expertTensorParallel(p)}` : ''}`,
    memoryAndSchedule: extras.join(' · '),
    batch: `global batch ${formatCount(c.training.globalBatch)} × ${formatCount(c.training.seqLen)} tokens (micro-batch ${formatCount(c.training.microBatch)})`,
    budget: `${formatTokenCount(c.training.tokens)} at ${formatUsd(c.cost.usdPerGpuHour)} per GPU-hour`,
  };
}

export interface VerdictWords {
  readonly verdict: OomVerdict;
  /** "Safe", "Tight", "Will not fit" */
  readonly headline: string;
  /** "63.2 GiB of 80 GiB per GPU (79 %), 16.8 GiB to spare" */
  readonly detail: string;
  /** What "tight" is and where its margin comes from (memoryVerdict.ts, tightWords). */
  readonly tight: string;
}

// The strip's words ("Safe", "Tight"), so a card pasted in a doc says what the page says.
const HEADLINES: Readonly<Record<OomVerdict, string>> = { safe: 'Safe', tight: 'Tight', 'will-not-fit': 'Will not fit' };

/** The page's OOM verdict (uncertainty.ts) on the one memory figure (model/memory/fit.ts) with the margin in GiB, in words. */
export function verdictWords(output: EstimateOutput): VerdictWords {
  const { capacity } = output.memory;
  const used = fitMemoryBytes(output);
  const device = fitAssessment(output).verdict;
  // memory.fits also asks the host to hold what offload puts there: a host it overflows is "will not fit", said why.
  const host = hostShortfallWords(output);
  const verdict = host ? 'will-not-fit' : device;
  const margin = capacity - used;
  const marginText = margin >= 0 ? `${formatGiB(margin)} to spare` : `${formatGiB(-margin)} over`;
  const share = capacity > 0 ? ` (${formatPercent(used / capacity)})` : '';
  const detail = `${formatGiB(used)} of ${formatGiB(capacity)} per GPU${share}, ${marginText}`;
  return {
    verdict,
    headline: HEADLINES[verdict],
    detail: host ? `${detail}; offload ${host}` : detail,
    tight: tightWords(capacity, output),
  };
}

/**
 * The run's end as the engine simulated it (reliability.completion), one line for the card:
 * the median with its p10–p90 in days and dollars, dated when a start date is given, and on
 * spot capacity the on-demand answer beside it. Null without a simulation.
 */
export function completionCardWords(output: EstimateOutput): string | null {
  const c = output.reliability?.completion;
  if (!c) return null;
  const onDemand = c.onDemand
    ? `; on-demand: ${percentileText(c.onDemand.days, formatDays)}, ${percentileText(c.onDemand.usd, formatUsd)}`
    : '';
  return `${c.onDemand ? 'Spot, ' : ''}end over simulated runs: ${endRangeWords(c)}${onDemand}`;
}

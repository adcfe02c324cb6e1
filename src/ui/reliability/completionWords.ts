// The completion panel's sentences (reliability.completion), apart from the panel so they
// can be tested and shared with the embed and exports: the range of the run's end, the
// dates each quarter of the token budget is reached, the interval chosen against the
// distribution and what carrying on elastically buys. Words only: every figure is the engine's.

import type { Completion, CompletionPercentiles } from '../../model/input/index.ts';
import { formatDays, formatMinutes, formatPercent, formatUsd } from '../format.ts';

/** "54.2 days (p10 53.9 days, p90 54.6 days)" */
export function percentileText(r: CompletionPercentiles, format: (x: number) => string): string {
  return `${format(r.p50)} (p10 ${format(r.p10)}, p90 ${format(r.p90)})`;
}

/** The run's end in one line: days and dollars at the median with their p10–p90, and the dates when a start date is given. */
export function endRangeWords(c: Completion): string {
  const dated = c.endDate ? `, ends on ${c.endDate.p50} (p10 ${c.endDate.p10}, p90 ${c.endDate.p90})` : '';
  return `${percentileText(c.days, formatDays)}, ${percentileText(c.usd, formatUsd)}${dated}`;
}

export interface MilestoneWords {
  /** "25 % of the tokens" */
  readonly share: string;
  /** "2027-03-09" with a start date, else "after 64.0 days": the median run. */
  readonly when: string;
  /** "p10 2027-03-08, p90 2027-03-09" or in days. */
  readonly range: string;
}

/** When each quarter of the token budget is reached: dated from cost.startDate, or as days from the start without one. */
export function milestoneWords(c: Completion): MilestoneWords[] {
  return (c.milestones ?? []).map((m) => {
    const share = `${formatPercent(m.fraction)} of the tokens`;
    if (m.date) return { share, when: m.date.p50, range: `p10 ${m.date.p10}, p90 ${m.date.p90}` };
    return { share, when: `after ${formatDays(m.days.p50)}`, range: `p10 ${formatDays(m.days.p10)}, p90 ${formatDays(m.days.p90)}` };
  });
}

/** The interval chosen against the distribution beside Young/Daly's, or null when the engine chose none. */
export function medianIntervalWords(c: Completion, youngDalyMinutes: number | null): string | null {
  const best = c.p50OptimalInterval;
  if (!best) return null;
  const young = youngDalyMinutes === null ? '' : ` (Young/Daly: every ${formatMinutes(youngDalyMinutes)})`;
  return `Checkpointing every ${formatMinutes(best.minutes)} ends the median run soonest${young}: ${percentileText(best.days, formatDays)}.`;
}

/** An elastic run that carries on, against the same run waiting for each lost node; null when the run waits. */
export function elasticWords(c: Completion): string | null {
  if (!c.waiting) return null;
  return (
    `Carrying on with the nodes left (elastic): ${percentileText(c.days, formatDays)}; waiting for each lost node instead: ` +
    `${percentileText(c.waiting.days, formatDays)}.`
  );
}

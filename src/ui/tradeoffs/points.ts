// A sweep's rows as points of the trade-off charts: the engine's figures picked out and put
// in display units, the value named as the page names it, the current value and the values
// that do not fit marked. No arithmetic of the model here: every figure is the row's output.

import type { SweepResult, SweepValue } from '../../model/sweep/index.ts';
import type { FieldChange } from '../../state/doc.ts';
import { GiB } from '../../model/input/index.ts';
import { formatMinutes } from '../format.ts';
import type { OomVerdict } from '../../model/validation/index.ts';
import { outputVerdict } from '../uncertainty/hostMemoryWords.ts';
import { fitMemoryBytes } from '../../model/memory/index.ts';

/** Each chart of the panel redraws in a task of its own, this far after the one above it (recharts commits a chart in one piece). */
export const CHART_STAGGER_MS = 40;

export interface TradeoffPoint {
  /** Position on the chart's axis (0, 1, 2, …): values are drawn evenly spaced, in their order. */
  readonly index: number;
  readonly value: SweepValue;
  readonly valueLabel: string;
  readonly changes: readonly FieldChange[];
  readonly tokensPerSecond: number;
  readonly mfu: number;
  /** What the verdict judges: what the most loaded GPU holds on the device (memory.deviceUsed). */
  readonly memoryGiB: number;
  readonly capacityGiB: number;
  readonly usd: number;
  readonly days: number;
  readonly goodput: number;
  readonly fits: boolean;
  /** The page's one verdict (memoryVerdict.ts): a point the strip would call tight is tight here too. */
  readonly verdict: OomVerdict;
  readonly current: boolean;
  /** The engine's simulated end (reliability.completion): p10, p50, p90 of days and dollars; null without one. */
  readonly range: PointRange | null;
}

export interface PointRange {
  readonly days: readonly [p10: number, p50: number, p90: number];
  readonly usd: readonly [p10: number, p50: number, p90: number];
}

/** The knobs whose cost chart draws the median simulated run with its p10–p90 band (issue 37 item 5). */
export const BANDED_KNOBS: readonly string[] = ['gpus', 'checkpointInterval'];

function rangeOf(o: SweepResult['rows'][number]['output']): PointRange | null {
  const c = o.reliability?.completion;
  return c ? { days: [c.days.p10, c.days.p50, c.days.p90], usd: [c.usd.p10, c.usd.p50, c.usd.p90] } : null;
}

const RECOMPUTE_WORDS: Readonly<Record<string, string>> = { none: 'none', selective: 'selective', full: 'full' };

/** The value as its axis tick and tooltip say it: "ZeRO 2", "bf16", "90 min", "8,192". */
export function valueLabel(knob: SweepResult['knob'], value: SweepValue): string {
  if (typeof value === 'string') return knob === 'recompute' ? (RECOMPUTE_WORDS[value] ?? value) : value;
  if (knob === 'checkpointInterval') return formatMinutes(value);
  if (knob === 'zero') return `ZeRO ${value}`;
  return value.toLocaleString('en-US');
}

export function tradeoffPoints(result: SweepResult): TradeoffPoint[] {
  return result.rows.map((row, index) => {
    const o = row.output;
    return {
      index,
      value: row.value,
      valueLabel: valueLabel(result.knob, row.value),
      changes: row.changes,
      tokensPerSecond: o.throughput?.tokensPerSecond ?? 0,
      mfu: o.throughput?.mfu ?? 0,
      memoryGiB: fitMemoryBytes(o) / GiB,
      capacityGiB: o.memory.capacity / GiB,
      usd: o.cost?.usd ?? 0,
      days: o.time?.days ?? 0,
      goodput: o.reliability?.goodput ?? 0,
      fits: o.memory.fits,
      verdict: outputVerdict(o),
      current: row.value === result.current,
      range: rangeOf(o),
    };
  });
}

/**
 * The runs of neighbouring points that do not fit, as [first, last] positions: each is shaded as one band (one chart part
 * instead of one per point; the same pixels).
 */
export function unfitRuns(points: readonly TradeoffPoint[]): Array<readonly [number, number]> {
  const runs: Array<[number, number]> = [];
  for (const p of points) {
    if (p.fits) continue;
    const last = runs[runs.length - 1];
    if (last && last[1] === p.index - 1) last[1] = p.index;
    else runs.push([p.index, p.index]);
  }
  return runs;
}

/** The point of highest goodput: where the checkpoint curve peaks. */
export function bestGoodput(points: readonly TradeoffPoint[]): TradeoffPoint | null {
  return points.reduce<TradeoffPoint | null>((best, p) => (best === null || p.goodput > best.goodput ? p : best), null);
}

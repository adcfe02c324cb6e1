// Tick values for a time axis that a person reads as time: seconds on 1, 2, 5 × 10ⁿ,
// then whole minutes, hours, days, and years past ~1,000 days (ux.md, "numbers a
// person can read"). Pure: the values are seconds, formatSeconds writes them.

import { DAYS_PER_YEAR, YEARS_FROM_DAYS, formatNumber } from '../format.ts';

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;
const YEAR = DAYS_PER_YEAR * DAY;

/** Steps on the clock's and calendar's own divisions: 1, 2, 5, 10, 15, 30 min; 1, 2, 3, 6, 12 h; 1, 2, 5, 7, 10, 14, 30, 60, 90, 180 days. */
const CLOCK_STEPS: readonly number[] = [
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  5 * DAY,
  7 * DAY,
  10 * DAY,
  14 * DAY,
  30 * DAY,
  60 * DAY,
  90 * DAY,
  180 * DAY,
];

/** 1, 2 or 5 × 10^k of `unit`, the smallest not below `raw`. */
function decimalStep(raw: number, unit: number): number {
  const scaled = raw / unit;
  const power = 10 ** Math.floor(Math.log10(scaled));
  return ([1, 2, 5, 10].map((m) => m * power).find((s) => s >= scaled * (1 - 1e-12)) ?? scaled) * unit;
}

/** The tick step for about `count` ticks over `spanSeconds`. */
export function timeTickStep(spanSeconds: number, count: number): number {
  const raw = spanSeconds / Math.max(1, count);
  if (raw <= MINUTE / 2) return decimalStep(raw, 1);
  const clock = CLOCK_STEPS.find((s) => s >= raw);
  if (clock !== undefined && raw < YEAR / 2) return clock;
  return decimalStep(raw, YEAR);
}

/** About `count` ticks from 0 to `spanSeconds` on round times; [0] for an empty or non-finite span. */
export function timeTicks(spanSeconds: number, count: number): number[] {
  if (!(spanSeconds > 0) || !Number.isFinite(spanSeconds)) return [0];
  const step = timeTickStep(spanSeconds, count);
  const ticks: number[] = [];
  for (let i = 0; i * step <= spanSeconds * (1 + 1e-9); i++) ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}

/** Units an axis writes its ticks in, smallest first: the first whose next unit the largest tick does not reach. */
const AXIS_UNITS: readonly { readonly seconds: number; readonly unit: string; readonly below: number }[] = [
  { seconds: 1e-6, unit: 'µs', below: 1e-3 },
  { seconds: 1e-3, unit: 'ms', below: 1 },
  { seconds: 1, unit: 's', below: MINUTE },
  { seconds: MINUTE, unit: 'min', below: HOUR },
  { seconds: HOUR, unit: 'h', below: DAY },
  { seconds: DAY, unit: 'days', below: YEARS_FROM_DAYS * DAY },
  { seconds: YEAR, unit: 'years', below: Number.POSITIVE_INFINITY },
];

/** One unit for every tick of an axis, the one its largest tick reads best in: "0 min, 5 min, 10 min", never "731 days, 4 years". */
export function timeAxisFormatter(largestSeconds: number): (seconds: number) => string {
  const magnitude = Math.abs(largestSeconds);
  const unit = AXIS_UNITS.find((u) => magnitude < u.below) ?? AXIS_UNITS[AXIS_UNITS.length - 1];
  if (!unit || !Number.isFinite(magnitude) || magnitude === 0) return (seconds) => `${formatNumber(seconds)} s`;
  return (seconds) => `${formatNumber(seconds / unit.seconds)} ${unit.unit}`;
}

/** Ticks on round times inside the window [origin, origin + length]: the axis of a zoomed view moved along the step. */
export function windowTicks(origin: number, length: number, count: number): number[] {
  if (!(length > 0) || !Number.isFinite(length) || !Number.isFinite(origin)) return [Math.max(0, origin || 0)];
  const step = timeTickStep(length, count);
  const ticks: number[] = [];
  for (let i = Math.ceil(origin / step - 1e-9); i * step <= (origin + length) * (1 + 1e-9); i++)
    ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}

import { describe, expect, it } from 'vitest';
import { timeAxisFormatter, timeTicks, windowTicks } from './timeTicks.ts';

/** The axis as a person reads it: the ticks in the one unit of the largest. */
function labels(span: number, count = 6): string[] {
  const ticks = timeTicks(span, count);
  return ticks.map(timeAxisFormatter(ticks[ticks.length - 1] ?? 0));
}

describe('time axis ticks', () => {
  it('ticks seconds on 1, 2, 5 × 10ⁿ', () => {
    // 12 s over 6 ticks: 2 s apart.
    expect(labels(12)).toEqual(['0 s', '2 s', '4 s', '6 s', '8 s', '10 s', '12 s']);
    expect(timeTicks(0.03, 6)).toEqual([0, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03]);
  });

  it('ticks whole minutes, not 100 s or 200 s', () => {
    // 25 min over 6 ticks: raw 250 s → the 5-minute step.
    expect(labels(25 * 60)).toEqual(['0 min', '5 min', '10 min', '15 min', '20 min', '25 min']);
  });

  it('ticks hours on 1, 2, 3, 6, 12', () => {
    // 20 h over 6 ticks: raw 3.3 h → 6 h.
    expect(labels(20 * 3600)).toEqual(['0 h', '6 h', '12 h', '18 h']);
  });

  it('ticks days, then years past ~1,000 days', () => {
    // 60 days over 6 ticks: raw 10 days → 10-day step.
    expect(labels(60 * 86_400)).toEqual(['0 days', '10 days', '20 days', '30 days', '40 days', '50 days', '60 days']);
    // 10 years over 5 ticks: raw 2 years → a 2-year step, written in years.
    expect(labels(10 * 365.25 * 86_400, 5)).toEqual(['0 years', '2 years', '4 years', '6 years', '8 years', '10 years']);
  });

  it('writes milliseconds for a sub-second axis', () => {
    expect(labels(0.03)).toEqual(['0 ms', '5 ms', '10 ms', '15 ms', '20 ms', '25 ms', '30 ms']);
  });

  it('has one tick for an empty or broken span', () => {
    expect(timeTicks(0, 6)).toEqual([0]);
    expect(timeTicks(Number.NaN, 6)).toEqual([0]);
    expect(timeTicks(Number.POSITIVE_INFINITY, 6)).toEqual([0]);
  });
});

describe('ticks of a moved window', () => {
  it('fall on round times inside the window, not from 0', () => {
    expect(windowTicks(45, 10, 5)).toEqual([46, 48, 50, 52, 54]);
    expect(windowTicks(0, 10, 5)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(windowTicks(Number.NaN, 10, 5)).toEqual([0]);
  });
});

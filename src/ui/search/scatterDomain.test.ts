import { describe, expect, it } from 'vitest';
import { spreadDomain } from './ScatterFrame.tsx';

describe('spreadDomain', () => {
  it('spreads one value 5 % each side onto round ticks, so they read apart', () => {
    // 2,160 ± 108 = 2,052 … 2,268; a quarter of that span, 54, rounds up to a step of 100: 2,000 … 2,300.
    expect(spreadDomain([2160])).toEqual({ domain: [2000, 2300], ticks: [2000, 2100, 2200, 2300] });
  });

  it('spreads values within 2 % of each other around them, never below 0 for values that are not', () => {
    // 100 … 101 ± 5.05 = 94.95 … 106.05; span 11.1 / 4 = 2.775 → step 5: 90 … 110.
    expect(spreadDomain([100, 101])).toEqual({ domain: [90, 110], ticks: [90, 95, 100, 105, 110] });
    // 0 ± 1 floored at 0: 0 … 1, step 0.5.
    expect(spreadDomain([0, 0])).toEqual({ domain: [0, 1], ticks: [0, 0.5, 1] });
    // −50 ± 2.5 = −52.5 … −47.5, step 2: −54 … −46.
    expect(spreadDomain([-50])?.domain).toEqual([-54, -46]);
  });

  it("leaves spread values, and none, to recharts' own domain", () => {
    expect(spreadDomain([100, 110])).toBeNull();
    expect(spreadDomain([])).toBeNull();
    expect(spreadDomain([NaN, Infinity])).toBeNull();
  });
});

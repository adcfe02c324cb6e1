import { describe, expect, it } from 'vitest';
import { formatRange } from './figureRanges.ts';
import { formatDays, formatGiB, formatSeconds, formatTokensPerSecond, formatUsd } from '../format.ts';

describe('formatRange', () => {
  it('writes a unit both ends share once, after the high end', () => {
    expect(formatRange({ low: 43_000, high: 59_800 }, formatTokensPerSecond)).toBe('43k – 59.8k tokens/s');
    expect(formatRange({ low: 41.4 * 2 ** 30, high: 62.4 * 2 ** 30 }, formatGiB)).toBe('41.4 – 62.4 GiB');
    expect(formatRange({ low: 35.1, high: 48.8 }, formatSeconds)).toBe('35.1 – 48.8 s');
  });

  it('keeps both units where they differ, and both texts where there is no spaced unit', () => {
    const low = formatSeconds(50);
    const high = formatSeconds(3 * 3600);
    expect(low.split(' ').at(-1)).not.toBe(high.split(' ').at(-1));
    expect(formatRange({ low: 50, high: 3 * 3600 }, formatSeconds)).toBe(`${low} – ${high}`);
    expect(formatRange({ low: 746_000, high: 1_000_000 }, formatUsd)).toBe(`${formatUsd(746_000)} – ${formatUsd(1_000_000)}`);
    expect(formatRange({ low: 194, high: 270 }, formatDays)).toBe('194 – 270 days');
  });
});

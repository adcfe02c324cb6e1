import { describe, it, expect } from 'vitest';
import { formatFormulaBytes, formatQuantity } from './quantityFormat.ts';

const GIB = 2 ** 30;

describe('formatQuantity', () => {
  it('writes bytes in GiB with two decimals, so the terms of a sum add up on screen', () => {
    expect(formatFormulaBytes(61.3 * GIB)).toBe('61.30 GiB');
    expect(formatFormulaBytes(1536 * GIB)).toBe('1,536.00 GiB');
    expect(formatFormulaBytes(0)).toBe('0 GiB');
    expect(formatFormulaBytes(2 ** 20)).toBe('1 MiB');
  });

  it('writes counts and rates in their units', () => {
    expect(formatQuantity({ name: 'weights', value: 2_193_000_000, unit: 'parameters' })).toBe('2.193 billion');
    expect(formatQuantity({ name: 'b', value: 12, unit: 'bytes-per-parameter' })).toBe('12 B');
    expect(formatQuantity({ name: 'h', value: 24, unit: 'hours-per-day' })).toBe('24 h/day');
    expect(formatQuantity({ name: 'p', value: 2, unit: 'usd-per-gpu-hour' })).toBe('$2.00/GPU-hour');
    expect(formatQuantity({ name: 's', value: 8192, unit: 'tokens' })).toBe('8,192');
  });
});

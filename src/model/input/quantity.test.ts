import { describe, expect, it } from 'vitest';
import { parseQuantity } from './quantity.ts';

describe('parseQuantity: counts as people type them', () => {
  it.each([
    ['15T', 1.5e13],
    ['15t', 1.5e13],
    ['300B', 3e11],
    ['1.5e13', 1.5e13],
    ['1.5E13', 1.5e13],
    ['2.5M', 2.5e6],
    ['8k', 8000],
    ['1,000', 1000],
    ['1_000_000', 1e6],
    ['4096', 4096],
    [' 15 T ', 1.5e13],
    ['0.5', 0.5],
    ['-3', -3],
    ['1e3k', 1e6],
  ])('%s → %d', (text, value) => {
    expect(parseQuantity(text)).toBe(value);
  });

  it.each(['', 'T', '15X', 'fifteen', '1..2', '15 TB', 'Infinity', 'NaN', '1e999'])('%j is no quantity', (text) => {
    expect(parseQuantity(text)).toBeNull();
  });
});

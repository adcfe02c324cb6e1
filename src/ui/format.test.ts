import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  NOT_AVAILABLE,
  formatBytes,
  formatCo2Kg,
  formatCompactCount,
  formatCount,
  formatDays,
  formatEnergyKwh,
  formatFlopRate,
  formatFlops,
  formatGiB,
  formatGpuHours,
  formatMinutes,
  formatNumber,
  formatPercent,
  formatSeconds,
  formatTokenCount,
  formatTokensPerSecond,
  formatUsd,
  formatFlopsPerToken,
  formatModelSummary,
  formatParameterCount,
} from './format.ts';

const ALL_FORMATTERS = [
  formatBytes,
  formatCo2Kg,
  formatCompactCount,
  formatCount,
  formatDays,
  formatEnergyKwh,
  formatFlopRate,
  formatFlops,
  formatGiB,
  formatGpuHours,
  formatMinutes,
  formatNumber,
  formatPercent,
  formatSeconds,
  formatTokensPerSecond,
  formatUsd,
  formatParameterCount,
  formatFlopsPerToken,
];

describe('format', () => {
  it('shows GiB in binary units: 65,820,000,000 B / 2^30 = 61.30 GiB', () => {
    expect(formatGiB(65_820_000_000)).toBe('61.3 GiB');
    // 80 GiB exactly: no trailing zeros.
    expect(formatGiB(80 * 2 ** 30)).toBe('80 GiB');
    // 1.5 × 2^30 B = 1.5 GiB: below 10, two decimals at most.
    expect(formatGiB(1.5 * 2 ** 30)).toBe('1.5 GiB');
    expect(formatGiB(141.3 * 2 ** 30)).toBe('141 GiB');
  });

  it('picks the binary byte unit that fits', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(512 * 2 ** 20)).toBe('512 MiB');
    expect(formatBytes(3 * 2 ** 40)).toBe('3 TiB');
  });

  it('picks the time unit that fits', () => {
    expect(formatSeconds(0)).toBe('0 s');
    expect(formatSeconds(42e-6)).toBe('42 µs');
    expect(formatSeconds(0.0125)).toBe('12.5 ms');
    expect(formatSeconds(5.2149)).toBe('5.21 s');
    // 750 s = 12.5 min; 3 × 3600 s = 3 h; 20 × 86,400 s = 20 days.
    expect(formatSeconds(750)).toBe('12.5 min');
    expect(formatSeconds(3 * 3600)).toBe('3 h');
    expect(formatSeconds(20 * 86_400)).toBe('20 days');
    expect(formatDays(1)).toBe('1 day');
    // Years past 1,000 days: 1,461 days = 4 Julian years of 365.25 days; 999 days stay days.
    expect(formatDays(1461)).toBe('4 years');
    expect(formatDays(999)).toBe('999 days');
    expect(formatSeconds(2000 * 86_400)).toBe('5.48 years');
    expect(formatMinutes(90)).toBe('1.5 h');
  });

  it('scales FLOP rates and counts with SI prefixes', () => {
    expect(formatFlopRate(412.4e12)).toBe('412 TFLOP/s');
    expect(formatFlopRate(1.25e15)).toBe('1.25 PFLOP/s');
    // GPT-3 175B model FLOPs per step: 72·1536·2048·96·12288²·(1 + 2048/(6·12288) + 51200/(12·96·12288)) ≈ 3.35e18.
    expect(formatFlops(3.35e18)).toBe('3.35 EFLOP');
  });

  it('writes the model summary as model cards do', () => {
    // Llama 3 70B: 70,553,706,496 parameters (structure/params.test.ts); DeepSeek-V3: 671.0e9 and 37.55e9.
    expect(formatModelSummary({ parameters: 70_553_706_496, activeParameters: 70_553_706_496, flopsPerToken: 4.3e11 })).toBe(
      '70.6 B parameters · 70.6 B active · 4.3e11 FLOPs/token',
    );
    expect(formatParameterCount(671_026_404_352)).toBe('671 B');
    expect(formatParameterCount(37_552_282_624)).toBe('37.6 B');
    expect(formatParameterCount(124_000_000)).toBe('124 M');
    expect(formatParameterCount(1.2e12)).toBe('1.2 T');
    expect(formatFlopsPerToken(57_912_852_480)).toBe('5.8e10 FLOPs/token');
    expect(formatFlopsPerToken(Number.NaN)).toBe(NOT_AVAILABLE);
  });

  it('shows fractions as percentages', () => {
    expect(formatPercent(0.4132)).toBe('41.3 %');
    expect(formatPercent(0.125)).toBe('12.5 %');
    expect(formatPercent(1)).toBe('100 %');
    expect(formatPercent(0)).toBe('0 %');
  });

  it('shows dollars with cents, whole, then compact', () => {
    expect(formatUsd(12.345)).toBe('$12.35');
    expect(formatUsd(4321)).toBe('$4,321');
    expect(formatUsd(45_000)).toBe('$45K');
    expect(formatUsd(1_234_567)).toBe('$1.2M');
  });

  it('shows energy, CO2, tokens and counts', () => {
    expect(formatEnergyKwh(850)).toBe('850 kWh');
    expect(formatEnergyKwh(1_250_000)).toBe('1.25 GWh');
    expect(formatCo2Kg(850)).toBe('850 kg CO₂');
    // 502,000 kg = 502 t.
    expect(formatCo2Kg(502_000)).toBe('502 t CO₂');
    expect(formatTokensPerSecond(850)).toBe('850 tokens/s');
    expect(formatTokensPerSecond(452_300)).toBe('452k tokens/s');
    expect(formatTokensPerSecond(1_234_000)).toBe('1.23M tokens/s');
    expect(formatCount(1536)).toBe('1,536');
    expect(formatCompactCount(1_234_000)).toBe('1.2M');
    expect(formatGpuHours(3_500_000)).toBe('3.5M GPU-hours');
  });

  it('never prints -0', () => {
    expect(formatNumber(-0)).toBe('0');
    expect(formatNumber(-0.0001)).toBe('0');
    expect(formatPercent(-0.000001)).toBe('0 %');
  });

  it('gives an em dash, never NaN or Infinity, for non-finite input', () => {
    for (const format of ALL_FORMATTERS) {
      for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
        expect(format(bad)).toBe(NOT_AVAILABLE);
      }
    }
  });

  it('prints no NaN or Infinity for any double', () => {
    fc.assert(
      fc.property(fc.double(), (value) => {
        for (const format of ALL_FORMATTERS) {
          const text = format(value);
          expect(text).not.toMatch(/NaN|Infinity|∞/);
          // Beyond 1e300 a unit conversion (× 100, × 60) may overflow to Infinity, which shows as the dash.
          if (Math.abs(value) < 1e300) expect(text).not.toBe(NOT_AVAILABLE);
        }
      }),
    );
  });
});

describe('token counts in words (ux.md principle 9)', () => {
  it('reads 5.24288e11 as 524 billion tokens, small counts with separators, never NaN', () => {
    expect(formatTokenCount(5.24288e11)).toBe('524 billion tokens');
    expect(formatTokenCount(1e12)).toBe('1 trillion tokens');
    expect(formatTokenCount(8192)).toBe('8,192 tokens');
    expect(formatTokenCount(Number.NaN)).toBe(NOT_AVAILABLE);
  });
});

// Display formatting at the UI edge: the engine computes in bytes, seconds and
// FLOPs; these turn them into short, fixed-locale text ("61.3 GiB", "5.21 s").
// A non-finite input never prints NaN or Infinity: it gives NOT_AVAILABLE.

import { GiB, SECONDS_PER_DAY, SECONDS_PER_HOUR, SECONDS_PER_MINUTE } from '../model/input/index.ts';

export const NOT_AVAILABLE = '—';

const LOCALE = 'en-US';

const fixedFormatters = new Map<number, Intl.NumberFormat>();

function fractionFormatter(maxFractionDigits: number): Intl.NumberFormat {
  let formatter = fixedFormatters.get(maxFractionDigits);
  if (!formatter) {
    formatter = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: maxFractionDigits, minimumFractionDigits: 0 });
    fixedFormatters.set(maxFractionDigits, formatter);
  }
  return formatter;
}

/** About three significant digits, never more than two decimals: 5.21, 41.3, 612, 12,345. */
function fractionDigitsFor(value: number): number {
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return 0;
  if (magnitude >= 10) return 1;
  return 2;
}

/** A finite number at display precision, without a "-0". */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return NOT_AVAILABLE;
  const digits = fractionDigitsFor(value);
  const shown = Math.abs(value) < 0.5 * 10 ** -digits ? 0 : value;
  return fractionFormatter(digits).format(shown);
}

function withUnit(value: number, unit: string): string {
  const text = formatNumber(value);
  return text === NOT_AVAILABLE ? text : `${text} ${unit}`;
}

interface Scale {
  readonly factor: number;
  readonly unit: string;
}

/** Each unit's name and factor, smallest first. */
function scales(units: Readonly<Record<string, number>>): readonly Scale[] {
  return Object.entries(units).map(([unit, factor]) => ({ factor, unit }));
}

/** Picks the largest scale the value reaches (scales ascending), else the first. */
function scaled(value: number, scales: readonly Scale[]): string {
  if (!Number.isFinite(value)) return NOT_AVAILABLE;
  let chosen = scales[0];
  for (const scale of scales) if (Math.abs(value) >= scale.factor) chosen = scale;
  return chosen ? withUnit(value / chosen.factor, chosen.unit) : formatNumber(value);
}

/** Bytes in binary gibibytes, always GiB so figures compare at a glance: "61.3 GiB". */
export function formatGiB(bytes: number): string {
  return withUnit(bytes / GiB, 'GiB');
}

const BYTE_SCALES = scales({ B: 1, KiB: 2 ** 10, MiB: 2 ** 20, GiB: GiB, TiB: 2 ** 40 });

/** Bytes in the binary unit that fits: "512 MiB", "61.3 GiB". */
export function formatBytes(bytes: number): string {
  return scaled(bytes, BYTE_SCALES);
}

/** Seconds in the unit that fits: µs, ms, s, min, h, days. */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return NOT_AVAILABLE;
  const magnitude = Math.abs(seconds);
  if (magnitude === 0) return '0 s';
  if (magnitude < 1e-3) return withUnit(seconds * 1e6, 'µs');
  if (magnitude < 1) return withUnit(seconds * 1e3, 'ms');
  if (magnitude < SECONDS_PER_MINUTE) return withUnit(seconds, 's');
  if (magnitude < SECONDS_PER_HOUR) return withUnit(seconds / SECONDS_PER_MINUTE, 'min');
  if (magnitude < SECONDS_PER_DAY) return withUnit(seconds / SECONDS_PER_HOUR, 'h');
  return formatDays(seconds / SECONDS_PER_DAY);
}

export function formatMinutes(minutes: number): string {
  return formatSeconds(minutes * SECONDS_PER_MINUTE);
}

/** Days from which a duration reads better in years (ux.md, "years past a few hundred days"): 1,000 days ≈ 2.7 years. */
export const YEARS_FROM_DAYS = 1000;
/** The Julian year, as calendars average it. */
export const DAYS_PER_YEAR = 365.25;

/** "1 day", "222 days", and from YEARS_FROM_DAYS on "3.4 years". */
export function formatDays(days: number): string {
  if (Math.abs(days) >= YEARS_FROM_DAYS && Number.isFinite(days)) return `${formatNumber(days / DAYS_PER_YEAR)} years`;
  const text = formatNumber(days);
  if (text === NOT_AVAILABLE) return text;
  return `${text} ${text === '1' ? 'day' : 'days'}`;
}

const FLOP_RATE_SCALES = scales({ 'FLOP/s': 1, 'GFLOP/s': 1e9, 'TFLOP/s': 1e12, 'PFLOP/s': 1e15, 'EFLOP/s': 1e18 });

/** FLOP per second with an SI prefix: "412 TFLOP/s", "1.2 EFLOP/s". */
export function formatFlopRate(flopPerSecond: number): string {
  return scaled(flopPerSecond, FLOP_RATE_SCALES);
}

const FLOP_SCALES = scales({ FLOP: 1, GFLOP: 1e9, TFLOP: 1e12, PFLOP: 1e15, EFLOP: 1e18, ZFLOP: 1e21 });

/** A FLOP count with an SI prefix: "3.3 EFLOP". */
export function formatFlops(flop: number): string {
  return scaled(flop, FLOP_SCALES);
}

/** A 0..1 fraction as a percentage: 0.413 → "41.3 %". */
export function formatPercent(fraction: number): string {
  return withUnit(fraction * 100, '%');
}

/** A formatter made on first use: building one (compact and currency ones load locale data) costs the page's first script otherwise. */
function onFirstUse(options: Intl.NumberFormatOptions): () => Intl.NumberFormat {
  let formatter: Intl.NumberFormat | null = null;
  return () => (formatter ??= new Intl.NumberFormat(LOCALE, options));
}

const usdCents = onFirstUse({ style: 'currency', currency: 'USD' });
const usdWhole = onFirstUse({ style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const usdCompact = onFirstUse({ style: 'currency', currency: 'USD', notation: 'compact' });

/** US dollars: "$12.34", "$4,321", compact from ten thousand: "$45K", "$1.2M". */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return NOT_AVAILABLE;
  const magnitude = Math.abs(usd);
  if (magnitude < 100) return usdCents().format(magnitude < 0.005 ? 0 : usd);
  if (magnitude < 10_000) return usdWhole().format(usd);
  return usdCompact().format(usd);
}

const ENERGY_SCALES = scales({ kWh: 1, MWh: 1e3, GWh: 1e6, TWh: 1e9 });

/** Energy given in kWh, shown in kWh, MWh or GWh. */
export function formatEnergyKwh(kWh: number): string {
  return scaled(kWh, ENERGY_SCALES);
}

const KG_PER_TONNE = 1000;

/** CO₂ mass given in kg: tonnes from one tonne up, kg below. */
export function formatCo2Kg(kg: number): string {
  if (!Number.isFinite(kg)) return NOT_AVAILABLE;
  if (Math.abs(kg) < KG_PER_TONNE) return withUnit(kg, 'kg CO₂');
  return `${formatCompactCount(kg / KG_PER_TONNE)} t CO₂`;
}

const compactCount = onFirstUse({ notation: 'compact', maximumFractionDigits: 1 });

/** A count, compact from ten thousand: "1,536", "2.5", "45K", "1.2M". */
export function formatCompactCount(count: number): string {
  if (!Number.isFinite(count)) return NOT_AVAILABLE;
  if (Math.abs(count) < 10_000) return formatNumber(count);
  return compactCount().format(count);
}

/** A count with grouping and no compaction: "1,536", "3.25". */
export function formatCount(count: number): string {
  return formatNumber(count);
}

/** A count with its noun, singular for exactly one: "1 GPU", "64 GPUs", "1,536 GPUs". */
export function formatCountOf(count: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(count)} ${count === 1 ? noun : plural}`;
}

const TOKEN_PREFIXES = scales({ '': 1, k: 1e3, M: 1e6, G: 1e9 });

/** Tokens per second: "850 tokens/s", "452k tokens/s", "1.23M tokens/s". */
export function formatTokensPerSecond(tokensPerSecond: number): string {
  if (!Number.isFinite(tokensPerSecond)) return NOT_AVAILABLE;
  let prefix: Scale = { factor: 1, unit: '' };
  for (const scale of TOKEN_PREFIXES) if (Math.abs(tokensPerSecond) >= scale.factor) prefix = scale;
  return `${formatNumber(tokensPerSecond / prefix.factor)}${prefix.unit} tokens/s`;
}

export function formatGpuHours(gpuHours: number): string {
  const text = formatCompactCount(gpuHours);
  return text === NOT_AVAILABLE ? text : `${text} GPU-hours`;
}

const longCount = onFirstUse({ notation: 'compact', compactDisplay: 'long', maximumSignificantDigits: 3 });

/** A token count a person reads at a glance: "8,192 tokens", "524 billion tokens", "1 trillion tokens". */
export function formatTokenCount(tokens: number): string {
  if (!Number.isFinite(tokens)) return NOT_AVAILABLE;
  const text = Math.abs(tokens) < 1e6 ? formatNumber(tokens) : longCount().format(tokens);
  return `${text} tokens`;
}

const PARAMETER_SCALES = scales({ '': 1, K: 1e3, M: 1e6, B: 1e9, T: 1e12 });

/** A parameter count as model cards write it: "8.03 B", "671 B", "125 M". */
export function formatParameterCount(parameters: number): string {
  return scaled(parameters, PARAMETER_SCALES).trimEnd();
}

/** FLOPs per token in powers of ten, two significant digits: 5.79e10 → "5.8e10 FLOPs/token". */
export function formatFlopsPerToken(flops: number): string {
  if (!Number.isFinite(flops)) return NOT_AVAILABLE;
  return `${flops.toExponential(1).replace('e+', 'e')} FLOPs/token`;
}

/** The estimate's model summary in one line: "70.6 B parameters · 70.6 B active · 4.3e11 FLOPs/token". */
export function formatModelSummary(summary: {
  readonly parameters: number;
  readonly activeParameters: number;
  readonly flopsPerToken: number;
}): string {
  return (
    `${formatParameterCount(summary.parameters)} parameters · ${formatParameterCount(summary.activeParameters)} active · ` +
    `${formatFlopsPerToken(summary.flopsPerToken)}`
  );
}

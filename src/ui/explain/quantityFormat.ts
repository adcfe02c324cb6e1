// The numbers of a formula view, with more digits than the figure cards so the
// terms of a sum visibly add up ("61.30 GiB"), in the units the engine computed.

import type { Quantity } from '../../model/explain/index.ts';
import {
  formatBytes,
  formatDays,
  formatFlopRate,
  formatFlops,
  formatGpuHours,
  formatNumber,
  formatPercent,
  formatSeconds,
  formatTokensPerSecond,
  formatUsd,
} from '../format.ts';
import { GiB } from '../../model/input/index.ts';

const LOCALE = 'en-US';
const twoDecimals = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const grouped = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });
const compact = new Intl.NumberFormat(LOCALE, { notation: 'compact', compactDisplay: 'long', maximumSignificantDigits: 4 });

/** Bytes in GiB with two decimals; below 0.01 GiB in the unit that fits. */
export function formatFormulaBytes(bytes: number): string {
  if (bytes === 0) return '0 GiB';
  if (Math.abs(bytes) < 0.01 * GiB) return formatBytes(bytes);
  return `${twoDecimals.format(bytes / GiB)} GiB`;
}

function bigCount(value: number): string {
  return Math.abs(value) < 1e6 ? grouped.format(value) : compact.format(value);
}

const groupedCount = (v: number) => grouped.format(v);

/** How each unit the engine computes in reads in a formula. */
const QUANTITY_FORMAT: Readonly<Record<Quantity['unit'], (value: number) => string>> = {
  bytes: formatFormulaBytes,
  'bytes-per-parameter': (v) => `${formatNumber(v)} B`,
  'bytes-per-logit': (v) => `${formatNumber(v)} B`,
  parameters: bigCount,
  count: groupedCount,
  gpus: groupedCount,
  sequences: groupedCount,
  tokens: bigCount,
  seconds: formatSeconds,
  'tokens-per-second': formatTokensPerSecond,
  flop: formatFlops,
  'flop-per-second': formatFlopRate,
  fraction: formatPercent,
  days: formatDays,
  'hours-per-day': (v) => `${grouped.format(v)} h/day`,
  'seconds-per-day': (v) => `${grouped.format(v)} s/day`,
  'gpu-hours': formatGpuHours,
  usd: formatUsd,
  'usd-per-gpu-hour': (v) => `${formatUsd(v)}/GPU-hour`,
};

export function formatQuantity(q: Quantity): string {
  return QUANTITY_FORMAT[q.unit](q.value);
}

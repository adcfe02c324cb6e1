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

export function formatQuantity(q: Quantity): string {
  const v = q.value;
  switch (q.unit) {
    case 'bytes':
      return formatFormulaBytes(v);
    case 'bytes-per-parameter':
      return `${formatNumber(v)} B`;
    case 'parameters':
      return bigCount(v);
    case 'count':
    case 'gpus':
    case 'sequences':
      return grouped.format(v);
    case 'tokens':
      return bigCount(v);
    case 'seconds':
      return formatSeconds(v);
    case 'tokens-per-second':
      return formatTokensPerSecond(v);
    case 'flop':
      return formatFlops(v);
    case 'flop-per-second':
      return formatFlopRate(v);
    case 'fraction':
      return formatPercent(v);
    case 'days':
      return formatDays(v);
    case 'hours-per-day':
      return `${grouped.format(v)} h/day`;
    case 'seconds-per-day':
      return `${grouped.format(v)} s/day`;
    case 'gpu-hours':
      return formatGpuHours(v);
    case 'usd':
      return formatUsd(v);
    case 'usd-per-gpu-hour':
      return `${formatUsd(v)}/GPU-hour`;
  }
}

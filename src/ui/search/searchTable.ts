// The results table's rows and their sorting: one row per layout found (its best
// variant), its other variants folded under it, with the engine's figures for each
// (estimateConfig's output, simulated schedule included).

import type { SearchDocumentResult, SearchVariant } from '../../model/search/index.ts';
import { findGpuPreset } from '../../state/catalog.ts';
import { scheduleWords } from '../embed/embedCard.ts';
import { headlineBands, UNCERTAINTY_TABLE, type OomVerdict } from '../../model/validation/index.ts';
import { outputVerdict } from '../uncertainty/hostMemoryWords.ts';
import { fitMemoryBytes } from '../../model/memory/index.ts';
import { formatCountOf } from '../format.ts';

export type SortKey = 'rank' | 'memoryBytes' | 'tokensPerSecond' | 'mfu' | 'days' | 'usd';
export type SortDirection = 'ascending' | 'descending';
export interface SortOrder {
  readonly key: SortKey;
  readonly direction: SortDirection;
}

interface Figures {
  /** The one memory figure (model/memory/fit.ts, fitMemoryBytes): what the strip, the chart and the verdict show for this layout. */
  readonly memoryBytes: number;
  /** The page's one memory verdict (memoryVerdict.ts, on memoryBytes): a layout the strip would call tight says so here. */
  readonly verdict: OomVerdict;
  readonly tokensPerSecond: number;
  readonly mfu: number;
  readonly days: number;
  readonly usd: number;
  /** The 90 % range of each figure (the layout's own `uncertainty`, model/validation headlineBands); a figure without one is absent. */
  readonly ranges?: Partial<Record<Exclude<SortKey, 'rank'>, { readonly low: number; readonly high: number }>>;
}

/** A variant folded under its layout's row. */
export interface VariantRow extends Figures {
  /** 2 = the layout's second-best variant (the row itself is the first). */
  readonly index: number;
  readonly variant: SearchVariant;
}

export interface SearchRow extends Figures {
  /** 1 = best by the objective. */
  readonly rank: number;
  readonly result: SearchDocumentResult;
  /** The GPU's name ("NVIDIA H100 SXM5 80GB"): the preset's, or the custom GPU's own. */
  readonly gpuName: string;
  readonly variants: readonly VariantRow[];
}

function figures(v: SearchVariant): Figures {
  return {
    memoryBytes: fitMemoryBytes(v.output),
    verdict: outputVerdict(v.output),
    tokensPerSecond: v.output.throughput?.tokensPerSecond ?? NaN,
    mfu: v.output.throughput?.mfu ?? NaN,
    days: v.output.time?.days ?? NaN,
    usd: v.output.cost?.usd ?? NaN,
    ranges: rangesOf(v.output),
  };
}

function rangesOf(output: SearchVariant['output']): NonNullable<Figures['ranges']> {
  const b = headlineBands(output, UNCERTAINTY_TABLE);
  const pairs = [
    ['memoryBytes', b.memoryTotal],
    ['tokensPerSecond', b.tokensPerSecond],
    ['mfu', b.mfu],
    ['days', b.days],
    ['usd', b.usd],
  ] as const;
  return Object.fromEntries(pairs.filter(([, band]) => band !== undefined));
}

export function gpuNameOf(gpu: SearchDocumentResult['cluster']['gpu']): string {
  return typeof gpu === 'string' ? (findGpuPreset(gpu)?.name ?? gpu) : gpu.name;
}

export function searchRows(results: readonly SearchDocumentResult[]): SearchRow[] {
  return results.map((result, i) => ({
    rank: i + 1,
    result,
    gpuName: gpuNameOf(result.cluster.gpu),
    ...figures(result),
    variants: result.variants.map((variant, k) => ({ index: k + 2, variant, ...figures(variant) })),
  }));
}

/** A copy sorted by one column; figures the engine could not give (NaN) go last either way, ties keep the rank order. */
export function sortRows(rows: readonly SearchRow[], order: SortOrder): SearchRow[] {
  const sign = order.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[order.key];
    const y = b[order.key];
    if (Number.isNaN(x) !== Number.isNaN(y)) return Number.isNaN(x) ? 1 : -1;
    return (Number.isNaN(x) ? 0 : sign * (x - y)) || a.rank - b.rank;
  });
}

/** A column's first click: bigger is better for throughput and MFU, smaller for the rest. */
export function firstDirection(key: SortKey): SortDirection {
  return key === 'tokensPerSecond' || key === 'mfu' ? 'descending' : 'ascending';
}

export function nextOrder(current: SortOrder, key: SortKey): SortOrder {
  if (current.key !== key) return { key, direction: firstDirection(key) };
  return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}

/** "TP 2 · PP 8 · DP 2 · CP 2", then what else differs from the plain layout. */
export function layoutText(
  result: Pick<SearchDocumentResult, 'parallel' | 'training'> & { readonly cluster: { readonly gpus: number } },
): string {
  const p = result.parallel;
  const degrees = [`TP ${p.tp}`, `PP ${p.pp}`, `DP ${p.dp}`];
  if (p.cp > 1) degrees.push(`CP ${p.cp}`);
  if (p.ep > 1) degrees.push(`EP ${p.ep}`);
  if (p.vpp > 1) degrees.push(`VPP ${p.vpp}`);
  const schedule = scheduleWords(p.schedule, p.pp, p.vpp);
  const recompute = result.training.recompute === 'none' ? 'no recompute' : `${result.training.recompute} recompute`;
  const details = [
    formatCountOf(result.cluster.gpus, 'GPU'),
    `ZeRO-${p.zero}`,
    ...(schedule ? [schedule] : []),
    `MBS ${result.training.microBatch}`,
    recompute,
  ];
  if (p.sequenceParallel) details.push('SP');
  if (result.training.offload.optimizer) details.push('optimizer offload');
  if (result.training.offload.parameters) details.push('parameter offload');
  if (result.training.epComm) details.push('EP overlap');
  if (result.training.cudaGraph === 'full') details.push('whole-iteration CUDA graphs');
  else if (result.training.cudaGraph === 'partial') details.push('per-module CUDA graphs');
  return `${degrees.join(' · ')} (${details.join(', ')})`;
}

// What the Validation page shows of the validated cases: filters and groups by GPU,
// precision, source and cluster size, and each subset's summary by validate.ts's own
// `summarize`, so the page's overall figures are exactly `npm run validate`'s.

import { summarize, type ErrorSummary, type Figure, type ValidationRow } from '../../model/validation/index.ts';
import { scaleBand, type CaseResult } from '../../model/validation/index.ts';
import { GiB } from '../../model/input/index.ts';
import { gpuName } from '../../state/catalog.ts';

export type Facet = 'gpu' | 'precision' | 'sourceGroup' | 'scale';
export const FACETS: readonly Facet[] = ['gpu', 'precision', 'sourceGroup', 'scale'];
export const FACET_LABELS: Readonly<Record<Facet, string>> = {
  gpu: 'GPU',
  precision: 'Precision',
  sourceGroup: 'Source',
  scale: 'Cluster size',
};

/** '' = every value. */
export type Filters = Readonly<Record<Facet, string>>;
export const NO_FILTERS: Filters = { gpu: '', precision: '', sourceGroup: '', scale: '' };

/** A facet value as people name it: a GPU preset's name ("NVIDIA H100 SXM5 80GB"), not its id; other facets are already words. */
export function facetText(facet: Facet, value: string): string {
  return facet === 'gpu' ? gpuName(value) : value;
}

export function facetValue(c: CaseResult, facet: Facet): string {
  return facet === 'scale' ? scaleBand(c.gpus) : c[facet];
}

export function filterCases(cases: readonly CaseResult[], filters: Filters): CaseResult[] {
  return cases.filter((c) => FACETS.every((f) => filters[f] === '' || facetValue(c, f) === filters[f]));
}

export interface FacetOption {
  readonly value: string;
  readonly cases: number;
}

/** Every value of a facet with its case count, most cases first. */
export function facetOptions(cases: readonly CaseResult[], facet: Facet): FacetOption[] {
  const counts = new Map<string, number>();
  for (const c of cases) counts.set(facetValue(c, facet), (counts.get(facetValue(c, facet)) ?? 0) + 1);
  return [...counts].map(([value, n]) => ({ value, cases: n })).sort((a, b) => b.cases - a.cases || a.value.localeCompare(b.value));
}

export const isMemoryFigure = (figure: Figure) => figure === 'memoryBytesPerGpu';

/** The split of scripts/validate.ts: throughput (tokens/s per GPU, or MFU) and memory. */
export interface Summaries {
  readonly throughput: ErrorSummary;
  readonly memory: ErrorSummary;
}

export function rowsOf(cases: readonly CaseResult[], memory: boolean): ValidationRow[] {
  return cases.flatMap((c) => c.rows.filter((r) => isMemoryFigure(r.figure) === memory));
}

export function summaries(cases: readonly CaseResult[]): Summaries {
  return { throughput: summarize(rowsOf(cases, false)), memory: summarize(rowsOf(cases, true)) };
}

export interface GroupSummary extends Summaries {
  readonly value: string;
  readonly cases: number;
}

export function groupSummaries(cases: readonly CaseResult[], facet: Facet): GroupSummary[] {
  return facetOptions(cases, facet).map(({ value, cases: n }) => ({
    value,
    cases: n,
    ...summaries(cases.filter((c) => facetValue(c, facet) === value)),
  }));
}

/** Shares of predicted figures within ±10 %, ±25 % and ±50 % of the published one, and how many over- and under-predict. */
export interface Spread {
  readonly predicted: number;
  readonly within: readonly { readonly limit: number; readonly count: number }[];
  readonly over: number;
  readonly under: number;
}

export function spreadOf(rows: readonly ValidationRow[]): Spread {
  const errors = rows.flatMap((r) => (r.error === null ? [] : [r.error]));
  return {
    predicted: errors.length,
    within: [0.1, 0.25, 0.5].map((limit) => ({ limit, count: errors.filter((e) => Math.abs(e) <= limit).length })),
    over: errors.filter((e) => e > 0).length,
    under: errors.filter((e) => e < 0).length,
  };
}

/** As scripts/validate.ts prints it: one decimal of a percent. */
export function percentText(fraction: number): string {
  return `${(fraction * 100).toFixed(1)} %`;
}

/** A signed error: "+12.3 %", "−4.5 %". */
export function signedPercentText(fraction: number): string {
  const text = percentText(Math.abs(fraction));
  if (fraction > 0 && text !== '0.0 %') return `+${text}`;
  return fraction < 0 && text !== '0.0 %' ? `−${text}` : text;
}

const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A published or predicted figure as scripts/validate.ts writes it. */
export function figureText(value: number, figure: Figure): string {
  if (figure === 'memoryBytesPerGpu') return `${(value / GiB).toFixed(1)} GiB`;
  if (figure === 'mfu') return `${(value * 100).toFixed(1)} % MFU`;
  return `${wholeNumber.format(value)} tok/s`;
}

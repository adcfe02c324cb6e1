// The Validation page's summaries: the overall errors (as `npm run validate` prints
// them), how the planner's ranges follow from them, the errors grouped by GPU,
// precision, source or cluster size, and the filters of the case table.

import { useId, useMemo, useState } from 'react';
import type { ErrorSummary } from '../../model/validation/index.ts';
import type { CaseResult } from '../../model/validation/index.ts';
import { MAX_TIGHT_FROM_SHARE } from '../../model/validation/index.ts';
import { tightFromShare } from '../uncertainty/memoryVerdict.ts';
import { UNCERTAINTY_TABLE } from '../../model/validation/index.ts';
import { INPUT } from '../controls/fields.tsx';
import {
  FACETS,
  FACET_LABELS,
  facetOptions,
  facetText,
  groupSummaries,
  percentText,
  signedPercentText,
  type Facet,
  type Filters,
  type Summaries,
} from './validationView.ts';
import { TableRegion } from '../TableRegion.tsx';

const FACET_IN_TEXT: Readonly<Record<Facet, string>> = { gpu: 'GPU', precision: 'precision', sourceGroup: 'source', scale: 'cluster size' };
const PANEL = 'rounded-lg border border-gray-300 p-4 dark:border-gray-700';
const TH = 'px-2 py-1 text-left font-semibold';
const TD = 'px-2 py-1 text-right tabular-nums';

function SummaryBlock({ title, summary, testId }: { title: string; summary: ErrorSummary; testId: string }) {
  const predicted = summary.cases - summary.invalid;
  const items = [
    { key: 'cases', label: 'Published figures', value: summary.cases, text: String(summary.cases) },
    { key: 'invalid', label: 'Not predicted', value: summary.invalid, text: String(summary.invalid) },
    {
      key: 'median',
      label: 'Median |error|',
      value: summary.medianAbsError,
      text: predicted > 0 ? percentText(summary.medianAbsError) : '—',
    },
    {
      key: 'p90',
      label: '90th percentile |error|',
      value: summary.p90AbsError,
      text: predicted > 0 ? percentText(summary.p90AbsError) : '—',
    },
    {
      key: 'worst-under',
      label: 'Worst under-prediction',
      value: summary.worstUnderPrediction,
      text: predicted > 0 ? signedPercentText(summary.worstUnderPrediction) : '—',
    },
  ];
  return (
    <div className="flex flex-col gap-1">
      <h4 className="text-sm font-semibold text-gray-800 dark:text-gray-200">{title}</h4>
      <dl className="grid grid-cols-[repeat(auto-fill,minmax(9rem,1fr))] gap-2">
        {items.map((item) => (
          <div key={item.key} className="rounded border border-gray-200 bg-white p-2 dark:border-gray-700 dark:bg-gray-900">
            <dt className="text-xs text-gray-700 dark:text-gray-300">{item.label}</dt>
            <dd
              data-testid={`${testId}-${item.key}`}
              data-value={item.value}
              className="text-lg font-semibold tabular-nums text-gray-900 dark:text-gray-50"
            >
              {item.text}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function BandNote() {
  const { throughput, memory, lowerQuantile, upperQuantile } = UNCERTAINTY_TABLE;
  const tightShare = tightFromShare();
  const range = (band: typeof memory) => `${signedPercentText(band.lowerError)} to ${signedPercentText(band.upperError)}`;
  return (
    <p data-testid="validation-band-note" className="text-sm text-gray-800 dark:text-gray-200">
      <strong>Ranges on the planner.</strong> Between the {Math.round(lowerQuantile * 100)}th and {Math.round(upperQuantile * 100)}th
      percentile, the signed error was {range(throughput)} for throughput ({throughput.rows} figures) and {range(memory)} for memory (
      {memory.rows} figures): nine in ten published runs measured within that band of our prediction, and the planner shows it around step
      time, throughput, MFU, training days, cost and memory. A memory estimate above {percentText(tightShare)} of a GPU's capacity is marked{' '}
      <em>tight</em>: within the larger of a {percentText(1 - MAX_TIGHT_FROM_SHARE)} margin and the under-prediction of the{' '}
      {Math.round(lowerQuantile * 100)}th-percentile run, a run could exceed it.
    </p>
  );
}

export function OverallSummary({ summary, cases, filtered = false }: { summary: Summaries; cases: number; filtered?: boolean }) {
  const prefix = filtered ? 'filtered-summary' : 'summary';
  return (
    <section
      aria-label={filtered ? 'Summary of the filtered cases' : 'Summary of every case'}
      data-testid={filtered ? 'validation-filtered-summary' : 'validation-summary'}
      className={`${PANEL} flex flex-col gap-3`}
    >
      <h3 className="text-lg font-semibold text-gray-900 dark:text-gray-50">
        {filtered ? `The ${cases} cases shown` : `Summary of all ${cases} cases`}
      </h3>
      <SummaryBlock title="Throughput (tokens/s per GPU, or MFU)" summary={summary.throughput} testId={`${prefix}-throughput`} />
      <SummaryBlock title="Memory per GPU" summary={summary.memory} testId={`${prefix}-memory`} />
      {!filtered && <BandNote />}
    </section>
  );
}

function medianText(s: ErrorSummary): string {
  return s.cases - s.invalid > 0 ? percentText(s.medianAbsError) : '—';
}

function p90Text(s: ErrorSummary): string {
  return s.cases - s.invalid > 0 ? percentText(s.p90AbsError) : '—';
}

/** "How far to trust it here": errors by GPU, precision, source or cluster size. */
export function GroupTable({ cases }: { cases: readonly CaseResult[] }) {
  const [facet, setFacet] = useState<Facet>('gpu');
  const groups = useMemo(() => groupSummaries(cases, facet), [cases, facet]);
  const selectId = useId();
  return (
    <section aria-labelledby={`${selectId}-heading`} className={`${PANEL} flex flex-col gap-2`}>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h3 id={`${selectId}-heading`} className="text-lg font-semibold text-gray-900 dark:text-gray-50">
          How far to trust it, by {FACET_IN_TEXT[facet]}
        </h3>
        <label className="flex items-center gap-2 whitespace-nowrap text-sm text-gray-800 dark:text-gray-200" htmlFor={selectId}>
          Group by
          <select id={selectId} className={`${INPUT} w-auto`} value={facet} onChange={(e) => setFacet(e.target.value as Facet)}>
            {FACETS.map((f) => (
              <option key={f} value={f}>
                {FACET_LABELS[f]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <TableRegion label="Errors by group">
        <table data-testid="validation-groups" className="w-full text-sm text-gray-900 dark:text-gray-100">
          <thead>
            <tr className="border-b border-gray-300 dark:border-gray-700">
              <th scope="col" className={TH}>
                {FACET_LABELS[facet]}
              </th>
              <th scope="col" className={`${TH} text-right`}>
                Cases
              </th>
              <th scope="col" className={`${TH} text-right`}>
                Throughput median |error|
              </th>
              <th scope="col" className={`${TH} text-right`}>
                Throughput 90th pct
              </th>
              <th scope="col" className={`${TH} text-right`}>
                Memory figures
              </th>
              <th scope="col" className={`${TH} text-right`}>
                Memory median |error|
              </th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <tr key={g.value} className="border-b border-gray-100 dark:border-gray-800">
                <th scope="row" className="px-2 py-1 text-left font-normal">
                  {facetText(facet, g.value)}
                </th>
                <td className={TD}>{g.cases}</td>
                <td className={TD}>{medianText(g.throughput)}</td>
                <td className={TD}>{p90Text(g.throughput)}</td>
                <td className={TD}>{g.memory.cases}</td>
                <td className={TD}>{medianText(g.memory)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </section>
  );
}

export function FilterControls({
  cases,
  filters,
  onChange,
}: {
  cases: readonly CaseResult[];
  filters: Filters;
  onChange: (f: Filters) => void;
}) {
  const id = useId();
  return (
    <fieldset className="flex flex-wrap items-end gap-3">
      <legend className="mb-1 text-sm font-medium text-gray-800 dark:text-gray-200">Show only</legend>
      {FACETS.map((facet) => (
        <label key={facet} htmlFor={`${id}-${facet}`} className="flex flex-col gap-0.5 text-xs text-gray-800 dark:text-gray-200">
          {FACET_LABELS[facet]}
          <select
            id={`${id}-${facet}`}
            data-testid={`filter-${facet}`}
            className={`${INPUT} w-auto`}
            value={filters[facet]}
            onChange={(e) => onChange({ ...filters, [facet]: e.target.value })}
          >
            <option value="">All</option>
            {facetOptions(cases, facet).map((o) => (
              <option key={o.value} value={o.value}>
                {facetText(facet, o.value)} ({o.cases})
              </option>
            ))}
          </select>
        </label>
      ))}
    </fieldset>
  );
}

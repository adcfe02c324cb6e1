// The layouts the search found, best first by the objective: one row per layout (TP, PP,
// DP, CP, EP, ZeRO; with the GPU and cluster size when sizing), showing its best variant;
// a button folds its other variants out beneath it. Every figure column sorts (a button in
// its header, aria-sort says how), and "Apply" loads a layout or variant into the sliders,
// the figures and the link. The table exports as Markdown or CSV (searchExport.ts), in rank order.

import { Fragment, useState } from 'react';
import { BUTTON } from '../buttons.ts';
import { downloadBlob } from '../download.ts';
import { searchToCsv, searchToMarkdown } from './searchExport.ts';
import { formatCount, formatDays, formatGiB, formatPercent, formatTokensPerSecond, formatUsd } from '../format.ts';
import { layoutText, nextOrder, sortRows, type SearchRow, type SortKey, type SortOrder, type VariantRow } from './searchTable.ts';
import { formatRange } from '../uncertainty/figureRanges.ts';
import { TableRegion } from '../TableRegion.tsx';
import { ExportBar } from '../ExportBar.tsx';

type Figures = Pick<SearchRow, 'memoryBytes' | 'verdict' | 'tokensPerSecond' | 'mfu' | 'days' | 'usd' | 'ranges'>;

const FIGURES: readonly {
  readonly key: Exclude<SortKey, 'rank'>;
  readonly label: string;
  readonly format: (row: Figures) => string;
  readonly unit: (value: number) => string;
}[] = [
  {
    key: 'memoryBytes',
    label: 'Memory per GPU',
    format: (r) => `${formatGiB(r.memoryBytes)}${r.verdict === 'tight' ? ' (tight)' : ''}`,
    unit: formatGiB,
  },
  { key: 'tokensPerSecond', label: 'Tokens/s', format: (r) => formatTokensPerSecond(r.tokensPerSecond), unit: formatTokensPerSecond },
  { key: 'mfu', label: 'MFU', format: (r) => formatPercent(r.mfu), unit: formatPercent },
  { key: 'days', label: 'Days', format: (r) => formatDays(r.days), unit: formatDays },
  { key: 'usd', label: 'Cost', format: (r) => formatUsd(r.usd), unit: formatUsd },
];

/** A figure with its 90 % range beneath it (the layout's own, from its segment of published runs). */
function FigureCell({ column, row }: { column: (typeof FIGURES)[number]; row: Figures }) {
  const range = row.ranges?.[column.key];
  return (
    <td className={CELL}>
      {column.format(row)}
      {range && (
        <span data-testid="search-range" className="block text-xs text-gray-700 dark:text-gray-300">
          <span className="sr-only">90 % range: </span>
          {formatRange(range, column.unit)}
        </span>
      )}
    </td>
  );
}

const SORT_BUTTON =
  'inline-flex items-center gap-1 rounded px-1 font-semibold underline-offset-2 hover:underline ' +
  'focus-visible:outline-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-300';
const CELL = 'px-2 py-1 whitespace-nowrap';

function arrow(order: SortOrder, key: SortKey): string {
  if (order.key !== key) return '↕';
  return order.direction === 'ascending' ? '↑' : '↓';
}

function SortHeader({
  order,
  sortKey,
  label,
  onSort,
}: {
  order: SortOrder;
  sortKey: SortKey;
  label: string;
  onSort: (key: SortKey) => void;
}) {
  return (
    <th scope="col" className={CELL} aria-sort={order.key === sortKey ? order.direction : 'none'}>
      <button type="button" className={SORT_BUTTON} onClick={() => onSort(sortKey)}>
        {label}
        <span aria-hidden="true">{arrow(order, sortKey)}</span>
      </button>
    </th>
  );
}

export interface ResultsTableProps {
  readonly rows: readonly SearchRow[];
  /** Cluster sizing: GPU and GPU-count columns. */
  readonly sizing: boolean;
  readonly onApply: (row: SearchRow, variant: VariantRow | null) => void;
}

function VariantRows({ row, sizing, onApply }: { row: SearchRow; sizing: boolean; onApply: ResultsTableProps['onApply'] }) {
  return row.variants.map((v) => (
    <tr
      key={`${row.rank}-${v.index}`}
      id={`search-variants-${row.rank}-${v.index}`}
      data-testid="search-variant"
      data-rank={row.rank}
      data-tp={v.variant.parallel.tp}
      data-pp={v.variant.parallel.pp}
      data-vpp={v.variant.parallel.vpp}
      data-memory={v.memoryBytes}
      className="bg-gray-50 text-gray-800 dark:bg-gray-900 dark:text-gray-200"
    >
      <td className={`${CELL} text-xs`}>
        {row.rank}.{v.index}
      </td>
      {sizing && <td className={CELL} />}
      {sizing && <td className={CELL} />}
      {FIGURES.map((c) => (
        <FigureCell key={c.key} column={c} row={v} />
      ))}
      <td className="min-w-64 px-2 py-1 pl-6 text-left">{layoutText({ ...v.variant, cluster: row.result.cluster })}</td>
      <td className="px-2 py-1">
        <button type="button" className={BUTTON} onClick={() => onApply(row, v)}>
          Apply
          <span className="sr-only">
            {' '}
            layout {row.rank} variant {v.index}
          </span>
        </button>
      </td>
    </tr>
  ));
}

export function SearchResultsTable({ rows, sizing, onApply }: ResultsTableProps) {
  const [order, setOrder] = useState<SortOrder>({ key: 'rank', direction: 'ascending' });
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const [saved, setSaved] = useState('');
  const save = (text: string, extension: string, type: string) => {
    const name = `layout-search.${extension}`;
    downloadBlob(new Blob([text], { type }), name);
    setSaved(`Saved ${name}`);
  };
  const sorted = sortRows(rows, order);
  const sort = (key: SortKey) => setOrder(nextOrder(order, key));
  const toggle = (rank: number) =>
    setOpen((o) => {
      const next = new Set(o);
      if (next.has(rank)) next.delete(rank);
      else next.add(rank);
      return next;
    });
  return (
    <div className="flex flex-col gap-2">
      <TableRegion label="Layouts found">
        <table data-testid="search-results" className="w-full text-right text-sm tabular-nums text-gray-900 dark:text-gray-100">
          <caption className="sr-only">
            Layouts found, each by its best variant; the column buttons sort the table, a layout's variants button shows its other variants.
          </caption>
          <thead>
            <tr>
              <SortHeader order={order} sortKey="rank" label="Rank" onSort={sort} />
              {sizing && (
                <th scope="col" className={`${CELL} text-left`}>
                  GPU
                </th>
              )}
              {sizing && (
                <th scope="col" className={CELL}>
                  GPUs
                </th>
              )}
              {FIGURES.map((c) => (
                <SortHeader key={c.key} order={order} sortKey={c.key} label={c.label} onSort={sort} />
              ))}
              <th scope="col" className="px-2 py-1 text-left">
                Layout
              </th>
              <th scope="col" className="px-2 py-1">
                <span className="sr-only">Apply</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sorted.map((row) => {
              const expanded = open.has(row.rank);
              const ids = row.variants.map((v) => `search-variants-${row.rank}-${v.index}`).join(' ');
              return (
                <Fragment key={row.rank}>
                  <tr
                    data-testid="search-row"
                    data-rank={row.rank}
                    data-gpu={typeof row.result.cluster.gpu === 'string' ? row.result.cluster.gpu : 'custom'}
                    data-gpus={row.result.cluster.gpus}
                    data-usd={row.usd}
                    data-days={row.days}
                    data-memory={row.memoryBytes}
                    data-tp={row.result.parallel.tp}
                    data-pp={row.result.parallel.pp}
                    data-dp={row.result.parallel.dp}
                    data-cp={row.result.parallel.cp}
                    data-ep={row.result.parallel.ep}
                    data-zero={row.result.parallel.zero}
                    className="border-t border-gray-200 dark:border-gray-800"
                  >
                    <td className={CELL}>{row.rank}</td>
                    {sizing && <td className="min-w-28 px-2 py-1 text-left">{row.gpuName}</td>}
                    {sizing && <td className={CELL}>{formatCount(row.result.cluster.gpus)}</td>}
                    {FIGURES.map((c) => (
                      <FigureCell key={c.key} column={c} row={row} />
                    ))}
                    <td className="min-w-64 px-2 py-1 text-left">
                      {layoutText(row.result)}
                      {row.variants.length > 0 && (
                        <button
                          type="button"
                          className={
                            'ml-2 rounded px-1 text-xs text-blue-800 underline underline-offset-2 ' +
                            'focus-visible:outline-2 focus-visible:outline-blue-700 dark:text-blue-300 dark:focus-visible:outline-blue-300'
                          }
                          aria-expanded={expanded}
                          aria-controls={expanded ? ids : undefined}
                          onClick={() => toggle(row.rank)}
                        >
                          {expanded ? 'Hide' : 'Show'} {row.variants.length} {row.variants.length === 1 ? 'variant' : 'variants'}
                          <span className="sr-only"> of layout {row.rank}</span>
                        </button>
                      )}
                    </td>
                    <td className="px-2 py-1">
                      <button type="button" className={BUTTON} onClick={() => onApply(row, null)}>
                        Apply<span className="sr-only"> layout {row.rank}</span>
                      </button>
                    </td>
                  </tr>
                  {expanded && <VariantRows row={row} sizing={sizing} onApply={onApply} />}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </TableRegion>
      <ExportBar
        group="Export the layouts found"
        status={saved}
        actions={[
          { label: 'Layouts as Markdown', run: () => save(searchToMarkdown(rows), 'md', 'text/markdown') },
          { label: 'Layouts as CSV', run: () => save(searchToCsv(rows), 'csv', 'text/csv') },
        ]}
      />
    </div>
  );
}

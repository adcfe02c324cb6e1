// The layouts the search found, best first by the objective; every figure column sorts
// (a button in its header, aria-sort says how), and "Apply" loads the row's layout into
// the sliders, the figures and the link.

import { useState } from 'react';
import { BUTTON } from '../buttons.ts';
import { formatDays, formatGiB, formatPercent, formatTokensPerSecond, formatUsd } from '../format.ts';
import { layoutText, nextOrder, sortRows, type SearchRow, type SortKey, type SortOrder } from './searchTable.ts';

const COLUMNS: readonly { readonly key: SortKey; readonly label: string; readonly format: (row: SearchRow) => string }[] = [
  { key: 'rank', label: 'Rank', format: (r) => String(r.rank) },
  { key: 'memoryBytes', label: 'Memory per GPU', format: (r) => formatGiB(r.memoryBytes) },
  { key: 'tokensPerSecond', label: 'Tokens/s', format: (r) => formatTokensPerSecond(r.tokensPerSecond) },
  { key: 'mfu', label: 'MFU', format: (r) => formatPercent(r.mfu) },
  { key: 'days', label: 'Days', format: (r) => formatDays(r.days) },
  { key: 'usd', label: 'Cost', format: (r) => formatUsd(r.usd) },
];

const SORT_BUTTON = 'inline-flex items-center gap-1 rounded px-1 font-semibold underline-offset-2 hover:underline '
  + 'focus-visible:outline-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-300';

function arrow(order: SortOrder, key: SortKey): string {
  if (order.key !== key) return '↕';
  return order.direction === 'ascending' ? '↑' : '↓';
}

export function SearchResultsTable({ rows, onApply }: { rows: readonly SearchRow[]; onApply: (row: SearchRow) => void }) {
  const [order, setOrder] = useState<SortOrder>({ key: 'rank', direction: 'ascending' });
  const sorted = sortRows(rows, order);
  return (
    <div className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-300"
      tabIndex={0} role="region" aria-label="Layouts found (scrollable table)">
      <table data-testid="search-results" className="w-full text-right text-sm tabular-nums text-gray-900 dark:text-gray-100">
        <caption className="sr-only">Layouts found; the column buttons sort the table.</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c.key} scope="col" className="px-2 py-1 whitespace-nowrap"
                aria-sort={order.key === c.key ? order.direction : 'none'}>
                <button type="button" className={SORT_BUTTON} onClick={() => setOrder(nextOrder(order, c.key))}>
                  {c.label}<span aria-hidden="true">{arrow(order, c.key)}</span>
                </button>
              </th>
            ))}
            <th scope="col" className="px-2 py-1 text-left">Layout</th>
            <th scope="col" className="px-2 py-1"><span className="sr-only">Apply</span></th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((row) => (
            <tr key={row.rank} data-testid="search-row" data-rank={row.rank}
              data-memory={row.memoryBytes} data-tp={row.result.parallel.tp} data-pp={row.result.parallel.pp} data-dp={row.result.parallel.dp}
              className="border-t border-gray-200 dark:border-gray-800">
              {COLUMNS.map((c) => <td key={c.key} className="px-2 py-1 whitespace-nowrap">{c.format(row)}</td>)}
              <td className="min-w-64 px-2 py-1 text-left">{layoutText(row.result)}</td>
              <td className="px-2 py-1">
                <button type="button" className={BUTTON} onClick={() => onApply(row)}>
                  Apply<span className="sr-only"> layout {row.rank}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// Every validated case as a table row (its source, the published figure, our
// prediction and the error, for throughput and memory), and the numbered list of
// the sources the rows cite.

import { useMemo } from 'react';
import { gpuName } from '../../state/catalog.ts';
import type { ValidationRow } from '../../model/validation/index.ts';
import type { CaseResult } from '../../model/validation/index.ts';
import { figureText, isMemoryFigure, signedPercentText } from './validationView.ts';
import { TableRegion } from '../TableRegion.tsx';

const PANEL = 'rounded-lg border border-gray-300 p-4 dark:border-gray-700';
const HEAD = 'sticky bg-gray-100 px-2 py-1 font-semibold dark:bg-gray-800';
const NUM = 'px-2 py-1 text-right tabular-nums whitespace-nowrap';

/** Source citation → its number in the list, in order of first appearance. */
function sourceNumbers(cases: readonly CaseResult[]): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const c of cases) if (!numbers.has(c.source)) numbers.set(c.source, numbers.size + 1);
  return numbers;
}

function FigureCells({ row }: { row: ValidationRow | undefined }) {
  if (!row)
    return (
      <>
        <td className={NUM}>—</td>
        <td className={NUM}>—</td>
        <td className={NUM}>—</td>
      </>
    );
  return (
    <>
      <td className={NUM}>{figureText(row.published, row.figure)}</td>
      <td className={NUM}>
        {row.predicted === null ? <span title={row.errors[0] ?? ''}>not predicted</span> : figureText(row.predicted, row.figure)}
      </td>
      <td className={NUM} data-error={row.error ?? ''}>
        {row.error === null ? '—' : signedPercentText(row.error)}
      </td>
    </>
  );
}

export function CaseTable({ cases, all }: { cases: readonly CaseResult[]; all: readonly CaseResult[] }) {
  const numbers = useMemo(() => sourceNumbers(all), [all]);
  return (
    <TableRegion label="Every case" scroll="max-h-[70vh] overflow-auto rounded-lg border border-gray-300 dark:border-gray-700">
      <table data-testid="validation-table" className="w-full text-sm text-gray-900 dark:text-gray-100">
        <caption className="px-2 py-1 text-left text-sm text-gray-800 dark:text-gray-200">
          {cases.length === all.length ? `All ${all.length} cases` : `${cases.length} of ${all.length} cases`}: published figure, the
          planner's prediction, and the error (predicted − published) ÷ published. Source numbers refer to the list below.
        </caption>
        <thead>
          <tr>
            {['Case', 'Source', 'GPU', 'GPUs', 'Precision'].map((label) => (
              <th key={label} scope="col" rowSpan={2} className={`${HEAD} top-0 text-left align-bottom`}>
                {label}
              </th>
            ))}
            <th scope="colgroup" colSpan={3} className={`${HEAD} top-0 text-center`}>
              Throughput per GPU
            </th>
            <th scope="colgroup" colSpan={3} className={`${HEAD} top-0 text-center`}>
              Memory per GPU
            </th>
          </tr>
          <tr>
            {['Published', 'Predicted', 'Error', 'Published', 'Predicted', 'Error'].map((label, i) => (
              <th key={i} scope="col" className={`${HEAD} top-7 text-right`}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {cases.map((c) => (
            <tr key={c.id} data-case={c.id} className="border-t border-gray-200 align-top dark:border-gray-700">
              <th scope="row" className="max-w-[22rem] px-2 py-1 text-left font-normal">
                <span className="block break-all font-mono text-xs">{c.id}</span>
                <span className="block text-xs text-gray-700 dark:text-gray-300">
                  {c.model}
                  {c.where ? ` · ${c.where}` : ''}
                </span>
              </th>
              <td className="px-2 py-1 whitespace-nowrap">
                [{numbers.get(c.source)}] {c.sourceGroup}
              </td>
              <td className="px-2 py-1">{gpuName(c.gpu)}</td>
              <td className={NUM}>{c.gpus || '—'}</td>
              <td className="px-2 py-1">{c.precision}</td>
              <FigureCells row={c.rows.find((r) => !isMemoryFigure(r.figure))} />
              <FigureCells row={c.rows.find((r) => isMemoryFigure(r.figure))} />
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

export function SourceList({ cases }: { cases: readonly CaseResult[] }) {
  const numbers = useMemo(() => sourceNumbers(cases), [cases]);
  const counts = useMemo(() => {
    const map = new Map<string, number>();
    for (const c of cases) map.set(c.source, (map.get(c.source) ?? 0) + 1);
    return map;
  }, [cases]);
  return (
    <section aria-labelledby="validation-sources-heading" className={PANEL}>
      <h3 id="validation-sources-heading" className="text-lg font-semibold text-gray-900 dark:text-gray-50">
        Sources
      </h3>
      <p className="text-sm text-gray-800 dark:text-gray-200">
        Each case names where its publisher reported the figure; the project's copy keeps the citations, inputs and figures
        (validation/published-runs.json), and the assumptions made where a source left a setting out.
      </p>
      <ol className="mt-2 flex list-none flex-col gap-1 text-sm text-gray-900 dark:text-gray-100">
        {[...numbers].map(([source, n]) => (
          <li key={source} className="flex gap-2">
            <span className="tabular-nums">[{n}]</span>
            <span className="break-words">
              {source} <span className="text-gray-700 dark:text-gray-300">({counts.get(source)} cases)</span>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

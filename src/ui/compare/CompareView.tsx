// The comparison view: what differs between the pinned configuration (A) and the
// current one (B), every key figure of both with B − A, B ÷ A and a verdict in words,
// the most loaded GPU of each on one scale, and both configurations' memory charts and
// pipeline timelines side by side. The current column's figures carry the same test
// ids as the single view's, so tools reading the page find them either way.

import { Suspense, lazy, memo, type ReactNode } from 'react';
import { SETTLE_MS, useSettledValue } from '../useSettledValue.ts';
import type { EstimateOutput } from '../../model/input/index.ts';
import type { PinnedConfiguration } from '../../state/compare.ts';
import type { Doc } from '../../state/doc.ts';
import { usePlanner } from '../../state/react.ts';
import { Figures } from '../Figures.tsx';
import { CompareMemoryBars } from './CompareMemoryBars.tsx';
import { compareFigures, VERDICT_TEXT, type FigureComparison, type Verdict } from './compareFigures.ts';
import { configDifferences } from './configDiff.ts';

const MemoryChart = memo(lazy(() => import('../charts/MemoryChart.tsx')));
const PipelineChart = memo(lazy(() => import('../charts/PipelineChart.tsx')));

const PANEL = 'rounded-lg border border-gray-300 p-4 dark:border-gray-700';
const HEADING = 'text-base font-semibold text-gray-900 dark:text-gray-100';
const CELL = 'px-2 py-1';
const MAX_DIFFERENCES_SHOWN = 12;

const VERDICT_CLASS: Readonly<Record<Verdict, string>> = {
  better: 'font-semibold text-green-800 dark:text-green-300',
  worse: 'font-semibold text-red-700 dark:text-red-300',
  same: 'text-gray-700 dark:text-gray-300',
  differs: 'text-gray-800 dark:text-gray-200',
  unavailable: 'text-gray-700 dark:text-gray-300',
};
const VERDICT_MARK: Readonly<Record<Verdict, string>> = { better: '▲ ', worse: '▼ ', same: '', differs: '', unavailable: '' };

function Differences({ pinned, current }: { pinned: Doc; current: Doc }) {
  const differences = configDifferences(pinned, current);
  const shown = differences.slice(0, MAX_DIFFERENCES_SHOWN);
  return (
    <div className="text-sm text-gray-800 dark:text-gray-200" data-testid="compare-differences">
      <h3 className="font-semibold">What differs</h3>
      {differences.length === 0 ? <p>Nothing yet: change a control to compare another configuration with the pinned one.</p> : (
        <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {shown.map((d) => (
            <li key={d.field}><span className="font-medium">{d.label}</span>: {d.pinnedText} → <span className="font-medium">{d.currentText}</span></li>
          ))}
          {differences.length > shown.length && <li>and {differences.length - shown.length} more fields</li>}
        </ul>
      )}
    </div>
  );
}

function FigureRow({ row }: { row: FigureComparison }) {
  return (
    <tr className="border-t border-gray-200 dark:border-gray-700">
      <th scope="row" className={`${CELL} text-left font-medium`}>{row.label}</th>
      <td className={CELL}><span data-testid={`pinned-${row.id}`} data-value={row.pinned.value ?? ''}>{row.pinned.text}</span></td>
      <td className={CELL}><span data-testid={row.id} data-value={row.current.value ?? ''} className="font-semibold">{row.current.text}</span></td>
      <td className={CELL}><span data-testid={`delta-${row.id}`} data-value={row.delta ?? ''}>{row.deltaText}</span></td>
      <td className={CELL}><span data-testid={`ratio-${row.id}`} data-value={row.ratio ?? ''}>{row.ratioText}</span></td>
      <td className={`${CELL} text-left`}>
        <span data-testid={`verdict-${row.id}`} className={VERDICT_CLASS[row.verdict]}>
          <span aria-hidden="true">{VERDICT_MARK[row.verdict]}</span>{VERDICT_TEXT[row.verdict]}
        </span>
      </td>
    </tr>
  );
}

function FigureTable({ pinned, current }: { pinned: EstimateOutput; current: EstimateOutput }) {
  const rows = compareFigures(pinned, current);
  return (
    <div className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-300"
      tabIndex={0} role="region" aria-label="Figures of A and B (scrollable table)">
      <table className="w-full text-right text-sm tabular-nums text-gray-900 dark:text-gray-100">
        <caption className="mb-1 text-left text-sm text-gray-700 dark:text-gray-300">
          Every figure of the pinned configuration (A) and the current one (B); Δ is B − A, fractions in percentage points.
        </caption>
        <thead>
          <tr>
            <th scope="col" className={`${CELL} text-left`}>Figure</th>
            <th scope="col" className={CELL}>A pinned</th>
            <th scope="col" className={CELL}>B current</th>
            <th scope="col" className={CELL}>Δ (B − A)</th>
            <th scope="col" className={CELL}>B ÷ A</th>
            <th scope="col" className={`${CELL} text-left`}>B is</th>
          </tr>
        </thead>
        <tbody>{rows.map((row) => <FigureRow key={row.id} row={row} />)}</tbody>
      </table>
    </div>
  );
}

function Slot({ children, what }: { children: ReactNode; what: string }) {
  return (
    <Suspense fallback={<p className="min-h-40 text-sm text-gray-700 dark:text-gray-300">Loading the {what}…</p>}>{children}</Suspense>
  );
}

function Column({ name, output }: { name: string; output: EstimateOutput }) {
  const memory = useSettledValue(output, SETTLE_MS.memoryChart);
  const timeline = useSettledValue(output, SETTLE_MS.pipelineChart);
  return (
    <section aria-label={name} data-testid={name.startsWith('A') ? 'compare-pinned' : 'compare-current'} className={`${PANEL} flex min-w-0 flex-col gap-4`}>
      <h3 className={HEADING}>{name}</h3>
      <Slot what="memory chart"><MemoryChart output={memory} /></Slot>
      <Slot what="pipeline timeline"><PipelineChart output={timeline} /></Slot>
    </section>
  );
}

function PinnedPending({ pinned, current }: { pinned: PinnedConfiguration; current: EstimateOutput }) {
  return (
    <>
      {pinned.errors.length > 0 ? (
        <div role="alert" className="rounded-lg border border-red-700 bg-red-50 p-3 text-sm text-red-900 dark:border-red-400 dark:bg-red-950 dark:text-red-100">
          <p className="font-semibold">The pinned configuration cannot run:</p>
          <ul className="list-disc pl-5">{pinned.errors.map((e, i) => <li key={i}>{e}</li>)}</ul>
        </div>
      ) : <p role="status" className="text-sm text-gray-800 dark:text-gray-200">Computing the pinned configuration’s estimate…</p>}
      <Figures output={current} />
    </>
  );
}

export function CompareView({ current }: { current: EstimateOutput }) {
  const pinned = usePlanner((s) => s.pinned);
  const currentDocument = usePlanner((s) => s.outputDocument ?? s.document);
  if (!pinned) return null;
  return (
    <section aria-labelledby="compare-heading" data-testid="compare-view" className="flex flex-col gap-4">
      <h2 id="compare-heading" className={HEADING}>Comparison: pinned (A) and current (B)</h2>
      <Differences pinned={pinned.document} current={currentDocument} />
      {pinned.output ? (
        <>
          <FigureTable pinned={pinned.output} current={current} />
          <CompareMemoryBars pinned={pinned.output} current={current} />
          <p className="text-sm text-gray-700 dark:text-gray-300">Below, each chart keeps its own axis: compare the memory bars above for scale, and the timelines’ step lengths in their captions.</p>
          <div className="grid gap-4 min-[1100px]:grid-cols-2">
            <Column name="A pinned" output={pinned.output} />
            <Column name="B current" output={current} />
          </div>
        </>
      ) : <PinnedPending pinned={pinned} current={current} />}
    </section>
  );
}

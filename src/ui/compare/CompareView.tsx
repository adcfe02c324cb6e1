// The comparison view: the scenario table (every pin and the current configuration side
// by side, ScenarioTable.tsx), then one pin against the current configuration in
// detail: what differs, every key figure of both with the change, the ratio and a
// verdict in words, the most loaded GPU of each on one scale, and both configurations'
// memory charts and pipeline timelines side by side. The current column's figures carry
// the same test ids as the single view's, so tools reading the page find them either way.

import { Suspense, lazy, memo, useState, type ReactNode } from 'react';
import { SETTLE_MS, useSettledValue } from '../useSettledValue.ts';
import type { EstimateOutput } from '../../model/input/index.ts';
import type { PinnedConfiguration } from '../../state/compare.ts';
import type { Doc } from '../../state/doc.ts';
import { usePlanner } from '../../state/react.ts';
import { Figures } from '../Figures.tsx';
import { CompareMemoryBars } from './CompareMemoryBars.tsx';
import { compareFigures, VERDICT_TEXT, type FigureComparison, type Verdict } from './compareFigures.ts';
import { configDifferences } from './configDiff.ts';
import { CURRENT_NAME, ScenarioTable } from './ScenarioTable.tsx';
import { TableRegion } from '../TableRegion.tsx';

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
      {differences.length === 0 ? (
        <p>Nothing yet: change a control to compare another configuration with the pinned one.</p>
      ) : (
        <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {shown.map((d) => (
            <li key={d.field}>
              <span className="font-medium">{d.label}</span>: {d.pinnedText} → <span className="font-medium">{d.currentText}</span>
            </li>
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
      <th scope="row" className={`${CELL} text-left font-medium`}>
        {row.label}
      </th>
      <td className={CELL}>
        <span data-testid={`pinned-${row.id}`} data-value={row.pinned.value ?? ''}>
          {row.pinned.text}
        </span>
      </td>
      <td className={CELL}>
        <span data-testid={row.id} data-value={row.current.value ?? ''} className="font-semibold">
          {row.current.text}
        </span>
      </td>
      <td className={CELL}>
        <span data-testid={`delta-${row.id}`} data-value={row.delta ?? ''}>
          {row.deltaText}
        </span>
      </td>
      <td className={CELL}>
        <span data-testid={`ratio-${row.id}`} data-value={row.ratio ?? ''}>
          {row.ratioText}
        </span>
      </td>
      <td className={`${CELL} text-left`}>
        <span data-testid={`verdict-${row.id}`} className={VERDICT_CLASS[row.verdict]}>
          <span aria-hidden="true">{VERDICT_MARK[row.verdict]}</span>
          {VERDICT_TEXT[row.verdict]}
        </span>
      </td>
    </tr>
  );
}

function FigureTable({ pinned, current, name }: { pinned: EstimateOutput; current: EstimateOutput; name: string }) {
  const rows = compareFigures(pinned, current);
  return (
    <TableRegion label={`Figures of ${name} and the current configuration`}>
      <table className="w-full text-right text-sm tabular-nums text-gray-900 dark:text-gray-100">
        <caption className="mb-1 text-left text-sm text-gray-700 dark:text-gray-300">
          Every figure of the pinned scenario {name} and the current configuration; Δ is current − pinned, fractions in percentage points;
          memory is judged by the share of each one’s own GPU capacity.
        </caption>
        <thead>
          <tr>
            <th scope="col" className={`${CELL} text-left`}>
              Figure
            </th>
            <th scope="col" className={CELL}>
              {name} (pinned)
            </th>
            <th scope="col" className={CELL}>
              {CURRENT_NAME}
            </th>
            <th scope="col" className={CELL}>
              Δ (current − pinned)
            </th>
            <th scope="col" className={CELL}>
              Current ÷ pinned
            </th>
            <th scope="col" className={`${CELL} text-left`}>
              Current is
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <FigureRow key={row.id} row={row} />
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

function Slot({ children, what }: { children: ReactNode; what: string }) {
  return (
    <Suspense fallback={<p className="min-h-40 text-sm text-gray-700 dark:text-gray-300">Loading the {what}…</p>}>{children}</Suspense>
  );
}

function Column({ name, output, testId }: { name: string; output: EstimateOutput; testId: string }) {
  const memory = useSettledValue(output, SETTLE_MS.memoryChart);
  const timeline = useSettledValue(output, SETTLE_MS.pipelineChart);
  return (
    <section aria-label={name} data-testid={testId} data-export-label={name} className={`${PANEL} flex min-w-0 flex-col gap-4`}>
      <h3 className={HEADING}>{name}</h3>
      <Slot what="memory chart">
        <MemoryChart output={memory} />
      </Slot>
      <Slot what="pipeline timeline">
        <PipelineChart output={timeline} />
      </Slot>
    </section>
  );
}

function PinnedPending({ pinned, current }: { pinned: PinnedConfiguration; current: EstimateOutput }) {
  return (
    <>
      {pinned.errors.length > 0 ? (
        <div
          role="alert"
          className="rounded-lg border border-red-700 bg-red-50 p-3 text-sm text-red-900 dark:border-red-400 dark:bg-red-950 dark:text-red-100"
        >
          <p className="font-semibold">The pinned scenario {pinned.name} cannot run:</p>
          <ul className="list-disc pl-5">
            {pinned.errors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p role="status" className="text-sm text-gray-800 dark:text-gray-200">
          Computing the estimate of the pinned scenario {pinned.name}…
        </p>
      )}
      <Figures output={current} />
    </>
  );
}

export function CompareView({ current }: { current: EstimateOutput }) {
  const pins = usePlanner((s) => s.pinned);
  const currentDocument = usePlanner((s) => s.outputDocument ?? s.document);
  // The pin compared in detail: the one chosen, else the newest.
  const [chosen, setChosen] = useState<number | null>(null);
  if (pins.length === 0) return null;
  const index = chosen !== null && chosen < pins.length ? chosen : pins.length - 1;
  const pinned = pins[index];
  if (!pinned) return null;
  const pinnedName = `${pinned.name} (pinned)`;
  return (
    <section aria-labelledby="compare-heading" data-testid="compare-view" className="flex flex-col gap-4">
      <h2 id="compare-heading" className={HEADING}>
        Scenarios: {pins.length} pinned and the current configuration
      </h2>
      <ScenarioTable current={current} />
      <div className="flex flex-col gap-4" data-testid="compare-detail">
        <h3 className={HEADING}>In detail: {pinned.name} against the current configuration</h3>
        {pins.length > 1 && (
          <label className="flex flex-wrap items-center gap-2 text-sm text-gray-800 dark:text-gray-200">
            Compare the current configuration in detail with
            <select
              value={index}
              onChange={(e) => setChosen(Number(e.target.value))}
              data-testid="compare-detail-pin"
              className="rounded border border-gray-400 bg-white px-2 py-1 text-sm text-gray-900 dark:border-gray-500 dark:bg-gray-900 dark:text-gray-100"
            >
              {pins.map((p, i) => (
                <option key={i} value={i}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <Differences pinned={pinned.document} current={currentDocument} />
        {pinned.output ? (
          <>
            <FigureTable pinned={pinned.output} current={current} name={pinned.name} />
            <CompareMemoryBars pinned={pinned.output} current={current} pinnedName={pinnedName} currentName={CURRENT_NAME} />
            <p className="text-sm text-gray-700 dark:text-gray-300">
              Below, each chart keeps its own axis: compare the memory bars above for scale, and the timelines’ step lengths in their
              captions.
            </p>
            <div className="grid gap-4 min-[1100px]:grid-cols-2">
              <Column name={pinnedName} output={pinned.output} testId="compare-pinned" />
              <Column name={CURRENT_NAME} output={current} testId="compare-current" />
            </div>
          </>
        ) : (
          <PinnedPending pinned={pinned} current={current} />
        )}
      </div>
    </section>
  );
}

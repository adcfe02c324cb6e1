// The results column: the configuration's errors (the last valid results stay on
// screen below them), the key figures, and the charts, loaded lazily so the first
// script stays small and redrawn once the input settles, so the figures follow every move.

import { Suspense, lazy, memo, useDeferredValue, useRef, type ReactNode } from 'react';
import { SETTLE_MS, useSettledValue } from './useSettledValue.ts';
import type { EstimateOutput } from '../model/input/index.ts';
import { usePlanner } from '../state/react.ts';
import { CompareBar } from './compare/CompareBar.tsx';
import { CureButtons } from './cures/CureButtons.tsx';
import { Figures } from './Figures.tsx';
import { FitSuggestions } from './fit/FitSuggestions.tsx';
import { HostMemoryUse } from './HostMemoryUse.tsx';
import { FIGURE_GROUPS } from './keyFigures.ts';
import { messageInWords } from './errorWords.ts';
import { STALE_CLASS, STALE_TEXT, STRIP_FIGURE_IDS, SummaryStrip } from './SummaryStrip.tsx';
import { useNearView } from './useNearView.ts';
import { WhenIdle } from './WhenIdle.tsx';
import { RESULTS_ID } from './frame/jump.ts';

const MemoryChart = memo(lazy(() => import('./charts/MemoryChart.tsx')));
const PipelineChart = memo(lazy(() => import('./charts/PipelineChart.tsx')));
const StepBreakdownChart = memo(lazy(() => import('./charts/StepBreakdownChart.tsx')));
// Below the fold, and its curves are computed only once it is in view: not part of the first script.
const TradeoffPanel = lazy(() => import('./tradeoffs/TradeoffPanel.tsx'));
// Shown only while comparing, and at the end of the results: neither is part of the first script (initial JavaScript budget).
const CompareView = lazy(() => import('./compare/CompareView.tsx').then((m) => ({ default: m.CompareView })));
const CompletionPanel = lazy(() => import('./reliability/CompletionPanel.tsx').then((m) => ({ default: m.CompletionPanel })));

const MEMORY_FIGURES = ['memory'] as const;
const SPEED_FIGURES = ['speed'] as const;
const REST_OF_FIGURES = FIGURE_GROUPS.filter((g) => g !== 'memory' && g !== 'speed');

// Memoized so that the deferred render below redraws only what changed: the key figures first, then the rest.
const MemoFigures = memo(Figures);
// Below the fold: their code loads and renders once the page is idle after the first answer (WhenIdle).
const MemoExportMenu = memo(lazy(() => import('./ExportMenu.tsx').then((m) => ({ default: m.ExportMenu }))));
const MemoLaunchArgsPanel = memo(lazy(() => import('./launch/LaunchArgsPanel.tsx').then((m) => ({ default: m.LaunchArgsPanel }))));
const MemoSearchPanel = memo(lazy(() => import('./search/SearchPanel.tsx').then((m) => ({ default: m.SearchPanel }))));

const PANEL = 'rounded-lg border border-gray-300 p-4 dark:border-gray-700';

/**
 * A chart's panel; `round` > 0 draws it only after that many idle moments (WhenIdle), so the charts load one per task.
 * In one column (a phone) it draws once it nears the view (useNearView): there the charts sit below all the controls.
 */
function ChartSlot({ title, round = 0, children }: { title: string; round?: number; children: ReactNode }) {
  const slot = useRef<HTMLElement>(null);
  const near = useNearView(slot);
  const loading = <p className="min-h-40 text-sm text-gray-700 dark:text-gray-300">Loading the {title.toLowerCase()}…</p>;
  let body: ReactNode = loading;
  if (near)
    body =
      round > 0 ? (
        <WhenIdle round={round} fallback={loading}>
          {children}
        </WhenIdle>
      ) : (
        <Suspense fallback={loading}>{children}</Suspense>
      );
  return (
    <section ref={slot} aria-label={title} className={`${PANEL} panel-contained`}>
      {body}
    </section>
  );
}

export function ConfigErrors() {
  const errors = usePlanner((s) => s.errors);
  const hasOutput = usePlanner((s) => s.output !== null);
  if (errors.length === 0) return null;
  return (
    <div
      role="alert"
      className="rounded-lg border border-red-700 bg-red-50 p-3 text-sm text-red-900 dark:border-red-400 dark:bg-red-950 dark:text-red-100"
    >
      <p className="font-semibold">This configuration cannot run:</p>
      <ul className="list-disc pl-5">
        {errors.map((e, i) => (
          <li key={i}>{messageInWords(e)}</li>
        ))}
      </ul>
      <CureButtons />
      {hasOutput && <p className="mt-1">The figures below are {STALE_TEXT}, the last valid configuration.</p>}
    </div>
  );
}

function Warnings() {
  const warnings = usePlanner((s) => s.warnings);
  if (warnings.length === 0) return null;
  return (
    <details className="text-sm text-gray-800 dark:text-gray-200">
      <summary className="cursor-pointer font-medium">Notes from the engine ({warnings.length})</summary>
      <ul className="mt-1 list-disc pl-5">
        {warnings.map((w, i) => (
          <li key={i}>{w}</li>
        ))}
      </ul>
    </details>
  );
}

/** The memory chart, redrawn once the input settles (useSettledValue). */
function MemoryCharts({ output }: { output: EstimateOutput }) {
  const deferred = useSettledValue(output, SETTLE_MS.memoryChart);
  return (
    <ChartSlot title="Memory chart">
      <MemoryChart output={deferred} />
      <HostMemoryUse output={deferred} />
    </ChartSlot>
  );
}

function SpeedCharts({ output }: { output: EstimateOutput }) {
  const timeline = useSettledValue(output, SETTLE_MS.pipelineChart);
  const breakdown = useSettledValue(output, SETTLE_MS.stepBreakdownChart);
  return (
    <>
      <ChartSlot title="Pipeline timeline" round={1}>
        <PipelineChart output={timeline} />
      </ChartSlot>
      <ChartSlot title="Step-time breakdown" round={2}>
        <StepBreakdownChart output={breakdown} />
      </ChartSlot>
    </>
  );
}

/** Shown until the first estimate arrives, or while the opening configuration has errors. */
export function NoResults() {
  const hasErrors = usePlanner((s) => s.errors.length > 0);
  return (
    <p role="status" className={`${PANEL} text-sm text-gray-800 dark:text-gray-200`}>
      {hasErrors ? 'No results yet: correct the errors above to see memory, time and cost.' : 'Computing the first estimate…'}
    </p>
  );
}

export function Results() {
  const output = usePlanner((s) => s.output);
  // The figures on screen belong to the last valid input while the current one has errors.
  const stale = usePlanner((s) => s.errors.length > 0);
  const document = usePlanner((s) => s.outputDocument);
  const answers = usePlanner((s) => s.answers);
  const comparing = usePlanner((s) => s.pinned.length > 0);
  // The memory and speed figures follow each answer in the same frame; the rest of the column (cost, reliability,
  // exports, launch arguments) is rendered right after, at lower priority, so a dragged slider's key figures never wait for it.
  const laterOutput = useDeferredValue(output);
  const laterDocument = useDeferredValue(document);
  // Counted once the whole column shows the answer; aria-busy says meanwhile that part of it is still the previous one.
  const laterAnswers = useDeferredValue(answers);
  const busy = laterOutput !== output || laterDocument !== document || laterAnswers !== answers;
  return (
    // From 700 px (two columns) the results stay in view (their own scroll area) while the controls scroll, the summary
    // strip pinned at its top; in one column the strip pins to the window. tabIndex lets keyboards scroll it.
    <div
      role="region"
      aria-label="Results"
      id={RESULTS_ID}
      tabIndex={0}
      data-testid="results"
      data-answers={laterAnswers}
      aria-busy={busy ? true : undefined}
      className={
        'flex min-w-0 flex-col gap-4 rounded-lg focus-visible:outline-2 focus-visible:outline-blue-700 ' +
        'min-[700px]:sticky min-[700px]:top-4 min-[700px]:max-h-[calc(100vh-2rem)] min-[700px]:overflow-y-auto dark:focus-visible:outline-blue-300'
      }
    >
      <ConfigErrors />
      <CompareBar />
      {output ? (
        <>
          {comparing ? (
            <Suspense fallback={<p className="text-sm text-gray-700 dark:text-gray-300">Loading the comparison…</p>}>
              <CompareView current={output} />
            </Suspense>
          ) : (
            <>
              <SummaryStrip output={output} document={document} stale={stale} />
              {/* Each chart sits under the figures it explains: memory, then speed, then the rest. The first answer
                draws the strip at once and this block in the deferred render, in slices that yield (page load's
                total blocking time); from then on the block follows each answer in the same frame as the strip. */}
              {laterOutput && (
                <div data-stale={stale ? 'true' : undefined} className={`flex flex-col gap-4 ${stale ? STALE_CLASS : ''}`}>
                  {stale && <p className="sr-only">The figures and charts below are {STALE_TEXT}.</p>}
                  <MemoryCharts output={output} />
                  <FitSuggestions output={output} document={document} />
                  <MemoFigures output={output} groups={MEMORY_FIGURES} summarized={STRIP_FIGURE_IDS} />
                  <MemoFigures output={output} groups={SPEED_FIGURES} summarized={STRIP_FIGURE_IDS} />
                  <SpeedCharts output={output} />
                  <MemoFigures output={laterOutput} groups={REST_OF_FIGURES} summarized={STRIP_FIGURE_IDS} />
                  <Suspense fallback={null}>
                    <CompletionPanel output={laterOutput} />
                  </Suspense>
                </div>
              )}
            </>
          )}
          <Warnings />
          <WhenIdle round={3}>
            {laterOutput && <MemoExportMenu document={laterDocument} output={laterOutput} />}
            <MemoLaunchArgsPanel document={laterDocument} />
          </WhenIdle>
          <Suspense fallback={null}>
            <TradeoffPanel />
          </Suspense>
        </>
      ) : (
        <NoResults />
      )}
      <WhenIdle round={3}>
        <MemoSearchPanel />
      </WhenIdle>
    </div>
  );
}

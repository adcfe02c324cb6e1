// "Find the best layout": the parallel-layout search (model/search) on the current
// configuration, or "Size the cluster" (which GPU, how many, which layout), in a worker of
// its own started only when Search is pressed. A progress bar follows it, Cancel stops it
// with the part searched, the results table (one row per layout, its variants folded)
// sorts by any figure and "Apply" loads a layout into the sliders; the Pareto front, or
// when sizing the cost against days of each GPU type, is drawn lazily.

import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import type { SearchDocumentOutput } from '../../model/search/index.ts';
import type { SearchProgress } from '../../model/search/index.ts';
import { countAt } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { createSearchWorker } from '../../worker/start-workers.ts';
import { startSearch, type SearchJob } from '../../worker/search-client.ts';
import { BUTTON } from '../buttons.ts';
import { SEARCH_PANEL_ID } from '../frame/jump.ts';
import { SETTLE_MS, useSettledValue } from '../useSettledValue.ts';
import { formatCount, formatPercent } from '../format.ts';
import { SearchFormFields, type FormText } from './SearchFormFields.tsx';
import { SearchResultsTable } from './SearchResultsTable.tsx';
import { formFromDocument, readForm } from './searchForm.ts';
import { searchDocumentOf, searchOptionsOf, searchQuestionKey, withLayout, type SearchForm } from './searchRequest.ts';
import { searchRows, layoutText, type SearchRow, type VariantRow } from './searchTable.ts';

const ParetoChart = lazy(() => import('./ParetoChart.tsx'));
const CostDaysChart = lazy(() => import('./CostDaysChart.tsx'));

type Phase =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly progress: SearchProgress | null; readonly cancelling: boolean }
  | {
      readonly kind: 'finished';
      readonly output: SearchDocumentOutput | null;
      readonly cancelled: boolean;
      readonly form: SearchForm;
      /** searchQuestionKey of the document searched: the results are stale once the current document's differs. */
      readonly question: string;
    }
  | { readonly kind: 'failed'; readonly lines: readonly string[] };

function progressText(progress: SearchProgress | null, cancelling: boolean): string {
  if (cancelling) return 'Cancelling…';
  if (!progress) return 'Starting the search…';
  return `Searching… ${formatPercent(progress.fraction)} of ${formatCount(progress.layouts)} layouts; ${formatCount(progress.fitting)} fit so far.`;
}

function finishedText(output: SearchDocumentOutput | null, cancelled: boolean): string {
  if (!output) return 'Search cancelled before it returned any layout.';
  const done = output.evaluated + output.memoryOnly + output.pruned;
  const counts = `${formatCount(output.evaluated)} evaluated, ${formatCount(output.memoryOnly)} over memory, ${formatCount(output.pruned)} ruled out by bounds`;
  if (cancelled)
    return `Search cancelled after ${formatCount(done)} of ${formatCount(output.layouts)} layouts (${counts}): the results cover the part searched.`;
  const range = output.sizing?.gpuRange;
  const over = output.sizing
    ? ` on ${output.sizing.gpuTypes.length} GPU ` +
      `${output.sizing.gpuTypes.length === 1 ? 'type' : 'types'}${range ? `, ${formatCount(range.min)} to ${formatCount(range.max)} GPUs` : ''}`
    : '';
  return `Searched ${formatCount(output.layouts)} layouts${over} (${counts}); ${formatCount(output.fitting)} fit.`;
}

function StatusLine({ phase }: { phase: Phase }) {
  let lines: readonly string[] = [];
  if (phase.kind === 'running') lines = [progressText(phase.progress, phase.cancelling)];
  else if (phase.kind === 'finished')
    lines = [finishedText(phase.output, phase.cancelled), ...(phase.output?.errors ?? []), ...(phase.output?.warnings ?? [])];
  else if (phase.kind === 'failed') lines = phase.lines;
  return (
    <div
      role="status"
      data-testid="search-status"
      className={`text-sm ${phase.kind === 'failed' ? 'text-red-700 dark:text-red-300' : 'text-gray-800 dark:text-gray-200'}`}
    >
      {lines.map((line, i) => (
        <p key={i}>{line}</p>
      ))}
    </div>
  );
}

export function SearchPanel() {
  const store = usePlannerStore();
  // The form's hints follow the configuration once the input settles (a search reads the store's newest document).
  const document = useSettledValue(
    usePlanner((s) => s.document),
    SETTLE_MS.rest,
  );
  const clusterGpus = countAt(document, ['cluster', 'gpus']);
  // A document with a `search` block opens the panel on its question.
  const [form, setForm] = useState<FormText>(() => formFromDocument(store.getState().document));
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [applied, setApplied] = useState<string | null>(null);
  const job = useRef<SearchJob | null>(null);

  // Leaving the page (or the panel) stops the search and its worker.
  useEffect(() => () => job.current?.cancel(), []);

  const run = async () => {
    const read = readForm(form);
    if ('errors' in read) {
      setPhase({ kind: 'failed', lines: read.errors });
      return;
    }
    const current = store.getState().document;
    setApplied(null);
    setPhase({ kind: 'running', progress: null, cancelling: false });
    const started = startSearch(
      createSearchWorker,
      searchDocumentOf(current, read.form.mode),
      searchOptionsOf(current, read.form),
      (progress) => setPhase((p) => (p.kind === 'running' ? { ...p, progress } : p)),
    );
    job.current = started;
    const outcome = await started.outcome;
    if (job.current !== started) return;
    job.current = null;
    if (outcome.kind === 'failed') setPhase({ kind: 'failed', lines: [`The search failed: ${outcome.error}.`] });
    else
      setPhase({
        kind: 'finished',
        output: outcome.output,
        cancelled: outcome.kind === 'cancelled',
        form: read.form,
        question: searchQuestionKey(current, read.form),
      });
  };

  const cancel = () => {
    job.current?.cancel();
    setPhase((p) => (p.kind === 'running' ? { ...p, cancelling: true } : p));
  };

  const running = phase.kind === 'running';
  const output = phase.kind === 'finished' ? phase.output : null;
  const fraction = running ? (phase.progress?.fraction ?? 0) : output ? 1 : 0;
  const sizing = phase.kind === 'finished' && phase.form.mode === 'sizing' ? (phase.form.sizing ?? null) : null;
  // The results answer the document searched; after a change of model, cluster, batch or stack they say so (ux.md 18).
  const stale = phase.kind === 'finished' && searchQuestionKey(document, phase.form) !== phase.question;
  const apply = (row: SearchRow, variant: VariantRow | null) => {
    const chosen = variant ? { ...variant.variant, cluster: row.result.cluster } : row.result;
    store.getState().replaceDocument(withLayout(store.getState().document, chosen));
    const what = variant ? `layout ${row.rank}, variant ${variant.index}` : `layout ${row.rank}`;
    const gpu = sizing === null ? '' : ` on ${row.gpuName}`;
    setApplied(`Applied ${what}: ${layoutText(chosen)}${gpu}.`);
  };
  return (
    <details id={SEARCH_PANEL_ID} data-testid="search-panel" className="rounded-lg border border-gray-300 p-4 dark:border-gray-700">
      <summary
        className={
          'cursor-pointer text-base font-semibold text-gray-900 focus-visible:outline-2 ' +
          'focus-visible:outline-blue-700 dark:text-gray-100 dark:focus-visible:outline-blue-300'
        }
      >
        Find the best layout
      </summary>
      <div className="mt-3 flex flex-col gap-3">
        <p className="text-xs text-gray-700 dark:text-gray-300">
          Searches every valid combination of parallel degrees, micro-batch and recomputation for this model, cluster and batch, keeps those
          that fit in memory with the margin kept free, and ranks the layouts, each by its best variant (branch and bound: the answer is the
          exhaustive search’s). Sizing the cluster also searches every GPU count of a range on each GPU type.
        </p>
        <SearchFormFields form={form} document={document} clusterGpus={clusterGpus} disabled={running} onChange={setForm} />
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" className={BUTTON} disabled={running} onClick={() => void run()}>
            Search
          </button>
          <button type="button" className={BUTTON} disabled={!running || phase.cancelling} onClick={cancel}>
            Cancel
          </button>
          <progress className="h-2 min-w-32 flex-1" max={1} value={fraction} aria-label="Search progress" data-testid="search-progress" />
        </div>
        <StatusLine phase={phase} />
        {stale && (
          <p data-testid="search-stale" role="status" className="text-sm font-medium text-amber-900 dark:text-amber-200">
            These layouts were found for an earlier configuration (the model, cluster, batch or stack has changed since): press Search to
            search this one.
          </p>
        )}
        {output && output.results.length > 0 && (
          <div className={`flex flex-col gap-3 ${stale ? 'border-l-4 border-amber-500 pl-3' : ''}`} data-stale={stale ? 'true' : undefined}>
            <SearchResultsTable rows={searchRows(output.results)} sizing={sizing !== null} onApply={apply} />
            <p role="status" className="text-sm text-gray-800 dark:text-gray-200">
              {applied}
            </p>
            <Suspense fallback={<p className="min-h-40 text-sm text-gray-700 dark:text-gray-300">Loading the chart…</p>}>
              {sizing !== null ? (
                <CostDaysChart fronts={output.costFronts} maxDays={sizing.maxDays} />
              ) : (
                <ParetoChart front={output.pareto} />
              )}
            </Suspense>
          </div>
        )}
      </div>
    </details>
  );
}

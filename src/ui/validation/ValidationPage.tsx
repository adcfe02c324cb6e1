// The Validation page (`#/validation`): every published run of
// validation/published-runs.json with our prediction and its error, the overall
// summary `npm run validate` prints, errors grouped by GPU, precision, source and
// cluster size, and scatter charts of predicted against published. The runs load and
// validate in a worker of their own only when the page opens.

import { useEffect, useMemo, useRef, useState } from 'react';
import type { CaseResult } from '../../model/validation/index.ts';
import { createEngineWorker } from '../../worker/start-workers.ts';
import { runValidation, type ValidationProgress } from '../../worker/validation-client.ts';
import { FilterControls, GroupTable, OverallSummary } from './ValidationSummary.tsx';
import { ValidationScatter } from './ValidationScatter.tsx';
import { CaseTable, SourceList } from './ValidationTable.tsx';
import { NO_FILTERS, filterCases, summaries, type Filters } from './validationView.ts';

type LoadState =
  | { readonly status: 'loading'; readonly progress: ValidationProgress | null }
  | { readonly status: 'error'; readonly message: string }
  | { readonly status: 'ready'; readonly cases: readonly CaseResult[] };

/** The validated cases survive leaving and reopening the page: the engine is deterministic. */
let finished: readonly CaseResult[] | null = null;

function useValidation(): LoadState {
  const [state, setState] = useState<LoadState>(() =>
    finished ? { status: 'ready', cases: finished } : { status: 'loading', progress: null },
  );
  useEffect(() => {
    if (finished) return;
    const abort = new AbortController();
    runValidation(createEngineWorker, (progress) => setState({ status: 'loading', progress }), abort.signal).then(
      (cases) => {
        finished = cases;
        setState({ status: 'ready', cases });
      },
      (error: unknown) => {
        if (!abort.signal.aborted) setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => abort.abort();
  }, []);
  return state;
}

function Progress({ progress }: { progress: ValidationProgress | null }) {
  const text = progress
    ? `Computing predictions: ${progress.done} of ${progress.total} published runs…`
    : 'Loading the published runs (1.2 MB)…';
  return (
    <div
      role="status"
      data-testid="validation-loading"
      className="flex flex-col gap-2 rounded-lg border border-gray-300 p-4 text-sm text-gray-800 dark:border-gray-700 dark:text-gray-200"
    >
      <p>{text}</p>
      <progress className="w-full max-w-md" aria-label="Validation progress" value={progress?.done ?? 0} max={progress?.total ?? 1} />
    </div>
  );
}

function Results({ cases }: { cases: readonly CaseResult[] }) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const withFigures = useMemo(() => cases.filter((c) => c.rows.length > 0), [cases]);
  const overall = useMemo(() => summaries(withFigures), [withFigures]);
  const shown = useMemo(() => filterCases(withFigures, filters), [withFigures, filters]);
  const filtered = shown.length !== withFigures.length;
  return (
    <>
      <OverallSummary summary={overall} cases={withFigures.length} />
      <GroupTable cases={withFigures} />
      <section aria-labelledby="validation-cases-heading" className="flex flex-col gap-3">
        <h3 id="validation-cases-heading" className="text-lg font-semibold text-gray-900 dark:text-gray-50">
          Every case
        </h3>
        <FilterControls cases={withFigures} filters={filters} onChange={setFilters} />
        {filtered && <OverallSummary summary={summaries(shown)} cases={shown.length} filtered />}
        <ValidationScatter cases={shown} />
        <CaseTable cases={shown} all={withFigures} />
      </section>
      <SourceList cases={withFigures} />
    </>
  );
}

export default function ValidationPage() {
  const state = useValidation();
  const heading = useRef<HTMLHeadingElement>(null);
  // Opening the page moves focus to its heading, so keyboard and screen-reader users start at the top of it.
  useEffect(() => heading.current?.focus(), []);
  return (
    <main aria-labelledby="validation-heading" data-testid="validation-page" className="flex min-w-0 flex-col gap-5">
      <div className="flex flex-col gap-1">
        <h2
          id="validation-heading"
          ref={heading}
          tabIndex={-1}
          className="text-xl font-semibold text-gray-900 focus:outline-none dark:text-gray-50"
        >
          How close are the estimates? Validation against published runs
        </h2>
        <p className="max-w-4xl text-sm text-gray-800 dark:text-gray-200">
          Each case is a training run whose throughput or memory its publisher measured (NVIDIA NeMo and Megatron-Bridge, MosaicML
          llm-foundry, PyTorch torchtitan, the Megatron-LM and ZeRO papers), turned into this planner's input. The error is (predicted −
          published) ÷ published: positive means the planner over-predicts. The same computation runs in{' '}
          <code className="font-mono">npm run validate</code>, and its spread sets the ranges shown beside the planner's figures.
        </p>
      </div>
      {state.status === 'loading' && <Progress progress={state.progress} />}
      {state.status === 'error' && (
        <p role="alert" className="rounded-lg border border-red-700 p-3 text-sm text-red-800 dark:border-red-400 dark:text-red-200">
          The published runs could not be validated: {state.message}. Reload the page to try again.
        </p>
      )}
      {state.status === 'ready' && <Results cases={state.cases} />}
    </main>
  );
}

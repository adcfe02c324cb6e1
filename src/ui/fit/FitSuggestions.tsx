// "Will not fit" is not the end of the answer: the changes that make the run fit, in the
// order a person tries them (issue 31 item 4: on the user's own GPUs first, then the fewest
// GPUs that fit, then the best layout on any count), each with its memory and its price in
// tokens per second and days, one button each. The list comes from the engine in workers of
// its own (fit-suggestions.ts through suggest-client.ts): the quick knob fixes first, then the
// full list with the layout searches; this component only asks, shows and applies.

import { useEffect, useReducer, useRef } from 'react';
import type { EstimateOutput } from '../../model/input/index.ts';
import type { FitGroup, FitSuggestion } from '../../model/search/index.ts';
import { withFieldChanges, type Doc } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import type { FitSuggestionsAnswer } from '../../worker/api.ts';
import { fullFixes, quickFixes } from '../../worker/page-clients.ts';
import { BUTTON } from '../buttons.ts';
import { formatCount, formatDays, formatGiB, formatNumber, formatPercent, formatTokensPerSecond } from '../format.ts';

/**
 * Edits closer together than this ask once, when they stop (a dragged slider); an edit after a
 * quiet spell asks at once, in parallel with its estimate (issue 31 item 4: the first fixes
 * within 2 s of the edit).
 */
const ASK_AFTER_MS = 300;

/** The document with the suggestion's fields set: what one click applies. */
export function withSuggestion(document: Doc, suggestion: Pick<FitSuggestion, 'changes'>): Doc {
  return withFieldChanges(document, suggestion.changes);
}

/** "−12 % tokens/s" / "+3 % tokens/s": the price of a fix in throughput. */
export function speedChangeText(change: number): string {
  if (Math.abs(change) < 0.0005) return 'same tokens/s';
  return `${change > 0 ? '+' : '−'}${formatPercent(Math.abs(change))} tokens/s`;
}

function SuggestionButton({ suggestion, gpus, onApply }: { suggestion: FitSuggestion; gpus: number; onApply: () => void }) {
  const tight = suggestion.verdict === 'tight';
  const more = suggestion.gpus !== gpus ? `, on ${formatNumber(suggestion.gpus / gpus)}× the GPUs` : '';
  return (
    <li>
      <button
        type="button"
        onClick={onApply}
        data-testid="fit-suggestion"
        data-verdict={suggestion.verdict}
        data-group={suggestion.group}
        data-gpus={suggestion.gpus}
        className={`${BUTTON} flex w-full flex-col items-start gap-0.5 text-left`}
      >
        <span>{suggestion.label}</span>
        {suggestion.changesTraining && (
          <span className="text-xs font-normal text-amber-900 dark:text-amber-200">
            Changes the training: {suggestion.changesTraining}.
          </span>
        )}
        <span className="text-xs font-normal text-gray-700 dark:text-gray-300">
          {formatGiB(suggestion.memoryBytes)} per GPU{tight ? ' (tight)' : ''} · {formatTokensPerSecond(suggestion.tokensPerSecond)} (
          {speedChangeText(suggestion.tokensPerSecondChange)}
          {more}){suggestion.days !== null ? ` · ${formatDays(suggestion.days)}` : ''}
        </span>
      </button>
    </li>
  );
}

interface Fixes {
  /** The newest answer: the full list once it has come, else the quick one. */
  readonly answer: FitSuggestionsAnswer;
  /** The layout searches are still running. */
  readonly searching: boolean;
}

interface Answers {
  readonly quick: FitSuggestionsAnswer;
  readonly full: FitSuggestionsAnswer | null;
}

/**
 * The fixes for `document` (the configuration the figures are for). Every edit is asked at once,
 * beside its estimate (a configuration that fits costs the worker one estimate); a configuration
 * that was never edited (a link that does not fit) is asked when its figures say it does not fit.
 * The quick knob fixes come first, then the full list with the layout searches, stopped when the
 * input moves on.
 */
function useFixes(document: Doc | null, wanted: boolean): Fixes | null | 'asking' {
  const store = usePlannerStore();
  const answers = useRef(new WeakMap<Doc, Answers>());
  const ask = useRef<(doc: Doc) => void>(() => {});
  const asked = useRef<Doc | null>(null);
  const [, answered] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    let live = true;
    let stop: AbortController | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = -Infinity;
    ask.current = (doc) => {
      asked.current = doc;
      last = performance.now();
      stop?.abort();
      const signal = (stop = new AbortController()).signal;
      const [first, then] = [quickFixes(), fullFixes()];
      void first.request(doc).then((a) => {
        if (!live || !a) return;
        answers.current.set(doc, { quick: a, full: null });
        answered();
        if (!a.ok || a.fits || signal.aborted) return;
        void then.request(doc, signal).then((b) => {
          if (!live || !b) return;
          answers.current.set(doc, { quick: a, full: b });
          answered();
        });
      });
    };
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.document === previous.document) return;
      clearTimeout(timer);
      const doc = state.document;
      if (performance.now() - last >= ASK_AFTER_MS) ask.current(doc);
      else timer = setTimeout(() => ask.current(doc), ASK_AFTER_MS);
    });
    return () => {
      live = false;
      unsubscribe();
      clearTimeout(timer);
      stop?.abort();
    };
  }, [store]);
  useEffect(() => {
    if (wanted && document && !answers.current.has(document) && asked.current !== document) ask.current(document);
  }, [wanted, document]);
  if (!wanted || !document) return null;
  const found = answers.current.get(document);
  if (!found) return 'asking';
  const answer = found.full && found.full.ok ? found.full : found.quick;
  return { answer, searching: found.full === null && found.quick.ok && !found.quick.fits };
}

const GROUP_TITLES: Readonly<Record<FitGroup, (gpus: number) => string>> = {
  sameGpus: (gpus) => `On your ${formatCount(gpus)} ${gpus === 1 ? 'GPU' : 'GPUs'}, same model`,
  fewestGpus: () => 'The fewest GPUs that fit',
  anyCount: () => 'Best layout on any GPU count (a different cluster)',
};

/** Under the memory figures of a run that does not fit: the fixes, in the order to try them. */
export function FitSuggestions({ output, document }: { output: EstimateOutput; document: Doc | null }) {
  const store = usePlannerStore();
  // While the input is invalid the figures above are the last good input's, and so are these fixes.
  const stale = usePlanner((st) => st.errors.length > 0);
  const wanted = output.errors.length === 0 && !output.memory.fits;
  const fixes = useFixes(document, wanted);
  if (!wanted || fixes === null) return null;
  const apply = (s: FitSuggestion) => store.getState().replaceDocument(withSuggestion(store.getState().document, s));
  const answer = fixes === 'asking' ? null : fixes.answer;
  const searching = fixes !== 'asking' && fixes.searching;
  return (
    <section
      aria-labelledby="fit-suggestions-title"
      data-testid="fit-suggestions"
      aria-busy={fixes === 'asking' || searching ? true : undefined}
      data-stale={stale ? 'true' : undefined}
      className={
        `rounded-lg border border-amber-600 bg-amber-50 p-3 text-sm text-gray-900 dark:border-amber-400 ` +
        `dark:bg-gray-900 dark:text-gray-100 ${stale ? 'border-dashed' : ''}`
      }
    >
      <h2 id="fit-suggestions-title" className="font-semibold">
        Make it fit{stale && <span className="font-normal"> (for the previous input)</span>}
      </h2>
      {answer === null && <p role="status">Looking for the changes that make this run fit…</p>}
      {answer !== null && !answer.ok && <p role="status">No fixes: {answer.errors.join('; ')}</p>}
      {answer !== null && answer.ok && (
        <>
          {answer.suggestions.length === 0 && !searching && (
            <p role="status">
              No change of micro-batch, sequence length, recomputation, ZeRO stage, optimizer, offload, adapter or layout on these GPUs,
              alone or two or three together, makes this run fit, and the layout search finds no layout that fits on up to 64× as many GPUs.
            </p>
          )}
          {answer.suggestions.length > 0 && (
            <p className="text-gray-700 dark:text-gray-300">
              Now {formatGiB(answer.memoryBytes)} of {formatGiB(answer.capacityBytes)}, {formatTokensPerSecond(answer.tokensPerSecond)}
              {answer.days !== null ? `, ${formatDays(answer.days)}` : ''}. In the order to try them: first what keeps your GPUs and model
              (changes to what is trained last), then the fewest GPUs that fit, then the best layout on any count; within each, safe before
              tight, then most tokens/s per GPU. Select one to apply it.
            </p>
          )}
          {/* The engine gives the fixes in group order (fit-suggestions.ts); each group in the order its first fix comes. */}
          {[...new Set(answer.suggestions.map((s) => s.group))].map((group) => {
            const list = answer.suggestions.filter((s) => s.group === group);
            if (list.length === 0) return null;
            return (
              <div key={group} data-testid={`fit-group-${group}`} className="mt-2">
                <h3 className="font-medium">{GROUP_TITLES[group](answer.gpus)}</h3>
                <ul className="mt-1 flex flex-col gap-1.5">
                  {list.map((s) => (
                    <SuggestionButton key={s.label} suggestion={s} gpus={answer.gpus} onApply={() => apply(s)} />
                  ))}
                </ul>
              </div>
            );
          })}
          {searching && (
            <p role="status" className="mt-2 text-gray-700 dark:text-gray-300">
              Searching layouts on these GPUs and on other counts…
            </p>
          )}
        </>
      )}
    </section>
  );
}

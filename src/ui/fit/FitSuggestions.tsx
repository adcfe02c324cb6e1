// "Will not fit" is not the end of the answer: the smallest changes that make the run
// fit, each with its memory and its price in tokens per second, one button each. The
// list comes from the engine in a worker of its own (fit-suggestions.ts through
// suggest-client.ts); this component only asks, shows and applies.

import { useEffect, useState } from 'react';
import type { EstimateOutput } from '../../model/input/index.ts';
import type { FitSuggestion } from '../../model/search/index.ts';
import { withFieldChanges, type Doc } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import type { FitSuggestionsAnswer } from '../../worker/api.ts';
import { createEngineWorker } from '../../worker/create-worker.ts';
import { createFitSuggester, type FitSuggester } from '../../worker/suggest-client.ts';
import { BUTTON } from '../buttons.ts';
import { formatGiB, formatNumber, formatPercent, formatTokensPerSecond } from '../format.ts';
import { useSettledValue } from '../useSettledValue.ts';

/** Quiet time before the fixes are asked for: a dragged slider asks once, when it stops. */
const ASK_AFTER_MS = 300;

let shared: FitSuggester | null = null;
function suggester(): FitSuggester {
  shared ??= createFitSuggester(createEngineWorker);
  return shared;
}

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
      <button type="button" onClick={onApply} data-testid="fit-suggestion" data-verdict={suggestion.verdict}
        className={`${BUTTON} flex w-full flex-col items-start gap-0.5 text-left`}>
        <span>{suggestion.label}</span>
        <span className="text-xs font-normal text-gray-700 dark:text-gray-300">
          {formatGiB(suggestion.memoryBytes)} per GPU{tight ? ' (tight)' : ''} · {formatTokensPerSecond(suggestion.tokensPerSecond)}
          {' '}({speedChangeText(suggestion.tokensPerSecondChange)}{more})
        </span>
      </button>
    </li>
  );
}

function useFixes(document: Doc | null, wanted: boolean): FitSuggestionsAnswer | null | 'asking' {
  const settled = useSettledValue(wanted ? document : null, ASK_AFTER_MS);
  const [answer, setAnswer] = useState<{ for: Doc; answer: FitSuggestionsAnswer } | null>(null);
  useEffect(() => {
    if (!settled) return undefined;
    let live = true;
    void suggester().request(settled).then((a) => {
      if (live && a) setAnswer({ for: settled, answer: a });
    });
    return () => { live = false; };
  }, [settled]);
  if (!wanted || !document) return null;
  return answer && answer.for === document ? answer.answer : 'asking';
}

/** Under the memory figures of a run that does not fit: the fixes, best first. */
export function FitSuggestions({ output, document }: { output: EstimateOutput; document: Doc | null }) {
  const store = usePlannerStore();
  // While the input is invalid the figures above are the last good input's, and so are these fixes.
  const stale = usePlanner((st) => st.errors.length > 0);
  const wanted = output.errors.length === 0 && !output.memory.fits;
  const fixes = useFixes(document, wanted);
  if (!wanted || fixes === null) return null;
  const apply = (s: FitSuggestion) => store.getState().replaceDocument(withSuggestion(store.getState().document, s));
  return (
    <section aria-labelledby="fit-suggestions-title" data-testid="fit-suggestions"
      aria-busy={fixes === 'asking' ? true : undefined} data-stale={stale ? 'true' : undefined}
      className={`rounded-lg border border-amber-600 bg-amber-50 p-3 text-sm text-gray-900 dark:border-amber-400 dark:bg-gray-900 dark:text-gray-100 ${stale ? 'border-dashed' : ''}`}>
      <h2 id="fit-suggestions-title" className="font-semibold">Make it fit{stale && <span className="font-normal"> (for the previous input)</span>}</h2>
      {fixes === 'asking' && <p role="status">Looking for the smallest changes that make this run fit…</p>}
      {fixes !== 'asking' && !fixes.ok && <p role="status">No fixes: {fixes.errors.join('; ')}</p>}
      {fixes !== 'asking' && fixes.ok && (fixes.suggestions.length === 0
        ? <p role="status">No single change (or pair) of ZeRO, recomputation, micro-batch, TP, PP, CP, EP, offload or up to 64× the GPUs makes this run fit, and the layout search finds no layout that fits on these GPUs or on up to 64× as many.</p>
        : (<>
          <p className="text-gray-700 dark:text-gray-300">
            Each of these makes it fit (now {formatGiB(fixes.memoryBytes)} of {formatGiB(fixes.capacityBytes)}, {formatTokensPerSecond(fixes.tokensPerSecond)}); safe fixes first, then tight ones, each group cheapest per token (most tokens/s per GPU) first. Select one to apply it.
          </p>
          <ul className="mt-2 flex flex-col gap-1.5">
            {fixes.suggestions.map((s) => <SuggestionButton key={s.label} suggestion={s} gpus={fixes.gpus} onApply={() => apply(s)} />)}
          </ul>
        </>))}
    </section>
  );
}

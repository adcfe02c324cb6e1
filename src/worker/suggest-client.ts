// The page's side of "from no to yes": the fixes for a run that does not fit
// (fit-suggestions.ts), from a worker of their own (latest-client.ts: newest request
// wins, a crash or a timeout is an error value).

import type { FitSuggestionsAnswer } from './api.ts';
import type { WorkerLike } from './session.ts';
import { createLatestClient, type LatestClient } from './latest-client.ts';

/**
 * The knob fixes run the engine a few dozen times (well under a second); with the layout searches
 * (on these GPUs, the fewest that fit, any count) several seconds on a slow machine.
 */
export const SUGGEST_TIMEOUT_MS = 30_000;

/** The fixes for a document; null when a newer request superseded it. */
export type FitSuggester = LatestClient<unknown, FitSuggestionsAnswer>;

/**
 * `layouts: false`: the quick knob fixes alone, for the page's first answer; true: with the layout
 * searches. The page keeps one client of each, so a quick answer never waits behind a search.
 */
export function createFitSuggester(createWorker: () => WorkerLike, timeoutMs = SUGGEST_TIMEOUT_MS, layouts = true): FitSuggester {
  return createLatestClient<unknown, FitSuggestionsAnswer>(createWorker, {
    ask: (remote, document) => remote.fitSuggestions(document, layouts),
    failure: (reason) => ({ ok: false, errors: [reason] }),
    what: 'the fixes',
    timeoutMs,
  });
}

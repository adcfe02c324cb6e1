// The page's side of "from no to yes": the fixes for a run that does not fit
// (fit-suggestions.ts), from a worker of their own (latest-client.ts: newest request
// wins, a crash or a timeout is an error value).

import type { FitSuggestionsAnswer } from './api.ts';
import type { WorkerLike } from './session.ts';
import { createLatestClient, type LatestClient } from './latest-client.ts';

/** A list of fixes runs the engine a few dozen times: well under a second, except on a cold worker on a slow machine. */
export const SUGGEST_TIMEOUT_MS = 20_000;

/** The fixes for a document; null when a newer request superseded it. */
export type FitSuggester = LatestClient<unknown, FitSuggestionsAnswer>;

export function createFitSuggester(createWorker: () => WorkerLike, timeoutMs = SUGGEST_TIMEOUT_MS): FitSuggester {
  return createLatestClient<unknown, FitSuggestionsAnswer>(createWorker, {
    ask: (remote, document) => remote.fitSuggestions(document),
    failure: (reason) => ({ ok: false, errors: [reason] }),
    what: 'the fixes',
    timeoutMs,
  });
}

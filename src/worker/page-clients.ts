// The page's background clients, each started at its first request and kept for the page's
// life, each over a worker of its own (start-workers.ts): the trade-off curves
// (tradeoff-client.ts) and the fixes for a run that does not fit (suggest-client.ts), the quick
// knob fixes and the full list apart, so a quick answer never waits behind a layout search.
// Components ask these; none keeps a client of its own.

import { createEngineWorker, createFixesWorker } from './start-workers.ts';
import { createFitSuggester, SUGGEST_TIMEOUT_MS, type FitSuggester } from './suggest-client.ts';
import { createTradeoffClient, type TradeoffClient } from './tradeoff-client.ts';

/** `make` called once, at the first ask; the same value after. */
function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

export const tradeoffClient: () => TradeoffClient = once(() => createTradeoffClient(createEngineWorker));

/** The quick knob fixes alone, for the page's first answer. */
export const quickFixes: () => FitSuggester = once(() => createFitSuggester(createFixesWorker, SUGGEST_TIMEOUT_MS, false));

/** The full list, with the layout searches. */
export const fullFixes: () => FitSuggester = once(() => createFitSuggester(createFixesWorker, SUGGEST_TIMEOUT_MS, true));

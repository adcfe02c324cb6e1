// The page's side of "from no to yes": the fixes for a run that does not fit
// (fit-suggestions.ts) come from a worker of their own, started on the first request
// and kept for the next, so the estimator's queue never waits behind the few dozen
// engine runs a list of fixes takes. Only the newest request's answer is handed back;
// a worker that crashes or does not answer within `timeoutMs` is terminated and the
// answer is an error value, never a hanging promise.

import { wrap, type Remote } from 'comlink';
import type { EngineApi, FitSuggestionsAnswer } from './api.ts';
import type { WorkerLike } from './client.ts';

/** A list of fixes runs the engine a few dozen times: well under a second, except on a cold worker on a slow machine. */
export const SUGGEST_TIMEOUT_MS = 20_000;

export interface FitSuggester {
  /** The fixes for this document; null when a newer request superseded it. */
  request(document: unknown): Promise<FitSuggestionsAnswer | null>;
  dispose(): void;
}

export function createFitSuggester(createWorker: () => WorkerLike, timeoutMs = SUGGEST_TIMEOUT_MS): FitSuggester {
  let worker: WorkerLike | null = null;
  let remote: Remote<EngineApi> | null = null;
  let latest = 0;
  let fail: ((reason: string) => void) | null = null;

  const stop = () => {
    worker?.terminate();
    worker = null;
    remote = null;
  };
  const onError = () => fail?.('the worker that computes the fixes stopped unexpectedly');

  return {
    async request(document) {
      const id = ++latest;
      if (!worker || !remote) {
        worker = createWorker();
        worker.addEventListener('error', onError);
        worker.addEventListener('messageerror', onError);
        remote = wrap<EngineApi>(worker);
      }
      const call = remote;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const failed = new Promise<FitSuggestionsAnswer>((resolve) => {
        const give = (reason: string) => {
          stop();
          resolve({ ok: false, errors: [reason] });
        };
        fail = give;
        timer = setTimeout(() => give(`the fixes were not computed within ${timeoutMs / 1000} s`), timeoutMs);
      });
      try {
        const answer = await Promise.race([call.fitSuggestions(document), failed]);
        return id === latest ? answer : null;
      } catch {
        return id === latest ? { ok: false, errors: ['the fixes could not be computed'] } : null;
      } finally {
        clearTimeout(timer);
      }
    },
    dispose() {
      latest += 1;
      stop();
    },
  };
}

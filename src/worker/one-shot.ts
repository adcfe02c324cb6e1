// The lifecycle every worker started for one job shares (the fit, the validation run, the
// layout search, …): create it, listen for a crash or an unreadable message, race each call
// against that failure (and a timeout or an abort signal when given), and terminate it when
// the job settles. A failure is a WorkerFailure rejection, never a hanging promise.

import { wrap, type Remote } from 'comlink';
import type { WorkerLike } from './client.ts';

/** Why a one-shot worker gave up: its message is a sentence for people. */
export class WorkerFailure extends Error {}

export interface OneShotOptions {
  /** Said when the worker crashes or sends a message that cannot be read. */
  readonly crashMessage: string;
  readonly timeoutMs?: number;
  /** Said when `timeoutMs` passes first. */
  readonly timeoutMessage?: string;
  readonly signal?: AbortSignal;
  /** Said when `signal` aborts. */
  readonly abortMessage?: string;
}

export interface OneShotWorker<Api> {
  readonly remote: Remote<Api>;
  /** Rejects with a WorkerFailure on a crash, the timeout or the abort; never resolves. */
  readonly failed: Promise<never>;
  /** The call's answer, or the failure's rejection, whichever comes first. */
  race<T>(call: Promise<T>): Promise<T>;
  /** Stops listening and terminates the worker (idempotent). */
  dispose(): void;
}

export function startOneShotWorker<Api>(createWorker: () => WorkerLike, options: OneShotOptions): OneShotWorker<Api> {
  const worker = createWorker();
  const remote = wrap<Api>(worker);
  let fail: (message: string) => void = () => {};
  const failed = new Promise<never>((_, reject) => { fail = (message) => reject(new WorkerFailure(message)); });
  // A failure nobody raced against is not an unhandled rejection.
  failed.catch(() => {});
  const onCrash = () => fail(options.crashMessage);
  const onAbort = () => fail(options.abortMessage ?? 'abandoned');
  const timer = options.timeoutMs === undefined
    ? undefined
    : setTimeout(() => fail(options.timeoutMessage ?? `no answer within ${options.timeoutMs! / 1000} s`), options.timeoutMs);
  worker.addEventListener('error', onCrash);
  worker.addEventListener('messageerror', onCrash);
  options.signal?.addEventListener('abort', onAbort);
  let disposed = false;
  return {
    remote,
    failed,
    race: <T>(call: Promise<T>) => Promise.race([call, failed]),
    dispose() {
      if (disposed) return;
      disposed = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      worker.removeEventListener('error', onCrash);
      worker.removeEventListener('messageerror', onCrash);
      worker.terminate();
    },
  };
}

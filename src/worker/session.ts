// The one lifecycle of every worker the page starts, in squoosh's shape (worker-bridge):
// the worker is started at the first call (or by `start`), each call races the worker's
// crash, a timeout and an abort signal, and a worker that crashes, times out or is
// aborted is terminated; the next call starts a fresh one. Two policies:
//
// - 'one-shot': each call gets a worker of its own, terminated when the call settles
//   (the fit, the validation run, the layout search);
// - 'latest-wins': the worker is kept for the next call, and a call that a newer one
//   superseded answers 'superseded' (the estimator, the fixes, the trade-off curves).
//
// Every outcome is a value (`SessionAnswer`), never an exception or a hanging promise.

import { wrap, type Endpoint, type Remote } from 'comlink';

export interface WorkerLike extends Endpoint {
  terminate(): void;
}

export type SessionPolicy = 'one-shot' | 'latest-wins';

/** Why a call has no value: the worker crashed, timed out or was aborted, the call itself threw, a newer call won, or the session was disposed. */
export type SessionFailure = 'crashed' | 'timeout' | 'aborted' | 'rejected' | 'superseded' | 'disposed';

export type SessionAnswer<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly failure: SessionFailure; readonly message: string };

export interface WorkerSessionOptions {
  readonly policy: SessionPolicy;
  /** Said when the worker crashes or sends a message that cannot be read. */
  readonly crashMessage: string;
  /** Each call's limit; a worker that passes it is terminated. */
  readonly timeoutMs?: number;
  readonly timeoutMessage?: string;
  /** Said when a call's signal aborts. */
  readonly abortMessage?: string;
  /** Said when the call itself rejects; the rejection's own message when absent. */
  readonly rejectMessage?: string;
  /** Told when the worker crashes, whether or not a call was running (the estimator restarts at once). */
  readonly onCrash?: () => void;
}

export interface WorkerSession<Api> {
  /** `ask` run against the session's worker; several remote calls may make up one ask (the validation's batches). */
  call<T>(ask: (remote: Remote<Api>) => Promise<T>, signal?: AbortSignal): Promise<SessionAnswer<T>>;
  /** Starts the kept worker now rather than at the first call (latest-wins). */
  start(): void;
  /** Terminates every worker; calls in flight answer 'disposed'. A later call starts afresh. */
  dispose(): void;
}

type Failed = Extract<SessionAnswer<never>, { ok: false }>;

/** One started worker: its remote, and the end that every call on it races. */
interface Incarnation<Api> {
  readonly remote: Remote<Api>;
  /** Resolves once, when the worker is terminated, with why. */
  readonly ended: Promise<Failed>;
  end(failure: SessionFailure, message: string): void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createWorkerSession<Api>(createWorker: () => WorkerLike, options: WorkerSessionOptions): WorkerSession<Api> {
  const live = new Set<Incarnation<Api>>();
  let kept: Incarnation<Api> | null = null;
  let latest = 0;

  function spawn(): Incarnation<Api> {
    const worker = createWorker();
    let resolveEnded: (failed: Failed) => void = () => {};
    const ended = new Promise<Failed>((resolve) => {
      resolveEnded = resolve;
    });
    let done = false;
    const onCrash = () => {
      incarnation.end('crashed', options.crashMessage);
      options.onCrash?.();
    };
    const incarnation: Incarnation<Api> = {
      remote: wrap<Api>(worker),
      ended,
      end(failure, message) {
        if (done) return;
        done = true;
        live.delete(incarnation);
        if (kept === incarnation) kept = null;
        worker.removeEventListener('error', onCrash);
        worker.removeEventListener('messageerror', onCrash);
        worker.terminate();
        resolveEnded({ ok: false, failure, message });
      },
    };
    worker.addEventListener('error', onCrash);
    worker.addEventListener('messageerror', onCrash);
    live.add(incarnation);
    return incarnation;
  }

  const worker = (): Incarnation<Api> => (options.policy === 'one-shot' ? spawn() : (kept ??= spawn()));

  return {
    async call<T>(ask: (remote: Remote<Api>) => Promise<T>, signal?: AbortSignal): Promise<SessionAnswer<T>> {
      const id = ++latest;
      const incarnation = worker();
      const { timeoutMs } = options;
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => incarnation.end('timeout', options.timeoutMessage ?? `no answer within ${timeoutMs / 1000} s`), timeoutMs);
      const onAbort = () => incarnation.end('aborted', options.abortMessage ?? 'abandoned');
      signal?.addEventListener('abort', onAbort);
      if (signal?.aborted) onAbort();
      try {
        // Called at once (the search client needs its remote to cancel), a synchronous throw read as a rejection.
        const answered = (async () => ask(incarnation.remote))().then(
          (value): SessionAnswer<T> => ({ ok: true, value }),
          (error: unknown): SessionAnswer<T> => ({ ok: false, failure: 'rejected', message: options.rejectMessage ?? messageOf(error) }),
        );
        const answer = await Promise.race([answered, incarnation.ended]);
        return options.policy === 'latest-wins' && id !== latest ? { ok: false, failure: 'superseded', message: 'superseded' } : answer;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (options.policy === 'one-shot') incarnation.end('disposed', 'finished');
      }
    },
    start() {
      if (options.policy === 'latest-wins') worker();
    },
    dispose() {
      for (const incarnation of [...live]) incarnation.end('disposed', 'stopped');
    },
  };
}

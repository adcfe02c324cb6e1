import { describe, expect, it } from 'vitest';
import { fakeWorker, type FakeWorker } from '../testing/fake-worker.ts';
import { startSearch } from './search-client.ts';
import { createWorkerSession, type SessionPolicy } from './session.ts';
import { runValidation } from './validation-client.ts';

interface Echo {
  echo(value: string): Promise<string> | string;
}
const echo: Echo = { echo: (value) => value };
const silent: Echo = { echo: () => new Promise<string>(() => undefined) };
const throwing: Echo = {
  echo: () => {
    throw new Error('broken');
  },
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A session over fake workers that serve `apis` in turn (the last one for every later start), and the workers it started. */
function sessionOver(policy: SessionPolicy, apis: readonly Echo[], extra: { timeoutMs?: number; onCrash?: () => void } = {}) {
  const started: FakeWorker[] = [];
  const session = createWorkerSession<Echo>(
    () => {
      const worker = fakeWorker(apis[Math.min(started.length, apis.length - 1)] ?? echo);
      started.push(worker);
      return worker;
    },
    { policy, crashMessage: 'it crashed', timeoutMessage: 'too slow', abortMessage: 'abandoned', ...extra },
  );
  return { session, started };
}

describe('the worker session', () => {
  it('one-shot: each call has a worker of its own, terminated when the call settles', async () => {
    const { session, started } = sessionOver('one-shot', [echo]);
    expect(await session.call((r) => r.echo('a'))).toEqual({ ok: true, value: 'a' });
    expect(await session.call((r) => r.echo('b'))).toEqual({ ok: true, value: 'b' });
    expect(started.map((w) => w.terminated)).toEqual([true, true]);
  });

  it('latest-wins: the worker is kept, and an older call a newer one superseded answers "superseded"', async () => {
    const { session, started } = sessionOver('latest-wins', [echo]);
    const older = session.call((r) => r.echo('old'));
    const newer = session.call((r) => r.echo('new'));
    expect(await older).toMatchObject({ ok: false, failure: 'superseded' });
    expect(await newer).toEqual({ ok: true, value: 'new' });
    expect(started).toHaveLength(1);
    expect(started[0]?.terminated).toBe(false);
    session.dispose();
    expect(started[0]?.terminated).toBe(true);
  });

  it('a crash answers with the crash message, terminates the worker and tells onCrash; the next call starts a fresh worker', async () => {
    let crashes = 0;
    const { session, started } = sessionOver('latest-wins', [silent, echo], {
      onCrash: () => {
        crashes += 1;
      },
    });
    const pending = session.call((r) => r.echo('x'));
    await sleep(5);
    started[0]?.crash();
    expect(await pending).toEqual({ ok: false, failure: 'crashed', message: 'it crashed' });
    expect(crashes).toBe(1);
    expect(started[0]?.terminated).toBe(true);
    expect(await session.call((r) => r.echo('y'))).toEqual({ ok: true, value: 'y' });
    expect(started).toHaveLength(2);
    session.dispose();
  });

  it('an idle worker that crashes tells onCrash too', async () => {
    let crashes = 0;
    const { session, started } = sessionOver('latest-wins', [echo], {
      onCrash: () => {
        crashes += 1;
      },
    });
    session.start();
    started[0]?.crash();
    expect(crashes).toBe(1);
    expect(started[0]?.terminated).toBe(true);
  });

  it('a worker that does not answer in time is terminated, and the call answers "timeout"', async () => {
    const { session, started } = sessionOver('latest-wins', [silent], { timeoutMs: 20 });
    expect(await session.call((r) => r.echo('x'))).toEqual({ ok: false, failure: 'timeout', message: 'too slow' });
    expect(started[0]?.terminated).toBe(true);
  });

  it('an abort terminates the worker, and the call answers "aborted"', async () => {
    const { session, started } = sessionOver('one-shot', [silent]);
    const abort = new AbortController();
    const pending = session.call((r) => r.echo('x'), abort.signal);
    abort.abort();
    expect(await pending).toEqual({ ok: false, failure: 'aborted', message: 'abandoned' });
    expect(started[0]?.terminated).toBe(true);
  });

  it('a call that throws in the worker answers "rejected" with its message, and keeps the worker', async () => {
    const { session, started } = sessionOver('latest-wins', [throwing]);
    expect(await session.call((r) => r.echo('x'))).toEqual({ ok: false, failure: 'rejected', message: 'broken' });
    expect(started[0]?.terminated).toBe(false);
    session.dispose();
  });
});

describe('the one-shot clients on the session', () => {
  it('the validation run rejects with a sentence when abandoned, and terminates its worker', async () => {
    const worker = fakeWorker({ validate: () => new Promise(() => undefined) });
    const abort = new AbortController();
    const pending = runValidation(
      () => worker,
      () => undefined,
      abort.signal,
    );
    abort.abort();
    await expect(pending).rejects.toThrow('validation abandoned');
    expect(worker.terminated).toBe(true);
  });

  it('a cancelled search that does not stop within the grace period is terminated: cancelled, with nothing to show', async () => {
    const worker = fakeWorker({ search: () => new Promise(() => undefined), cancel: () => undefined });
    const job = startSearch(
      () => worker,
      {},
      { topK: 1 },
      () => undefined,
      20,
    );
    job.cancel();
    expect(await job.outcome).toEqual({ kind: 'cancelled', output: null });
    expect(worker.terminated).toBe(true);
  });

  it('a search worker that crashes gives an error value', async () => {
    const worker = fakeWorker({ search: () => new Promise(() => undefined), cancel: () => undefined });
    const job = startSearch(
      () => worker,
      {},
      { topK: 1 },
      () => undefined,
    );
    await sleep(5);
    worker.crash();
    expect(await job.outcome).toEqual({ kind: 'failed', error: 'the search worker stopped unexpectedly' });
  });
});

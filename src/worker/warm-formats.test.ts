import { afterEach, describe, expect, it, vi } from 'vitest';
import { FORMATS_WAIT_MS, warmNumberFormats } from './warm-formats.ts';

/** A stand-in for the formats worker: answers after `answerMs` (never when null). */
function stubWorker(answerMs: number | null) {
  const made: { terminated: boolean }[] = [];
  class StubWorker {
    onmessage: (() => void) | null = null;
    onerror: (() => void) | null = null;
    readonly state = { terminated: false };
    constructor() {
      made.push(this.state);
      if (answerMs !== null) setTimeout(() => this.onmessage?.(), answerMs);
    }
    terminate() {
      this.state.terminated = true;
    }
  }
  vi.stubGlobal('Worker', StubWorker);
  return made;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('warmNumberFormats', () => {
  it('resolves at once where there are no workers (node)', async () => {
    vi.stubGlobal('Worker', undefined);
    await expect(warmNumberFormats()).resolves.toBeUndefined();
  });

  it('resolves when the worker says the formats are made, and ends the worker', async () => {
    vi.useFakeTimers();
    const made = stubWorker(40);
    let done = false;
    void warmNumberFormats().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(39);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(made).toEqual([{ terminated: true }]);
  });

  it('waits at most FORMATS_WAIT_MS for a worker that never answers', async () => {
    vi.useFakeTimers();
    const made = stubWorker(null);
    let done = false;
    void warmNumberFormats().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(FORMATS_WAIT_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(made).toEqual([{ terminated: true }]);
  });
});

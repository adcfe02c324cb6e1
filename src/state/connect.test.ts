import { describe, it, expect, vi } from 'vitest';
import { connectAddressBar, connectEstimator, readStartPoint } from './connect.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { createPlannerStore } from './store.ts';
import { encodeConfigFragment, readHash } from './url-codec.ts';

describe('the address bar', () => {
  it('follows the configuration once edits pause, with replaceState only', async () => {
    // Only the debounce is faked: the compression stream runs on Node's own queues.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const store = createPlannerStore();
      const calls: string[] = [];
      const bar = {
        location: { pathname: '/planner/', search: '', hash: '' },
        history: { replaceState: (_: unknown, __: string, url?: string) => calls.push(url ?? '') },
      };
      connectAddressBar(store, bar, 100);
      for (const tp of [4, 2, 1]) store.getState().setDegree('tp', tp);
      await vi.advanceTimersByTimeAsync(99);
      expect(calls).toEqual([]);
      await vi.advanceTimersByTimeAsync(50);
      await vi.waitFor(() => expect(calls).toHaveLength(1));
      // Three edits within the delay: one write, of the last one.
      await new Promise((resolve) => setImmediate(resolve));
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatch(/^\/planner\/#s=1\./);
      const read = await readHash(calls[0]?.split('#')[1] ?? '');
      expect(read.kind === 'document' && read.document['parallel']).toMatchObject({ tp: 1, dp: 16 });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the estimator connection', () => {
  it('sends the opening configuration and every new one', () => {
    const store = createPlannerStore();
    const sent: unknown[] = [];
    connectEstimator(store, { request: (d) => sent.push(d), dispose: () => undefined });
    store.getState().setDegree('tp', 4);
    store.getState().dismissEngineNotice();
    expect(sent).toHaveLength(2);
    expect(sent[0]).toBe(DEFAULT_DOCUMENT);
  });
});

describe('the start point', () => {
  it("is the link's configuration, in embed mode for ?embed=1", async () => {
    const doc = { version: 1, model: { layers: 2 } };
    expect(await readStartPoint({ hash: `#${encodeConfigFragment(doc)}`, search: '?embed=1' })).toEqual({
      document: doc,
      linkError: null,
      embed: true,
    });
  });

  it('is the default with the reason when the link cannot be read', async () => {
    const start = await readStartPoint({ hash: '#s=1.@@@', search: '' });
    expect(start.document).toBe(DEFAULT_DOCUMENT);
    expect(start.embed).toBe(false);
    expect(start.linkError).toMatch(/cannot be read.*Showing the default configuration/);
  });

  it('is the default, without complaint, when there is no link', async () => {
    expect(await readStartPoint({ hash: '', search: '' })).toEqual({ document: DEFAULT_DOCUMENT, linkError: null, embed: false });
  });
});

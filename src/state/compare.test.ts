import { describe, it, expect, vi } from 'vitest';
import { invalidOutput } from '../model/estimate.ts';
import type { EstimateOutput } from '../model/input/index.ts';
import { connectAddressBar } from './connect.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { createPlannerStore } from './store.ts';
import { encodeShareFragment, readHash, readPinnedHash } from './url-codec.ts';

/** A stand-in estimate: only its identity and errors matter to the store. */
const answer = (errors: string[] = []): EstimateOutput => invalidOutput(errors, []);

describe('pinning a configuration', () => {
  it('pins the current document with the estimate the page already has, and unpins', () => {
    const store = createPlannerStore();
    const output = answer();
    store.getState().receive(output, DEFAULT_DOCUMENT);
    store.getState().pin();
    expect(store.getState().pinned).toEqual({ document: DEFAULT_DOCUMENT, output, errors: [] });
    store.getState().setDegree('tp', 4);
    // Editing the current configuration leaves the pinned one alone.
    expect(store.getState().pinned?.document).toBe(DEFAULT_DOCUMENT);
    store.getState().unpin();
    expect(store.getState().pinned).toBeNull();
  });

  it('pins without an estimate when the page has none for the current document yet', () => {
    const store = createPlannerStore();
    store.getState().receive(answer(), DEFAULT_DOCUMENT);
    store.getState().setDegree('tp', 4);
    store.getState().pin();
    expect(store.getState().pinned?.output).toBeNull();
  });

  it('takes the pinned estimator\'s answer only for the configuration pinned now', () => {
    const store = createPlannerStore();
    const other = { version: 1 };
    store.getState().setPinnedDocument(other);
    store.getState().receivePinned(answer(), DEFAULT_DOCUMENT);
    expect(store.getState().pinned?.output).toBeNull();
    const output = answer();
    store.getState().receivePinned(output, other);
    expect(store.getState().pinned?.output).toBe(output);
    store.getState().receivePinned(answer(['model: is required']), other);
    expect(store.getState().pinned).toEqual({ document: other, output: null, errors: ['model: is required'] });
  });

  it('swaps: the pinned configuration becomes current (with its estimate at once) and the current one is pinned', () => {
    const store = createPlannerStore();
    const first = answer();
    store.getState().receive(first, DEFAULT_DOCUMENT);
    store.getState().pin();
    store.getState().setDegree('tp', 4);
    const changed = store.getState().document;
    const second = answer();
    store.getState().receive(second, changed);
    store.getState().swapPinned();
    const s = store.getState();
    expect(s.document).toBe(DEFAULT_DOCUMENT);
    expect(s.output).toBe(first);
    expect(s.pinned).toEqual({ document: changed, output: second, errors: [] });
  });
});

describe('the address bar with a pinned configuration', () => {
  function bar(hash = '') {
    const calls: string[] = [];
    const listeners: (() => void)[] = [];
    const target = {
      location: { pathname: '/', search: '', hash },
      history: { replaceState: (_: unknown, __: string, url?: string) => calls.push(url ?? '') },
      addEventListener: (_: 'hashchange', listener: () => void) => listeners.push(listener),
      removeEventListener: () => undefined,
    };
    return { target, calls, fire: () => listeners.forEach((l) => l()) };
  }

  it('writes the pin after the share field when pinning, and drops it on unpin', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const store = createPlannerStore();
      const { target, calls } = bar();
      connectAddressBar(store, target, 10);
      store.getState().pin();
      store.getState().setDegree('tp', 4);
      await vi.advanceTimersByTimeAsync(20);
      await vi.waitFor(() => expect(calls).toHaveLength(1));
      const hash = calls[0]?.slice(1) ?? '';
      expect(hash).toMatch(/^#s=1\.[\w-]+&pin=1\.[\w-]+$/);
      expect(await readPinnedHash(hash)).toEqual({ kind: 'document', document: DEFAULT_DOCUMENT });
      const read = await readHash(hash);
      expect(read.kind === 'document' && read.document['parallel']).toMatchObject({ tp: 4 });
      store.getState().unpin();
      await vi.advanceTimersByTimeAsync(20);
      await vi.waitFor(() => expect(calls).toHaveLength(2));
      expect(calls[1]).toMatch(/^\/#s=1\.[\w-]+$/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads the pin of the link the page opened with, and of a link pasted later', async () => {
    const pinned = { version: 1, parallel: { tp: 2 } };
    const store = createPlannerStore();
    const { target, fire } = bar(`#${await encodeShareFragment(DEFAULT_DOCUMENT, pinned)}`);
    connectAddressBar(store, target, 10);
    await vi.waitFor(() => expect(store.getState().pinned?.document).toEqual(pinned));
    target.location.hash = `#${await encodeShareFragment(DEFAULT_DOCUMENT)}`;
    fire();
    await vi.waitFor(() => expect(store.getState().pinned).toBeNull());
  });

  it('says so when the pin cannot be read', async () => {
    const store = createPlannerStore();
    const { target } = bar(`#${await encodeShareFragment(DEFAULT_DOCUMENT)}&pin=1.@@`);
    connectAddressBar(store, target, 10);
    await vi.waitFor(() => expect(store.getState().linkError).toMatch(/pinned configuration in this link cannot be read/));
    expect(store.getState().pinned).toBeNull();
  });
});

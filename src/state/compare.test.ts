import { describe, it, expect, vi } from 'vitest';
import { invalidOutput } from '../model/estimate.ts';
import type { EstimateOutput } from '../model/input/index.ts';
import { connectAddressBar } from './connect.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { createPlannerStore } from './store.ts';
import { MAX_PINS, nextPinName } from './compare.ts';
import { setAt } from './doc.ts';
import { encodeShareFragment, readHash, readPinsHash } from './url-codec.ts';

/** A stand-in estimate: only its identity and errors matter to the store. */
const answer = (errors: string[] = []): EstimateOutput => invalidOutput(errors, []);

describe('pinning configurations as scenarios', () => {
  it('pins the current document with the estimate the page already has, named A, B, …; removes one or all', () => {
    const store = createPlannerStore();
    const output = answer();
    store.getState().receive(output, DEFAULT_DOCUMENT);
    store.getState().pin();
    expect(store.getState().pinned).toEqual([{ name: 'A', document: DEFAULT_DOCUMENT, output, errors: [] }]);
    store.getState().setDegree('tp', 4);
    // Editing the current configuration leaves the pinned one alone.
    expect(store.getState().pinned[0]?.document).toBe(DEFAULT_DOCUMENT);
    store.getState().pin();
    store.getState().pin();
    expect(store.getState().pinned.map((p) => p.name)).toEqual(['A', 'B', 'C']);
    store.getState().unpin(1);
    expect(store.getState().pinned.map((p) => p.name)).toEqual(['A', 'C']);
    // The next pin takes the first free letter.
    store.getState().pin();
    expect(store.getState().pinned.map((p) => p.name)).toEqual(['A', 'C', 'B']);
    store.getState().unpinAll();
    expect(store.getState().pinned).toEqual([]);
  });

  it(`holds at most ${MAX_PINS} pins`, () => {
    const store = createPlannerStore();
    for (let i = 0; i < MAX_PINS + 3; i++) store.getState().pin();
    expect(store.getState().pinned).toHaveLength(MAX_PINS);
    expect(MAX_PINS).toBeGreaterThanOrEqual(4);
  });

  it('pins without an estimate when the page has none for the current document yet', () => {
    const store = createPlannerStore();
    store.getState().receive(answer(), DEFAULT_DOCUMENT);
    store.getState().setDegree('tp', 4);
    store.getState().pin();
    expect(store.getState().pinned[0]?.output).toBeNull();
  });

  it('renames a pin: trimmed, and an empty name falls back to a free letter', () => {
    const store = createPlannerStore();
    store.getState().pin();
    store.getState().pin();
    store.getState().renamePin(0, '  2,048 H100  ');
    expect(store.getState().pinned.map((p) => p.name)).toEqual(['2,048 H100', 'B']);
    store.getState().renamePin(1, '   ');
    expect(store.getState().pinned.map((p) => p.name)).toEqual(['2,048 H100', 'A']);
    expect(nextPinName(['A', 'B'])).toBe('C');
    expect(nextPinName([...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'])).toBe('Scenario 27');
  });

  it("takes the pinned estimator's answer for every pin of that document, and only for those", () => {
    const store = createPlannerStore();
    const other = { version: 1 };
    store.getState().setPinnedFromLink([
      { name: '', document: other },
      { name: 'Mine', document: DEFAULT_DOCUMENT },
    ]);
    expect(store.getState().pinned.map((p) => p.name)).toEqual(['A', 'Mine']);
    const unrelated = answer();
    store.getState().receivePinned(unrelated, { version: 1 });
    expect(store.getState().pinned.every((p) => p.output === null)).toBe(true);
    const output = answer();
    store.getState().receivePinned(output, other);
    expect(store.getState().pinned.map((p) => p.output)).toEqual([output, null]);
    store.getState().receivePinned(answer(['model: is required']), DEFAULT_DOCUMENT);
    expect(store.getState().pinned[1]).toEqual({ name: 'Mine', document: DEFAULT_DOCUMENT, output: null, errors: ['model: is required'] });
  });

  it('applies a pin: its document becomes current (with its estimate at once), the pins stay, Undo brings the edited one back', () => {
    let t = 0;
    // Each edit a second apart: separate history steps (store.ts HISTORY_MERGE_MS).
    const store = createPlannerStore(DEFAULT_DOCUMENT, false, () => (t += 1000));
    const first = answer();
    store.getState().receive(first, DEFAULT_DOCUMENT);
    store.getState().pin();
    store.getState().setDegree('tp', 4);
    const changed = store.getState().document;
    store.getState().applyPin(0);
    const s = store.getState();
    expect(s.document).toBe(DEFAULT_DOCUMENT);
    expect(s.output).toBe(first);
    expect(s.pinned).toHaveLength(1);
    s.undo();
    expect(store.getState().document).toBe(changed);
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

  it('writes the pins after the share field, names included, and drops them when all are removed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const store = createPlannerStore();
      const { target, calls } = bar();
      connectAddressBar(store, target, 10);
      store.getState().pin();
      store.getState().setDegree('tp', 4);
      store.getState().pin();
      store.getState().renamePin(1, 'TP 4');
      await vi.advanceTimersByTimeAsync(20);
      await vi.waitFor(() => expect(calls).toHaveLength(1));
      const hash = calls[0]?.slice(1) ?? '';
      expect(hash).toMatch(/^#s=1\.[\w-]+&pins=1\.[\w-]+$/);
      const tp4 = store.getState().document;
      expect(await readPinsHash(hash)).toEqual({
        kind: 'pins',
        pins: [
          { name: 'A', document: DEFAULT_DOCUMENT },
          { name: 'TP 4', document: tp4 },
        ],
      });
      const read = await readHash(hash);
      expect(read.kind === 'document' && read.document['parallel']).toMatchObject({ tp: 4 });
      store.getState().unpinAll();
      await vi.advanceTimersByTimeAsync(20);
      await vi.waitFor(() => expect(calls).toHaveLength(2));
      expect(calls[1]).toMatch(/^\/#s=1\.[\w-]+$/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads the pins of the link the page opened with; a link pasted later replaces them, or keeps them when it has none', async () => {
    const pinned = { version: 1, parallel: { tp: 2 } };
    const store = createPlannerStore();
    const { target, fire } = bar(`#${await encodeShareFragment(DEFAULT_DOCUMENT, [{ name: 'TP 2', document: pinned }])}`);
    connectAddressBar(store, target, 10);
    await vi.waitFor(() => expect(store.getState().pinned.map((p) => p.document)).toEqual([pinned]));
    expect(store.getState().pinned[0]?.name).toBe('TP 2');
    // A link without pins (the "a new link drops the pin"): the scenarios stay.
    target.location.hash = `#${await encodeShareFragment(setAt(DEFAULT_DOCUMENT, ['parallel', 'pp'], 2))}`;
    fire();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(store.getState().pinned.map((p) => p.name)).toEqual(['TP 2']);
    const others = [
      { name: 'X', document: { version: 1, n: 1 } },
      { name: 'Y', document: { version: 1, n: 2 } },
    ];
    target.location.hash = `#${await encodeShareFragment(DEFAULT_DOCUMENT, others)}`;
    fire();
    await vi.waitFor(() => expect(store.getState().pinned.map((p) => p.name)).toEqual(['X', 'Y']));
  });

  it('opens an older single-pin link (&pin=) as one scenario', async () => {
    const pinned = { version: 1, parallel: { tp: 2 } };
    const store = createPlannerStore();
    const legacy = `#${await encodeShareFragment(DEFAULT_DOCUMENT)}&${(await encodeShareFragment(pinned)).replace(/^s=/, 'pin=')}`;
    connectAddressBar(store, bar(legacy).target, 10);
    await vi.waitFor(() => expect(store.getState().pinned).toEqual([{ name: 'A', document: pinned, output: null, errors: [] }]));
  });

  it('says so when the pins cannot be read', async () => {
    const store = createPlannerStore();
    const { target } = bar(`#${await encodeShareFragment(DEFAULT_DOCUMENT)}&pins=1.@@`);
    connectAddressBar(store, target, 10);
    await vi.waitFor(() => expect(store.getState().linkError).toMatch(/pinned configurations in this link cannot be read/));
    expect(store.getState().pinned).toEqual([]);
  });
});

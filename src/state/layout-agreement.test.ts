// Issue 25: the page, the trade-off sweep and the fix-it lay out the same edit the same
// way, because all three call the engine's one layout rule (model/input/layout.ts,
// layout-intent.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layoutOfRun, parseDocument, type FieldChange } from '../model/input/index.ts';
import { fitSuggestions } from '../model/search/index.ts';
import { KNOBS, type KnobContext } from '../model/sweep/index.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { getAt, withFieldChanges, type Doc } from './doc.ts';
import { layoutChoices, withDegree, withGpus } from './options.ts';

const contextOf = (doc: Doc): KnobContext => {
  const parsed = parseDocument(doc);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return { config: parsed.config, optimalCheckpointIntervalMinutes: 60 };
};
const context = () => contextOf(DEFAULT_DOCUMENT);
const layout = (doc: Doc) => ({
  parallel: getAt(doc, ['parallel']),
  training: getAt(doc, ['training']),
  gpus: getAt(doc, ['cluster', 'gpus']),
});
/** The layout the engine reads from a document, or its errors: what the page, the sweep and the fix-it must agree on. */
const readLayout = (doc: Doc) => {
  const parsed = parseDocument(doc);
  return parsed.ok ? layoutOfRun(parsed.config) : parsed.errors;
};

describe('the page and the sweep agree on the layout of an edit', () => {
  it.each([8, 16, 32, 128, 256, 512])('GPUs %i', (gpus) => {
    const changes = KNOBS.gpus.changes(context(), gpus);
    if (typeof changes === 'string') throw new Error(changes);
    expect(layout(withFieldChanges(DEFAULT_DOCUMENT, changes))).toEqual(layout(withGpus(DEFAULT_DOCUMENT, gpus)));
  });

  it.each([
    ['tp', 1],
    ['tp', 2],
    ['tp', 4],
    ['pp', 1],
    ['pp', 2],
    ['pp', 8],
    ['vpp', 2],
    ['vpp', 5],
  ] as const)('%s %i', (key, value) => {
    const changes = KNOBS[key].changes(context(), value);
    if (typeof changes === 'string') throw new Error(changes);
    expect(layout(withFieldChanges(DEFAULT_DOCUMENT, changes))).toEqual(layout(withDegree(DEFAULT_DOCUMENT, key, value)));
  });
});

// A dense 32-layer model (Llama 3 8B shapes) on 8 to 64 H100s, laid out TP × PP × DP.
const DENSE_MODEL = {
  name: 'test 8B',
  layers: 32,
  hidden: 4096,
  heads: 32,
  kvHeads: 8,
  ffnHidden: 14336,
  ffnType: 'swiglu',
  vocab: 128256,
};
const denseDocument = fc
  .record({
    tp: fc.constantFrom(1, 2, 4, 8),
    pp: fc.constantFrom(1, 2, 4),
    dp: fc.constantFrom(1, 2, 4, 8),
    zero: fc.constantFrom(0, 1),
    seqLen: fc.constantFrom(2048, 8192, 32768),
  })
  .map(({ tp, pp, dp, zero, seqLen }): Doc => ({
    version: 1,
    model: DENSE_MODEL,
    training: { seqLen, globalBatch: 64, microBatch: 1, recompute: 'none' },
    parallel: { tp, pp, dp, zero },
    cluster: { gpu: 'h100-sxm', gpus: tp * pp * dp },
  }));

/**
 * A fix-it's changes as the page's own edits: the GPU count typed first, then each degree among TP, PP and CP set
 * (DP follows both); null when the fix-it also changes something else (ZeRO, recomputation, offload), which is no layout edit.
 */
function pageEdits(doc: Doc, changes: readonly FieldChange[]): Doc | null {
  let edited = doc;
  const gpus = changes.find((c) => c.path[0] === 'cluster' && c.path[1] === 'gpus');
  if (gpus) edited = withGpus(edited, gpus.value);
  for (const c of changes) {
    if (c === gpus || (c.path[0] === 'parallel' && c.path[1] === 'dp')) continue;
    const key = c.path[0] === 'parallel' ? c.path[1] : undefined;
    if ((key !== 'tp' && key !== 'pp' && key !== 'cp') || typeof c.value !== 'number') return null;
    edited = withDegree(edited, key, c.value);
  }
  return edited === doc ? null : edited;
}

describe('property: the page, the sweep and the fix-it give the same layout for the same edit', () => {
  it('a degree set by a sweep knob lays out as the page sets it', () => {
    fc.assert(
      fc.property(denseDocument, fc.constantFrom('tp', 'pp', 'cp', 'vpp'), fc.nat(), (doc, key, pick) => {
        const ctx = contextOf(doc);
        const candidates = KNOBS[key].candidates(ctx).filter((v): v is number => typeof v === 'number');
        const value = candidates[pick % candidates.length];
        if (value === undefined) return;
        const changes = KNOBS[key].changes(ctx, value);
        if (typeof changes === 'string') return;
        expect(readLayout(withFieldChanges(doc, changes))).toEqual(readLayout(withDegree(doc, key, value)));
      }),
      { numRuns: 60 },
    );
  });

  it('a GPU count set by the sweep lays out as the page sets it', () => {
    fc.assert(
      fc.property(denseDocument, fc.nat(), (doc, pick) => {
        const ctx = contextOf(doc);
        const counts = KNOBS.gpus.candidates(ctx).filter((v): v is number => typeof v === 'number');
        const gpus = counts[pick % counts.length];
        if (gpus === undefined) return;
        const changes = KNOBS.gpus.changes(ctx, gpus);
        if (typeof changes === 'string') return;
        expect(readLayout(withFieldChanges(doc, changes))).toEqual(readLayout(withGpus(doc, gpus)));
      }),
      { numRuns: 60 },
    );
  });

  it('a fix-it that moves the GPU count or a degree lays out as the page makes the same edits', () => {
    let compared = 0;
    fc.assert(
      fc.property(denseDocument, (doc) => {
        // The knob fixes (the layout searches' answers are whole layouts, not page edits, and take seconds each).
        for (const s of fitSuggestions(contextOf(doc).config, { layouts: false }).suggestions) {
          const onThePage = pageEdits(doc, s.changes);
          if (!onThePage) continue;
          compared++;
          expect(readLayout(withFieldChanges(doc, s.changes))).toEqual(readLayout(onThePage));
        }
      }),
      { numRuns: 40 },
    );
    expect(compared).toBeGreaterThan(0);
  });
});

// Issue 33: the page derived an absent DP as floor(GPUs / (TP·PP·CP)) while the parser took 1 where that is not
// whole (20 GPUs at TP 8: DP 2 on the page, DP 1 in the engine). Both now read model/input/layout.ts defaultDp.
describe('property: the page reads the DP the engine reads when the document leaves DP out', () => {
  const docWithoutDp = fc.record({
    gpus: fc.integer({ min: 1, max: 1024 }),
    tp: fc.constantFrom(1, 2, 4, 8),
    pp: fc.constantFrom(1, 2, 4),
    cp: fc.constantFrom(1, 2),
  });

  /** DP as the engine reads it: the parsed config's, or the one its GPU-count error names ("… = tp×pp×dp×cp = …"). */
  function engineDp(doc: Doc, tp: number, pp: number, cp: number): number {
    const parsed = parseDocument(doc);
    if (parsed.ok) return parsed.config.parallel.dp;
    const named = parsed.errors.map((e) => new RegExp(`= ${tp}×${pp}×(\\d+)×${cp} =`).exec(e)).find((m) => m !== null);
    if (!named?.[1]) throw new Error(`no DP in the engine's errors: ${parsed.errors.join('; ')}`);
    return Number(named[1]);
  }

  it('20 GPUs at TP 8: DP 1 on the page and in the engine', () => {
    const doc = { ...DEFAULT_DOCUMENT, model: DENSE_MODEL, parallel: { tp: 8, pp: 1 }, cluster: { gpu: 'h100-sxm', gpus: 20 } } as Doc;
    expect(layoutChoices(doc).dp.current).toBe(1);
    expect(engineDp(doc, 8, 1, 1)).toBe(1);
  });

  it('for random GPU counts and degrees, page DP = engine DP', () => {
    fc.assert(
      fc.property(docWithoutDp, ({ gpus, tp, pp, cp }) => {
        const doc: Doc = {
          version: 1,
          model: DENSE_MODEL,
          training: { seqLen: 4096, globalBatch: 4 * gpus, microBatch: 1 },
          parallel: { tp, pp, cp },
          cluster: { gpu: 'h100-sxm', gpus },
        };
        expect(layoutChoices(doc).dp.current).toBe(engineDp(doc, tp, pp, cp));
      }),
      { numRuns: 300 },
    );
  });
});

import { describe, it, expect } from 'vitest';
import { parseDocument } from '../model/input/index.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { getAt, setAt, type Doc } from './doc.ts';
import {
  degreeMove,
  DEGREE_KEYS,
  divisors,
  etpChoices,
  layoutChoices,
  microBatchesPerStep,
  precisionChoices,
  repairLayout,
  scheduleChoices,
  withDegree,
  withGpus,
  withSchedule,
} from './options.ts';
import { findModelPreset, loadCatalog } from './catalog.ts';
import { seqLenNote } from './choices.ts';

// The catalog is a chunk of its own on the page (state/catalog.ts); the tests below read two of its entries.
await loadCatalog();

const parallelOf = (doc: Doc) => getAt(doc, ['parallel']) as Record<string, unknown>;
const gpusOf = (doc: Doc) => getAt(doc, ['cluster', 'gpus']);

/** A small mixture-of-experts model: 8 experts, top-2 (Mixtral-like dimensions, shrunk). */
const MOE_DOC = setAt(
  setAt(DEFAULT_DOCUMENT, ['model'], {
    name: 'tiny MoE',
    layers: 4,
    hidden: 512,
    heads: 8,
    kvHeads: 8,
    ffnHidden: 1024,
    ffnType: 'swiglu',
    vocab: 1000,
    moe: { experts: 8, topK: 2, expertFfnHidden: 1024 },
  }),
  ['cluster', 'gpus'],
  8,
);

describe('divisors', () => {
  it('lists every divisor once, ascending', () => {
    expect(divisors(16)).toEqual([1, 2, 4, 8, 16]);
    expect(divisors(12)).toEqual([1, 2, 3, 4, 6, 12]);
    expect(divisors(1)).toEqual([1]);
    expect(divisors(2.5)).toEqual([]);
  });
});

describe('slider choices for the default (Llama 3 70B, 64 GPUs, TP 8 × PP 4 × DP 2, batch 256)', () => {
  const c = layoutChoices(DEFAULT_DOCUMENT);

  it('TP: divisors of 64 / (PP 4 × CP 1) = 16 that divide 64 heads and 8 KV heads', () => {
    expect(c.tp.values).toEqual([1, 2, 4, 8]);
    expect(c.tp.excluded).toEqual([{ value: 16, reason: '16 does not divide model.kvHeads=8' }]);
    expect(c.tp.currentProblem).toBeNull();
  });

  it('PP: divisors of 64 / (TP 8 × CP 1) = 8, all within 80 layers', () => {
    expect(c.pp.values).toEqual([1, 2, 4, 8]);
  });

  it('CP: divisors of 64 / (8 × 4) = 2; 8192 tokens split into 2·CP chunks', () => {
    expect(c.cp.values).toEqual([1, 2]);
  });

  it('DP: divisors of globalBatch 256 / microBatch 1', () => {
    expect(c.dp.values).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256]);
  });

  it('EP: only 1 for a dense model', () => {
    expect(c.ep.values).toEqual([1]);
    expect(c.ep.rule).toMatch(/mixture-of-experts/);
  });

  it('VPP: 1 to floor((80 + 2) / 4) = 20', () => {
    expect(c.vpp.values).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('micro-batch: divisors of 256 / DP 2 = 128', () => {
    expect(c.microBatch.values).toEqual([1, 2, 4, 8, 16, 32, 64, 128]);
  });

  it('every value offered gives a document the engine accepts', () => {
    for (const key of DEGREE_KEYS) {
      for (const value of c[key].values) {
        const parsed = parseDocument(withDegree(DEFAULT_DOCUMENT, key, value));
        expect(parsed.ok ? [] : parsed.errors, `${key}=${value}`).toEqual([]);
      }
    }
  });
});

describe('moving a degree keeps TP × PP × DP × CP = GPUs', () => {
  it('TP 8 → 4 on 64 GPUs with PP 4 gives DP = 64 / 16 = 4', () => {
    const doc = withDegree(DEFAULT_DOCUMENT, 'tp', 4);
    expect(parallelOf(doc)).toMatchObject({ tp: 4, pp: 4, dp: 4, cp: 1 });
    expect(gpusOf(doc)).toBe(64);
  });

  it('PP 4 → 8 gives DP = 64 / (8 × 8) = 1', () => {
    expect(parallelOf(withDegree(DEFAULT_DOCUMENT, 'pp', 8))).toMatchObject({ tp: 8, pp: 8, dp: 1 });
  });

  it('DP 2 → 4 grows the cluster to 8 × 4 × 1 × 4 = 128 GPUs', () => {
    const doc = withDegree(DEFAULT_DOCUMENT, 'dp', 4);
    expect(parallelOf(doc)).toMatchObject({ tp: 8, pp: 4, dp: 4 });
    expect(gpusOf(doc)).toBe(128);
  });

  it('a TP that would leave a fractional micro-batch count is not offered, and says why', () => {
    // globalBatch 16, microBatch 8: DP 2 runs 16 / (8·2) = 1 micro-batch; TP 4 means DP 4 and 16 / (8·4) is not whole.
    const doc = setAt(setAt(DEFAULT_DOCUMENT, ['training', 'globalBatch'], 16), ['training', 'microBatch'], 8);
    const tp = layoutChoices(doc).tp;
    expect(tp.values).toEqual([8]);
    expect(tp.excluded.find((e) => e.value === 4)?.reason).toBe(
      'DP would be 4, and training.globalBatch 16 is not a multiple of training.microBatch × parallel.dp = 8×4',
    );
    // Set anyway (a typed link, say): the micro-batch falls to the largest valid size, 16 / 4 = 4.
    expect(getAt(withDegree(doc, 'tp', 4), ['training', 'microBatch'])).toBe(4);
  });
});

describe('VPP and the schedule follow each other', () => {
  it('VPP above 1 selects interleaved 1F1B, and back', () => {
    const interleaved = withDegree(DEFAULT_DOCUMENT, 'vpp', 2);
    expect(parallelOf(interleaved)).toMatchObject({ vpp: 2, schedule: 'interleaved-1f1b' });
    expect(parallelOf(withDegree(interleaved, 'vpp', 1))).toMatchObject({ vpp: 1, schedule: '1f1b' });
  });

  it('choosing interleaved 1F1B sets VPP 2; another schedule sets VPP 1', () => {
    const interleaved = withSchedule(DEFAULT_DOCUMENT, 'interleaved-1f1b');
    expect(parallelOf(interleaved)).toMatchObject({ vpp: 2, schedule: 'interleaved-1f1b' });
    expect(parallelOf(withSchedule(interleaved, 'gpipe'))).toMatchObject({ vpp: 1, schedule: 'gpipe' });
  });

  it('PP 1 rules out interleaving and DualPipe (which needs an even PP)', () => {
    const doc = withDegree(DEFAULT_DOCUMENT, 'pp', 1);
    const problems = Object.fromEntries(scheduleChoices(doc).map((s) => [s.schedule, s.problem]));
    expect(problems).toEqual({
      gpipe: null,
      '1f1b': null,
      'zero-bubble': null,
      'interleaved-1f1b': 'needs PP of 2 or more',
      dualpipe: 'dualpipe needs an even parallel.pp, got 1',
    });
    expect(layoutChoices(doc).vpp.values).toEqual([1]);
  });

  it('the schedule picker offers what the framework runs (issue 36): Megatron-LM no DualPipe, torchtitan DualPipeV from 2 × pp micro-batches', () => {
    // The default run: PP 4, DP 2, micro-batch 1, global batch 256: 128 micro-batches per step.
    const megatron = Object.fromEntries(
      scheduleChoices(setAt(DEFAULT_DOCUMENT, ['training', 'framework'], 'megatron')).map((s) => [s.schedule, s.problem]),
    );
    expect(megatron['dualpipe']).toMatch(/Megatron-LM does not run the dualpipe schedule.*torchtitan runs it as DualPipeV/);
    expect(megatron['zero-bubble']).toMatch(/Megatron-LM does not run/);
    expect(megatron['1f1b']).toBeNull();
    const titan = setAt(DEFAULT_DOCUMENT, ['training', 'framework'], 'torchtitan');
    expect(scheduleChoices(titan).find((s) => s.schedule === 'dualpipe')?.problem).toBeNull();
    // 4 micro-batches per step (global batch 8 over DP 2) are under 2 × PP 4 = 8.
    const few = setAt(titan, ['training', 'globalBatch'], 8);
    expect(scheduleChoices(few).find((s) => s.schedule === 'dualpipe')?.problem).toMatch(/at least 2 × pp = 8 micro-batches/);
  });

  it('the precision picker leaves out what the GPU has no tensor cores for, with the reason', () => {
    expect(precisionChoices(DEFAULT_DOCUMENT)['fp4']).toMatch(/FP4 tensor cores/);
    expect(precisionChoices(DEFAULT_DOCUMENT)['fp8']).toBeNull();
    expect(precisionChoices(setAt(DEFAULT_DOCUMENT, ['cluster', 'gpu'], 'b200'))['fp4']).toBeNull();
    expect(precisionChoices(setAt(DEFAULT_DOCUMENT, ['cluster', 'gpu'], 'a100-80gb'))['fp8']).toMatch(/FP8 tensor cores/);
  });

  it('DualPipe rules out odd PP', () => {
    // 48 GPUs with TP 8 leave 6 for PP × DP; batch 240 splits over any DP up to 6.
    const doc = withGpus(setAt(withSchedule(DEFAULT_DOCUMENT, 'dualpipe'), ['training', 'globalBatch'], 240), 48);
    expect(parallelOf(doc)).toMatchObject({ tp: 8, pp: 2, dp: 3 });
    const pp = layoutChoices(doc).pp;
    expect(pp.values).toEqual([2, 6]);
    expect(pp.excluded).toEqual([
      { value: 1, reason: 'dualpipe needs an even parallel.pp, got 1' },
      { value: 3, reason: 'dualpipe needs an even parallel.pp, got 3' },
    ]);
  });
});

describe('changing the GPU count', () => {
  it('keeps TP and PP where they still divide it: 32 GPUs → TP 8 × PP 4 × DP 1', () => {
    const doc = withGpus(DEFAULT_DOCUMENT, 32);
    expect(parallelOf(doc)).toMatchObject({ tp: 8, pp: 4, dp: 1, cp: 1 });
    expect(gpusOf(doc)).toBe(32);
  });

  it('shrinks them where they do not: 24 GPUs → TP 8, PP 3 (largest divisor of 24 / 8 up to 4), DP 1', () => {
    expect(parallelOf(withGpus(DEFAULT_DOCUMENT, 24))).toMatchObject({ tp: 8, pp: 3, dp: 1, cp: 1 });
  });
});

describe('expert parallelism', () => {
  it('offers divisors of 8 experts that divide TP × DP × CP = 1 × 8 × 1', () => {
    const doc = repairLayout(setAt(MOE_DOC, ['parallel'], { tp: 1, pp: 1, dp: 8, cp: 1, ep: 1, vpp: 1, zero: 1, schedule: '1f1b' }));
    expect(layoutChoices(doc).ep.values).toEqual([1, 2, 4, 8]);
  });

  it('falls back to the largest valid EP when PP takes GPUs from TP × DP × CP', () => {
    const doc = setAt(MOE_DOC, ['parallel'], { tp: 1, pp: 1, dp: 8, cp: 1, ep: 8, vpp: 1, zero: 1, schedule: '1f1b' });
    // PP 2 leaves DP = 4, so EP 8 no longer divides 1 × 4 × 1; the largest divisor of 8 that does is 4.
    expect(parallelOf(withDegree(doc, 'pp', 2))).toMatchObject({ pp: 2, dp: 4, ep: 4 });
    expect(layoutChoices(setAt(doc, ['parallel', 'dp'], 4)).ep.excluded).toEqual([
      { value: 8, reason: '8 does not divide tp × dp × cp = 4' },
    ]);
  });
});

describe('a model the engine rejects', () => {
  it('leaves each slider on its current value, saying why', () => {
    const doc = setAt(DEFAULT_DOCUMENT, ['model', 'kvHeads'], 7);
    const c = layoutChoices(doc);
    expect(c.tp.values).toEqual([8]);
    expect(c.tp.rule).toBe('unavailable: fix the model first');
  });

  it('never throws on garbage', () => {
    for (const doc of [
      {},
      { model: 'x' },
      setAt(DEFAULT_DOCUMENT, ['parallel', 'tp'], 'abc'),
      setAt(DEFAULT_DOCUMENT, ['training', 'globalBatch'], -1),
    ]) {
      expect(() => layoutChoices(doc)).not.toThrow();
      expect(() => withGpus(doc, 16)).not.toThrow();
      expect(() => withDegree(doc, 'tp', 2)).not.toThrow();
    }
  });
});

describe('micro-batches per step', () => {
  it('is GBS / (MBS × DP): 256 / (1 × 2) = 128 for the default, null when not whole', () => {
    expect(microBatchesPerStep(DEFAULT_DOCUMENT)).toBe(128);
    expect(microBatchesPerStep(setAt(DEFAULT_DOCUMENT, ['training', 'microBatch'], 3))).toBeNull();
  });
});

describe('etpChoices: what the expert-TP control offers (issue 20)', () => {
  // Mixtral 8 experts of 14336 on TP 2 × DP 8: an expert group of EP 8 × ETP ranks must divide
  // TP × DP × CP = 16 (consistency.ts etpProblem), so ETP 1 and 2 fit, 4, 8 and 16 do not;
  // the default is TP = 2 because EP 8 divides DP × CP = 8 (params.ts expertTensorParallel).
  const doc = {
    version: 1,
    model: {
      layers: 32,
      hidden: 4096,
      heads: 32,
      kvHeads: 8,
      ffnHidden: 14336,
      ffnType: 'swiglu',
      vocab: 32000,
      moe: { experts: 8, topK: 2, expertFfnHidden: 14336 },
    },
    training: { seqLen: 4096, globalBatch: 256, microBatch: 1 },
    parallel: { tp: 2, pp: 4, dp: 8, ep: 8 },
    cluster: { gpu: 'h100-sxm', gpus: 64 },
  };
  it('Mixtral on TP 2, DP 8, EP 8: default 2; 1 and 2 valid; 4, 8, 16 named as not dividing', () => {
    const c = etpChoices(doc);
    expect(c?.fallback).toBe(2);
    expect(c?.options.filter((o) => o.problem === null).map((o) => o.value)).toEqual([1, 2]);
    expect(c?.options.filter((o) => o.problem !== null).map((o) => o.value)).toEqual([4, 8, 16]);
    expect(c?.options.find((o) => o.value === 4)?.problem).toBe('ep × etp = 8×4 does not divide tp × dp × cp = 16');
  });
  it('a dense model has no expert-TP control', () => {
    expect(etpChoices({ ...doc, model: { ...doc.model, moe: null } })).toBeNull();
  });
});

// Issue 38: a default that depends on another field is said when it moves. DeepSeek-V3 on 256 GPUs at TP 8 · DP 32:
// EP 64 does not divide DP × CP = 32, so expert TP is 1; EP 32 does, so expert TP becomes TP = 8
// (structure/params.ts expertTensorParallel, Megatron-Core's tp when --expert-tensor-parallel-size is unset).
describe('the expert TP default, announced when an edit flips it', () => {
  const v3 = findModelPreset('deepseek-v3');
  if (!v3) throw new Error('no deepseek-v3 preset');
  const doc = {
    version: 1,
    model: v3.model,
    training: { seqLen: 4096, globalBatch: 1024, microBatch: 1 },
    parallel: { tp: 8, pp: 1, dp: 32, ep: 64 },
    cluster: { gpu: 'h100-sxm', gpus: 256 },
  };

  it('EP 64 → 32: "expert TP 1 → 8"', () => {
    expect(etpChoices(doc)?.fallback).toBe(1);
    const move = degreeMove(doc, 'ep', 32);
    expect(etpChoices(move.document)?.fallback).toBe(8);
    expect(move.notes).toEqual([
      'EP 32: expert TP 1 → 8, the default while ETP is not set (EP now divides DP × CP, so experts split over the TP ranks as ' +
        'the dense layers do; choose ETP to keep 1)',
    ]);
  });

  it('and back, EP 32 → 64: "expert TP 8 → 1"; nothing said when ETP is set or nothing flips', () => {
    const at32 = degreeMove(doc, 'ep', 32).document;
    expect(degreeMove(at32, 'ep', 64).notes).toEqual([
      expect.stringMatching(/^EP 64: expert TP 8 → 1, the default while ETP is not set \(EP no longer divides DP × CP/),
    ]);
    expect(degreeMove(setAt(doc, ['parallel', 'etp'], 1), 'ep', 32).notes).toEqual([]);
    expect(degreeMove(doc, 'ep', 128).notes).toEqual([]);
  });
});

describe("a sequence length above the model's longest context is a warning (issue 38)", () => {
  it('Llama 3 8B (8,192) at 16,384: warned; at 8,192 and for a custom model: nothing', () => {
    const llama = findModelPreset('llama3-8b');
    if (!llama) throw new Error('no llama3-8b preset');
    const doc = setAt(setAt(DEFAULT_DOCUMENT, ['model'], llama.model), ['training', 'seqLen'], 16_384);
    expect(seqLenNote(doc)).toBe(
      "Longer than Llama 3 8B's longest context, 8,192 tokens: it was never trained on sequences this long, so it would need long-context training first.",
    );
    expect(seqLenNote(setAt(doc, ['training', 'seqLen'], 8192))).toBeNull();
    expect(seqLenNote(setAt(doc, ['model', 'name'], 'my own'))).toBeNull();
    // The estimate still runs.
    expect(parseDocument(doc).ok).toBe(true);
  });
});

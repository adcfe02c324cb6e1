import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validationDataSha256 } from '../../../scripts/validation-data.ts';
import { estimate } from '../estimate.ts';
import { MIN_SEGMENT_RUNS, SEGMENT_TABLE, type SegmentBand } from '../uncertainty/index.ts';
import { readFineTuneCases } from './finetune.ts';
import { segmentedErrors, segmentTableOf } from './uncertainty-fit.ts';
import { readValidationCases } from './validate.ts';

// Issue 35: the segment table (uncertainty/segment-table.ts) is what the shipped validation set
// gives, and its ranges hold what they claim on the set they were computed from.

const read = (path: string) => JSON.parse(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8')) as unknown;
const errors = segmentedErrors(
  readValidationCases(read('validation/published-runs.json')),
  readFineTuneCases(read('validation/finetune-runs.json')),
);
const fresh = segmentTableOf(errors);

describe('the committed segment table (regenerate: npm run uncertainty-table)', () => {
  it('was made from the validation files as they are now', () => {
    expect(SEGMENT_TABLE.dataSha256).toBe(validationDataSha256());
  });

  it("equals what the engine's errors on the set give", () => {
    expect(Object.keys(SEGMENT_TABLE.segments).sort()).toEqual(Object.keys(fresh.segments).sort());
    for (const [id, entry] of Object.entries(fresh.segments)) {
      const committed = SEGMENT_TABLE.segments[id];
      for (const figure of ['tokensPerSecond', 'memory'] as const) {
        const a = committed?.[figure] ?? null;
        const b = entry[figure];
        expect(a?.runs, `${id} ${figure}`).toBe(b?.runs);
        for (const key of ['lowerError', 'upperError', 'minError', 'maxError', 'p90AbsError'] as const) {
          if (a && b) expect(a[key], `${id} ${figure} ${key}`).toBeCloseTo(b[key], 9);
        }
      }
      expect({ ...committed, tokensPerSecond: null, memory: null }).toEqual({ ...entry, tokensPerSecond: null, memory: null });
    }
  });
});

describe('coverage on the calibration set', () => {
  const sized = Object.entries(fresh.segments).flatMap(([id, entry]) =>
    (['tokensPerSecond', 'memory'] as const).flatMap((figure) => {
      const band: SegmentBand | null = entry[figure];
      return band && band.runs >= MIN_SEGMENT_RUNS ? [{ id, figure, band }] : [];
    }),
  );

  it('has segments of 8 or more runs for both figures', () => {
    expect(sized.filter((s) => s.figure === 'tokensPerSecond').length).toBeGreaterThan(10);
    expect(sized.filter((s) => s.figure === 'memory').length).toBeGreaterThan(5);
  });

  it('in every segment with 8 or more runs, the 90 % range holds at least 80 % of the published figures', () => {
    for (const { id, figure, band } of sized) {
      const members = errors.filter((e) => e.figure === figure && segmentIds(e).includes(id));
      expect(members.length, id).toBe(band.runs);
      const inside = members.filter((e) => e.error >= band.lowerError && e.error <= band.upperError).length;
      expect(inside / members.length, `${id} ${figure}`).toBeGreaterThanOrEqual(0.8);
    }
  });

  it("no segment's range is narrower than its own p90 error (the range reaches that far on its wider side)", () => {
    for (const { id, figure, band } of sized) {
      expect(Math.max(-band.lowerError, band.upperError), `${id} ${figure}`).toBeGreaterThanOrEqual(band.p90AbsError - 1e-12);
    }
  });
});

function segmentIds(e: (typeof errors)[number]): string[] {
  return Object.keys(fresh.segments).filter((id) => id === 'all' || memberOf(e, id));
}
function memberOf(e: (typeof errors)[number], id: string): boolean {
  const [phase, kind, generation, framework] = id.split('|');
  const t = e.traits;
  if ((phase === 'finetune') !== (t.fineTune !== null)) return false;
  const kindOk = kind === '*' || kind === (t.fineTune ?? t.kind) || kind === 'finetune-any' || (kind === 'moe-any' && t.kind !== 'dense');
  return kindOk && (generation === '*' || generation === t.generation) && (framework === '*' || framework === t.framework);
}

const h100Dense = {
  version: 1,
  model: { name: 'Llama 3 70B', layers: 80, hidden: 8192, heads: 64, kvHeads: 8, ffnHidden: 28672, ffnType: 'swiglu', vocab: 128256 },
  training: { seqLen: 4096, globalBatch: 512, microBatch: 1, framework: 'megatron', recompute: 'selective' },
  parallel: { tp: 8, pp: 4, dp: 8 },
  cluster: { gpu: 'h100-sxm', gpus: 256 },
};
/** DeepSeek-V2-Lite's experts (64 of FFN 1,408, top 6; arXiv 2405.04434): fine-grained MoE on the same GPU and framework. */
const h100FineGrained = {
  ...h100Dense,
  model: {
    name: 'fine-grained',
    layers: 27,
    hidden: 2048,
    heads: 16,
    ffnHidden: 10944,
    vocab: 102400,
    moe: { experts: 64, topK: 6, expertFfnHidden: 1408, sharedExperts: 2, denseLayers: 1 },
  },
  parallel: { tp: 1, pp: 1, dp: 256, ep: 8 },
};

describe('ranges of the engine output', () => {
  const ratio = (r: { low: number; high: number } | undefined) => (r ? r.high / r.low : NaN);

  it('dense on Hopper with Megatron: high / low at most 1.6, and narrower than fine-grained MoE on the same GPU', () => {
    const dense = estimate(h100Dense);
    const moe = estimate(h100FineGrained);
    expect(dense.errors).toEqual([]);
    expect(moe.errors).toEqual([]);
    expect(dense.uncertainty?.tokensPerSecond.basis).toMatch(/^dense on Hopper with Megatron: \d+ published runs$/);
    expect(moe.uncertainty?.tokensPerSecond.basis).toMatch(/^fine-grained MoE on Hopper with Megatron: \d+ published runs$/);
    expect(ratio(dense.uncertainty?.tokensPerSecond)).toBeLessThanOrEqual(1.6);
    expect(ratio(dense.uncertainty?.tokensPerSecond)).toBeLessThan(ratio(moe.uncertainty?.tokensPerSecond));
    // Memory: 6 dense Hopper Megatron runs are too few; the basis names the wider segment it fell back to.
    expect(dense.uncertainty?.memory.basis).toMatch(
      /^dense on Hopper, all frameworks: \d+ published runs \(dense on Hopper with Megatron: only 6 published runs, fewer than 8/,
    );
    expect(ratio(dense.uncertainty?.memory)).toBeLessThanOrEqual(1.6);
  });

  it('a segment with no runs falls back and says so', () => {
    const qlora = estimate({
      ...h100Dense,
      training: { ...h100Dense.training, framework: 'generic', adapter: { method: 'qlora', rank: 16 } },
      parallel: { tp: 1, pp: 1, dp: 1 },
      cluster: { gpu: 'h100-sxm', gpus: 1 },
    });
    expect(qlora.errors).toEqual([]);
    expect(qlora.uncertainty?.tokensPerSecond.basis).toMatch(
      /^QLoRA fine-tuning, all GPUs: \d+ published runs \(no published runs of QLoRA fine-tuning on Hopper with the generic framework profile\)/,
    );
  });
});

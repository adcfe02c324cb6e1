import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../input/index.ts';
import { estimate } from '../estimate.ts';
import { stageMemoryBreakdowns, stageMemoryDetails } from './stages.ts';
import type { MemoryBreakdown } from '../input/index.ts';

// Random valid documents: pp divides layers, tp divides heads and kvHeads, ep divides
// experts and tp·dp·cp, the global batch is a multiple of microBatch·dp, and
// cluster.gpus is left out so that it is derived from the layout.

const divisorsOf = (n: number) => Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0);

interface Shape {
  readonly layers: number;
  readonly heads: number;
  readonly kvHeads: number;
  readonly headDim: number;
  readonly moe: { experts: number; topK: number } | null;
  readonly mla: boolean;
  readonly swiglu: boolean;
}

const shape: fc.Arbitrary<Shape> = fc
  .record({
    layers: fc.integer({ min: 1, max: 12 }),
    heads: fc.constantFrom(4, 8, 16),
    kvFraction: fc.constantFrom(1, 2, 4),
    headDim: fc.constantFrom(16, 32),
    moe: fc.option(fc.record({ experts: fc.constantFrom(4, 8), topK: fc.constantFrom(1, 2) }), { nil: null }),
    mla: fc.boolean(),
    swiglu: fc.boolean(),
  })
  .map(({ kvFraction, ...s }) => ({ ...s, kvHeads: s.heads / kvFraction }));

const runSettings = fc.record({
  dp: fc.constantFrom(1, 2, 4),
  cp: fc.constantFrom(1, 2),
  microBatch: fc.constantFrom(1, 2),
  accumulation: fc.constantFrom(1, 2, 8),
  zero: fc.constantFrom(0, 1, 2, 3),
  recompute: fc.constantFrom('none', 'selective', 'full'),
  flashAttention: fc.boolean(),
  precision: fc.constantFrom('fp32', 'bf16', 'fp8'),
  optimizer: fc.constantFrom('adam', 'adam8bit', 'sgd'),
  masterWeights: fc.boolean(),
  gradDtype: fc.constantFrom('fp32', 'bf16'),
  offloadOptimizer: fc.boolean(),
  schedule: fc.constantFrom('gpipe', '1f1b', 'zero-bubble', 'dualpipe'),
  tpIndex: fc.nat(),
  ppIndex: fc.nat(),
  epIndex: fc.nat(),
});

type Settings = typeof runSettings extends fc.Arbitrary<infer T> ? T : never;

function validTps(s: Shape): number[] {
  return divisorsOf(s.kvHeads).filter((t) => s.heads % t === 0);
}

function validPps(s: Shape, schedule: string): number[] {
  return divisorsOf(s.layers).filter((p) => schedule !== 'dualpipe' || p % 2 === 0);
}

function validEps(s: Shape, tp: number, r: Settings): number[] {
  if (!s.moe) return [1];
  const experts = s.moe.experts;
  return divisorsOf(experts).filter((e) => (tp * r.dp * r.cp) % e === 0);
}

function document(s: Shape, r: Settings, layout: { tp: number; pp: number; ep: number; zero?: number; recompute?: string }) {
  const hidden = s.heads * s.headDim;
  const zero = layout.zero ?? r.zero;
  return {
    version: 1,
    model: {
      layers: s.layers,
      hidden,
      heads: s.heads,
      kvHeads: s.kvHeads,
      headDim: s.headDim,
      vocab: 512,
      ffnType: s.swiglu ? 'swiglu' : 'gelu',
      moe: s.moe ? { experts: s.moe.experts, topK: s.moe.topK, expertFfnHidden: hidden, sharedExperts: 1, denseLayers: 0 } : null,
      mla: s.mla ? { qLoraRank: 32, kvLoraRank: 16, qkNopeHeadDim: s.headDim, qkRopeHeadDim: 8, vHeadDim: s.headDim } : null,
    },
    training: {
      // DualPipe needs at least 2 × pp micro-batches a step (input/capabilities.ts; deepseek-ai/DualPipe asserts num_chunks >= num_ranks * 2).
      seqLen: 256,
      microBatch: r.microBatch,
      globalBatch: r.microBatch * r.dp * Math.max(r.accumulation, r.schedule === 'dualpipe' ? 2 * layout.pp : 1),
      recompute: layout.recompute ?? r.recompute,
      flashAttention: r.flashAttention,
      precision: r.precision,
      optimizer: r.optimizer,
      masterWeights: r.masterWeights,
      gradDtype: r.gradDtype,
      offload: { optimizer: r.offloadOptimizer, parameters: false },
    },
    parallel: { tp: layout.tp, pp: layout.pp, dp: r.dp, cp: r.cp, ep: layout.ep, zero, schedule: r.schedule },
    cluster: { gpu: 'h100-sxm' },
  };
}

const pick = <T>(list: readonly T[], index: number): T | undefined => (list.length === 0 ? undefined : list[index % list.length]);

/** A valid layout for the shape, or null when the schedule admits none (DualPipe with odd layer counts). */
function layoutFor(s: Shape, r: Settings) {
  const tp = pick(validTps(s), r.tpIndex);
  const pp = pick(validPps(s, r.schedule), r.ppIndex);
  if (tp === undefined || pp === undefined) return null;
  const ep = pick(validEps(s, tp, r), r.epIndex) ?? 1;
  return { tp, pp, ep };
}

/** Per-stage memory and the most loaded GPU, as estimate() reports them. */
function run(doc: unknown): { perGpu: MemoryBreakdown; stages: MemoryBreakdown[] } {
  const parsed = parseDocument(doc);
  expect(parsed.ok ? [] : parsed.errors).toEqual([]);
  if (!parsed.ok) throw new Error('invalid document');
  const stages = stageMemoryBreakdowns(parsed.config);
  const perGpu = stages.reduce((worst, b) => (b.total > worst.total ? b : worst));
  return { perGpu, stages };
}

const parts = (b: MemoryBreakdown) => [b.parameters, b.gradients, b.optimizer, b.activations, b.other, b.total];
const RUNS = { numRuns: 200 };
/** Totals compared with a relative slack for floating-point sums. */
const notAbove = (later: number, earlier: number) => expect(later).toBeLessThanOrEqual(earlier * (1 + 1e-12));

describe('memory properties over random valid documents', () => {
  it('every memory number is finite and non-negative', () => {
    fc.assert(
      fc.property(shape, runSettings, (s, r) => {
        const layout = layoutFor(s, r);
        if (!layout) return;
        const out = run(document(s, r, layout));
        for (const b of [out.perGpu, ...out.stages]) {
          for (const x of parts(b)) {
            expect(Number.isFinite(x)).toBe(true);
            expect(x).toBeGreaterThanOrEqual(0);
          }
        }
      }),
      RUNS,
    );
  });

  it('deviceUsed ≥ reserved ≥ allocated, on the estimate and on every stage (device-side terms and the allocator reserve only add)', () => {
    fc.assert(
      fc.property(shape, runSettings, (s, r) => {
        const layout = layoutFor(s, r);
        if (!layout) return;
        const doc = document(s, r, layout);
        const output = estimate(doc);
        expect(output.errors).toEqual([]);
        expect(output.memory.deviceUsed).toBeGreaterThan(output.memory.reserved);
        expect(output.memory.reserved).toBeGreaterThanOrEqual(output.memory.perGpu.total);
        const parsed = parseDocument(doc);
        if (!parsed.ok) throw new Error('invalid document');
        for (const stage of stageMemoryDetails(parsed.config)) {
          expect(stage.deviceUsed).toBeGreaterThan(stage.reserved);
          expect(stage.reserved).toBeGreaterThanOrEqual(stage.breakdown.total);
        }
        expect(output.memory.fits).toBe(output.memory.deviceUsed <= output.memory.capacity);
      }),
      RUNS,
    );
  });

  it('every number of the whole output (memory, FLOPs, time, cost, reliability, timeline) is finite and non-negative', () => {
    const numbers = (value: unknown, path: string, out: Array<[string, number]>) => {
      if (typeof value === 'number') out.push([path, value]);
      else if (Array.isArray(value)) value.forEach((v, i) => numbers(v, `${path}[${i}]`, out));
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) numbers(v, `${path}.${k}`, out);
      return out;
    };
    fc.assert(
      fc.property(shape, runSettings, (s, r) => {
        const layout = layoutFor(s, r);
        if (!layout) return;
        const output = estimate(document(s, r, layout));
        expect(output.errors).toEqual([]);
        expect(output.throughput).not.toBeNull();
        for (const [path, x] of numbers(output, 'output', [])) {
          expect(Number.isFinite(x), path).toBe(true);
          expect(x, path).toBeGreaterThanOrEqual(0);
        }
      }),
      RUNS,
    );
  });

  it('the total never rises when tp rises, all else fixed', () => {
    fc.assert(
      fc.property(shape, runSettings, (s, r) => {
        const layout = layoutFor(s, r);
        if (!layout) return;
        const larger = validTps(s).filter((t) => t > layout.tp && validEps(s, t, r).includes(layout.ep));
        for (const tp of larger) {
          notAbove(run(document(s, r, { ...layout, tp })).perGpu.total, run(document(s, r, layout)).perGpu.total);
        }
      }),
      RUNS,
    );
  });

  it('the total never rises when pp rises, all else fixed (interleaving excluded: its first stage grows with p, Korthikanti 4.2.3)', () => {
    fc.assert(
      fc.property(shape, runSettings, (s, r) => {
        const layout = layoutFor(s, r);
        if (!layout) return;
        for (const pp of validPps(s, r.schedule).filter((p) => p > layout.pp)) {
          notAbove(run(document(s, r, { ...layout, pp })).perGpu.total, run(document(s, r, layout)).perGpu.total);
        }
      }),
      RUNS,
    );
  });

  it('the total never rises when the ZeRO stage rises, all else fixed', () => {
    fc.assert(
      fc.property(shape, runSettings, (s, r) => {
        const layout = layoutFor(s, r);
        if (!layout) return;
        const totals = [0, 1, 2, 3].map((zero) => run(document(s, r, { ...layout, zero })).perGpu.total);
        for (let k = 1; k < totals.length; k++) notAbove(totals[k] ?? 0, totals[k - 1] ?? 0);
      }),
      RUNS,
    );
  });

  it('activations never rise from none to selective to full, on any stage', () => {
    fc.assert(
      fc.property(shape, runSettings, (s, r) => {
        const layout = layoutFor(s, r);
        if (!layout) return;
        const stages = ['none', 'selective', 'full'].map((recompute) => run(document(s, r, { ...layout, recompute })).stages);
        for (let k = 1; k < stages.length; k++) {
          stages[k]?.forEach((stage, i) => notAbove(stage.activations, stages[k - 1]?.[i]?.activations ?? 0));
        }
      }),
      RUNS,
    );
  });
});

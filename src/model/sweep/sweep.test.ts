import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimate } from '../estimate.ts';
import { dalyGoodput } from '../run/index.ts';
import { sweepDocument, type SweepKnob } from './index.ts';

/** A row's completion is the range alone (sweep.ts): the interval chosen and the quarters are the document's own estimate's. */
const ROW_OPTIONS = { completion: 'range' } as const;

type Doc = { readonly [key: string]: unknown } & {
  readonly parallel: Record<string, unknown>;
  readonly training: Record<string, unknown>;
  readonly cluster: Record<string, unknown>;
  readonly cost: Record<string, unknown>;
};
// Llama 3 70B (arXiv 2407.21783, table 3) on 256 H100: TP 8, PP 4 × VPP 5, DP 8.
const LLAMA_70B = JSON.parse(readFileSync(new URL('../../../examples/llama3-70b-256-h100.json', import.meta.url), 'utf8')) as Doc;
const MIXTRAL: Doc = {
  ...LLAMA_70B,
  model: {
    name: 'Mixtral 8x7B',
    layers: 32,
    hidden: 4096,
    heads: 32,
    kvHeads: 8,
    ffnHidden: 14336,
    ffnType: 'swiglu',
    vocab: 32000,
    moe: { experts: 8, topK: 2, expertFfnHidden: 14336 },
  },
  parallel: { tp: 2, pp: 4, dp: 32, cp: 1, ep: 8, vpp: 1, sequenceParallel: true, zero: 1, schedule: '1f1b' },
};

/** The document as a person would write it for one value: the knob's field set by hand, DP re-derived where the knob moves GPUs. */
function byHand(doc: Doc, knob: SweepKnob, value: number | string): unknown {
  const p = doc.parallel as { tp: number; pp: number; cp: number; dp: number; schedule: string };
  const gpus = p.tp * p.pp * p.cp * p.dp;
  const parallel = (fields: Record<string, unknown>) => ({ ...doc, parallel: { ...doc.parallel, ...fields } });
  const training = (fields: Record<string, unknown>) => ({ ...doc, training: { ...doc.training, ...fields } });
  const v = value as number;
  switch (knob) {
    case 'tp':
      return parallel({ tp: v, dp: gpus / (v * p.pp * p.cp) });
    case 'pp':
      return parallel({ pp: v, dp: gpus / (p.tp * v * p.cp) });
    case 'cp':
      return parallel({ cp: v, dp: gpus / (p.tp * p.pp * v) });
    case 'ep':
    case 'zero':
      return parallel({ [knob]: v });
    case 'vpp':
      return parallel({ vpp: v, schedule: v > 1 ? 'interleaved-1f1b' : p.schedule === 'interleaved-1f1b' ? '1f1b' : p.schedule });
    case 'microBatch':
    case 'globalBatch':
    case 'recompute':
    case 'precision':
    case 'seqLen':
      return training({ [knob]: value });
    case 'gpus':
      return { ...parallel({ dp: v / (p.tp * p.pp * p.cp) }), cluster: { ...doc.cluster, gpus: v } };
    case 'checkpointInterval':
      return { ...doc, cost: { ...doc.cost, checkpointIntervalMinutes: v } };
    case 'moeDispatcher':
    case 'cudaGraph':
      return training({ [knob]: value });
    case 'epComm':
      return training({ overlap: { epComm: value === 'on' } });
    case 'etp':
      return parallel({ etp: v });
  }
}

const CASES: readonly [string, Doc, SweepKnob][] = [
  ...(
    [
      'tp',
      'pp',
      'cp',
      'vpp',
      'microBatch',
      'globalBatch',
      'zero',
      'recompute',
      'precision',
      'seqLen',
      'gpus',
      'checkpointInterval',
    ] as const
  ).map((k): [string, Doc, SweepKnob] => ['Llama 3 70B', LLAMA_70B, k]),
  ['Mixtral 8x7B', MIXTRAL, 'ep'],
  ...(['moeDispatcher', 'epComm', 'cudaGraph', 'etp'] as const).map((k): [string, Doc, SweepKnob] => ['Mixtral 8x7B', MIXTRAL, k]),
];

describe('sweep: each row is the estimate of the document with that value', () => {
  it.each(CASES)(
    '%s, %s',
    (_, doc, knob) => {
      const result = sweepDocument(doc, knob);
      expect(result.errors).toEqual([]);
      expect(result.rows.length).toBeGreaterThan(1);
      for (const row of result.rows) expect(row.output).toEqual(estimate(byHand(doc, knob, row.value), ROW_OPTIONS));
      // Every skipped value is one the engine rejects, with its reason.
      for (const skip of result.skipped) {
        const errors = estimate(byHand(doc, knob, skip.value)).errors;
        expect(errors.length > 0 || /do not split/.test(skip.reason)).toBe(true);
        expect(skip.reason.length).toBeGreaterThan(10);
      }
    },
    30_000,
  );
});

describe('sweep: rows', () => {
  it('one row per valid TP of Llama 3 70B on 256 GPUs at PP 4, ascending; 16, 32, 64 do not divide the 8 KV heads', () => {
    const result = sweepDocument(LLAMA_70B, 'tp', { timeline: false });
    // 256 / (PP 4 × CP 1) = 64 GPUs per pipeline: TP ∈ divisors(64); GQA with 8 KV heads allows 1, 2, 4, 8.
    expect(result.rows.map((r) => r.value)).toEqual([1, 2, 4, 8]);
    expect(result.skipped.map((s) => s.value)).toEqual([16, 32, 64]);
    expect(result.skipped[0]?.reason).toMatch(/parallel\.tp: 16 does not divide model\.kvHeads=8/);
    expect(result.absorbedBy).toBe('dp');
    expect(result.current).toBe(8);
    expect(result.rows.map((r) => r.changes.find((c) => c.path[1] === 'dp')?.value)).toEqual([64, 32, 16, 8]);
    expect(result.rows.every((r) => r.output.timeline === null)).toBe(true);
  });

  it('categorical knobs in their order: recomputation none → selective → full, precision fp4 → fp32', () => {
    expect(sweepDocument(LLAMA_70B, 'recompute').rows.map((r) => r.value)).toEqual(['none', 'selective', 'full']);
    const precisions = sweepDocument(LLAMA_70B, 'precision');
    expect([...precisions.rows, ...precisions.skipped].map((r) => r.value).sort()).toEqual(['bf16', 'fp16', 'fp32', 'fp4', 'fp8']);
    // H100 has no FP4 tensor cores: fp4 is skipped with the engine's reason (input/capabilities.ts precisionProblem), not drawn.
    expect(precisions.rows.map((r) => r.value)).toEqual(['fp8', 'fp16', 'bf16', 'fp32']);
    expect(precisions.skipped.find((r) => r.value === 'fp4')?.reason).toMatch(/FP4 tensor cores/);
  });

  it('offers only what the framework runs: torchtitan has no ZeRO-1, so that row is skipped with the reason (issue 36)', () => {
    const titan = { ...LLAMA_70B, training: { ...(LLAMA_70B['training'] as object), framework: 'torchtitan' } };
    const zero = sweepDocument(titan, 'zero', { timeline: false });
    expect(zero.rows.map((r) => r.value)).not.toContain(1);
    expect(zero.skipped.find((r) => r.value === 1)?.reason).toMatch(/torchtitan has no ZeRO-1 mode/);
  });

  it('numeric rows ascend', () => {
    for (const knob of ['pp', 'microBatch', 'globalBatch', 'seqLen', 'gpus', 'checkpointInterval'] as const) {
      const values = sweepDocument(LLAMA_70B, knob, { timeline: false }).rows.map((r) => r.value as number);
      expect(values).toEqual([...values].sort((a, b) => a - b));
    }
  });

  it('a bad knob or document is an error value, never an exception', () => {
    expect(sweepDocument(LLAMA_70B, 'wings').errors[0]).toMatch(/knob: "wings" is not a knob/);
    expect(sweepDocument(null, 'tp').errors).toEqual(['document: must be a JSON object']);
    expect(sweepDocument({ ...LLAMA_70B, parallel: { ...LLAMA_70B.parallel, tp: 3 } }, 'pp').errors[0]).toMatch(/parallel\.tp/);
    expect(sweepDocument(LLAMA_70B, 'ep').warnings[0]).toMatch(/no experts/);
  });

  it('never changes the document it is given', () => {
    const before = JSON.stringify(LLAMA_70B);
    sweepDocument(LLAMA_70B, 'gpus', { timeline: false });
    expect(JSON.stringify(LLAMA_70B)).toBe(before);
  });
});

describe('sweep: checkpoint interval against goodput (Young 1974, Daly 2006)', () => {
  // Hand derivation for Llama 3 70B on 256 H100:
  //   parameters: embedding and output 2 × 128,256 × 8,192 = 2,101,346,304;
  //   per layer q, o 2 × 8,192² = 134,217,728; k, v 2 × 8,192 × 1,024 = 16,777,216;
  //   SwiGLU 3 × 8,192 × 28,672 = 704,643,072; two norms 16,384 → 855,654,400 × 80 layers;
  //   final norm 8,192 → 70,553,706,496 parameters.
  //   checkpoint: bf16 weights 2 + Adam fp32 master, m, v 12 = 14 bytes each → 987,751,890,944 B;
  //   δ = 987.75 GB / 50 GB/s = 19.755 s; cluster MTBF M = 50,000 h / 256 = 703,125 s;
  //   Young: τ = √(2δM) = √(2 × 19.755 × 703,125) = 5,270.7 s = 87.85 minutes.
  const deltaSeconds = 987_751_890_944 / 50e9;
  const mtbfSeconds = (50_000 / 256) * 3600;
  const youngMinutes = Math.sqrt(2 * deltaSeconds * mtbfSeconds) / 60;

  it("the engine recommends Young's interval, derived by hand", () => {
    expect(youngMinutes).toBeCloseTo(87.85, 1);
    const result = sweepDocument(LLAMA_70B, 'checkpointInterval', { timeline: false });
    expect(result.current).toBeCloseTo(youngMinutes, 6);
    expect(result.rows.map((r) => r.value)).toContain(result.current);
  });

  it('goodput peaks within a factor of 2 of the recommended interval, from 2 minutes to a day', () => {
    const rows = sweepDocument(LLAMA_70B, 'checkpointInterval', { timeline: false }).rows;
    expect(rows[0]?.value).toBe(2);
    expect(rows[rows.length - 1]?.value).toBe(1440);
    const best = rows.reduce((a, r) => ((r.output.reliability?.goodput ?? 0) > (a.output.reliability?.goodput ?? 0) ? r : a));
    const ratio = (best.value as number) / youngMinutes;
    expect(ratio).toBeGreaterThanOrEqual(0.5);
    expect(ratio).toBeLessThanOrEqual(2);
    // Each row's goodput is Daly's expected-wall-time model at that interval (restart 600 s, calibration.ts).
    const at = rows.find((r) => r.value === 10)!;
    expect(at.output.reliability?.goodput).toBeCloseTo(dalyGoodput(600, deltaSeconds, mtbfSeconds, 600), 9);
    // First order: 1 − δ/τ − (τ/2 + R)/M = 1 − 0.03293 − 0.00128 = 0.9658 at τ = 10 min.
    expect(at.output.reliability?.goodput).toBeCloseTo(1 - deltaSeconds / 600 - (300 + 600) / mtbfSeconds, 2);
    // Days follow goodput: checkpointing every 2 minutes costs over a tenth of the run.
    const days = (v: number) => rows.find((r) => r.value === v)!.output.time!.days;
    expect(days(2) / days(90)).toBeGreaterThan(1.1);
  });
});

describe('sweep: the MoE stack knobs (issue 20)', () => {
  const steps = (knob: SweepKnob, doc: Doc = MIXTRAL) =>
    sweepDocument(doc, knob).rows.map((r) => [r.value, r.output.throughput?.stepSeconds ?? Number.NaN] as const);

  it('Mixtral on EP 8: one row per dispatcher, graph scope and overlap setting; overlap and the dispatchers’ volumes change the step time', () => {
    for (const [knob, values] of [
      ['moeDispatcher', ['alltoall', 'allgather', 'deepep', 'hybridep']],
      ['cudaGraph', ['none', 'partial', 'full']],
      ['epComm', ['off', 'on']],
    ] as const) {
      const rows = steps(knob);
      expect(
        rows.map(([v]) => v),
        knob,
      ).toEqual(values);
      // Per-module graphs capture what runs before the dispatcher's sync, which overlaps GPU work anyway unless the backward is
      // host-bound (moe-host.ts): none and partial may tie.
      if (knob === 'epComm') expect(new Set(rows.map(([, s]) => s)).size, knob).toBe(values.length);
    }
    // Mixtral's 14,336-wide experts run longer than the host issues any dispatcher's operators after the sync (moe-host.ts
    // moeLayerForwardSeconds), so DeepEP and HybridEP, which move the same bytes, tie; the NCCL all-to-all and the all-gather move other volumes.
    const dispatchers = new Map(steps('moeDispatcher'));
    expect(dispatchers.get('deepep')).toBeCloseTo(dispatchers.get('hybridep') ?? 0, 12);
    expect(new Set([dispatchers.get('alltoall'), dispatchers.get('allgather'), dispatchers.get('deepep')]).size).toBe(3);
    // Overlap hides exchange behind compute (moe-time.ts expertParallelExposedFraction); whole-iteration graphs remove the host wait.
    const [off, on] = steps('epComm');
    expect(on?.[1]).toBeLessThan(off?.[1] ?? 0);
    const graphs = steps('cudaGraph');
    expect(graphs[2]?.[1]).toBeLessThan(graphs[0]?.[1] ?? 0);
    expect(graphs[1]?.[1]).toBeLessThanOrEqual(graphs[0]?.[1] ?? 0);
  });

  it('expert TP: divisors of TP × DP × CP = 2 × 32 × 1 = 64 the engine accepts with EP 8 (EP × ETP must divide 64: 1, 2, 4, 8)', () => {
    const result = sweepDocument(MIXTRAL, 'etp');
    expect(result.rows.map((r) => r.value)).toEqual([1, 2, 4, 8]);
    expect(result.skipped.map((s) => s.value)).toEqual([16, 32, 64]);
  });

  it('a dense run offers only its current value for each MoE knob', () => {
    for (const knob of ['moeDispatcher', 'epComm', 'cudaGraph', 'etp'] as const)
      expect(sweepDocument(LLAMA_70B, knob).rows, knob).toHaveLength(1);
  });
});

describe('sweep: what each curve holds fixed (issue 36)', () => {
  // Llama 3 70B example: 256 GPUs, global batch 512 sequences of 8,192 tokens = 4,194,304 tokens per step, micro-batch 1, bf16, 1.5e12 tokens.
  const quantities = (knob: SweepKnob, options = {}) => sweepDocument(LLAMA_70B, knob, options).held.map((h) => `${h.quantity}=${h.value}`);

  it('a layout knob holds the GPUs, the batch, the length, the micro-batch, the precision and the token budget', () => {
    expect(quantities('tp')).toEqual([
      'gpus=256',
      'globalBatch=512',
      'seqLen=8192',
      'microBatch=1',
      'precision=bf16',
      'tokens=1500000000000',
    ]);
  });

  it('each knob leaves out what it moves: the GPU curve its GPUs, the batch curve its batch, the precision curve its precision', () => {
    expect(quantities('gpus')).not.toContain('gpus=256');
    expect(quantities('globalBatch')).toEqual(['gpus=256', 'seqLen=8192', 'microBatch=1', 'precision=bf16', 'tokens=1500000000000']);
    expect(quantities('precision')).not.toContain('precision=bf16');
  });

  it('sequence length, holding sequences per step (the default): the global batch stays 512 and tokens per step follow the length', () => {
    const result = sweepDocument(LLAMA_70B, 'seqLen');
    expect(result.seqLenHold).toBe('sequences');
    expect(quantities('seqLen')).toEqual(['gpus=256', 'globalBatch=512', 'microBatch=1', 'precision=bf16', 'tokens=1500000000000']);
    const at4k = result.rows.find((r) => r.value === 4096);
    // 4k halves the tokens per step: 512 × 4,096 = 2,097,152.
    expect(at4k?.changes).toEqual([{ path: ['training', 'seqLen'], value: 4096 }]);
    expect(at4k?.output.flops.modelPerStep).toBe(512 * 4096 * (at4k?.output.model?.flopsPerToken ?? 0));
  });

  it('sequence length, holding tokens per step: the global batch scales inversely, 4,194,304 tokens in every row', () => {
    const result = sweepDocument(LLAMA_70B, 'seqLen', { seqLenHold: 'tokens' });
    expect(result.seqLenHold).toBe('tokens');
    expect(result.errors).toEqual([]);
    expect(quantities('seqLen', { seqLenHold: 'tokens' })).toEqual([
      'gpus=256',
      'tokensPerStep=4194304',
      'microBatch=1',
      'precision=bf16',
      'tokens=1500000000000',
    ]);
    // 4k: 4,194,304 / 4,096 = 1,024 sequences; 16k: 256; each row is the estimate of that document written by hand.
    const batchAt = (s: number) => result.rows.find((r) => r.value === s)?.changes.find((c) => c.path[1] === 'globalBatch')?.value;
    expect(batchAt(4096)).toBe(1024);
    expect(batchAt(16_384)).toBe(256);
    expect(batchAt(8192)).toBe(512);
    for (const row of result.rows) {
      const sequences = 4_194_304 / Number(row.value);
      expect(row.output).toEqual(
        estimate({ ...LLAMA_70B, training: { ...LLAMA_70B.training, seqLen: row.value, globalBatch: sequences } }, ROW_OPTIONS),
      );
      // Same tokens per step, so the same steps for the token budget: tokens/s × days is the budget over goodput in every row.
      expect(sequences * Number(row.value)).toBe(4_194_304);
    }
    // 131,072 tokens per sequence leaves 32 sequences: still a multiple of DP 8 × micro-batch 1, so drawn.
    expect(result.rows.some((r) => r.value === 131_072)).toBe(true);
    // Holding tokens, 512-token sequences need 8,192 sequences per step: a valid, larger batch.
    expect(batchAt(512)).toBe(8192);
  });

  it('a length that cannot hold the tokens in whole sequences is skipped with the reason', () => {
    // 8 sequences of 1,000 tokens = 8,000 tokens per step: 16,384-token sequences need 0.49 of one, 4,096-token ones 1.95.
    const small = {
      ...LLAMA_70B,
      training: { ...LLAMA_70B.training, seqLen: 1000, globalBatch: 8 },
      parallel: { ...LLAMA_70B.parallel, dp: 8 },
    };
    const result = sweepDocument(small, 'seqLen', { seqLenHold: 'tokens' });
    const skip = result.skipped.find((s) => s.value === 16_384);
    expect(skip?.reason).toMatch(/holding 8000 tokens per step at 16384 tokens per sequence needs less than one sequence/);
    expect(result.skipped.find((s) => s.value === 4096)?.reason).toMatch(/1\.95 sequences per step, not a whole number/);
  });

  it('the option means nothing to another knob', () => {
    expect(sweepDocument(LLAMA_70B, 'tp', { seqLenHold: 'tokens' }).seqLenHold).toBeNull();
    expect(quantities('tp', { seqLenHold: 'tokens' })).toEqual(quantities('tp'));
  });
});

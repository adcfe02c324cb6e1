import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  INTER_NODE_BANDWIDTH_EFFICIENCY,
  INTER_NODE_LATENCY_SECONDS,
  INTRA_NODE_BANDWIDTH_EFFICIENCY,
  INTRA_NODE_LATENCY_SECONDS,
} from '../calibration.ts';
import {
  COMM_TERMS,
  allGatherSeconds,
  allReduceSeconds,
  allToAllSeconds,
  defaultMoeLayersOnStage,
  groupLink,
  parallelGroups,
  pointToPointSeconds,
  reduceScatterSeconds,
  stageComm,
  type Link,
} from './comm.ts';
import { parseDocument } from '../input/index.ts';
import type { RunConfig } from '../input/index.ts';

type Json = Record<string, unknown>;

// A Llama-3-8B-shaped model: h = 4096, 32 heads of 128, 8 KV heads.
const DENSE: Json = { layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 };
const MOE: Json = { ...DENSE, moe: { experts: 8, topK: 2, expertFfnHidden: 14336 } };

function config(parallel: Json, training: Json = {}, model: Json = DENSE, gpu = 'h100-sxm', gpusPerNode = 8): RunConfig {
  const dp = typeof parallel.dp === 'number' ? parallel.dp : 1;
  const parsed = parseDocument({
    version: 1,
    model,
    training: { seqLen: 2048, microBatch: 1, globalBatch: dp, precision: 'bf16', gradDtype: 'bf16', recompute: 'selective', ...training },
    parallel: { sequenceParallel: false, ...parallel },
    cluster: { gpu, gpusPerNode },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

const NO_PARAMS = { dense: 0, expert: 0 };

describe('alpha-beta collectives (hand values)', () => {
  // B = 100 GB/s, α = 5 µs, S = 1 GB, n = 4.
  const link: Link = { kind: 'intraNode', bytesPerSecond: 100e9, latencySeconds: 5e-6 };
  it('ring all-reduce = 2(n−1)/n·S/B + 2(n−1)α', () => {
    // 2·3/4 · 1e9/1e11 = 0.015 s, plus 6 · 5 µs = 30 µs.
    expect(allReduceSeconds(1e9, 4, link)).toBeCloseTo(0.01503, 12);
  });
  it('all-gather, reduce-scatter and all-to-all = (n−1)/n·S/B + (n−1)α', () => {
    // 3/4 · 0.01 = 0.0075 s, plus 3 · 5 µs.
    expect(allGatherSeconds(1e9, 4, link)).toBeCloseTo(0.007515, 12);
    expect(reduceScatterSeconds(1e9, 4, link)).toBeCloseTo(0.007515, 12);
    expect(allToAllSeconds(1e9, 4, link)).toBeCloseTo(0.007515, 12);
  });
  it('all-gather + reduce-scatter costs exactly one all-reduce', () => {
    expect(allGatherSeconds(1e9, 4, link) + reduceScatterSeconds(1e9, 4, link)).toBeCloseTo(allReduceSeconds(1e9, 4, link), 15);
  });
  it('point-to-point = S/B + α', () => {
    expect(pointToPointSeconds(1e9, link)).toBeCloseTo(0.010005, 12);
  });
  it('one rank costs nothing', () => {
    for (const f of [allReduceSeconds, allGatherSeconds, reduceScatterSeconds, allToAllSeconds]) expect(f(1e9, 1, link)).toBe(0);
  });
});

describe('which link a group runs over', () => {
  const intraH100 = 450e9 * INTRA_NODE_BANDWIDTH_EFFICIENCY;
  const interH100 = 50e9 * INTER_NODE_BANDWIDTH_EFFICIENCY;

  it('tp = 8 on 8-GPU nodes stays on NVLink', () => {
    const c = config({ tp: 8, dp: 8 });
    const link = groupLink(c.cluster, parallelGroups(c).tp, 'ring');
    expect(link).toEqual({ kind: 'intraNode', bytesPerSecond: intraH100, latencySeconds: INTRA_NODE_LATENCY_SECONDS });
  });

  it('a dp group of stride 8 has one GPU per node: the NIC', () => {
    const c = config({ tp: 8, dp: 8 });
    expect(parallelGroups(c).dp).toEqual({ ranks: 8, stride: 8 });
    const link = groupLink(c.cluster, parallelGroups(c).dp, 'ring');
    expect(link).toEqual({ kind: 'interNode', bytesPerSecond: interH100, latencySeconds: INTER_NODE_LATENCY_SECONDS });
  });

  it('a ring with 8 members per node uses all 8 NICs, capped by NVLink; direct traffic gets one NIC', () => {
    // A100: NVLink 300 GB/s × 0.8 = 240 GB/s; 8 NICs × 25 GB/s × 0.9 = 180 GB/s.
    const c = config({ tp: 1, dp: 16 }, {}, DENSE, 'a100-80gb');
    const dp = parallelGroups(c).dp;
    expect(groupLink(c.cluster, dp, 'ring').bytesPerSecond).toBeCloseTo(8 * 25e9 * INTER_NODE_BANDWIDTH_EFFICIENCY, 0);
    expect(groupLink(c.cluster, dp, 'direct').bytesPerSecond).toBeCloseTo(25e9 * INTER_NODE_BANDWIDTH_EFFICIENCY, 0);
  });

  it('NVL72: tp·cp·dp up to 72 stays in the NVLink domain', () => {
    const intraGb200 = 900e9 * INTRA_NODE_BANDWIDTH_EFFICIENCY;
    const a = config({ tp: 8, dp: 9, pp: 2 }, {}, DENSE, 'gb200', 72);
    expect(groupLink(a.cluster, parallelGroups(a).dp, 'ring')).toMatchObject({ kind: 'intraNode', bytesPerSecond: intraGb200 });
    const b = config({ tp: 4, cp: 2, dp: 9, pp: 2 }, {}, DENSE, 'gb200', 72);
    expect(groupLink(b.cluster, parallelGroups(b).cp, 'direct').kind).toBe('intraNode');
    expect(groupLink(b.cluster, parallelGroups(b).dp, 'ring').kind).toBe('intraNode');
    // The pipeline group spans both 72-GPU domains.
    expect(groupLink(b.cluster, parallelGroups(b).pp, 'direct').kind).toBe('interNode');
  });

  it('NVL72: a 64-GPU block stays in its rack (ranks are placed 64 per 72-GPU rack), a 128-GPU one does not', () => {
    const perRack = config({ tp: 8, dp: 8, pp: 2 }, {}, DENSE, 'gb200', 72);
    expect(groupLink(perRack.cluster, parallelGroups(perRack).dp, 'ring').kind).toBe('intraNode');
    const twoRacks = config({ tp: 8, dp: 16 }, {}, DENSE, 'gb200', 72);
    expect(groupLink(twoRacks.cluster, parallelGroups(twoRacks).dp, 'ring').kind).toBe('interNode');
    // 64 GPUs in all fit in one domain.
    const fits = config({ tp: 8, dp: 8 }, {}, DENSE, 'gb200', 72);
    expect(groupLink(fits.cluster, parallelGroups(fits).dp, 'ring').kind).toBe('intraNode');
  });
});

describe('traffic of one stage (bytes each GPU sends, hand-derived)', () => {
  // s = 2048, b = 1, h = 4096, bf16: one s·b·h buffer is 2048·4096·2 = 16,777,216 bytes.
  const buffer = 2048 * 4096 * 2;

  it('tensor parallel: 4 all-reduces per layer, 6 with full recomputation', () => {
    const c = config({ tp: 8 });
    const one = stageComm(c, 1, NO_PARAMS);
    // Each all-reduce sends 2·7/8·S = 29,360,128 bytes; 4 of them.
    expect(one.sentBytes.tp).toBe(4 * 29_360_128);
    expect(one.seconds.tp).toBeCloseTo(4 * allReduceSeconds(buffer, 8, groupLink(c.cluster, parallelGroups(c).tp, 'ring')), 15);
    expect(stageComm(config({ tp: 8 }, { recompute: 'full' }), 1, NO_PARAMS).sentBytes.tp).toBe(6 * 29_360_128);
    expect(stageComm(c, 4, NO_PARAMS).sentBytes.tp).toBe(16 * 29_360_128);
  });

  it('sequence parallelism moves the same volume (all-gather + reduce-scatter)', () => {
    const plain = stageComm(config({ tp: 8 }), 2, NO_PARAMS);
    const sp = stageComm(config({ tp: 8, sequenceParallel: true }), 2, NO_PARAMS);
    expect(sp.sentBytes.tp).toBe(plain.sentBytes.tp);
    expect(sp.seconds.tp).toBeCloseTo(plain.seconds.tp, 15);
  });

  it('context parallel: cp−1 K/V sends forward, twice that backward', () => {
    // cp = 2, tp = 8: 1024 tokens per rank × (2·8 KV heads·128 / 8) values × 2 bytes = 524,288 per send; 3 sends per layer.
    const c = config({ tp: 8, cp: 2 });
    expect(stageComm(c, 1, NO_PARAMS).sentBytes.cp).toBe(3 * 524_288);
    // Full recomputation repeats the forward ring: 4 sends.
    expect(stageComm(config({ tp: 8, cp: 2 }, { recompute: 'full' }), 1, NO_PARAMS).sentBytes.cp).toBe(4 * 524_288);
  });

  it('context parallel with MLA rings the up-projected per-head K (nope + rope) and V', () => {
    const mla = { ...DENSE, mla: { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 } };
    // 1024 tokens × 32 heads·(128 + 64 + 128) / tp 8 values × 2 bytes = 2,621,440 per send.
    expect(stageComm(config({ tp: 8, cp: 2 }, {}, mla), 1, NO_PARAMS).sentBytes.cp).toBe(3 * 2_621_440);
  });

  it('expert parallel: 4 all-to-alls of tokens·topK·h per MoE layer', () => {
    // ep = 8, tp = 1: 2048 tokens × topK 2 × 4096 × 2 bytes = 33,554,432; 7/8 leaves the GPU.
    const c = config({ tp: 1, dp: 8, ep: 8 }, {}, MOE);
    expect(stageComm(c, 1, NO_PARAMS).sentBytes.ep).toBe(4 * 29_360_128);
    // With tp = 2 and sequence parallelism each rank dispatches half the tokens.
    const tp2 = config({ tp: 2, dp: 4, ep: 8, sequenceParallel: true }, {}, MOE);
    expect(stageComm(tp2, 1, NO_PARAMS).sentBytes.ep).toBe(2 * 29_360_128);
  });

  it('MoE layers keep only attention’s tensor-parallel pair', () => {
    const c = config({ tp: 2, dp: 4, ep: 8, sequenceParallel: true }, {}, MOE);
    // Each collective on 2 ranks sends 2·1/2·S = S; 2 per MoE layer (forward + backward of attention).
    expect(stageComm(c, 1, NO_PARAMS, 1).sentBytes.tp).toBe(2 * buffer);
    expect(stageComm(c, 1, NO_PARAMS, 0).sentBytes.tp).toBe(4 * buffer);
    expect(defaultMoeLayersOnStage(c.model, 5)).toBe(5);
    expect(defaultMoeLayersOnStage(config({ tp: 8 }).model, 5)).toBe(0);
  });

  it('pipeline: one s·b·h message, split by tp under sequence parallelism', () => {
    expect(stageComm(config({ tp: 8, pp: 2, sequenceParallel: true }), 1, NO_PARAMS).sentBytes.ppPerMessage).toBe(buffer / 8);
    expect(stageComm(config({ tp: 8, pp: 2 }), 1, NO_PARAMS).sentBytes.ppPerMessage).toBe(buffer);
    expect(stageComm(config({ tp: 8 }), 1, NO_PARAMS).sentBytes.ppPerMessage).toBe(0);
  });
});

describe('data-parallel synchronisation (ZeRO paper, Rajbhandari et al. 2020, section 7.2.1)', () => {
  // 1e9 parameters per GPU, dp = 8, bf16 gradients and weights, one micro-batch per step.
  // All-reduce: 2·7/8·2e9 = 3.5e9 bytes. Reduce-scatter or all-gather: 1.75e9.
  const params = { dense: 1e9, expert: 0 };
  const sent = (zero: number, training: Json = {}) => stageComm(config({ tp: 1, dp: 8, zero }, training), 1, params).sentBytes;

  it('ZeRO 0, 1 and 2 move the all-reduce volume; ZeRO 3 moves 1.5×', () => {
    expect(sent(0).dp).toBe(3.5e9);
    expect(sent(1).dp).toBe(3.5e9);
    expect(sent(2).dp).toBe(3.5e9);
    expect(sent(3).dp).toBe(1.75e9);
    expect(sent(3).zero3Gather).toBe(3.5e9);
    expect(sent(3).dp + sent(3).zero3Gather).toBe(1.5 * sent(0).dp);
    expect(sent(0).zero3Gather).toBe(0);
  });

  it('fp32 gradients double the gradient traffic', () => {
    expect(sent(0, { gradDtype: 'fp32' }).dp).toBe(7e9);
    // ZeRO 1: fp32 reduce-scatter 3.5e9 + bf16 all-gather 1.75e9.
    expect(sent(1, { gradDtype: 'fp32' }).dp).toBe(5.25e9);
  });

  it('ZeRO 2 reduce-scatters after every micro-batch (DeepSpeed issue #2252)', () => {
    // 4 micro-batches: 4 × 1.75e9 + one all-gather 1.75e9.
    expect(sent(2, { globalBatch: 32 }).dp).toBe(8.75e9);
    expect(sent(0, { globalBatch: 32 }).dp).toBe(3.5e9);
  });

  it('context-parallel ranks join the gradient reduction; experts sync over the expert-dp group', () => {
    const c = config({ tp: 1, cp: 2, dp: 4, ep: 4 }, { seqLen: 2048 }, MOE);
    expect(parallelGroups(c).dp).toEqual({ ranks: 8, stride: 1 });
    expect(parallelGroups(c).expertDp).toEqual({ ranks: 2, stride: 4 });
    // Expert all-reduce on 2 ranks: 2·1/2·2e9 = 2e9 bytes.
    expect(stageComm(c, 1, { dense: 0, expert: 1e9 }).sentBytes.dp).toBe(2e9);
  });
});

describe('faster links never lengthen any communication time', () => {
  const layouts = fc.record({
    tp: fc.constantFrom(1, 2, 4, 8),
    cp: fc.constantFrom(1, 2, 4),
    dp: fc.constantFrom(1, 2, 4, 8, 16),
    pp: fc.constantFrom(1, 2, 4),
    zero: fc.constantFrom(0, 1, 2, 3),
    gpusPerNode: fc.constantFrom(4, 8, 16, 72),
    intra: fc.double({ min: 10, max: 2000, noNaN: true }),
    inter: fc.double({ min: 1, max: 400, noNaN: true }),
    intraScale: fc.double({ min: 1, max: 20, noNaN: true }),
    interScale: fc.double({ min: 1, max: 20, noNaN: true }),
    moe: fc.boolean(),
  });
  it('holds for every term, link and layout', () => {
    fc.assert(
      fc.property(layouts, (l) => {
        const ep = l.moe ? Math.min(8, l.tp * l.cp * l.dp) : 1;
        const base = config({ tp: l.tp, cp: l.cp, dp: l.dp, pp: l.pp, ep, zero: l.zero }, { globalBatch: 2 * l.dp }, l.moe ? MOE : DENSE);
        const withLinks = (intra: number, inter: number): RunConfig => ({
          ...base,
          cluster: {
            ...base.cluster,
            gpusPerNode: l.gpusPerNode,
            gpu: { ...base.cluster.gpu, intraNodeGBps: intra, interNodeGBps: inter },
          },
        });
        const params = { dense: 1e8, expert: l.moe ? 5e8 : 0 };
        const slow = stageComm(withLinks(l.intra, l.inter), 2, params).seconds;
        const fast = stageComm(withLinks(l.intra * l.intraScale, l.inter * l.interScale), 2, params).seconds;
        for (const term of COMM_TERMS) expect(fast[term]).toBeLessThanOrEqual(slow[term] * (1 + 1e-12));
      }),
    );
  });
});

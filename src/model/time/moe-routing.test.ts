import { describe, expect, it } from 'vitest';
import { findGpuPreset, parseDocument, type RunConfig } from '../input/index.ts';
import { busiestExpertRankLoad } from '../structure/index.ts';
import { QWEN3_30B_A3B_MODEL } from '../../testing/documents.ts';
import { gemmSeconds, layerForwardSeconds } from './compute.ts';
import { stageComm } from './comm.ts';
import { FAKE_BALANCED_GATE_OPS, MOE_EAGER_OPS, moeEagerOps } from './moe-host.ts';
import { consecutiveGroupsPerToken, deepEpTransferSeconds, ranksPerToken, remoteNodesPerToken, tokensPerLocalExpert } from './moe-time.ts';
import { moeDispatchBytesPerToken } from './moe-traffic.ts';

// training.moeLoadImbalance and training.moeRouter in the step time (issue 32 item 4).

type Json = Record<string, unknown>;

/** Qwen3-30B-A3B's MoE shape (h 2048, 128 experts, top-8, expert FFN 768), 4 layers, on one node of 8 H100s. */
function run(training: Json = {}, parallel: Json = {}, model: Json = {}): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: { ...QWEN3_30B_A3B_MODEL, layers: 4, vocab: 32000, ...model },
    training: { seqLen: 4096, globalBatch: 8, microBatch: 1, precision: 'bf16', framework: 'megatron', recompute: 'none', ...training },
    parallel: { tp: 1, pp: 1, dp: 8, ep: 8, ...parallel },
    cluster: { gpu: 'h100-sxm', gpusPerNode: 8 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

const NO_PARAMS = { dense: 0, expert: 0 };

describe('consecutive routing (AutoModel FakeBalancedGate): ranks a token reaches, derived by hand', () => {
  // Token t goes to experts (t·k + j) mod E, j < k. Its first expert t·k mod E runs through the
  // multiples of g = gcd(k, E), each equally often over a cycle of E/g tokens; expert e lives on
  // rank ⌊e / (E/ep)⌋.
  it('E 128, k 8, ep 8: 16 experts a rank, first experts 0, 8, …, 120, so 8 consecutive experts never straddle two ranks: 1', () => {
    // s mod 16 is 0 or 8: experts s … s+7 are 0–7 or 8–15 of their rank's 16. Were the first
    // expert uniform over all 128, a token would straddle with probability 7/16 (1 + 7/16 =
    // 1.4375 ranks); k aligns it. Learned (random) routing reaches 8·(1 − C(112,8)/C(128,8)) = 5.34.
    expect(consecutiveGroupsPerToken(128, 8, 8)).toBe(1);
    expect(ranksPerToken(128, 8, 8, 'fakeBalanced')).toBe(1);
    expect(ranksPerToken(128, 8, 8)).toBeCloseTo(5.33936, 4);
  });
  it('E 64, k 6, ep 8 (Moonlight): g = 2, 8 experts a rank; starts ≡ 0, 2 stay on one rank, ≡ 4, 6 reach two: 1.5', () => {
    // s ≡ 0: 0–5; s ≡ 2: 2–7 (one rank); s ≡ 4: 4–9; s ≡ 6: 6–11 (two); the wrap 62–67 → 62, 63, 0–3 is two as well.
    expect(consecutiveGroupsPerToken(64, 6, 8)).toBe(1.5);
  });
  it('E 256, k 8, ep 64 (DeepSeek-V3 on 1,024 GPUs): 4 experts a rank, 8 aligned consecutive ones span exactly 2 ranks', () => {
    expect(consecutiveGroupsPerToken(256, 8, 64)).toBe(2);
    // Over 8 nodes (32 experts each) they stay on one node: 7/8 of the time that node is another one.
    expect(remoteNodesPerToken(256, 8, 8, 'fakeBalanced')).toBe(7 / 8);
  });
  it('more ranks than experts: each expert on a rank of its own, k ranks', () => {
    expect(consecutiveGroupsPerToken(64, 6, 128)).toBe(6);
    expect(consecutiveGroupsPerToken(64, 6, 1)).toBe(1);
  });
  it('past 65,536 start positions, the uniform-start form: E 2^20, k 3 over 2 groups crosses a boundary at 4 of 2^20 starts', () => {
    // g = 1: starts 2^19 − 2, 2^19 − 1, 2^20 − 2 and 2^20 − 1 straddle; 1 + 4 / 2^20 = 1 + (k − 1)·groups/E.
    expect(consecutiveGroupsPerToken(2 ** 20, 3, 2)).toBe(1 + 4 / 2 ** 20);
  });
});

describe('the fake balanced gate in the step', () => {
  const learned = run({ moeDispatcher: 'deepep' });
  const fake = run({ moeDispatcher: 'deepep', moeRouter: 'fakeBalanced' });

  it('DeepEP moves one row per (token, rank touched): 1 rank instead of 5.34, so 1/5.34 of the NVLink bytes in one node', () => {
    const h800 = findGpuPreset('h800');
    const moe = learned.model.moe!;
    const balanced = deepEpTransferSeconds(h800!, moe, 8, 1, 4096, 2048 * 2);
    const consecutive = deepEpTransferSeconds(h800!, moe, 8, 1, 4096, 2048 * 2, { router: 'fakeBalanced', load: 1 });
    expect(consecutive / balanced).toBeCloseTo(1 / ranksPerToken(128, 8, 8), 12);
    expect(stageComm(fake, 1, NO_PARAMS, 1).seconds.ep).toBeLessThan(stageComm(learned, 1, NO_PARAMS, 1).seconds.ep);
  });
  it('the all-to-all dispatcher sends one row per routed copy whatever the router: its exchange does not move', () => {
    const a2a = (router: string) => stageComm(run({ moeDispatcher: 'alltoall', moeRouter: router }), 1, NO_PARAMS, 1);
    expect(a2a('fakeBalanced').seconds.ep).toBe(a2a('learned').seconds.ep);
  });
  it('no gating GEMM: the forward matmuls lose exactly the 4096 × 2048 by 2048 × 128 router GEMM', () => {
    const router = gemmSeconds(learned.cluster.gpu, 'bf16', { m: 4096, k: 2048, n: 128 }, learned.calibration.computeEfficiencyScale);
    const drop = layerForwardSeconds(learned, 0, 4096).matmulForward - layerForwardSeconds(fake, 0, 4096).matmulForward;
    expect(drop).toBeCloseTo(router, 15);
  });
  it("no router's fp32 passes over the experts: 5 × 4 × 128 = 2,560 bytes a token fewer", () => {
    // HybridEP, Qwen3 at EP 8: permute + unpermute 2 × 4 × 8 × 2048 = 131,072 bytes (moe-traffic.test.ts).
    expect(moeDispatchBytesPerToken(run({ moeDispatcher: 'hybridep' }), 1)).toBe(131_072 + 2_560);
    expect(moeDispatchBytesPerToken(run({ moeDispatcher: 'hybridep', moeRouter: 'fakeBalanced' }), 1)).toBe(131_072);
  });
  it('an eager layer issues the gate’s 6 operators in place of the router’s 12 before the synchronisation', () => {
    expect(moeEagerOps(learned, 0).beforeSync).toBe(MOE_EAGER_OPS.attention + 12);
    expect(moeEagerOps(fake, 0).beforeSync).toBe(MOE_EAGER_OPS.attention + FAKE_BALANCED_GATE_OPS);
    expect(FAKE_BALANCED_GATE_OPS).toBe(6);
  });
});

describe('the busiest expert-parallel rank (training.moeLoadImbalance)', () => {
  it('is the stated load at any EP (the search keeps it on every layout), 1 when absent, under a capacity factor or the fake gate', () => {
    expect(busiestExpertRankLoad(run())).toBe(1);
    expect(busiestExpertRankLoad(run({ moeLoadImbalance: 1.3 }))).toBe(1.3);
    expect(busiestExpertRankLoad(run({ moeLoadImbalance: 1.3 }, { ep: 2 }))).toBe(1.3);
    // Capacity 1.25: every expert padded or dropped to 1.25 × its mean share (routedCopiesPerToken counts it already).
    const capped = run({ moeLoadImbalance: 1.3 }, {}, { moe: { ...QWEN3_30B_A3B_MODEL.moe, capacityFactor: 1.25 } });
    expect(busiestExpertRankLoad(capped)).toBe(1);
  });
  it('its experts run on 1.3 × the mean tokens: 4096 × 8 / 128 × 8 ranks = 2,048 → 2,662.4 per local expert', () => {
    expect(tokensPerLocalExpert(run(), run().model.moe!, 4096)).toBe(2048);
    const skewed = run({ moeLoadImbalance: 1.3 });
    expect(tokensPerLocalExpert(skewed, skewed.model.moe!, 4096)).toBeCloseTo(2048 * 1.3, 9);
    expect(layerForwardSeconds(skewed, 0, 4096).expertMatmulForward).toBeGreaterThan(
      layerForwardSeconds(run(), 0, 4096).expertMatmulForward,
    );
  });
  it('the all-to-all moves 1.3 × the bytes at the busiest rank, and so does DeepEP', () => {
    for (const moeDispatcher of ['alltoall', 'deepep']) {
      const even = stageComm(run({ moeDispatcher }), 1, NO_PARAMS, 1).sentBytes.ep;
      const skewed = stageComm(run({ moeDispatcher, moeLoadImbalance: 1.3 }), 1, NO_PARAMS, 1).sentBytes.ep;
      expect(skewed / even).toBeCloseTo(1.3, 9);
    }
  });
  it('expert-side HBM passes: the flex dispatchers permute on the expert rank, the all-to-all one only sorts there', () => {
    // HybridEP at 1.5: 2 × 4 × 1.5 × 8 × 2048 = 196,608 + the router's 2,560.
    expect(moeDispatchBytesPerToken(run({ moeDispatcher: 'hybridep', moeLoadImbalance: 1.5 }), 1)).toBe(196_608 + 2_560);
    // All-to-all at 1.5: permute/unpermute at the source (4 × 1) + chunk sort at the experts (4 × 1.5) = 10 passes:
    // 2 × 10 × 8 × 2048 = 327,680 + 2,560.
    expect(moeDispatchBytesPerToken(run({ moeDispatcher: 'alltoall', moeLoadImbalance: 1.5 }), 1)).toBe(327_680 + 2_560);
  });
});

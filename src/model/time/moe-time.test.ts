import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { INTRA_NODE_BANDWIDTH_EFFICIENCY, INTRA_NODE_LATENCY_SECONDS, MOE_TIME } from '../calibration.ts';
import { FRAMEWORKS, parseDocument, type RunConfig } from '../input/index.ts';
import { architectureFacts, findGpuPreset } from '../input/index.ts';
import { expertTensorParallel, layerGpuParameters } from '../structure/index.ts';
import { layerForwardSeconds, groupedGemmSeconds } from './compute.ts';
import { parallelGroups, stageComm } from './comm.ts';
import { stageTimes } from './step.ts';
import {
  DEEPEP_RDMA_EFFICIENCY,
  deepEpTransferSeconds,
  expertParallelExposedFraction,
  moeDispatchReplicas,
  ranksPerToken,
  remoteNodesPerToken,
  tokensPerLocalExpert,
} from './moe-time.ts';

type Json = Record<string, unknown>;

// A Mixtral-shaped layer stack: h 4096, 8 experts top-2 of width 14,336.
const MOE_MODEL: Json = {
  layers: 32,
  hidden: 4096,
  heads: 32,
  kvHeads: 8,
  ffnHidden: 14336,
  ffnType: 'swiglu',
  vocab: 32000,
  moe: { experts: 8, topK: 2, expertFfnHidden: 14336 },
};
const DENSE_MODEL: Json = { layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 };

function config(parallel: Json, training: Json = {}, model: Json = MOE_MODEL, gpu = 'h100-sxm'): RunConfig {
  const dp = typeof parallel.dp === 'number' ? parallel.dp : 1;
  const parsed = parseDocument({
    version: 1,
    model,
    training: { seqLen: 2048, microBatch: 1, globalBatch: dp, precision: 'bf16', recompute: 'selective', ...training },
    parallel: { sequenceParallel: false, ...parallel },
    cluster: { gpu, gpusPerNode: 8 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

const NO_PARAMS = { dense: 0, expert: 0 };
const h100 = findGpuPreset('h100-sxm');
const h800 = findGpuPreset('h800');

describe('the host-bound floor of an eager MoE layer (moe-host.ts)', () => {
  const layerIndex = 0;
  it('the forward waits for the operators issued after the dispatcher synchronisation; whole-iteration graphs remove it', () => {
    const eager = config({ ep: 8, dp: 8 }, { moeDispatcher: 'alltoall', cudaGraph: 'none' });
    const graphed = config({ ep: 8, dp: 8 }, { moeDispatcher: 'alltoall', cudaGraph: 'full' });
    // Mixtral E8 over EP 8, 1 local expert; after the sync: 19 dispatch + 2 + 2 × 1 expert operators and 3 × 2 × 8 NCCL peer calls, then the stall.
    const afterSync = (23 + 48 * MOE_TIME.ncclPeerCallOpShare) * MOE_TIME.eagerOpHostSeconds + MOE_TIME.syncStallSeconds;
    expect(layerForwardSeconds(eager, layerIndex, 2048).hostForward).toBeCloseTo(afterSync, 15);
    const a = layerForwardSeconds(eager, layerIndex, 2048);
    const b = layerForwardSeconds(graphed, layerIndex, 2048);
    expect(b.hostForward).toBe(0);
    expect(b.matmulForward).toBe(a.matmulForward);
    expect(b.elementwiseForward).toBe(a.elementwiseForward);
    const stage = { index: 0, layers: [0], chunks: 1, embedding: false, output: false };
    const te = stageTimes(eager, stage, NO_PARAMS);
    const tg = stageTimes(graphed, stage, NO_PARAMS);
    // The stall idles the GPU; the issuing after it overlaps the routed experts' grouped GEMMs (moe-host.ts moeLayerForwardSeconds).
    const issue = afterSync - MOE_TIME.syncStallSeconds;
    expect(a.hostForwardStall).toBe(MOE_TIME.syncStallSeconds);
    expect(a.expertMatmulForward).toBeGreaterThan(0);
    expect(a.expertMatmulForward).toBeLessThan(a.matmulForward);
    const overlapped = MOE_TIME.syncStallSeconds + Math.max(a.expertMatmulForward, issue) - a.expertMatmulForward;
    expect(te.forwardComputeSeconds - tg.forwardComputeSeconds).toBeCloseTo(overlapped, 12);
    // Backward: the host's 2 × (20 + 23 + 48 × share) operators are far under this layer's GPU backward, so no change.
    expect(te.backwardComputeSeconds).toBeCloseTo(tg.backwardComputeSeconds, 15);
  });
  it('is not charged to a dense layer', () => {
    const dense = config({ dp: 8 }, { moeDispatcher: 'alltoall' }, DENSE_MODEL);
    expect(layerForwardSeconds(dense, 0, 2048).hostForward).toBe(0);
    expect(layerForwardSeconds(dense, 0, 2048).hostBackward).toBe(0);
  });
});

describe('the expert-parallel all-to-all, exposed with and without --overlap-moe-expert-parallel-comm', () => {
  // EP 8 on one H100 node, bf16, s = 2048, b = 1, tp 1: each rank sends its 2,048 tokens × top-2
  // copies × 4,096 × 2 bytes = 33,554,432 B; the pairwise all-to-all keeps 1/8:
  // 7/8 × 33,554,432 / (450e9 × 0.8) + 7 × 3.4 µs = 81.556 µs + 23.8 µs = 105.356 µs.
  const one = ((7 / 8) * 33_554_432) / (450e9 * INTRA_NODE_BANDWIDTH_EFFICIENCY) + 7 * INTRA_NODE_LATENCY_SECONDS;
  it('hand value of one dispatch', () => {
    expect(one).toBeCloseTo(105.356e-6, 9);
  });
  // Per MoE layer: dispatch + combine forward, their gradients backward = 4 all-to-alls (selective recompute reruns none).
  const perLayer = 4 * one;
  it('without overlap, the fitted exposed share of 4 all-to-alls per layer', () => {
    const c = config({ ep: 8, dp: 8 }, { moeDispatcher: 'alltoall' });
    expect(stageComm(c, 1, NO_PARAMS, 1).seconds.ep).toBeCloseTo(perLayer, 12);
    const stage = { index: 0, layers: [0], chunks: 1, embedding: false, output: false };
    expect(stageTimes(c, stage, NO_PARAMS).exposed.ep).toBeCloseTo(perLayer * MOE_TIME.exposedFraction, 12);
  });
  it('with epComm, the overlapped share (Bridge skill card: 24.71 → 20.99 s per step on 16 H100)', () => {
    const c = config({ ep: 8, dp: 8 }, { moeDispatcher: 'alltoall', overlap: { epComm: true } });
    const stage = { index: 0, layers: [0], chunks: 1, embedding: false, output: false };
    expect(expertParallelExposedFraction(c)).toBe(MOE_TIME.overlappedExposedFraction);
    expect(stageTimes(c, stage, NO_PARAMS).exposed.ep).toBeCloseTo(perLayer * MOE_TIME.overlappedExposedFraction, 12);
    expect(MOE_TIME.overlappedExposedFraction).toBeLessThan(MOE_TIME.exposedFraction);
  });
  it('under DualPipe, nearly none (DeepSeek-V3 report, section 3.2.1)', () => {
    // DualPipe needs 2 × pp = 4 micro-batches: 16 / (mbs 1 × dp 4);
    const c = config({ ep: 4, dp: 4, pp: 2, schedule: 'dualpipe' }, { moeDispatcher: 'alltoall', globalBatch: 16 });
    expect(expertParallelExposedFraction(c)).toBe(0.05);
  });
});

describe('DeepEP and HybridEP', () => {
  it("reproduce DeepEP's intra-node table: EP 8 on H800 receives 153 GB/s of rows, one per (token, rank)", () => {
    // deepseek-ai/DeepEP README @v1.2.1, normal kernels: intranode EP 8, dispatch 153 GB/s (NVLink), measured by
    // tests/test_intranode.py as recv_x.numel() * 2 / t: one row per (token, rank it touches), the rank's own included,
    // with random top-8 of 256 experts. A rank holds 32 experts; all 8 picks miss it with probability
    // Π_{i<8} (224 − i)/(256 − i) = 0.338168…, so a token lands on 8 × (1 − 0.338168) = 5.2947 ranks, not 8 copies.
    const moe = { experts: 256, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 3 };
    expect(ranksPerToken(256, 8, 8)).toBeCloseTo(5.29465, 4);
    const tokens = 4096;
    const bytesPerToken = 7168; // fp8 hidden of DeepSeek-V3
    const seconds = deepEpTransferSeconds(h800!, moe, 8, 1, tokens, bytesPerToken);
    const receivedBytes = tokens * 5.294652 * bytesPerToken;
    expect(receivedBytes / seconds / 1e9).toBeCloseTo(153, 3);
    expect(h800!.intraNodeGBps * architectureFacts('hopper').epDispatchNvlinkEfficiency).toBeCloseTo(153, 9);
  });
  it("on Blackwell at HybridEP's measured GB200 rate, 550.10 GB/s of NVLink 5's 900", () => {
    // DeepEP branch hybrid-ep @94a9f8f docs/README_Hybrid-EP.md, GB200, EP 8, 16 SMs, bf16 dispatch, Torch API: 550.10 GB/s
    // of dispatched rows (tests/test_hybrid_ep.py: nvl_dispatch = dispatched_hidden.numel() * 2). Qwen3-30B-A3B's top-8 of
    // 128 experts over 8 ranks (16 each): miss Π_{i<8} (112 − i)/(128 − i) = 0.332580…, 5.33936 ranks a token.
    const gb200 = findGpuPreset('gb200')!;
    const moe = { experts: 128, topK: 8, expertFfnHidden: 768, sharedExperts: 0, denseLayers: 0 };
    expect(ranksPerToken(128, 8, 8)).toBeCloseTo(5.33936, 4);
    const seconds = deepEpTransferSeconds(gb200, moe, 8, 1, 8192, 2048 * 2);
    expect((8192 * 5.339357 * 4096) / seconds / 1e9).toBeCloseTo(550.1, 2);
    expect(ranksPerToken(128, 8, 1)).toBe(1);
  });
  it('send a token once per remote node it touches: top-8 of 256 experts over 4 nodes', () => {
    // A node holding 64 of the 256 experts is missed by all 8 picks with probability
    // C(192, 8) / C(256, 8) = Π_{i<8} (192 − i)/(256 − i) = 0.096446…; the other 3 nodes are
    // each hit with 1 − 0.096446, so 3 × 0.903554 = 2.7107 sends, not top-K × 3/4 = 6 per-expert copies.
    let miss = 1;
    for (let i = 0; i < 8; i++) miss *= (192 - i) / (256 - i);
    expect(miss).toBeCloseTo(0.0964464, 6);
    expect(remoteNodesPerToken(256, 8, 4)).toBeCloseTo(3 * (1 - miss), 12);
    expect(remoteNodesPerToken(256, 8, 4)).toBeCloseTo(2.71066, 4);
    expect(remoteNodesPerToken(256, 8, 1)).toBe(0);
  });
  it('bound by RDMA at 43 of 50 GB/s per NIC when the token must leave the node', () => {
    const moe = { experts: 256, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 3 };
    const slowNvlink = { ...h800!, intraNodeGBps: 1e6 };
    const seconds = deepEpTransferSeconds(slowNvlink, moe, 32, 4, 4096, 7168);
    const rdmaBytes = 4096 * 7168 * remoteNodesPerToken(256, 8, 4);
    expect(rdmaBytes / seconds / 1e9).toBeCloseTo(50 * DEEPEP_RDMA_EFFICIENCY, 6);
  });
});

describe('grouped GEMM at small tokens per expert', () => {
  it('anchor: Qwen3-30B-A3B up_proj on H100 between cuBLAS 129.5 and CUTLASS 160.5 TFLOP/s (tgale96/grouped_gemm PR #37)', () => {
    // 128 experts, 512 tokens each, K 2048, N 1536 (gate and up of width 768).
    const seconds = groupedGemmSeconds(h100!, 'bf16', 128, { m: 512, k: 2048, n: 1536 });
    const tflops = (2 * 128 * 512 * 2048 * 1536) / seconds / 1e12;
    expect(tflops).toBeGreaterThan(129.5);
    expect(tflops).toBeLessThan(160.5);
    expect(tflops).toBeCloseTo(145, 0);
  });
  it('runs faster per FLOP as the tokens per expert grow', () => {
    const rate = (m: number) => (2 * 16 * m * 2048 * 1536) / groupedGemmSeconds(h100!, 'bf16', 16, { m, k: 2048, n: 1536 });
    expect(rate(512)).toBeLessThan(rate(4096));
    expect(rate(4096)).toBeLessThan(rate(32768));
  });
});

describe('capacity factor', () => {
  it('1.5 pads every expert to 1.5 × the mean tokens per expert', () => {
    // 2,048 tokens per rank, ep 8, etp 1, top-2 of 8 experts: mean = 2048 × 8 × 2 / 8 = 4,096 per expert.
    const dropless = config({ ep: 8, dp: 8 });
    const padded = config(
      { ep: 8, dp: 8 },
      {},
      { ...MOE_MODEL, moe: { experts: 8, topK: 2, expertFfnHidden: 14336, capacityFactor: 1.5 } },
    );
    const moe = dropless.model.moe!;
    expect(tokensPerLocalExpert(dropless, moe, 2048)).toBe(4096);
    expect(tokensPerLocalExpert(padded, padded.model.moe!, 2048)).toBe(1.5 * 4096);
    // And the dispatcher moves the padded buffers: 1.5 × the dropless all-to-all bytes.
    expect(stageComm(padded, 1, NO_PARAMS, 1).sentBytes.ep).toBeCloseTo(1.5 * stageComm(dropless, 1, NO_PARAMS, 1).sentBytes.ep, 3);
  });
});

describe('expert tensor parallelism: one etp for compute, communication and memory', () => {
  // tp 2, dp 4, ep 2: the default rule gives etp = tp = 2 (ep divides dp); the document can say 1.
  const byDefault = config({ tp: 2, dp: 4, ep: 2, sequenceParallel: true }, { globalBatch: 4 });
  const explicitOne = config({ tp: 2, dp: 4, ep: 2, etp: 1, sequenceParallel: true }, { globalBatch: 4 });
  it('an explicit etp wins over the default rule', () => {
    expect(expertTensorParallel(byDefault.parallel)).toBe(2);
    expect(expertTensorParallel(explicitOne.parallel)).toBe(1);
  });
  for (const [label, c, etp] of [
    ['default (etp 2)', byDefault, 2],
    ['explicit etp 1', explicitOne, 1],
  ] as const) {
    it(`${label}: memory splits experts by ep × etp, communication groups etp ranks, compute pools ep × etp ranks' tokens`, () => {
      // Memory: 8 experts × 3 × 4096 × 14336 parameters over ep·etp GPUs.
      const expertParameters = 8 * 3 * 4096 * 14336;
      expect(layerGpuParameters(c.model, 0, c.parallel).expert).toBe(expertParameters / (2 * etp));
      const groups = parallelGroups(c);
      expect(groups.etp.ranks).toBe(etp);
      expect(groups.expertDp.ranks).toBe((2 * 4) / (2 * etp));
      // Compute: each of the 8/2 local experts runs on (2048/2) × ep 2 × etp × top-2 / 8 tokens,
      // with its width split etp ways: the expert FLOPs per GPU are the same for any etp.
      const m = tokensPerLocalExpert(c, c.model.moe!, 2048);
      expect(m).toBe(((2048 / 2) * 2 * etp * 2) / 8);
      expect((8 / 2) * m * (14336 / etp)).toBe((2048 / 2) * 2 * 14336);
    });
  }
  it('etp > 1 adds the gather and reduce-scatter over the etp group', () => {
    expect(stageComm(byDefault, 1, NO_PARAMS, 1).seconds.ep).toBeGreaterThan(stageComm(explicitOne, 1, NO_PARAMS, 1).seconds.ep);
  });
});

describe('torchtitan dispatches the TP group replicated tokens under expert tensor parallelism (moeDispatchReplicas)', () => {
  // tt-h200 exp 1's layout: TP 4, ETP 4, EP 2 on 8 GPUs, sequence parallel, bf16, one layer, s 2048, b 1.
  const layout = { tp: 4, dp: 2, ep: 2, etp: 4, sequenceParallel: true };
  const titan = config(layout, { framework: 'torchtitan', moeDispatcher: 'alltoall', recompute: 'none', globalBatch: 2 });
  const megatron = config(layout, { framework: 'megatron', moeDispatcher: 'alltoall', recompute: 'none', globalBatch: 2 });

  it('tp copies in torchtitan with ETP > 1; one with ETP 1, TP 1, or in Megatron-Core', () => {
    expect(moeDispatchReplicas(titan)).toBe(4);
    expect(moeDispatchReplicas(megatron)).toBe(1);
    expect(moeDispatchReplicas(config({ ...layout, etp: 1 }, { framework: 'torchtitan', globalBatch: 2 }))).toBe(1);
  });

  it('the all-to-all sends every token of the TP group, top-2 copies, half of them to the other EP rank; no ETP gather', () => {
    // 2,048 tokens × 2 copies × 4,096 × 2 bytes = 33.6 MB per exchange; (ep − 1)/ep = 1/2 leaves the GPU: 16.8 MB.
    // Forward dispatch + combine, backward their gradients: 4 exchanges, 67.1 MB.
    expect(stageComm(titan, 1, NO_PARAMS, 1).sentBytes.ep).toBeCloseTo((4 * (2048 * 2 * 4096 * 2)) / 2, 0);
  });
});

describe('tokens travel in 16-bit under fp8 recipes (Megatron-Core fused_a2a.py: fp8_dispatch = False)', () => {
  it('an fp8 run sends the bf16 run bytes: 4 exchanges × 2,048 tokens × 2 copies × 4,096 × 2 bytes × 7/8', () => {
    const bf16 = config({ ep: 8, dp: 8 }, { moeDispatcher: 'alltoall', globalBatch: 8, recompute: 'none' });
    const fp8 = config({ ep: 8, dp: 8 }, { moeDispatcher: 'alltoall', globalBatch: 8, recompute: 'none', precision: 'fp8' });
    const expected = (4 * 2048 * 2 * 4096 * 2 * 7) / 8;
    expect(stageComm(bf16, 1, NO_PARAMS, 1).sentBytes.ep).toBeCloseTo(expected, 0);
    expect(stageComm(fp8, 1, NO_PARAMS, 1).sentBytes.ep).toBeCloseTo(expected, 0);
  });
});

describe('properties', () => {
  const DISPATCHERS = ['alltoall', 'allgather', 'deepep', 'hybridep'] as const;
  const GRAPHS = ['none', 'partial', 'full'] as const;
  it('an explicit field always wins over the framework profile', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FRAMEWORKS),
        fc.constantFrom(...DISPATCHERS),
        fc.constantFrom(...GRAPHS),
        fc.boolean(),
        (framework, moeDispatcher, cudaGraph, epComm) => {
          const c = config({ ep: 8, dp: 8 }, { framework, moeDispatcher, cudaGraph, overlap: { epComm } });
          expect(c.stack.moeDispatcher).toBe(moeDispatcher);
          expect(c.stack.cudaGraph).toBe(cudaGraph);
          expect(c.stack.overlap.epComm).toBe(epComm);
        },
      ),
    );
  });
  it("the new fields leave a dense run's figures exactly as they were", async () => {
    const { estimate } = await import('../estimate.ts');
    const base = {
      version: 1,
      model: DENSE_MODEL,
      training: { seqLen: 4096, globalBatch: 64, microBatch: 1, precision: 'bf16', recompute: 'selective', framework: 'megatron' },
      parallel: { tp: 2, pp: 2, dp: 2, sequenceParallel: true },
      cluster: { gpu: 'h100-sxm', gpus: 8 },
    };
    const before = estimate(base);
    fc.assert(
      fc.property(
        fc.constantFrom(...DISPATCHERS),
        fc.constantFrom(...GRAPHS),
        fc.boolean(),
        fc.constantFrom(1, 2),
        (moeDispatcher, cudaGraph, epComm, etp) => {
          const after = estimate({
            ...base,
            training: { ...base.training, moeDispatcher, cudaGraph, overlap: { epComm } },
            parallel: { ...base.parallel, etp },
          });
          expect(after.errors).toEqual([]);
          expect(after.memory).toEqual(before.memory);
          expect(after.time).toEqual(before.time);
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe('bad values get field-named errors', () => {
  const parse = (patch: (d: Json) => void) => {
    const d: Json = {
      version: 1,
      model: JSON.parse(JSON.stringify(MOE_MODEL)) as Json,
      training: { seqLen: 2048, globalBatch: 8, microBatch: 1 },
      parallel: { tp: 2, dp: 4, ep: 2 },
      cluster: { gpu: 'h100-sxm', gpus: 8 },
    };
    patch(d);
    const r = parseDocument(d);
    return r.ok ? [] : r.errors;
  };
  it('an unknown dispatcher, and "flex" without its backend', () => {
    expect(
      parse((d) => {
        (d.training as Json).moeDispatcher = 'nccl';
      })[0],
    ).toMatch(/^training\.moeDispatcher/);
    expect(
      parse((d) => {
        (d.training as Json).moeDispatcher = 'flex';
      })[0],
    ).toMatch(/^training\.moeDispatcher: "flex" is named by its backend/);
  });
  it('an unknown CUDA-graph scope', () => {
    expect(
      parse((d) => {
        (d.training as Json).cudaGraph = 'all';
      })[0],
    ).toMatch(/^training\.cudaGraph/);
  });
  it('etp that does not divide', () => {
    expect(
      parse((d) => {
        (d.parallel as Json).etp = 3;
      })[0],
    ).toMatch(/^parallel\.etp: 3 does not divide/);
    expect(
      parse((d) => {
        (d.parallel as Json).etp = 8;
      })[0],
    ).toMatch(/^parallel\.etp: ep × etp = 2×8 does not divide tp × dp × cp = 8/);
  });
  it('a negative or zero capacity factor', () => {
    expect(
      parse((d) => {
        ((d.model as Json).moe as Json).capacityFactor = -1;
      })[0],
    ).toMatch(/^model\.moe\.capacityFactor/);
    expect(
      parse((d) => {
        ((d.model as Json).moe as Json).capacityFactor = 0;
      })[0],
    ).toMatch(/^model\.moe\.capacityFactor/);
  });
  it('epComm that is not a boolean', () => {
    expect(
      parse((d) => {
        (d.training as Json).overlap = { epComm: 'yes' };
      })[0],
    ).toMatch(/^training\.overlap\.epComm/);
  });
});

describe('memory that a capacity factor adds', () => {
  it("the routed experts' saved activations follow the padded count: 1.5 × the dropless ones", async () => {
    const { activationBytesPerLayer, engineActivationSettings } = await import('../memory/index.ts');
    const model = (cf: number | null): Json => ({ ...MOE_MODEL, moe: { experts: 8, topK: 2, expertFfnHidden: 14336, capacityFactor: cf } });
    const dropless = config({ ep: 8, dp: 8 }, { recompute: 'none' }, model(null));
    const padded = config({ ep: 8, dp: 8 }, { recompute: 'none' }, model(1.5));
    const denseOnly = config({ dp: 8 }, { recompute: 'none' }, DENSE_MODEL);
    const bytes = (c: RunConfig) => activationBytesPerLayer(c.model, 0, engineActivationSettings(c));
    // Per token, the routed part is what the MoE layer saves beyond the router and the shared input:
    // dispatched input 2·h·k plus SwiGLU's up, gate and product 3 × 2·f·k (k = top-K copies).
    const routedPerToken = (k: number) => 2 * 4096 * k + 3 * 2 * 14336 * k;
    const tokens = 2048;
    expect(bytes(padded) - bytes(dropless)).toBeCloseTo(tokens * (routedPerToken(3) - routedPerToken(2)), 0);
    expect(bytes(denseOnly)).toBeGreaterThan(0);
  });
});

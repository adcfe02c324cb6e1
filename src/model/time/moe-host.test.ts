import { describe, expect, it } from 'vitest';
import { MOE_TIME } from '../calibration.ts';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { alltoallPeerCalls, hostBound, MOE_EAGER_OPS, moeEagerOps, moeLayerHostSeconds } from './moe-host.ts';

// Qwen3-30B-A3B's MoE shape (hidden 2048, 128 experts top-8, expert FFN 768) on 16 H100, EP 16.
function qwen(training: Record<string, unknown>, moe: Record<string, unknown> = {}): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: {
      name: 'q',
      layers: 48,
      hidden: 2048,
      heads: 32,
      kvHeads: 4,
      headDim: 128,
      ffnHidden: 6144,
      ffnType: 'swiglu',
      vocab: 151936,
      moe: { experts: 128, topK: 8, expertFfnHidden: 768, ...moe },
    },
    training: { seqLen: 4096, globalBatch: 64, microBatch: 1, precision: 'bf16', framework: 'megatron', ...training },
    parallel: { tp: 1, pp: 1, dp: 16, ep: 16 },
    cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 16 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('operators an eager MoE layer issues (Megatron-Core token_dispatcher.py / experts.py)', () => {
  it('all-to-all, no graphs: 8 attention + 12 router before the sync; 19 dispatch + 2 + 2 × 8 experts + the NCCL peer calls after it', () => {
    // 128 experts over EP 16: 8 local experts; three all_to_all_single exchanges of one ncclSend and one ncclRecv per each of 16 peers.
    const c = qwen({ moeDispatcher: 'alltoall', cudaGraph: 'none' });
    expect(alltoallPeerCalls(c)).toBeCloseTo(3 * 2 * 16 * MOE_TIME.peerCallOpShare, 12);
    const ops = moeEagerOps(c, 0);
    expect(ops.beforeSync).toBe(20);
    expect(ops.afterSync).toBeCloseTo(19 + 2 + 16 + 96 * MOE_TIME.peerCallOpShare, 12);
  });
  it('HybridEP exchanges in fused kernels (no peer calls); per-module graphs capture attention and router', () => {
    const c = qwen({ moeDispatcher: 'hybridep', cudaGraph: 'partial' });
    expect(alltoallPeerCalls(c)).toBe(0);
    expect(moeEagerOps(c, 0)).toEqual({ beforeSync: 0, afterSync: 7 + 2 + 16 });
  });
  it('whole-iteration graphs issue nothing eagerly', () => {
    expect(moeEagerOps(qwen({ moeDispatcher: 'alltoall', cudaGraph: 'full' }), 0)).toEqual({ beforeSync: 0, afterSync: 0 });
  });
  it('a shared expert adds its four operators', () => {
    const ops = moeEagerOps(qwen({ moeDispatcher: 'deepep', cudaGraph: 'none' }, { sharedExperts: 1 }), 0);
    expect(ops.afterSync).toBe(10 + 2 + 16 + MOE_EAGER_OPS.sharedExpert);
  });
});

describe('host seconds and the floor', () => {
  it('forward waits for the after-sync operators and the stall; backward floors at twice every operator', () => {
    const c = qwen({ moeDispatcher: 'hybridep', cudaGraph: 'none' });
    const h = moeLayerHostSeconds(c, 0);
    // 25 operators after the sync (7 + 2 + 2 × 8), 20 before it.
    expect(h.afterSync).toBeCloseTo(25 * MOE_TIME.eagerOpHostSeconds + MOE_TIME.syncStallSeconds, 15);
    expect(h.backward).toBeCloseTo(2 * 45 * MOE_TIME.eagerOpHostSeconds, 15);
  });
  it('capacity-padded dispatch (drop_and_pad) skips the synchronisation, so the forward waits for nothing', () => {
    const h = moeLayerHostSeconds(qwen({ moeDispatcher: 'alltoall' }, { capacityFactor: 1 }), 0);
    expect(h.afterSync).toBe(0);
    expect(h.backward).toBeGreaterThan(0);
  });
  it('the floor is the longer of GPU and host time', () => {
    expect(hostBound(3e-3, 1e-3)).toBe(3e-3);
    expect(hostBound(1e-3, 4e-3)).toBe(4e-3);
  });
});

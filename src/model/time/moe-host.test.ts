import { describe, expect, it } from 'vitest';
import { MOE_TIME } from '../calibration.ts';
import { parseDocument, type RunConfig } from '../input/index.ts';
import {
  alltoallPeerCalls,
  DTENSOR_DISPATCH_SECONDS,
  dtensorLayerForwardSeconds,
  expertQuantizeOps,
  hostBound,
  MOE_EAGER_OPS,
  moeEagerOps,
  moeLayerForwardSeconds,
  moeLayerHostSeconds,
} from './moe-host.ts';
import { QWEN3_30B_A3B_MODEL } from '../../testing/documents.ts';

// Qwen3-30B-A3B's MoE shape (hidden 2048, 128 experts top-8, expert FFN 768) on 16 H100, EP 16.
function qwen(training: Record<string, unknown>, moe: Record<string, unknown> = {}, parallel: Record<string, unknown> = {}): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: { ...QWEN3_30B_A3B_MODEL, moe: { ...QWEN3_30B_A3B_MODEL.moe, ...moe } },
    training: { seqLen: 4096, globalBatch: 64, microBatch: 1, precision: 'bf16', framework: 'megatron', ...training },
    parallel: { tp: 1, pp: 1, dp: 16, ep: 16, ...parallel },
    cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 16 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('operators an eager MoE layer issues (Megatron-Core token_dispatcher.py / experts.py)', () => {
  it('all-to-all, no graphs: 8 attention + 12 router before the sync; 19 dispatch + 2 + 2 × 8 experts + the NCCL peer calls after it', () => {
    // 128 experts over EP 16: 8 local experts; three all_to_all_single exchanges of one ncclSend and one ncclRecv per each of 16 peers.
    const c = qwen({ moeDispatcher: 'alltoall', cudaGraph: 'none' });
    expect(alltoallPeerCalls(c)).toBeCloseTo(3 * 2 * 16 * MOE_TIME.ncclPeerCallOpShare, 12);
    const ops = moeEagerOps(c, 0);
    expect(ops.beforeSync).toBe(20);
    expect(ops.afterSync).toBeCloseTo(19 + 2 + 16 + 96 * MOE_TIME.ncclPeerCallOpShare, 12);
  });
  it('HybridEP exchanges in fused kernels (no peer calls); per-module graphs capture attention and router', () => {
    const c = qwen({ moeDispatcher: 'hybridep', cudaGraph: 'partial' });
    expect(alltoallPeerCalls(c)).toBe(0);
    expect(moeEagerOps(c, 0)).toEqual({ beforeSync: 0, afterSync: 7 + 2 + 16 });
  });
  it('capacity-padded all-to-all skips the split sizes and their device-to-host copies: 19 − 10 dispatch operators', () => {
    const ops = moeEagerOps(qwen({ moeDispatcher: 'alltoall', cudaGraph: 'none' }, { capacityFactor: 1 }), 0);
    expect(ops.afterSync).toBeCloseTo(9 + 2 + 16 + 96 * MOE_TIME.ncclPeerCallOpShare, 12);
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

describe('fp8 casts of the local experts (Transformer Engine GroupedLinear _split_quantize, issue 32 item 3)', () => {
  const share = MOE_TIME.nativeCallOpShare;
  it('current scaling: amax, scale and cast for each of 2 tensors of each of 8 local experts, per direction', () => {
    // EP 16 → 8 local experts; quantizer.cpp Float8CurrentScalingQuantizer::quantize_impl launches 3 kernels per tensor.
    const c = qwen({ precision: 'fp8', fp8Recipe: 'tensorwise', moeDispatcher: 'hybridep', cudaGraph: 'none' });
    expect(expertQuantizeOps(c, 8)).toBeCloseTo(2 * 3 * 8 * share, 12);
    expect(moeEagerOps(c, 0).afterSync).toBeCloseTo(7 + 2 + 16 + 48 * share, 12);
  });
  it('MXFP8: one cast kernel per tensor; delayed scaling: one fused multi-tensor cast-transpose per tensor group', () => {
    expect(expertQuantizeOps(qwen({ precision: 'fp8', fp8Recipe: 'mxfp8' }), 8)).toBeCloseTo(2 * 8 * share, 12);
    expect(expertQuantizeOps(qwen({ precision: 'fp8', fp8Recipe: 'delayed' }), 8)).toBeCloseTo(2 * share, 12);
  });
  it('none in bf16, and none for torchtitan, whose torchao casts quantize the grouped tensor whole', () => {
    expect(expertQuantizeOps(qwen({ precision: 'bf16' }), 8)).toBe(0);
    expect(expertQuantizeOps(qwen({ precision: 'fp8', framework: 'torchtitan', fp8Recipe: 'tensorwise' }), 8)).toBe(0);
  });
  it('backward casts the output gradients once, not twice: 2 × the 45 computing operators + the 48 casts', () => {
    const c = qwen({ precision: 'fp8', fp8Recipe: 'tensorwise', moeDispatcher: 'hybridep', cudaGraph: 'none' });
    const h = moeLayerHostSeconds(c, 0);
    expect(h.backward).toBeCloseTo((2 * 45 + 48 * share) * MOE_TIME.eagerOpHostSeconds, 15);
  });
});

describe('the forward after the synchronisation overlaps issuing with the experts (moeLayerForwardSeconds)', () => {
  it('host-bound: the stall plus the issuing replace the experts; GPU-bound: only the stall is added', () => {
    const host = { afterSync: 3e-3, stall: 1e-3 };
    // GPU 5 ms of which experts 1 ms: 4 ms + 1 ms stall + max(1 ms, 2 ms issuing) = 7 ms.
    expect(moeLayerForwardSeconds(5e-3, 1e-3, host)).toBeCloseTo(7e-3, 15);
    // Experts 4 ms hide the 2 ms issuing: 1 ms + 1 ms + 4 ms = 6 ms.
    expect(moeLayerForwardSeconds(5e-3, 4e-3, host)).toBeCloseTo(6e-3, 15);
    // No synchronisation (dense layer, drop-and-pad, whole-iteration graphs): the GPU time.
    expect(moeLayerForwardSeconds(5e-3, 4e-3, { afterSync: 0, stall: 0 })).toBe(5e-3);
  });
});

describe('torchtitan eager tensor parallelism dispatches DTensor operators (dtensorLayerForwardSeconds)', () => {
  // torchtitan tt-h200 exp 1's layout: TP 4, ETP 4, EP 2 over 16 GPUs here.
  const tp4 = (training: Record<string, unknown>) =>
    qwen({ framework: 'torchtitan', moeDispatcher: 'alltoall', cudaGraph: 'none', ...training }, {}, { tp: 4, dp: 4, ep: 2, etp: 4 });

  it('87 DTensor operators per layer forward at 90 µs each: 7.83 ms, on top of the eager operators', () => {
    // Attention 63 (12 + 3 + 12 + 16 + 8 + 3 + 1 + 3 + 5) + around it 24 (1 + 12 + 2 + 3 + 6) = 87; 87 × 90 µs = 7.83 ms.
    expect(dtensorLayerForwardSeconds(tp4({ compile: false }), 0)).toBeCloseTo(87 * 90e-6, 15);
    expect(DTENSOR_DISPATCH_SECONDS).toBe(90e-6);
    const h = moeLayerHostSeconds(tp4({ compile: false }), 0);
    expect(h.beforeSync).toBeCloseTo(7.83e-3, 15);
  });

  it('none under torch.compile, without tensor parallelism, or in Megatron-Core', () => {
    expect(dtensorLayerForwardSeconds(tp4({ compile: true }), 0)).toBe(0);
    expect(dtensorLayerForwardSeconds(qwen({ framework: 'torchtitan', compile: false, moeDispatcher: 'alltoall' }), 0)).toBe(0);
    expect(dtensorLayerForwardSeconds(tp4({ framework: 'megatron', compile: false }), 0)).toBe(0);
  });

  it('the forward waits for the host before the synchronisation too: max(GPU before, host before) + stall + max(experts, issuing)', () => {
    // GPU 5 ms of which experts 1 ms; host 7.83 ms before the sync: 7.83 + 1 + max(1, 2) = 10.83 ms.
    expect(moeLayerForwardSeconds(5e-3, 1e-3, { beforeSync: 7.83e-3, afterSync: 3e-3, stall: 1e-3 })).toBeCloseTo(10.83e-3, 15);
  });
});

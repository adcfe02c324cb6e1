import { describe, expect, it } from 'vitest';
import {
  CUDA_CONTEXT_BYTES,
  cublasWorkspaceBytes,
  deviceTerms,
  deviceTermsTotal,
  ncclCommunicatorBytes,
  ncclCommunicatorCount,
} from './device.ts';

// Expected values worked by hand from the sources device.ts cites.
const MiB = 2 ** 20;

describe('device-side memory outside the caching allocator', () => {
  it('one NCCL communicator: 32 channels × (Simple 4 MiB + LL 512 KiB + LL128 4 915 200 B) = 308 281 344 B', () => {
    // Simple: NCCL_BUFFSIZE default 4 194 304 (NCCL docs). LL: 8 lines × 512 threads × 8 steps × 16 B = 524 288.
    // LL128: 120 elems × 640 threads × 8 steps × 8 B = 4 915 200. Sum 9 633 792 per channel.
    expect(ncclCommunicatorBytes()).toBe(32 * (4_194_304 + 524_288 + 4_915_200));
    expect(ncclCommunicatorBytes()).toBe(308_281_344);
    expect(ncclCommunicatorBytes(16)).toBe(154_140_672);
  });

  it('counts the communicators of TP2 PP2 DP2 as 4: world, TP, PP, DP', () => {
    expect(ncclCommunicatorCount({ tp: 2, pp: 2, dp: 2, cp: 1, ep: 1, etp: null }, false)).toBe(4);
    // One GPU: no communicator at all.
    expect(ncclCommunicatorCount({ tp: 1, pp: 1, dp: 1, cp: 1, ep: 1, etp: null }, false)).toBe(0);
    // TP8 alone: world and TP (two communicators over the same ranks).
    expect(ncclCommunicatorCount({ tp: 8, pp: 1, dp: 1, cp: 1, ep: 1, etp: null }, false)).toBe(2);
    // CP2 DP2: world, DP×CP (gradients), CP = 3.
    expect(ncclCommunicatorCount({ tp: 1, pp: 1, dp: 2, cp: 2, ep: 1, etp: null }, false)).toBe(3);
    // MoE TP2 DP4 EP4 (etp default 1 here: expert group 8 ranks → tp·dp·cp / (ep·etp) = 8/4 = 2):
    // world, TP, DP, EP, expert DP = 5.
    expect(ncclCommunicatorCount({ tp: 2, pp: 1, dp: 4, cp: 1, ep: 4, etp: 1 }, true)).toBe(5);
  });

  it('the CUDA context is 512 MiB, once per process', () => {
    expect(CUDA_CONTEXT_BYTES).toBe(536_870_912);
    expect(deviceTerms({ tp: 1, pp: 1, dp: 1, cp: 1, ep: 1, etp: null }, false, 'hopper').cudaContext).toBe(512 * MiB);
  });

  it('cuBLAS workspace: :4096:8 = 32 MiB on Hopper and Blackwell, :4096:2:16:8 = 8 519 680 B before', () => {
    expect(cublasWorkspaceBytes('hopper')).toBe(32 * MiB);
    expect(cublasWorkspaceBytes('blackwell')).toBe(32 * MiB);
    expect(cublasWorkspaceBytes('blackwell')).toBe(32 * MiB);
    expect(cublasWorkspaceBytes('ampere')).toBe(8_519_680);
  });

  it('TP2 PP2 DP2 on H100: 512 MiB + 4 × 308 281 344 + 2 × 32 MiB = 1 837 105 152 B', () => {
    const d = deviceTerms({ tp: 2, pp: 2, dp: 2, cp: 1, ep: 1, etp: null }, false, 'hopper');
    expect(d.ncclBuffers).toBe(1_233_125_376);
    expect(deviceTermsTotal(d)).toBe(536_870_912 + 1_233_125_376 + 67_108_864);
  });
});

import { describe, expect, it } from 'vitest';
import { architectureFacts } from './architectures.ts';

describe('architecture facts', () => {
  // PyTorch CublasHandlePool.cpp getChosenWorkspaceSize: ":4096:8" from sm90 = 4096 KiB × 8 = 32 MiB;
  // ":4096:2:16:8" before = 4096 KiB × 2 + 16 KiB × 8 = 8,519,680 B (8.125 MiB).
  it('cuBLAS workspace: 32 MiB on Hopper and Blackwell, 8.125 MiB on Ampere and unknown GPUs', () => {
    expect(architectureFacts('hopper').cublasWorkspaceBytes).toBe(32 * 2 ** 20);
    expect(architectureFacts('blackwell').cublasWorkspaceBytes).toBe(32 * 2 ** 20);
    expect(architectureFacts('ampere').cublasWorkspaceBytes).toBe(8.125 * 2 ** 20);
    expect(architectureFacts('other').cublasWorkspaceBytes).toBe(8_519_680);
  });
  it('only Hopper tables attention kernels apart (FlashAttention-3 and cuDNN are Hopper kernels)', () => {
    expect(architectureFacts('hopper').attentionKernelRatesDiffer).toBe(true);
    for (const a of ['volta', 'ampere', 'ada', 'blackwell', 'cdna3', 'other'] as const)
      expect(architectureFacts(a).attentionKernelRatesDiffer).toBe(false);
  });
});

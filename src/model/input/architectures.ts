// What the engine knows per GPU architecture, in one place: each fact a field with
// its source, so a term that differs between generations reads it here instead of
// comparing architecture names where it is used.

import type { GpuArchitecture } from './types.ts';

export interface ArchitectureFacts {
  /**
   * cuBLAS workspace per handle and stream, bytes (PyTorch aten/src/ATen/cuda/CublasHandlePool.cpp,
   * getChosenWorkspaceSize: ":4096:8" = 32 MiB from compute capability 9.0, Hopper and
   * Blackwell; ":4096:2:16:8" = 8.125 MiB before).
   */
  readonly cublasWorkspaceBytes: number;
  /**
   * Whether the attention kernel changes the achievable rate (time/stack-time.ts
   * ATTENTION_KERNEL_RELATIVE_ON_HOPPER): FlashAttention-3 and cuDNN's fused attention are
   * Hopper kernels (Shah et al. 2024, arXiv 2407.08608); elsewhere every kernel counts as
   * "auto" (on Ampere FlashAttention-2 is the fastest one; Blackwell's are not yet published
   * apart in the validation set).
   */
  readonly attentionKernelRatesDiffer: boolean;
  /**
   * Whether an fp8 GEMM with per-tensor scales needs the weight's transpose as a copy of its own (only the TN layout
   * runs in fp8): Transformer Engine v2.8 utils.py is_non_tn_fp8_gemm_supported is true on compute capability 10.x
   * and 13.x and later (datacenter Blackwell), where Float8TensorBase.update_usage keeps no transpose.
   */
  readonly fp8TransposeCopy: boolean;
}

const SM90_WORKSPACE_BYTES = 4096 * 8 * 1024;
const PRE_SM90_WORKSPACE_BYTES = 4096 * 1024 * 2 + 16 * 1024 * 8;

const older: ArchitectureFacts = {
  cublasWorkspaceBytes: PRE_SM90_WORKSPACE_BYTES,
  attentionKernelRatesDiffer: false,
  fp8TransposeCopy: true,
};

export const ARCHITECTURE_FACTS: Readonly<Record<GpuArchitecture, ArchitectureFacts>> = {
  volta: older,
  ampere: older,
  ada: older,
  hopper: { cublasWorkspaceBytes: SM90_WORKSPACE_BYTES, attentionKernelRatesDiffer: true, fp8TransposeCopy: true },
  blackwell: { cublasWorkspaceBytes: SM90_WORKSPACE_BYTES, attentionKernelRatesDiffer: false, fp8TransposeCopy: false },
  // ROCm's hipBLASLt workspace is not modelled apart; the pre-Hopper default stands for it and unknown GPUs.
  cdna3: older,
  other: older,
};

export function architectureFacts(architecture: GpuArchitecture): ArchitectureFacts {
  return ARCHITECTURE_FACTS[architecture];
}

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
  /**
   * Share of the one-way NVLink rate that DeepEP/HybridEP's normal-mode intra-node dispatch reaches, in bytes of the
   * rows each rank receives, one per (token, rank) pair (time/moe-time.ts deepEpTransferSeconds). Hopper: DeepEP on
   * H800, EP 8, 153 GB/s of 200 (deepseek-ai/DeepEP README @v1.2.1 9af0e0d0, "Normal kernels"). Blackwell: HybridEP on
   * GB200, EP 8, 16 SMs, bf16 dispatch through the Torch API, 550.10 GB/s of NVLink 5's 900 (DeepEP branch hybrid-ep
   * @94a9f8f docs/README_Hybrid-EP.md, "GB200 Platform"; B200 535.94 GB/s; DeepEP's own kernels on B200 reach 494 GB/s
   * at 24 SMs). Elsewhere no measurement: Hopper's share.
   */
  readonly epDispatchNvlinkEfficiency: number;
}

/** DeepEP README @v1.2.1: intra-node EP 8 dispatch on H800 at 153 GB/s of NVLink's 200 GB/s each way. */
const HOPPER_EP_DISPATCH_NVLINK_EFFICIENCY = 153 / 200;
/** HybridEP README (DeepEP hybrid-ep @94a9f8f): GB200, EP 8, 16 SMs, bf16 dispatch, Torch API, 550.10 GB/s of 900. */
const BLACKWELL_EP_DISPATCH_NVLINK_EFFICIENCY = 550.1 / 900;

const SM90_WORKSPACE_BYTES = 4096 * 8 * 1024;
const PRE_SM90_WORKSPACE_BYTES = 4096 * 1024 * 2 + 16 * 1024 * 8;

const older: ArchitectureFacts = {
  cublasWorkspaceBytes: PRE_SM90_WORKSPACE_BYTES,
  attentionKernelRatesDiffer: false,
  fp8TransposeCopy: true,
  epDispatchNvlinkEfficiency: HOPPER_EP_DISPATCH_NVLINK_EFFICIENCY,
};

export const ARCHITECTURE_FACTS: Readonly<Record<GpuArchitecture, ArchitectureFacts>> = {
  volta: older,
  ampere: older,
  ada: older,
  hopper: {
    cublasWorkspaceBytes: SM90_WORKSPACE_BYTES,
    attentionKernelRatesDiffer: true,
    fp8TransposeCopy: true,
    epDispatchNvlinkEfficiency: HOPPER_EP_DISPATCH_NVLINK_EFFICIENCY,
  },
  blackwell: {
    cublasWorkspaceBytes: SM90_WORKSPACE_BYTES,
    attentionKernelRatesDiffer: false,
    fp8TransposeCopy: false,
    epDispatchNvlinkEfficiency: BLACKWELL_EP_DISPATCH_NVLINK_EFFICIENCY,
  },
  // ROCm's hipBLASLt workspace is not modelled apart; the pre-Hopper default stands for it and unknown GPUs.
  cdna3: older,
  other: older,
};

export function architectureFacts(architecture: GpuArchitecture): ArchitectureFacts {
  return ARCHITECTURE_FACTS[architecture];
}

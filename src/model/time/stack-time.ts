// The software stack in the time model (interchange "The software stack"): named terms
// the step time applies, each callable by the search on its own.

import { architectureFacts, frameworkProfile, type AttentionKernel, type Fp8Recipe, type RunConfig } from '../input/index.ts';

/**
 * Attention kernel speed on Hopper relative to what the fitted attentionTensorEfficiency
 * (calibration.ts, "auto") stands for. FlashAttention-2 (and PyTorch SDPA's flash backend,
 * which is FlashAttention-2) does not use Hopper's asynchronous warpgroup instructions and
 * reaches about half of FlashAttention-3's rate there (Shah et al. 2024, arXiv 2407.08608,
 * figure 5: 335 against 640 TFLOP/s forward, head dimension 128); cuDNN's fused attention
 * runs at FlashAttention-3's rate. FITTED on validation/published-runs.json (a grid over
 * flash2 ∈ 0.45…1, cudnn ∈ 1…1.5 with the other constants fixed; throughput median |error|
 * 7.81 % → 6.73 %, p90 34.3 % → 27.1 %); the pair kept has the paper's ratio 0.6 / 1.15 = 0.52
 * (0.55 / 1.2 fits 0.2 points better at a ratio the paper does not support).
 * Elsewhere every kernel counts as "auto": on Ampere FlashAttention-2 is the fastest one.
 */
export const ATTENTION_KERNEL_RELATIVE_ON_HOPPER: Readonly<Record<AttentionKernel, number>> = {
  auto: 1,
  flash2: 0.6,
  sdpa: 0.6,
  flash3: 1.15,
  cudnn: 1.15,
};

/** Whether the attention kernel moves the rate on this GPU (input/architectures.ts). */
function attentionKernelMatters(c: RunConfig): boolean {
  return architectureFacts(c.cluster.gpu.architecture).attentionKernelRatesDiffer;
}

/** Multiplier on the attention matmuls' achievable rate for the document's attention kernel. */
export function attentionKernelFactor(c: RunConfig): number {
  return attentionKernelMatters(c) ? ATTENTION_KERNEL_RELATIVE_ON_HOPPER[c.stack.attentionKernel] : 1;
}

/**
 * Overlap switched off (training.overlap): a collective the framework does not overlap
 * is wholly on the critical path. dpGrad false: the gradient reduction runs after the
 * last backward (Megatron without --overlap-grad-reduce, DDP with no bucketing), so all
 * of it is exposed. dpParam false: ZeRO-3 / FSDP gathers each unit's weights when it is
 * needed, without prefetch (FSDP forward_prefetch/backward_prefetch off), so the
 * gather is exposed too. Switched on, the fitted exposed fractions apply
 * (calibration.ts). Tensor-parallel overlap (tpComm) is not modelled apart from the
 * fitted tp fraction: no validation row measures it on its own.
 */
export function dataParallelOverlapped(c: RunConfig): boolean {
  return c.stack.overlap.dpGrad;
}

/** Exposed share of the ZeRO-3 weight gathers: the fitted one with prefetch, all without. */
export function zero3GatherExposedFraction(c: RunConfig, fitted: number): number {
  return c.stack.overlap.dpParam ? fitted : 1;
}

/**
 * fp8/fp4 cast-and-scale passes per GEMM input relative to the fitted
 * lowPrecisionCastPasses (calibration.ts, fitted mostly on Transformer Engine runs, whose
 * amax, quantize and transpose are fused into the neighbouring kernels). torchao's
 * float8 training (torchtitan, plain FSDP) casts in separate kernels unless
 * torch.compile fuses them, and its recipes differ: rowwise computes one scale per row
 * of each operand and runs a slower row-scaled GEMM; MX formats compute one scale per
 * 32-element block (torchao/float8/README.md, torchao/prototype/mx_formats/README.md,
 * whose benchmark tables show rowwise and MX speed-ups below tensorwise).
 * FITTED on the torchtitan/torchao fp8 rows of validation/published-runs.json (grid over
 * 1…24 per recipe): tensorwise 1 (15 rows, median |error| 8.6 %, more only hurts);
 * rowwise 16 (5 rows from two publishers, median signed error +60.5 % → +8.2 %: the
 * extra scale passes and the slower row-scaled GEMM together, as a cast-traffic
 * multiple). mxfp8 and nvfp4 stay 1: the same publishers' bf16 runs are over-predicted
 * as much, so their residual is not the recipe's. Transformer Engine frameworks: 1.
 */
export const TORCHAO_CAST_PASSES_RELATIVE: Readonly<Record<Fp8Recipe, number>> = {
  auto: 1,
  tensorwise: 1,
  rowwise: 16,
  delayed: 1,
  blockwise: 1,
  mxfp8: 1,
  nvfp4: 1,
};

/** Multiplier on the fp8/fp4 cast passes for the document's framework (its profile's torchaoFloat8Casts, input/frameworks.ts) and recipe. */
export function lowPrecisionCastScale(c: RunConfig): number {
  return frameworkProfile(c.stack.framework).mechanisms.torchaoFloat8Casts ? TORCHAO_CAST_PASSES_RELATIVE[c.stack.fp8Recipe] : 1;
}

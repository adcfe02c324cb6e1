// The loss's fp32 logits buffers by how the cross-entropy is computed (training.loss):
// the named term activations.ts adds at the output stage, and the search can call.

import { LOSS_BACKWARD_FP32_LOGIT_COPIES, VOCAB_PARALLEL_LOSS_EXTRA_FP32_LOGIT_COPIES } from '../calibration.ts';
import type { LossKind } from '../input/index.ts';

/**
 * fp32 logits-sized buffers, beyond the saved fp32 logits, while the loss runs backward.
 * eager: PyTorch's log_softmax + nll_loss (the calibration constants: the gradients of the
 * log-probabilities and of the logits, and two more for a vocabulary split over TP ranks).
 * fused: Megatron-Core's vocab-parallel cross-entropy exponentiates the fp32 logits in
 * place and writes the gradient into that saved softmax (megatron/core/tensor_parallel/
 * cross_entropy.py, VocabParallelCrossEntropy), as do TE's and flash-attn's fused kernels
 * (flash-attn csrc/xentropy: "in-place backward"): none. compiled: torch.compile fuses
 * log_softmax and nll_loss into one kernel each way; the backward writes one fp32 gradient.
 */
export function lossBackwardFp32LogitCopies(loss: LossKind, tp: number): number {
  const vocabParallel = tp > 1 ? VOCAB_PARALLEL_LOSS_EXTRA_FP32_LOGIT_COPIES : 0;
  if (loss === 'fused') return 0;
  if (loss === 'compiled') return COMPILED_LOSS_BACKWARD_FP32_LOGIT_COPIES + vocabParallel;
  return LOSS_BACKWARD_FP32_LOGIT_COPIES + vocabParallel;
}

/** One fp32 gradient of the logits written by the compiled loss's backward kernel. */
const COMPILED_LOSS_BACKWARD_FP32_LOGIT_COPIES = 1;

/**
 * How many pieces the loss's logits are computed in: the framework's fused-loss pieces
 * (input/frameworks.ts fusedLossChunks: torchtitan's ChunkedLossWrapper, 8) for the fused
 * loss, else the whole micro-batch at once.
 */
export function lossChunks(fusedLossChunks: number, loss: LossKind): number {
  return loss === 'fused' ? fusedLossChunks : 1;
}

/** The loss kind whose buffers one piece of the logits holds: eager inside a chunked loss (torchtitan's). */
export function chunkLossKind(loss: LossKind, chunks: number): LossKind {
  return chunks > 1 ? 'eager' : loss;
}

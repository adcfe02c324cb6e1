// The loss's fp32 logits buffers by how the cross-entropy is computed (training.loss):
// the named term activations.ts adds at the output stage, and the search can call.

import { LOSS_BACKWARD_FP32_LOGIT_COPIES, VOCAB_PARALLEL_LOSS_EXTRA_FP32_LOGIT_COPIES } from '../calibration.ts';
import type { LossKind, ModelCode } from '../input/index.ts';

/**
 * fp32 logits-sized buffers, beyond the saved fp32 logits, while the loss runs backward.
 * eager: PyTorch's log_softmax + nll_loss (the calibration constants: the gradients of the
 * log-probabilities and of the logits, and two more for a vocabulary split over TP ranks).
 * fused: Megatron-Core's vocab-parallel cross-entropy exponentiates the fp32 logits in
 * place and writes the gradient into that saved softmax (megatron/core/tensor_parallel/
 * cross_entropy.py, VocabParallelCrossEntropy), as do TE's and flash-attn's fused kernels
 * (flash-attn csrc/xentropy: "in-place backward"): none. compiled: torch.compile fuses
 * log_softmax and nll_loss into one kernel each way; the backward writes one fp32 gradient,
 * unless the loss keeps 16-bit logits (sixteenBitCompiledLoss), whose one gradient is 16-bit.
 */
export function lossBackwardFp32LogitCopies(loss: LossKind, tp: number, sixteenBit = false): number {
  const vocabParallel = tp > 1 ? VOCAB_PARALLEL_LOSS_EXTRA_FP32_LOGIT_COPIES : 0;
  if (loss === 'fused') return 0;
  if (loss === 'compiled') return (sixteenBit ? 0 : COMPILED_LOSS_BACKWARD_FP32_LOGIT_COPIES) + vocabParallel;
  return LOSS_BACKWARD_FP32_LOGIT_COPIES + vocabParallel;
}

/** One fp32 gradient of the logits written by the compiled loss's backward kernel. */
const COMPILED_LOSS_BACKWARD_FP32_LOGIT_COPIES = 1;

/**
 * A compiled loss over a model that hands it the 16-bit logits and drops its own
 * reference: torchtitan's train step (torchtitan/train.py forward_backward_step: `pred =
 * model(inputs); loss = loss_fn(pred, labels); del pred` "to avoid peaking memory") with
 * torch.compile of F.cross_entropy(pred.float(), labels) (components/loss.py).
 * AOTAutograd's min-cut partitioner (torch/_functorch/partitioners.py) saves the graph's
 * 16-bit input and the per-row log-sum-exp rather than the fp32 log-probabilities, the
 * upcast and exp being pointwise and recomputed in backward, and Inductor fuses
 * softmax − one-hot with the downcast: the saved logits are 16-bit (activations.ts
 * outputTensors) and backward writes one 16-bit gradient. Hugging Face transformers'
 * models return the logits to the caller and upcast them inside (ForCausalLMLoss
 * `logits.float()`), so their compiled loss keeps the fp32 accounting (measured on one
 * H200, validation/gpu/h200-compile-2026-12-04.json: within 10 % that way).
 */
export function sixteenBitCompiledLoss(loss: LossKind, code: ModelCode | undefined): boolean {
  return loss === 'compiled' && code !== 'transformers';
}

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

/**
 * Bytes per logit the caching allocator holds beyond the allocated peak after an eager
 * loss over 16-bit logits the caller drops (torchtitan train.py: `pred = model(inputs);
 * loss = loss_fn(pred, labels); del pred`, loss_fn = F.cross_entropy(pred.float(), ...)).
 * In units of the 16-bit logits L: forward allocates the logits (1 L), their fp32 copy
 * (2 L) and the saved fp32 log-probabilities (2 L); the logits and the copy are freed
 * before backward (adjacent or not: a free 3 L, or 1 L and 2 L), whose two fp32 buffers
 * (the gradients of the log-probabilities and of the logits, lossBackwardFp32LogitCopies)
 * take 2 L each: the first reuses 2 L of that hole, the second finds only 1 L and the
 * allocator reserves a new block. Reserved: 1 + 2 + 2 + 2 = 7 L against an allocated peak
 * of 2 + 2 + 2 = 6 L, one 16-bit logits tensor more (torch.cuda.max_memory_reserved keeps
 * it; later steps reuse those blocks). A chunked loss (pieces of the tokens) and a compiled
 * or fused one have no fp32 copy; Hugging Face models keep their fp32 logits on the caller's
 * side (loss.ts sixteenBitCompiledLoss), another sequence: none counted for them.
 */
export function eagerLossLogitsHoleBytes(loss: LossKind, chunks: number, code: ModelCode | undefined, elementBytes: number): number {
  return loss === 'eager' && chunks === 1 && code !== 'transformers' ? elementBytes : 0;
}

// What Megatron-Core's vocab-parallel cross-entropy holds per logit at the loss, by release
// (training.frameworkRelease, input/framework-release.ts). The engine's inventory counts the
// saved fp32 softmax (activations.ts outputTensors, 4 bytes per logit) and, for the "fused"
// loss, no backward buffer (loss.ts lossBackwardFp32LogitCopies). Megatron-LM holds more:
//
// - The output layer's 16-bit logits stay referenced while the loss runs: gpt_model.py keeps
//   `logits` from `self.output_layer(...)` until `compute_language_model_loss(labels, logits)`
//   returns (megatron/core/models/gpt/gpt_model.py@core_v0.6.0 forward, @core_v0.14.0 _postprocess).
// - Their fp32 copy: `logits.float()` in language_module.py compute_language_model_loss up to
//   core_v0.7.0; from core_v0.8.0 `vocab_parallel_logits.float()` in cross_entropy.py
//   VocabParallelCrossEntropy.calculate_logits_max, which the fused path shares
//   (fusions/fused_cross_entropy.py@core_v0.8.0 calculate_logits_max calls it).
// - The max shift: out of place before core_v0.8.0 (cross_entropy.py@core_v0.6.0, @core_v0.7.0:
//   `vocab_parallel_logits = vocab_parallel_logits - logits_max.unsqueeze(dim=-1)`, a third
//   logits-sized tensor, which exp() and div_() then turn into the saved softmax in place);
//   in place from core_v0.8.0 (cross_entropy.py@core_v0.8.0 calculate_predicted_logits
//   "In-place subtraction reduces memory pressure": `vocab_parallel_logits -= …`), unchanged
//   to core_v0.19.0.
// - Backward writes the gradient into the saved softmax (grad_input = softmax, mul_) and casts
//   it to the logits' dtype (autograd for the .float(), or fused_cross_entropy.py
//   calculate_gradients `grad_input.to(torch.bfloat16)`): 4 + 2 bytes per logit.
//
// Bytes per 16-bit logit at the loss's peak: before core_v0.8.0 forward 2 + 4 + 4 = 10,
// backward 4 + 2 = 6, so 10; from core_v0.8.0 forward 2 + 4 = 6, backward 6, so 6. Against
// the 4 the engine saves: +6 and +2. --cross-entropy-loss-fusion (core_v0.8.0+, off by
// default, arguments.py) runs the same upcast and shift (native), so the release decides, not
// the flag. --cross-entropy-fusion-impl te (core_v0.12.0+, default "native") runs Transformer
// Engine's kernel, which writes the gradient into the 16-bit input it saves (TE v2.5
// pytorch/cross_entropy.py), 2 bytes per logit: a stated release means Megatron-LM's own
// (native) cross-entropy; Megatron-Bridge recipes that set "te" state no release.

import { megatronCoreVersion, olderThan, type CoreVersion, type RunConfig } from '../input/index.ts';
import { ACTIVATION_BYTES } from '../input/index.ts';
import { FP32_BYTES } from './saved-tensor.ts';

/** cross_entropy.py@core_v0.8.0: the max shift in place. */
const IN_PLACE_SHIFT: CoreVersion = [0, 8, 0];

/**
 * Bytes per logit Megatron-Core release `release`'s vocab-parallel cross-entropy holds at its
 * peak, the saved softmax included, over logits of `logitBytes` (2 for 16-bit, 4 for fp32);
 * null for an absent or unreadable release. The larger of forward (the logits, their fp32 copy
 * unless fp32 already, and the out-of-place shift before core_v0.8.0) and backward (the fp32
 * gradient and its cast back to the logits' dtype).
 */
export function crossEntropyPeakBytesPerLogit(release: string | null, logitBytes: number): number | null {
  const version = release === null ? null : megatronCoreVersion(release);
  if (version === null) return null;
  const upcast = logitBytes < FP32_BYTES;
  const outOfPlaceShift = olderThan(version, IN_PLACE_SHIFT);
  const forward = logitBytes + (upcast ? FP32_BYTES : 0) + (outOfPlaceShift ? FP32_BYTES : 0);
  const backward = FP32_BYTES + (upcast ? logitBytes : 0);
  return Math.max(forward, backward);
}

/** The run's cross-entropy peak bytes per logit (Megatron-LM with a stated release only), else null. */
export function runCrossEntropyPeakBytesPerLogit(c: RunConfig): number | null {
  if (c.stack.framework !== 'megatron') return null;
  return crossEntropyPeakBytesPerLogit(c.stack.frameworkRelease, ACTIVATION_BYTES[c.training.precision]);
}

/**
 * Bytes per logit the loss needs beyond its saved logits (`savedBytes`): the engine's backward
 * buffers (`backwardBytes`), or the release's peak less the saved logits when that is more
 * (`peakBytes`, crossEntropyPeakBytesPerLogit; absent: the engine's buffers).
 */
export function lossBytesBeyondSaved(backwardBytes: number, savedBytes: number, peakBytes?: number): number {
  return peakBytes === undefined ? backwardBytes : Math.max(backwardBytes, peakBytes - savedBytes);
}

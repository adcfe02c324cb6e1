// What Hugging Face transformers' modeling code saves for backward beyond the fused
// layers of the main inventory (activations.ts), when run eagerly (modelCode
// "transformers"). Autograd saves only what each op's backward needs, so two ops add:
//
// - LlamaRMSNorm (transformers models/llama/modeling_llama.py, the same in Qwen2,
//   Mistral, Mixtral): `x = x.to(float32); var = x.pow(2).mean(-1); x = x * rsqrt(var + eps);
//   return weight * x.to(input_dtype)`. pow and the first mul save the fp32 copy (4 bytes
//   per element); the weight's mul saves the 16-bit normalized tensor, which takes the
//   place of the fused norm's 16-bit input in the main inventory. One fp32 copy of the
//   hidden state per norm, two norms per layer.
// - LlamaMLP: `down_proj(act_fn(gate_proj(x)) * up_proj(x))`. silu saves its input (the
//   gate output), the product saves silu's output and the up output, down_proj saves the
//   product: four tensors of the FFN width where the fused SwiGLU keeps three, so one
//   more, silu's output.
//
// Rotary embeddings save nothing large (q·cos and rotate_half(q)·sin need only cos and
// sin for q's gradient), and flash attention saves what the main inventory counts.
// The norms are RMSNorm in the SwiGLU models (Llama, Mistral, Qwen, DeepSeek); GELU
// models' nn.LayerNorm saves its 16-bit input and statistics, as the fused one does.

import type { ModelConfig, ModelCode, RecomputeModule } from '../input/index.ts';
import { FP32_BYTES, saved, type SavedTensor } from './saved-tensor.ts';

/** The fp32 copy each of a layer's two RMSNorms keeps under `code` (none for "fused" or GELU models). */
export function eagerNormCopies(code: ModelCode | undefined, m: ModelConfig): SavedTensor[] {
  if (code !== 'transformers' || m.ffnType !== 'swiglu') return [];
  return [
    saved('norm1.fp32', FP32_BYTES * m.hidden, 'sequence', 'elementwise', ['layernorm']),
    saved('norm2.fp32', FP32_BYTES * m.hidden, 'sequence', 'elementwise', ['layernorm']),
  ];
}

/** silu's output, which a SwiGLU FFN of the given per-token size keeps under `code` beside the fused inventory's three tensors. */
export function eagerSiluOutput(
  code: ModelCode | undefined,
  prefix: string,
  bytesPerToken: number,
  modules: readonly RecomputeModule[],
): SavedTensor[] {
  return code === 'transformers' ? [saved(`${prefix}.silu.output`, bytesPerToken, 'tensor', 'elementwise', modules)] : [];
}

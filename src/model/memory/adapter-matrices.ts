// Which matrices an adapter sits on and what it saves for backward (training.adapter):
// the part of the adapter's rules that the activation inventory (activations.ts) needs,
// apart from its memory totals (adapter.ts), so that neither imports the other's importer.

import { layerMatrices, type WeightMatrix } from '../structure/index.ts';
import type { AdapterConfig, AdapterModule, ModelCode, ModelConfig } from '../input/index.ts';
import { FP32_BYTES } from './saved-tensor.ts';

/** What a frozen base changes in a layer's saved tensors (activations.ts reads it). */
export interface AdapterActivations {
  /** Saved tensors no backward needs: inputs of frozen matrices that carry no adapter (a frozen weight needs no input for its gradient). */
  readonly frozenInputs: readonly string[];
  /** Bytes per token of the adapters' own saved tensors in one layer (x·A, rank r, per adapted matrix). */
  readonly bytesPerToken: number;
}

/**
 * What the adapter changes in each layer's saved tensors (activations.ts): the inputs
 * of matrices that carry no adapter are not saved (autograd saves a linear's input only
 * for its weight gradient; torch.nn.functional.linear with a frozen weight keeps the
 * weight alone), unless another adapted matrix reads the same tensor (q, k and v share
 * theirs, gate and up theirs); each adapted matrix saves its rank-r x·A for ∂B.
 */
export function adapterActivations(
  m: ModelConfig,
  adapter: AdapterConfig,
  elementBytes: number,
  code: ModelCode = 'fused',
): AdapterActivations {
  const on = (...modules: AdapterModule[]) => modules.some((x) => adapter.modules.includes(x));
  const frozenInputs: string[] = [];
  if (!on('q', 'k', 'v') && !m.mla) frozenInputs.push('attention.input');
  if (!on('o')) frozenInputs.push('proj.input');
  if (!on('gate', 'up')) frozenInputs.push('mlp.input', 'experts.dispatched');
  if (!on('down')) frozenInputs.push('mlp.down.input', 'experts.down.input', 'sharedExperts.down.input');
  // Rank-r intermediates of the densest layer kind (an MoE layer's routed experts run topK of them per token).
  const fp32 = peftFp32Adapters(code, elementBytes);
  const rankBytes = fp32 ? FP32_BYTES : elementBytes;
  const perToken = (layerIndex: number) =>
    adaptedMatrices(m, layerIndex, adapter).reduce(
      (sum, w) => sum + w.activeCopies * (rankBytes * adapter.rank + (fp32 ? FP32_BYTES * w.rows : 0)),
      0,
    );
  return { frozenInputs, bytesPerToken: Math.max(perToken(0), m.moe ? perToken(m.moe.denseLayers) : 0) };
}

/**
 * Hugging Face PEFT on transformers' modeling code (modelCode "transformers") keeps the
 * adapters in fp32 over a 16-bit base: get_peft_model(autocast_adapter_dtype=True), the
 * default, casts bf16 / fp16 adapter weights to fp32 (peft/tuners/tuners_utils.py
 * _cast_adapter_dtype), and every adapted Linear's forward casts its input to the adapter's
 * dtype before lora_A (peft/tuners/lora/layer.py Linear.forward: `x =
 * self._cast_input_dtype(x, lora_A.weight.dtype)`). That cast is a new fp32 tensor per
 * adapted matrix (q, k and v each make their own from the shared input), and lora_A saves
 * it for its weight gradient: 4 bytes per input element per adapted matrix, beside the
 * rank-r intermediates in fp32. torchtune's LoRALinear (and Megatron-Bridge's) computes
 * the adapter in the base dtype on the shared input, so "fused" model code adds neither.
 * Measured on one H200 (validation/gpu/h200-hf-peft-2026-12-04.json): Llama 3.1 8B shape,
 * LoRA r16 on all seven linears, seq 2048, no checkpointing, 36.95 GiB peak allocated.
 */
export function peftFp32Adapters(code: ModelCode, elementBytes: number): boolean {
  return code === 'transformers' && elementBytes < FP32_BYTES;
}

/** Which matrices of matrices.ts each module name adapts (MLA: q its query projections, k and v the shared latent KV projections). */
const MODULE_MATRICES: Readonly<Record<AdapterModule, readonly string[]>> = {
  q: ['q', 'q_down', 'q_up'],
  k: ['k', 'kv_down', 'kv_up'],
  v: ['v', 'kv_down', 'kv_up'],
  o: ['o'],
  gate: ['gate'],
  up: ['up'],
  down: ['down'],
};

/** Whether the adapter sits on this matrix (the router never carries one). */
export function isAdapted(adapter: AdapterConfig, matrix: WeightMatrix): boolean {
  if (matrix.group === 'router') return false;
  return adapter.modules.some((m) => MODULE_MATRICES[m].includes(matrix.name));
}

/** The adapted matrices of layer `layerIndex`, each as it runs: every copy (routed experts) carries its own adapter. */
export function adaptedMatrices(m: ModelConfig, layerIndex: number, adapter: AdapterConfig): readonly WeightMatrix[] {
  return layerMatrices(m, layerIndex).filter((w) => isAdapted(adapter, w));
}

/** Trainable parameters of a rank-r adapter on one in × out matrix: A is in × r, B is r × out (Hu et al. 2021, section 4.1). */
export function adapterParametersOf(rank: number, rows: number, cols: number): number {
  return rank * (rows + cols);
}

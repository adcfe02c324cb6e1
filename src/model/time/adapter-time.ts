// Step time of a fine-tune with frozen base weights (training.adapter, issue 24).
//
// - A frozen matrix needs no weight gradient: its backward is the input-gradient GEMM
//   alone, one forward's worth of work instead of two (Narayanan et al. 2021, section
//   5.1 counts backward = input + weight gradients = 2 × forward). The input gradient
//   is still computed through every layer, since the adapters below need it.
// - Each adapted in × out matrix adds two skinny GEMMs forward, x·A (tokens × in × r) and
//   (x·A)·B (tokens × r × out), and their input and weight gradients backward (2 ×
//   forward), timed by the same roofline as every GEMM (compute.ts gemmSeconds): at
//   r = 8–64 the r-sized dimension leaves the tensor cores mostly idle and the HBM
//   traffic of x dominates (torchtune/modules/peft/lora.py LoRALinear.forward,
//   peft/tuners/lora/layer.py Linear.forward: lora_B(lora_A(dropout(x))) beside the base).
// - QLoRA dequantises each adapted base matrix to the compute dtype before every use
//   (torchao dtypes/nf4tensor.py linear_nf4: forward and again for the input gradient;
//   bitsandbytes MatMul4Bit: dequantize_4bit in forward and backward), a memory-bound
//   pass: read the NF4 weights and constants, write the 16-bit matrix, at the GPU's HBM
//   bandwidth. Recomputation repeats the forward's dequantisation (step.ts counts the
//   recomputed forward with it).

import { adaptedMatrices, adapterParametersOf, NF4_DQ_BYTES_PER_PARAMETER, peftFp32Adapters } from '../memory/index.ts';
import {
  attentionScoreFlopsPerToken,
  expertTensorParallel,
  FLOPS_PER_MULTIPLY_ADD,
  forwardFlopsPerToken,
  stepFlops,
  TRAINING_FLOPS_PER_FORWARD_FLOP,
} from '../structure/index.ts';
import { gemmSeconds, shardedShape } from './compute.ts';
import { microBatchesPerStep } from '../input/index.ts';
import type { AdapterConfig, ModelConfig, RunConfig } from '../input/index.ts';
import { GB, WEIGHT_BYTES } from '../input/index.ts';

/** Backward GEMMs per forward GEMM of a frozen matrix: the input gradient only (full training has 2, input and weight gradients). */
export const FROZEN_BACKWARD_GEMMS_PER_FORWARD = 1;

export interface AdapterLayerSeconds {
  /** The adapters' forward GEMMs, plus QLoRA's dequantisation for the forward. */
  readonly forward: number;
  /** The adapters' input- and weight-gradient GEMMs, plus QLoRA's dequantisation for the input gradient. */
  readonly backward: number;
  /** One dequantisation pass over the layer's adapted matrices (0 for LoRA), included in both figures above. */
  readonly dequantise: number;
}

/** Seconds to dequantise `parameters` NF4 weights to 16-bit on one GPU: read 4.127 bits, write the compute dtype, at HBM bandwidth. */
export function dequantiseSeconds(c: RunConfig, parameters: number): number {
  const bytes = parameters * (NF4_DQ_BYTES_PER_PARAMETER + WEIGHT_BYTES[c.training.precision]);
  return bytes / (c.cluster.gpu.hbmGBps * GB);
}

/**
 * The adapter's own time in layer `layerIndex` for `tokens` tokens on one GPU. Routed
 * experts' adapters run on the tokens each local expert receives (topK / experts of
 * them, balanced routing), as one GEMM per expert.
 */
export function adapterLayerSeconds(c: RunConfig, layerIndex: number, tokens: number, adapter: AdapterConfig): AdapterLayerSeconds {
  const { model, parallel, training, cluster } = c;
  const scale = c.calibration.computeEfficiencyScale;
  const precision = training.precision === 'fp32' ? 'fp32' : 'bf16';
  const r = adapter.rank;
  let forward = 0;
  let quantised = 0;
  for (const w of adaptedMatrices(model, layerIndex, adapter)) {
    const expert = w.group === 'routedExpert';
    const { k, n } = shardedShape(w, parallel.tp, expertTensorParallel(parallel));
    const copies = expert ? w.copies / parallel.ep : w.copies;
    const m = expert && model.moe ? (tokens * w.activeCopies) / w.copies : tokens;
    if (m > 0)
      forward +=
        copies * (gemmSeconds(cluster.gpu, precision, { m, k, n: r }, scale) + gemmSeconds(cluster.gpu, precision, { m, k: r, n }, scale));
    quantised += copies * k * n;
  }
  const dequantise = adapter.method === 'qlora' ? dequantiseSeconds(c, quantised) : 0;
  const host = adapterHostSeconds(c, layerIndex, adapter);
  const fp32 = peftFp32Traffic(c, layerIndex, tokens, adapter);
  return {
    forward: forward + dequantise + host.forward + fp32.forward,
    backward: 2 * forward + dequantise + host.backward + fp32.backward,
    dequantise,
  };
}

/**
 * Operators an adapted matrix adds in eager PyTorch, forward: dropout, x·A, ·B, the scaling
 * multiply and the add onto the base output (peft/tuners/lora/layer.py Linear.forward:
 * result + lora_B(lora_A(dropout(x))) * scaling; torchtune/modules/peft/lora.py
 * LoRALinear.forward the same); backward runs about two kernels per forward operator
 * (input and weight gradients of each GEMM, the multiply's and the dropout's gradients).
 */
export const ADAPTER_EAGER_OPS = { forward: 5, backward: 10 } as const;

/**
 * FITTED: host time per eager operator that the GPU waits for, seconds. An adapter's
 * GEMMs are microseconds of GPU work each, so eager PyTorch's per-operator dispatch
 * (Python, autograd recording, the kernel launch) sets their pace. Fitted on the only
 * eager LoRA runs of validation/finetune-runs.json, the Qwen README's 8 LoRA rows (HF
 * Trainer + PEFT, no torch.compile): median |step-time error| 10.1 % at 0 µs, lowest
 * 3.9 % at 14 µs and within a point of it from 9 to 22 µs; 10 µs, the round value of that
 * range, is taken (4.5 %), the order of PyTorch's eager per-operator overhead. torchtune's
 * runs compile (torch.compile traces the adapters into the model's graph), so none of
 * this applies there. Leave-one-source-out (npm run validate): with the Qwen source held
 * out no eager run is left to fit on, so the constant is 0 for it and Qwen's rows read as
 * without it.
 */
export const EAGER_OP_HOST_SECONDS = 10e-6;

/** The adapters' eager dispatch time in layer `layerIndex` (none under torch.compile). */
export function adapterHostSeconds(
  c: RunConfig,
  layerIndex: number,
  adapter: AdapterConfig,
  opSeconds = EAGER_OP_HOST_SECONDS,
): { forward: number; backward: number } {
  if (c.stack.compile) return { forward: 0, backward: 0 };
  const matrices = adaptedMatrices(c.model, layerIndex, adapter).reduce(
    (n, w) => n + (w.group === 'routedExpert' ? w.copies / c.parallel.ep : 1),
    0,
  );
  return { forward: matrices * ADAPTER_EAGER_OPS.forward * opSeconds, backward: matrices * ADAPTER_EAGER_OPS.backward * opSeconds };
}

/** What adapterHostSeconds adds to one step on a one-stage pipeline: every layer's forward, backward and recomputed forward, per micro-batch. */
export function adapterHostSecondsPerStep(c: RunConfig, adapter: AdapterConfig, opSeconds = EAGER_OP_HOST_SECONDS): number {
  let perMicroBatch = 0;
  for (let i = 0; i < c.model.layers; i++) {
    const h = adapterHostSeconds(c, i, adapter, opSeconds);
    perMicroBatch += h.forward * (c.training.recompute === 'full' ? 2 : 1) + h.backward;
  }
  return perMicroBatch * microBatchesPerStep(c.training, c.parallel);
}

/**
 * Bytes per token per adapted matrix that PEFT's fp32 adapters (memory/adapter.ts
 * peftFp32Adapters) move through HBM in elementwise kernels, per element of the matrix's
 * input (`in`, inWidth) and output (`out`, outWidth) width on this GPU, e the 16-bit dtype's 2 bytes; from
 * peft/tuners/lora/layer.py Linear.forward, `result = result + lora_B(lora_A(dropout(
 * x.to(fp32)))) * scaling; result.to(bf16)`:
 * - forward: the cast of x (read e, write 4 per input element); per output element, lora_B's
 *   fp32 output written (4), the scaling multiply (read 4, write 4), the bf16 + fp32 add
 *   promoted to fp32 (read e + 4, write 4), the cast back (read 4, write e): in·(e + 4) +
 *   out·(24 + 2e).
 * - backward: per output element, the cast's gradient (read e, write 4), the add's cast
 *   for the base branch (read 4, write e), the scaling multiply (read 4, write 4); per input
 *   element, lora_A's fp32 input gradient (write 4), its cast back (read 4, write e) and
 *   the sum into x's 16-bit gradient (read 2e, write e): in·(8 + 4e) + out·(16 + 2e).
 * The GEMMs themselves are timed by the roofline above.
 */
function peftFp32Traffic(c: RunConfig, layerIndex: number, tokens: number, adapter: AdapterConfig): { forward: number; backward: number } {
  const e = WEIGHT_BYTES[c.training.precision];
  if (!peftFp32Adapters(c.stack.modelCode, e)) return { forward: 0, backward: 0 };
  const { model, parallel } = c;
  let forwardBytes = 0;
  let backwardBytes = 0;
  for (const w of adaptedMatrices(model, layerIndex, adapter)) {
    const { k: inWidth, n: outWidth } = shardedShape(w, parallel.tp, expertTensorParallel(parallel));
    const m = w.group === 'routedExpert' && model.moe ? (tokens * w.activeCopies) / parallel.ep : tokens;
    forwardBytes += m * (inWidth * (e + 4) + outWidth * (24 + 2 * e));
    backwardBytes += m * (inWidth * (8 + 4 * e) + outWidth * (16 + 2 * e));
  }
  const bandwidth = c.cluster.gpu.hbmGBps * GB;
  return { forward: forwardBytes / bandwidth, backward: backwardBytes / bandwidth };
}

/** Forward FLOPs of one token through the adapters of layer `layerIndex`: x·A and (x·A)·B, 2·r·(in + out) per adapted matrix a token runs through. */
export function adapterForwardFlopsPerToken(m: ModelConfig, layerIndex: number, adapter: AdapterConfig): number {
  return adaptedMatrices(m, layerIndex, adapter).reduce(
    (sum, w) => sum + FLOPS_PER_MULTIPLY_ADD * adapterParametersOf(adapter.rank, w.rows, w.cols) * w.activeCopies,
    0,
  );
}

/**
 * FLOPs of one optimizer step of a fine-tune, whole cluster (what MFU and HFU divide
 * for adapter runs): full training's model FLOPs (structure/flops.ts stepFlops) less the
 * weight-gradient GEMMs of the frozen matrices (one forward's weight FLOPs: every weight
 * matmul, the output layer's included, is frozen), plus the adapters' forward and their
 * backward (2 × forward). Recomputation adds the forward again, adapters included.
 */
export function adapterStepFlops(c: RunConfig, adapter: AdapterConfig): { modelPerStep: number; hardwarePerStep: number } {
  const { model, training } = c;
  const tokens = training.globalBatch * training.seqLen;
  const full = stepFlops(c);
  const forward = forwardFlopsPerToken(model, training.seqLen);
  const scores = attentionScoreFlopsPerToken(model, training.seqLen);
  const frozenWeightGradients = forward.total - scores;
  let adapters = 0;
  for (let i = 0; i < model.layers; i++) adapters += adapterForwardFlopsPerToken(model, i, adapter);
  const modelPerStep = full.modelPerStep + tokens * (TRAINING_FLOPS_PER_FORWARD_FLOP * adapters - frozenWeightGradients);
  const recomputedAdapters = training.recompute === 'full' ? adapters : 0;
  return { modelPerStep, hardwarePerStep: modelPerStep + (full.hardwarePerStep - full.modelPerStep) + tokens * recomputedAdapters };
}

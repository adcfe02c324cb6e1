// Time of the optimizer step on one GPU: a memory-bound pass over the GPU's shard of
// the optimizer state (docs/spec/model-reference.md, "Time"), or, with optimizer
// offload, the host-side update plus the PCIe traffic (ZeRO-Offload, arXiv 2101.06840).

import { OPTIMIZER_STEP } from '../calibration.ts';
import { optimizerBytesPerParameter } from '../memory/index.ts';
import type { RunConfig } from '../input/index.ts';
import { denseDataParallel, expertDataParallel, type GpuParameters } from '../structure/index.ts';
import { GB, GRAD_BYTES, WEIGHT_BYTES } from '../input/index.ts';

/**
 * Parameters whose optimizer state one GPU updates: ZeRO ≥ 1 shards each group's state over
 * the ranks that replicate it — the dense weights over dp·cp, the routed experts over their
 * expert data-parallel group only (Megatron-Core megatron/core/optimizer/__init__.py
 * @d98e8a64 get_megatron_optimizer: a second distributed optimizer for the expert
 * parameters over the expert data-parallel group, intra_expt_dp; FSDP2 in torchtitan shards
 * experts over the dp_shard_mod_ep mesh, parallelize.py apply_fsdp). At EP = dp·tp, one
 * rank updates all its experts' state alone, every step.
 */
function updatedParameters(c: RunConfig, parametersOnGpu: GpuParameters): number {
  if (c.parallel.zero < 1) return parametersOnGpu.dense + parametersOnGpu.expert;
  return parametersOnGpu.dense / denseDataParallel(c.parallel) + parametersOnGpu.expert / expertDataParallel(c.parallel);
}

export function optimizerStepSeconds(c: RunConfig, parametersOnGpu: GpuParameters): number {
  const { training, cluster } = c;
  const params = updatedParameters(c, parametersOnGpu);
  const weightBytes = WEIGHT_BYTES[training.precision];
  const gradBytes = GRAD_BYTES[training.gradDtype];
  if (training.offload.optimizer) {
    const pcieBytes = params * (gradBytes + weightBytes);
    return params / OPTIMIZER_STEP.offloadedParametersPerSecond + pcieBytes / OPTIMIZER_STEP.offloadPcieBytesPerSecond;
  }
  // Read and write every state byte, read the gradient, write the working weight.
  const stateBytes = optimizerBytesPerParameter(training, c.stack.optimizerStateDtype);
  const bytesMoved = params * (2 * stateBytes + gradBytes + weightBytes);
  return bytesMoved / (cluster.gpu.hbmGBps * GB * OPTIMIZER_STEP.hbmEfficiency);
}

// Time of the optimizer step on one GPU: a memory-bound pass over the GPU's shard of
// the optimizer state (docs/spec/model-reference.md, "Time"), or, with optimizer
// offload, the host-side update plus the PCIe traffic (ZeRO-Offload, arXiv 2101.06840).

import { OPTIMIZER_STEP } from '../calibration.ts';
import { optimizerBytesPerParameter } from '../memory/index.ts';
import type { RunConfig } from '../input/index.ts';
import { GB, GRAD_BYTES, WEIGHT_BYTES } from '../input/index.ts';

/** Parameters whose optimizer state one GPU updates: ZeRO ≥ 1 shards it over the data-parallel group. */
function updatedParameters(c: RunConfig, parametersOnGpu: number): number {
  return c.parallel.zero >= 1 ? parametersOnGpu / (c.parallel.dp * c.parallel.cp) : parametersOnGpu;
}

export function optimizerStepSeconds(c: RunConfig, parametersOnGpu: number): number {
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

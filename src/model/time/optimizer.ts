// Time of the optimizer step on one GPU: a memory-bound pass over the GPU's shard of
// the optimizer state (docs/spec/model-reference.md, "Time"), or, with optimizer
// offload, the same pass over the host's memory, which the node's GPUs share, plus the
// PCIe traffic (ZeRO-Offload, arXiv 2101.06840).

import { OPTIMIZER_STEP } from '../calibration.ts';
import { hostGradientBytes, hostNodeGpus, optimizerOffloadFraction, optimizerUpdateBytesPerParameter } from '../memory/index.ts';
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

/** The update of `params` parameters on the GPU: read and write them over HBM (memory.ts optimizerUpdateBytesPerParameter). */
function gpuUpdateSeconds(c: RunConfig, params: number): number {
  const t = c.training;
  const bytes = optimizerUpdateBytesPerParameter(t, c.stack.optimizerStateDtype, GRAD_BYTES[t.gradDtype]);
  return (params * bytes) / (c.cluster.gpu.hbmGBps * GB * OPTIMIZER_STEP.hbmEfficiency);
}

/**
 * The host-side update of `params` parameters of one GPU: the CPU optimizer streams the
 * same bytes through the host's memory (DeepSpeedCPUAdam, torch.optim.AdamW(fused=True) on
 * CPU: vectorised loops bound by memory bandwidth), and every GPU of the node that offloads
 * (memory/host.ts hostNodeGpus) steps at the same time on the same memory, so one GPU's
 * update takes its bytes times those GPUs over the node's bandwidth (torchtune's
 * set_torch_num_threads gives each rank the cores ÷ GPUs; a one-GPU workstation gets the
 * whole host). Then the PCIe traffic: the gradient down and the updated 16-bit weight up,
 * taken as serial with the step.
 */
function hostUpdateSeconds(c: RunConfig, params: number): number {
  const t = c.training;
  const bytes = optimizerUpdateBytesPerParameter(t, c.stack.optimizerStateDtype, hostGradientBytes(c));
  const sharing = hostNodeGpus(c);
  const hostSeconds = (sharing * params * bytes) / (c.cluster.hostMemoryGBps * GB * OPTIMIZER_STEP.hostBandwidthEfficiency);
  const pcieBytes = params * (GRAD_BYTES[t.gradDtype] + WEIGHT_BYTES[t.precision]);
  return hostSeconds + pcieBytes / OPTIMIZER_STEP.offloadPcieBytesPerSecond;
}

/**
 * One GPU's optimizer step, seconds. With optimizer offload a share f of the parameters
 * (training.offload.optimizerFraction; absent: all) steps on the host and the rest on the
 * GPU, taken as one after the other (Megatron-Core's HybridDeviceOptimizer,
 * megatron/core/optimizer/cpu_offloading/hybrid_device_optimizer.py, holds a CPU and a GPU
 * sub-optimizer, _init_sub_optimizers, and steps both).
 */
export function optimizerStepSeconds(c: RunConfig, parametersOnGpu: GpuParameters): number {
  const params = updatedParameters(c, parametersOnGpu);
  const f = optimizerOffloadFraction(c.training);
  if (f <= 0) return gpuUpdateSeconds(c, params);
  const onGpu = f < 1 ? gpuUpdateSeconds(c, (1 - f) * params) : 0;
  return hostUpdateSeconds(c, f * params) + onGpu;
}

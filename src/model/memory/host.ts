// What offload keeps in the host's (CPU) memory, per node: the GPU side of the same
// offload is memory.ts (modelStateBytes) and adapter.ts. The node's GPUs each keep their
// own shard on the host, so a node holds the sum over its GPUs.
//
// The layouts followed, per parameter of a GPU's shard (bf16 weights, Adam, fp32 master):
// - Optimizer offload, DeepSpeed ZeRO-Offload / ZeRO-Infinity (offload_optimizer device
//   "cpu", pin_memory): the fp32 master partition and the Adam moments live on the CPU
//   (DeepSpeedCPUAdam steps there), with an fp32 gradient partition the CPU optimizer reads
//   (deepspeed/runtime/zero/stage_1_and_2.py: single_partition_of_fp32_groups and their
//   .grad on the CPU under cpu_offload; stage3.py initialize_optimizer_states: the pinned
//   fp32 subgroup_gradient_buffer of each fp32 partition): 4 + 8 + 4 = 16 bytes. ZeRO-3 also
//   keeps its gradient partitions (grad_partitions_flat_buffer, in the gradient-accumulation
//   dtype) on the optimizer's device, the CPU under offload, pinned: + 4 (fp32) or 2 (bf16),
//   over every parameter of the shard whatever the offloaded ratio.
//   (Ren et al. 2021, ZeRO-Offload, arXiv 2101.06840, section 4.1: fp32 parameters,
//   gradients and optimizer states on the CPU.)
// - Optimizer offload, Megatron-Core HybridDeviceOptimizer (--optimizer-cpu-offload,
//   --optimizer-offload-fraction f; megatron/core/optimizer/cpu_offloading/
//   hybrid_device_optimizer.py): each offloaded fp32 main-param shard has a pinned CPU clone
//   (4 bytes) with the CPU optimizer's moments (8) and a pinned fp32 gradient copy (4):
//   16 bytes for the share f; the GPU keeps its master too (input/frameworks.ts
//   optimizerOffloadKeepsMaster).
// - Parameter offload, ZeRO-Infinity (offload_param device "cpu", ZeRO-3): the 16-bit
//   parameter partitions (param.ds_tensor) live in pinned CPU memory: 2 bytes.
// - Parameter offload under FSDP (torch.distributed.fsdp CPUOffload(offload_params=True);
//   FSDP2 fully_shard(offload_policy=CPUOffloadPolicy())): the sharded parameters, fp32 under
//   mixed precision (memory.ts fsdpFp32ShardedParameters), and their gradients stay on the
//   CPU, and the optimizer steps there, so its states are CPU tensors too: 4 + 4 + 8 = 16
//   bytes (optimizer offload adds nothing more; the master is the shard itself).
// NVMe offload (ZeRO-Infinity device "nvme") is not a document field: what it would move to
// disk is counted on the host here.

import { GRAD_BYTES, WEIGHT_BYTES, GiB, frameworkProfile, osNodeGpus } from '../input/index.ts';
import type { AdapterConfig, RunConfig } from '../input/index.ts';
import { denseDataParallel, expertDataParallel, pipelineLayout, stageGpuParameters, type GpuParameters } from '../structure/index.ts';
import { fsdpFp32ShardedParameters, optimizerBytesPerParameter, optimizerOffloadFraction } from './memory.ts';
import { frozenBytes, stageAdapterParameters } from './adapter.ts';
import { offloadedActivationBytes } from './activations.ts';

const FP32_BYTES = 4;

/**
 * The GPUs of one OS node whose offloaded states share its CPU memory (input/gpus.ts osNodeGpus: a
 * server, or one 4-GPU compute tray of an NVL72 rack), or the whole run when it is smaller than a
 * node. The one place that says what a node is for host memory.
 */
export function hostNodeGpus(c: RunConfig): number {
  return Math.max(1, Math.min(c.cluster.gpus, osNodeGpus(c.cluster)));
}

/**
 * Bytes per parameter of the gradient the host optimizer reads: under FSDP CPU offload the
 * shard's own gradient, in the shard's dtype (fp32 under mixed precision; the weights' dtype
 * when the run keeps no master, as torchtune's bf16 recipes: FSDP2 copies the reduce-scattered
 * gradient to the CPU as it is: torch/distributed/_composable/fsdp/_fsdp_collectives.py
 * foreach_reduce, offload_to_cpu, PyTorch 2.4; fsdp/_fully_shard/ from 2.6); otherwise the fp32 gradient copy DeepSpeed and Megatron
 * keep on the CPU (see the file's head). What time/optimizer.ts streams; the host-memory
 * count above keeps its own layouts.
 */
export function hostGradientBytes(c: RunConfig): number {
  const fsdpOffload =
    c.training.offload.parameters && frameworkProfile(c.stack.framework).mechanisms.fsdpFp32ShardedParameters && c.parallel.zero >= 3;
  if (!fsdpOffload) return FP32_BYTES;
  return fsdpFp32ShardedParameters(c) ? FP32_BYTES : WEIGHT_BYTES[c.training.precision];
}

/** The byte counts per parameter of the shard that offload puts on the host (see the file's head). */
export interface HostBytesPerParameter {
  /** Per parameter of the optimizer's shard (ZeRO ≥ 1 shards it). */
  readonly optimizerShard: number;
  /** Per parameter of the weights' shard (ZeRO-3 shards it; parameter offload needs ZeRO-3). */
  readonly weightShard: number;
}

export function hostBytesPerParameter(c: RunConfig): HostBytesPerParameter {
  const { training: t, parallel: p } = c;
  const f = optimizerOffloadFraction(t);
  const mechanisms = frameworkProfile(c.stack.framework).mechanisms;
  const optimizer = optimizerBytesPerParameter(t, c.stack.optimizerStateDtype);
  if (t.offload.parameters && fsdpFp32ShardedParameters(c)) {
    // FSDP CPU offload: fp32 shard (the master) + its gradient + the optimizer's own states.
    return { optimizerShard: 0, weightShard: FP32_BYTES + FP32_BYTES + optimizer - FP32_BYTES };
  }
  // The CPU optimizer's states (master included) and the fp32 gradient it reads, for the offloaded share.
  const offloadedStates = f * (optimizer + FP32_BYTES);
  // DeepSpeed ZeRO-3's gradient partitions on the CPU (grad_partitions_flat_buffer), not Megatron's.
  const zero3Partitions = f > 0 && p.zero >= 3 && !mechanisms.optimizerOffloadKeepsMaster ? GRAD_BYTES[t.gradDtype] : 0;
  const weights = t.offload.parameters ? (fsdpFp32ShardedParameters(c) ? FP32_BYTES : WEIGHT_BYTES[t.precision]) : 0;
  return { optimizerShard: offloadedStates + zero3Partitions, weightShard: weights };
}

/** Host bytes of one GPU holding `trainable` parameters (its stage's, before ZeRO sharding). */
function hostBytesOf(c: RunConfig, trainable: GpuParameters, perParameter: HostBytesPerParameter): number {
  const p = c.parallel;
  const shard = (sharded: boolean) =>
    sharded ? trainable.dense / denseDataParallel(p) + trainable.expert / expertDataParallel(p) : trainable.dense + trainable.expert;
  return perParameter.optimizerShard * shard(p.zero >= 1) + perParameter.weightShard * shard(p.zero >= 3);
}

/** A fine-tune's frozen base on the host under parameter offload (ZeRO-3: the GPU's shard, in its stored dtype: adapter.ts frozenBytes). */
function frozenHostBytes(c: RunConfig, stageIndex: number, stageParams: GpuParameters, adapter: AdapterConfig): number {
  if (!c.training.offload.parameters) return 0;
  const stage = pipelineLayout(c.model, c.parallel)[stageIndex];
  if (!stage) return 0;
  const counts = stageAdapterParameters(c, stage, adapter);
  const bytes = frozenBytes(c, adapter, stageParams, counts.adaptedBase);
  return bytes.dense / denseDataParallel(c.parallel) + bytes.expert / expertDataParallel(c.parallel);
}

/** What offload keeps on the host for one GPU of each pipeline stage, bytes (index 0 = first stage): states and activations. */
export function stageHostBytes(c: RunConfig): number[] {
  const states = stageHostStateBytes(c);
  return pipelineLayout(c.model, c.parallel).map((stage, i) => (states[i] ?? 0) + offloadedActivationBytes(c, stage));
}

/** What optimizer and parameter offload keep on the host for one GPU of each stage, bytes. */
function stageHostStateBytes(c: RunConfig): number[] {
  const t = c.training;
  if (!t.offload.optimizer && !t.offload.parameters) return pipelineLayout(c.model, c.parallel).map(() => 0);
  const perParameter = hostBytesPerParameter(c);
  const params = stageGpuParameters(c.model, c.parallel);
  const stages = pipelineLayout(c.model, c.parallel);
  return stages.map((stage, i) => {
    const stageParams = params[i] ?? { dense: 0, expert: 0 };
    if (!t.adapter) return hostBytesOf(c, stageParams, perParameter);
    // A fine-tune: the adapters' own states as any trainable parameter's, and the frozen base.
    const adapterParams = stageAdapterParameters(c, stage, t.adapter).adapter;
    return hostBytesOf(c, adapterParams, perParameter) + frozenHostBytes(c, i, stageParams, t.adapter);
  });
}

/**
 * memory.host of the output: the most a node's CPU memory holds (its GPUs × the most a GPU
 * of any stage puts there: a node is taken to hold GPUs of one stage, as the tp-innermost rank
 * order places them when a stage spans at least a node) and that memory, bytes.
 */
export function hostMemory(c: RunConfig): { readonly perNode: number; readonly capacity: number; readonly perGpu: number } {
  const perGpu = Math.max(0, ...stageHostBytes(c));
  return { perNode: hostNodeGpus(c) * perGpu, capacity: c.cluster.hostMemoryGiB * GiB, perGpu };
}

// What a training process holds on its GPU outside PyTorch's caching allocator, so in
// no "max allocated / max reserved" figure but in what nvidia-smi shows (the spec's
// memory.deviceUsed): the CUDA context, NCCL's buffers of every communicator the layout
// creates, and the cuBLAS workspaces. Each a named, cited term; none fitted.

import { architectureFacts, type GpuArchitecture, type ParallelConfig } from '../input/index.ts';
import { expertDataParallel, expertTensorParallel } from '../structure/index.ts';

const MiB = 2 ** 20;

/**
 * The CUDA context of one process on one GPU with its kernel modules loaded lazily:
 * CUDA ≥ 11.7 loads a module's kernels on first use (CUDA C++ Programming Guide,
 * "Lazy Loading"; PyTorch sets CUDA_MODULE_LOADING=LAZY by default since 2.0), which
 * brings the context of a PyTorch process to about 0.5 GiB (PyTorch docs, "CUDA
 * semantics", memory management: memory used by the context is not tracked by the
 * caching allocator and shows in nvidia-smi only). NOT FITTED.
 */
export const CUDA_CONTEXT_BYTES = 512 * MiB;

/**
 * NCCL's buffer of one connection per protocol (NCCL src/init.cc, DEFAULT_BUFFSIZE and
 * friends; NCCL docs, Environment Variables, NCCL_BUFFSIZE "default is 4194304 (4 MiB)"):
 * Simple = 1 << 22; LL = NCCL_LL_LINES_PER_THREAD (8) × NCCL_LL_MAX_NTHREADS (512) ×
 * NCCL_STEPS (8) × sizeof(ncclLLFifoLine) (16) = 512 KiB; LL128 =
 * NCCL_LL128_ELEMS_PER_THREAD (120) × NCCL_LL128_MAX_NTHREADS (640) × NCCL_STEPS (8) ×
 * sizeof(uint64_t) (8) = 4 915 200 bytes (src/include/device.h).
 */
export const NCCL_SIMPLE_BUFFER_BYTES = 4 * MiB;
export const NCCL_LL_BUFFER_BYTES = 8 * 512 * 8 * 16;
export const NCCL_LL128_BUFFER_BYTES = 120 * 640 * 8 * 8;

/**
 * Channels of a communicator: NCCL opens up to MAXCHANNELS (32, src/include/device.h) on
 * NVSwitch systems, which its INFO log shows as "32 coll channels" on 8-GPU H100/H200
 * nodes; NCCL_MAX_NCHANNELS (NCCL docs) caps it. Taken at the cap: the buffers a rank can
 * hold, the safe side of a fit verdict.
 */
export const NCCL_CHANNELS = 32;

/**
 * Bytes one rank holds for one communicator: in a ring each rank receives from one peer
 * per channel, and the receiving side holds one buffer per protocol for that connection
 * (NCCL src/transport/p2p.cc, p2pRecvSetup: the LL/LL128/Simple buffers of the
 * connection), so channels × (Simple + LL + LL128): 32 × 9 633 792 = 294 MiB by default.
 */
export function ncclCommunicatorBytes(channels = NCCL_CHANNELS): number {
  return channels * (NCCL_SIMPLE_BUFFER_BYTES + NCCL_LL_BUFFER_BYTES + NCCL_LL128_BUFFER_BYTES);
}

/** The layout's degrees the communicator count reads. */
export type CommunicatorLayout = Pick<ParallelConfig, 'tp' | 'pp' | 'dp' | 'cp' | 'ep' | 'etp'>;

/**
 * NCCL communicators one rank joins, each a process group with more than one rank that
 * the training step uses (Megatron-Core parallel_state.initialize_model_parallel, and
 * torchtitan's device mesh, create the same groups; PyTorch creates a group's NCCL
 * communicator on its first collective): the default (world) group, tensor, pipeline,
 * data (with context: gradients reduce over dp × cp), context, and for a mixture of
 * experts the expert group and the expert data-parallel group where it differs from the
 * dense one. TP2 PP2 DP2: world, TP, PP, DP = 4.
 */
export function ncclCommunicatorCount(p: CommunicatorLayout, moe: boolean): number {
  const world = p.tp * p.pp * p.dp * p.cp;
  const groups = [
    world > 1,
    p.tp > 1,
    p.pp > 1,
    p.dp * p.cp > 1,
    p.cp > 1,
    moe && p.ep > 1,
    moe && expertDataParallel(p) > 1 && (p.ep > 1 || expertTensorParallel(p) !== p.tp),
  ];
  return groups.filter(Boolean).length;
}

/**
 * cuBLAS workspace per handle and stream (PyTorch aten/src/ATen/cuda/CublasHandlePool.cpp,
 * getChosenWorkspaceSize: ":4096:8" = 32 MiB on Hopper and Blackwell, ":4096:2:16:8" =
 * 8.125 MiB before). PyTorch takes it from its allocator but the engine's allocated
 * peak does not count it, so it is added here; two streams (compute and the
 * communication-overlap stream that Transformer Engine's userbuffers / FSDP's
 * all-gather stream run GEMMs on) hold one each.
 */
export function cublasWorkspaceBytes(architecture: GpuArchitecture): number {
  return architectureFacts(architecture).cublasWorkspaceBytes;
}
export const CUBLAS_WORKSPACE_STREAMS = 2;

/** The named device-side terms, bytes on one GPU. */
export interface DeviceTerms {
  readonly cudaContext: number;
  readonly ncclBuffers: number;
  readonly workspaces: number;
}

export function deviceTerms(p: CommunicatorLayout, moe: boolean, architecture: GpuArchitecture): DeviceTerms {
  return {
    cudaContext: CUDA_CONTEXT_BYTES,
    ncclBuffers: ncclCommunicatorCount(p, moe) * ncclCommunicatorBytes(),
    workspaces: CUBLAS_WORKSPACE_STREAMS * cublasWorkspaceBytes(architecture),
  };
}

export function deviceTermsTotal(d: DeviceTerms): number {
  return d.cudaContext + d.ncclBuffers + d.workspaces;
}

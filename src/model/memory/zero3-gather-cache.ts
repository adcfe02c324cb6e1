// DeepSpeed ZeRO-3's gather cache (issue 34): blocks the caching allocator keeps for the
// stream ZeRO-3 gathers weights on, which the compute stream cannot reuse.
//
// Read in DeepSpeed v0.11.1 (FlagPerf's llama2_7b-deepspeed rows) and PyTorch's allocator:
//
// - With overlap_comm (on by default at stage 3: zero/config.py overlap_comm_valid),
//   parameter_offload.py makes __allgather_stream a stream of its own, and
//   partitioned_param_coordinator.py __all_gather_params_ allocates every gathered weight
//   there (partition_parameters.py all_gather_coalesced: torch.empty of the full size).
// - A weight is freed after its module (free_param: record_stream on the compute stream,
//   then param.data = torch.empty(0)): its block returns to the gather stream's pool only
//   when the compute stream has passed the module (c10/cuda/CUDACachingAllocator.cpp: a
//   block freed with recorded streams waits for their events; "once freed, blocks can be
//   re-allocated on the same stream, but not on any other stream").
// - In forward nothing makes the host wait for the compute stream: fetch_sub_module waits
//   only on the gather stream's events (__max_ongoing_fetch_events = 2), and the engine
//   synchronizes only at the start of forward and at the step (utils/timer.py
//   ThroughputTimer). So the host issues the forward's gathers ahead of the GPU, each in a
//   fresh block while the earlier ones are still in use, up to every weight of the forward
//   (in backward the reduce stream's events, max_param_reduce_events = 2, hold it back).
//   FSDP's rate limiter (torch.distributed.fsdp limit_all_gathers, on by default) exists for
//   this: it waits on the compute stream two gathers back.
// - The blocks stay cached (nothing calls empty_cache), in the gather stream's pool, beside
//   the compute stream's activation peak: nvidia-smi and torch's reserved bytes hold both.
//   When a cudaMalloc fails the allocator waits for the events and frees what is cached
//   (release_cached_blocks), so the cache fills free memory but never makes a run fail.
//
// The bound counted here is that every weight of the stage's forward is gathered ahead:
// one 16-bit copy of the GPU's weights before ZeRO sharding, less what the allocated peak
// already counts as gathered (memory.ts zero3GatheredBytes). How far ahead the host gets is
// timing, so the bound applies only where the document says the forward never waits for the
// GPU (training.forwardHostSync "none"). Hugging Face's flash-attention code unpads a padded
// batch in every layer (models/llama/modeling_llama.py _get_unpad_data: .item()), which keeps
// the host one layer ahead: "layer", the default. Parameters below DeepSpeed's persistence
// threshold (stage3_param_persistence_threshold, 1e5 elements: the norms) stay gathered and
// are left out of the bound with the shard's own copy, which is small beside it.

import { frameworkProfile, WEIGHT_BYTES, type RunConfig } from '../input/index.ts';
import { denseDataParallel, expertDataParallel, type GpuParameters } from '../structure/index.ts';

/** Whether the document runs DeepSpeed ZeRO-3's forward gathers ahead of the GPU (see above). */
export function zero3GatherCacheApplies(c: RunConfig): boolean {
  return (
    frameworkProfile(c.stack.framework).mechanisms.zero3GatherStreamCache &&
    c.parallel.zero >= 3 &&
    !c.training.offload.parameters &&
    !c.training.adapter &&
    c.stack.forwardHostSync === 'none'
  );
}

/**
 * The gather stream's cache, bytes on one GPU of a stage: the 16-bit weights ZeRO-3 gathers in
 * one forward (those of a data-parallel group of more than one GPU: with one, DeepSpeed gathers
 * nothing), less `countedGathered`, the gathered weights the stage's allocated peak holds.
 */
export function zero3GatherCacheBytes(c: RunConfig, stageParams: GpuParameters, countedGathered: number): number {
  if (!zero3GatherCacheApplies(c)) return 0;
  const shards = { dense: denseDataParallel(c.parallel), expert: expertDataParallel(c.parallel) };
  return gatherCacheBytes(WEIGHT_BYTES[c.training.precision], shards, stageParams, countedGathered);
}

/**
 * zero3GatherCacheBytes over plain numbers (the layout search's hot path): `weightBytes` per gathered weight, the data-parallel
 * groups ZeRO-3 shards dense and expert weights over, the stage's parameters on one GPU and the gathered bytes already counted.
 */
export function gatherCacheBytes(
  weightBytes: number,
  shards: { readonly dense: number; readonly expert: number },
  stageParams: GpuParameters,
  countedGathered: number,
): number {
  const dense = shards.dense > 1 ? stageParams.dense : 0;
  const expert = shards.expert > 1 ? stageParams.expert : 0;
  return Math.max(0, weightBytes * (dense + expert) - countedGathered);
}

/**
 * What of `cache` the device holds beside `deviceUsed` (everything else on it) on a GPU of
 * `capacity` bytes: the allocator frees cached blocks before a cudaMalloc can fail, so the
 * cache takes only free memory and never turns a fit into a "will not fit".
 */
export function cacheWithinCapacity(cache: number, deviceUsed: number, capacity: number): number {
  return Math.min(Math.max(0, cache), Math.max(0, capacity - deviceUsed));
}

// memory/: "will it fit?". Model states under ZeRO and offload, the "other" terms
// (memory.ts), the saved-tensor inventory of activations (activations.ts), and the
// combine functions over plain numbers that the estimate and the search share
// (peakActivationBytes, gatheredBeyondShardBytes, stageTotalBytes).
// This file is the wing's one public entry: code outside the wing imports from here.

export {
  activationBytesPerLayer,
  crossEntropyCopiesBytes,
  engineActivationSettings,
  isOffloadedPosition,
  layerSettings,
  microBatchesInFlight,
  offloadedActivationBytes,
  peakActivationBytes,
  lossReserveBytes,
  recomputeWorkingSetBytes,
  stageActivationBytes,
  type ActivationSettings,
} from './activations.ts';
export {
  allocatorReserveFraction,
  gatheredBeyondShardBytes,
  gradientBytesAtPeak,
  gradientsFreedAtActivationPeak,
  modelStateBytes,
  optimizerBytesPerParameter,
  optimizerOffloadFraction,
  optimizerUpdateBytesPerParameter,
  type StageMemory,
  stageMemoryForMetric,
  stageTotalBytes,
} from './memory.ts';
export { crossEntropyPeakBytesPerLogit } from './cross-entropy-copies.ts';
export { cacheWithinCapacity, gatherCacheBytes, zero3GatherCacheApplies } from './zero3-gather-cache.ts';
export { stageMemoryBreakdowns, stageMemoryDetails } from './stages.ts';
export {
  fp8WeightCacheBytes,
  fp8WeightCacheBytesPerParameter,
  fp8WeightCacheBytesPerWeight,
  fp8GatheredLayerWeightBytes,
  fsdpQuantizedLayerWeightBytes,
  fsdpQuantizedShardSavingBytes,
  stageLayerWeights,
  type QuantizedLayerWeightBytes,
} from './fp8-weight-cache.ts';
export {
  adapterLayerParameters,
  adapterStageTotalBytes,
  frozenBytes,
  frozenGatherBytesPerParameter,
  frozenOnGpuBytes,
  largestAdaptedMatrixOfLayer,
  NF4_DQ_BYTES_PER_PARAMETER,
  stageAdapterParameters,
  type AdapterLayerParameters,
} from './adapter.ts';
export { adaptedMatrices, adapterParametersOf, peftFp32Adapters } from './adapter-matrices.ts';
export { type DeviceTerms, deviceTerms, deviceTermsTotal } from './device.ts';
export { allocatedParts, fitMemoryBytes, mostLoadedFitLayers, stageFitLayers, type StageFitLayers } from './fit.ts';
export { hostBytesPerParameter, hostGradientBytes, hostMemory, hostNodeGpus, stageHostBytes } from './host.ts';

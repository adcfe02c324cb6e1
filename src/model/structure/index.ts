// structure/: what the model is made of. The weight-matrix inventory (matrices.ts), the
// parameter counts per layer, stage and GPU (params.ts) and the FLOPs of every matrix
// multiply (flops.ts): "how big is it, how much work is one step?".
// This file is the wing's one public entry: code outside the wing imports from here.

export { attentionKeyTokens, isSlidingWindowLayer, slidingWindowLayerCount, windowKeyTokens } from './attention-window.ts';
export {
  attentionScoreFlopsPerToken,
  FLOPS_PER_MULTIPLY_ADD,
  forwardFlopsPerToken,
  stepFlops,
  TRAINING_FLOPS_PER_FORWARD_FLOP,
} from './flops.ts';
export { attentionScoreMacsPerToken, isMoeLayer, layerMatrices, layerNormParameters, type WeightMatrix } from './matrices.ts';
export {
  chunkLayerCounts,
  denseDataParallel,
  expertDataParallel,
  expertTensorParallel,
  type GpuParameters,
  layerGpuParameters,
  mtpLayerIndex,
  parameterCounts,
  pipelineLayout,
  pipelineChunks,
  type PipelineShapeOf,
  type PipelineStage,
  routedCopiesPerToken,
  stageGpuParameters,
} from './params.ts';
export { layerKind } from './layer-kind.ts';
export { busiestExpertRankLoad, busiestRankCopiesPerToken, moeRouterOf } from './moe-routing.ts';
export { modelSummary } from './summary.ts';
export { zeroWithoutEffect } from './zero-groups.ts';

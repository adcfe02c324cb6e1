// The model summary of the interchange output (`model`): what the document describes,
// before any layout. One place that reads the parameter counts (params.ts) and the FLOPs
// per token (flops.ts) for the page, the exports, compare and the command line.

import { modelFlopsPerToken } from './flops.ts';
import { parameterCounts } from './params.ts';
import type { ModelConfig, ModelSummary } from '../input/index.ts';

/**
 * parameters: every weight of the main model, embedding, output layer and every expert
 * included; activeParameters: the weights one token runs through (shared + topK routed
 * experts), = parameters for a dense model. Both leave out the multi-token-prediction
 * modules, as the published totals do: DeepSeek-V3's "671B total parameters with 37B
 * activated for each token" (arXiv 2412.19437, abstract) counts the main model only; the
 * 685B of the Hugging Face release adds the MTP module's 14B (deepseek-ai/DeepSeek-V3
 * README.md, "Model Weights" / README_WEIGHTS.md). flopsPerToken: the model FLOPs of one
 * token's forward and backward at the document's sequence length (6N plus attention, the
 * MTP modules' work included, as the step FLOPs count it), no recomputation.
 */
export function modelSummary(model: ModelConfig, seqLen: number): ModelSummary {
  const counts = parameterCounts(model);
  return {
    parameters: counts.total,
    activeParameters: counts.activePerToken,
    flopsPerToken: modelFlopsPerToken(model, seqLen),
  };
}

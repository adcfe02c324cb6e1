// Parameter counts, summed over the weight-matrix inventory of matrices.ts, and
// how they spread over the GPUs: which layers each pipeline stage holds and how
// tensor and expert parallelism split each matrix.

import { layerMatrices, layerNormParameters, type WeightMatrix } from './matrices.ts';
import { statedLayoutChunks, type ModelConfig, type MoeConfig, type ParallelConfig } from '../input/index.ts';

function matrixParameters(w: WeightMatrix): number {
  return w.rows * w.cols * w.copies;
}

function matrixActiveParameters(w: WeightMatrix): number {
  return w.rows * w.cols * w.activeCopies;
}

/** Every weight of layer `layerIndex` (0-based): matrices, all experts, norms. */
export function layerParameters(m: ModelConfig, layerIndex: number): number {
  return layerMatrices(m, layerIndex).reduce((sum, w) => sum + matrixParameters(w), 0) + layerNormParameters(m);
}

/** Weights one token runs through in layer `layerIndex`: topK routed experts plus the shared ones. */
export function layerActiveParameters(m: ModelConfig, layerIndex: number): number {
  return layerMatrices(m, layerIndex).reduce((sum, w) => sum + matrixActiveParameters(w), 0) + layerNormParameters(m);
}

export function embeddingParameters(m: ModelConfig): number {
  return m.vocab * m.hidden;
}

/** The output projection; 0 when it shares the embedding matrix. */
export function outputParameters(m: ModelConfig): number {
  return m.tiedEmbeddings ? 0 : m.vocab * m.hidden;
}

/** Final norm before the output layer. */
export function finalNormParameters(m: ModelConfig): number {
  return m.hidden;
}

/** Index the MTP module's transformer layer takes: after the main layers, so a MoE model gives it experts (DeepSeek-V3 model.layers.61). */
export function mtpLayerIndex(m: ModelConfig): number {
  return m.layers;
}

/** The 2h × h projection that merges the hidden state and the next token's embedding (DeepSeek-V3, arXiv 2412.19437, section 2.2, M_k). */
export function mtpProjectionParameters(m: ModelConfig): number {
  return 2 * m.hidden * m.hidden;
}

/** enorm and hnorm on the two inputs plus the shared head's own final norm (DeepSeek-V3 README_WEIGHTS.md, MTP structural details). */
export function mtpExtraNormParameters(m: ModelConfig): number {
  return 3 * m.hidden;
}

/** Unique weights of one MTP module: one transformer layer + projection + norms; embedding and output head are shared. */
export function mtpModuleParameters(m: ModelConfig): number {
  return layerParameters(m, mtpLayerIndex(m)) + mtpProjectionParameters(m) + mtpExtraNormParameters(m);
}

export interface ParameterCounts {
  /** The main model: embedding, layers, final norm, output layer (not the MTP modules). */
  readonly total: number;
  readonly embedding: number;
  readonly output: number;
  readonly layers: number;
  /** All MTP modules, unique weights only. */
  readonly mtp: number;
  readonly totalWithMtp: number;
  /** Weights one token runs through in the main model (MoE: topK routed + shared experts). */
  readonly activePerToken: number;
}

export function parameterCounts(m: ModelConfig): ParameterCounts {
  let layers = 0;
  let activeLayers = 0;
  for (let i = 0; i < m.layers; i++) {
    layers += layerParameters(m, i);
    activeLayers += layerActiveParameters(m, i);
  }
  const embedding = embeddingParameters(m);
  const output = outputParameters(m);
  const edges = embedding + output + finalNormParameters(m);
  const total = edges + layers;
  const mtp = m.mtpLayers * mtpModuleParameters(m);
  return { total, embedding, output, layers, mtp, totalWithMtp: total + mtp, activePerToken: edges + activeLayers };
}

// ---- Pipeline layout ---------------------------------------------------------

/**
 * Layers per pipeline chunk, in pipeline order. The busiest chunk gets
 * ceil(layers / chunks); the chunks that get one fewer are the first (it also
 * holds the embedding), then the last (output layer and loss), then inwards.
 * With chunks = layers + 2 that leaves the embedding and the loss a chunk each,
 * as Megatron-Core's account_for_embedding/loss_in_pipeline_split does.
 */
export function chunkLayerCounts(layers: number, chunks: number): number[] {
  const busiest = Math.ceil(layers / chunks);
  const counts = Array.from({ length: chunks }, () => busiest);
  let deficit = chunks * busiest - layers;
  for (let k = 0; k < chunks && deficit > 0; k++) {
    const index = k % 2 === 0 ? k / 2 : chunks - 1 - (k - 1) / 2;
    counts[index] = Math.max(0, busiest - 1);
    deficit--;
  }
  return counts;
}

export interface PipelineStage {
  readonly index: number;
  /** Layer indices this stage's GPUs hold, over all its chunks. */
  readonly layers: readonly number[];
  /** Chunks per GPU: vpp for interleaving, 2 for DualPipe (one per direction), else 1. */
  readonly chunks: number;
  readonly embedding: boolean;
  /** Output layer, final norm and the MTP modules. */
  readonly output: boolean;
}

/** Global chunk indices held by stage `stage`. */
function stageChunks(p: Pick<ParallelConfig, 'pp' | 'vpp' | 'schedule'>, stage: number): number[] {
  // DualPipe: rank i runs chunk i for one direction and chunk pp−1−i for the other (arXiv 2412.19437, section 3.2.1, figure 5).
  if (p.schedule === 'dualpipe') return [stage, p.pp - 1 - stage];
  // Interleaving: virtual chunk j of rank i is pipeline chunk j·pp + i (Narayanan et al. 2021, section 2.2, figure 4).
  return Array.from({ length: p.vpp }, (_, j) => j * p.pp + stage);
}

/** The pipeline's shape: its degrees and, where the document states one, Megatron's layout text. */
export type PipelineShapeOf = Pick<ParallelConfig, 'pp' | 'vpp' | 'schedule'> & Pick<Partial<ParallelConfig>, 'pipelineLayout'>;

/**
 * Decoder layers per pipeline chunk, in pipeline order, and which chunks hold the embedding
 * (E) and the loss with the output layer and the MTP layers (L): the stated layout
 * (parallel.pipelineLayout, input/pipeline-layout.ts) where it fits these degrees, else the
 * even split with the embedding on the first chunk and the output on the last.
 */
export function pipelineChunks(
  m: Pick<ModelConfig, 'layers' | 'mtpLayers'>,
  p: PipelineShapeOf,
): { counts: number[]; embedding: number; output: number } {
  const stated = statedLayoutChunks(m, { pipelineLayout: null, ...p });
  if (stated !== null) {
    return {
      counts: stated.map((c) => c.decoderLayers),
      embedding: stated.findIndex((c) => c.embedding),
      output: stated.findIndex((c) => c.loss),
    };
  }
  const chunkCount = p.schedule === 'dualpipe' ? p.pp : p.pp * p.vpp;
  return { counts: chunkLayerCounts(m.layers, chunkCount), embedding: 0, output: chunkCount - 1 };
}

/** Which layers, and whether the embedding and output layer, each stage holds. Index 0 = first stage. */
export function pipelineLayout(m: ModelConfig, p: PipelineShapeOf): PipelineStage[] {
  const { counts, embedding, output } = pipelineChunks(m, p);
  const firstLayer: number[] = [];
  counts.reduce((start, n) => (firstLayer.push(start), start + n), 0);
  return Array.from({ length: p.pp }, (_, stage) => {
    const chunks = stageChunks(p, stage);
    const layers = chunks.flatMap((g) => Array.from({ length: counts[g] ?? 0 }, (_, k) => (firstLayer[g] ?? 0) + k));
    return {
      index: stage,
      layers,
      chunks: chunks.length,
      embedding: chunks.includes(embedding),
      output: chunks.includes(output),
    };
  });
}

// ---- Parameters per GPU ------------------------------------------------------

/**
 * Routed copies per token that the experts compute and the dispatcher moves: topK when
 * dropless; with a capacity factor c and inputs padded to capacity, every expert takes
 * c × the mean tokens per expert (Megatron-Core --moe-expert-capacity-factor with
 * --moe-pad-expert-input-to-capacity, moe_utils.py: capacity = ceil(tokens × topK / experts × c)).
 * Per token of the mean: with c ≥ 1 nothing is dropped and the padded count is c × topK;
 * with c < 1 the dropped tokens are not computed either. The busiest expert-parallel rank's
 * share over the mean (training.moeLoadImbalance) is moe-routing.ts busiestExpertRankLoad.
 */
export function routedCopiesPerToken(moe: MoeConfig): number {
  return moe.topK * (moe.capacityFactor ?? 1);
}

/**
 * Expert tensor-parallel size: parallel.etp when the document gives it. Otherwise the
 * default rule, the meaning every document had before the field existed: Megatron-Core
 * splits a stage's tp·dp·cp ranks into expert groups of ep × etp (× expert data-parallel)
 * and takes etp = tp when unset (megatron/core/model_parallel_config.py,
 * expert_tensor_parallel_size); that fits when ep divides dp·cp. When it does not, expert
 * parallelism spans the TP ranks and each expert lives whole on one GPU (etp = 1, as the
 * Megatron-Bridge MoE recipes set it). Compute (time/compute.ts), communication
 * (time/comm.ts) and memory (here and memory/) all read this one function.
 */
export function expertTensorParallel(p: Pick<ParallelConfig, 'tp' | 'dp' | 'cp' | 'ep' | 'etp'>): number {
  if (p.etp != null) return p.etp;
  return (p.dp * p.cp) % p.ep === 0 ? p.tp : 1;
}

/** GPUs of one stage that hold the same expert weights: the group ZeRO shards expert states over. */
export function expertDataParallel(p: Pick<ParallelConfig, 'tp' | 'dp' | 'cp' | 'ep' | 'etp'>): number {
  return Math.max(1, (p.tp * p.dp * p.cp) / (p.ep * expertTensorParallel(p)));
}

/** GPUs of one stage that hold the same dense weights (context-parallel ranks hold full replicas too). */
export function denseDataParallel(p: Pick<ParallelConfig, 'dp' | 'cp'>): number {
  return p.dp * p.cp;
}

/** Parameters on one GPU, split by which data-parallel group replicates them. */
export interface GpuParameters {
  /** Attention, dense MLP, shared experts, router, norms, embedding, output: replicated over dp·cp. */
  readonly dense: number;
  /** Routed experts: replicated over the expert data-parallel group. */
  readonly expert: number;
}

/**
 * One layer's weights on one GPU. Matrices split by tp (Megatron column/row
 * parallel, Shoeybi et al. 2019, section 3), routed experts by ep·etp; norm
 * weights are replicated on every tensor-parallel rank.
 */
export function layerGpuParameters(
  m: ModelConfig,
  layerIndex: number,
  p: Pick<ParallelConfig, 'tp' | 'dp' | 'cp' | 'ep' | 'etp'>,
): GpuParameters {
  const expertSplit = p.ep * expertTensorParallel(p);
  let dense = layerNormParameters(m);
  let expert = 0;
  for (const w of layerMatrices(m, layerIndex)) {
    if (w.group === 'routedExpert') expert += matrixParameters(w) / expertSplit;
    else dense += matrixParameters(w) / p.tp;
  }
  return { dense, expert };
}

/** Parameters on one GPU of each pipeline stage (index 0 = first stage). */
export function stageGpuParameters(m: ModelConfig, p: ParallelConfig): GpuParameters[] {
  return pipelineLayout(m, p).map((stage) => {
    let dense = 0;
    let expert = 0;
    for (const i of stage.layers) {
      const layer = layerGpuParameters(m, i, p);
      dense += layer.dense;
      expert += layer.expert;
    }
    // Embedding and output are vocabulary-parallel over tp (Shoeybi et al. 2019, section 3).
    const vocabSlice = (m.vocab * m.hidden) / p.tp;
    if (stage.embedding) dense += vocabSlice;
    if (stage.output) {
      // A tied output layer on another stage keeps its own copy of the embedding (Megatron-LM keeps word embeddings on the last
      // stage and all-reduces their gradients);
      // MTP modules read the shared embedding, so the last stage needs it too.
      const needsOutputMatrix = !m.tiedEmbeddings || !stage.embedding;
      const needsEmbeddingCopy = m.mtpLayers > 0 && !stage.embedding && !m.tiedEmbeddings;
      dense += finalNormParameters(m) + (needsOutputMatrix ? vocabSlice : 0) + (needsEmbeddingCopy ? vocabSlice : 0);
      for (let k = 0; k < m.mtpLayers; k++) {
        const layer = layerGpuParameters(m, mtpLayerIndex(m), p);
        dense += layer.dense + mtpProjectionParameters(m) / p.tp + mtpExtraNormParameters(m);
        expert += layer.expert;
      }
    }
    return { dense, expert };
  });
}

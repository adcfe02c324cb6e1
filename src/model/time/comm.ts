// Communication time in the alpha-beta model: the per-GPU cost of each collective,
// the link each parallel group runs over, and the traffic of one micro-batch on one
// pipeline stage and of one optimizer step. Every time here is before overlap with
// compute; the time model applies COMM_EXPOSED_FRACTION from calibration.ts.
//
// Layout (Megatron-LM): tp varies fastest, then cp, then dp, then pp. Experts are laid
// out etp fastest, then ep (megatron/core/parallel_state.py, expert groups of
// "tp-ep-dp-pp" order): an expert-tensor-parallel group is etp consecutive ranks, an
// expert-parallel group ep ranks etp apart, and expert weights are replicated over the
// tp·cp·dp/(ep·etp) ranks of the expert-data-parallel group (stride ep·etp). etp comes
// from structure/params.ts expertTensorParallel, as for compute and memory.

import {
  INTER_NODE_BANDWIDTH_EFFICIENCY,
  INTER_NODE_LATENCY_SECONDS,
  INTRA_NODE_BANDWIDTH_EFFICIENCY,
  INTRA_NODE_LATENCY_SECONDS,
} from '../calibration.ts';
import type { ClusterConfig, ModelConfig, MoeConfig, RunConfig, ZeroStage } from '../input/index.ts';
import { expertTensorParallel } from '../structure/index.ts';
import { deepEpTransferSeconds, moeDispatchReplicas, routedCopiesPerToken, routingShape } from './moe-time.ts';
import { microBatchesPerStep } from '../input/index.ts';
import { fp8GatheredLayerWeightBytes } from '../memory/index.ts';
import { ACTIVATION_BYTES, GB, GRAD_BYTES, WEIGHT_BYTES } from '../input/index.ts';

export type LinkKind = 'intraNode' | 'interNode';

export interface Link {
  readonly kind: LinkKind;
  /** Achievable bytes per second per GPU, one direction. */
  readonly bytesPerSecond: number;
  /** α: the fixed cost of one algorithm step. */
  readonly latencySeconds: number;
}

// ---- Collectives (Thakur, Rabenseifner & Gropp 2005, "Optimization of collective
// communication operations in MPICH", IJHPCA 19(1), section 4; ring all-reduce:
// Patarasuk & Yuan 2009, JPDC 69(2)). `bytes` is the full buffer S on each GPU.

/** Ring all-reduce: a reduce-scatter then an all-gather, 2(n−1) steps of S/n. */
export function allReduceSeconds(bytes: number, ranks: number, link: Link): number {
  if (ranks <= 1) return 0;
  return (((2 * (ranks - 1)) / ranks) * bytes) / link.bytesPerSecond + 2 * (ranks - 1) * link.latencySeconds;
}

/** Ring all-gather of an S-byte result (each GPU contributes S/n): n−1 steps of S/n. */
export function allGatherSeconds(bytes: number, ranks: number, link: Link): number {
  if (ranks <= 1) return 0;
  return (((ranks - 1) / ranks) * bytes) / link.bytesPerSecond + (ranks - 1) * link.latencySeconds;
}

/** Ring reduce-scatter of an S-byte input: the mirror image of all-gather. */
export function reduceScatterSeconds(bytes: number, ranks: number, link: Link): number {
  return allGatherSeconds(bytes, ranks, link);
}

/** Pairwise-exchange all-to-all: each GPU keeps S/n of its S bytes and sends the rest in n−1 steps. */
export function allToAllSeconds(bytes: number, ranks: number, link: Link): number {
  if (ranks <= 1) return 0;
  return (((ranks - 1) / ranks) * bytes) / link.bytesPerSecond + (ranks - 1) * link.latencySeconds;
}

/** One send to one peer. */
export function pointToPointSeconds(bytes: number, link: Link): number {
  return bytes / link.bytesPerSecond + link.latencySeconds;
}

// ---- Which link a group runs over ------------------------------------------------

/** A parallel group: `ranks` GPUs whose ids are `stride` apart. */
export interface RankGroup {
  readonly ranks: number;
  readonly stride: number;
}

/**
 * Ring collectives (NCCL) versus direct exchanges (all-to-all, ring-attention sends,
 * pipeline sends). NCCL builds one ring per channel and spreads the channels over the
 * node's NICs, so a ring with g members per node moves g NICs' worth of bandwidth
 * across nodes (tuning.cc: bus bandwidth = channels × per-channel inter-node speed).
 */
export type TrafficPattern = 'ring' | 'direct';

/**
 * Groups tile the rank space in blocks of ranks·stride consecutive ids. A block stays
 * in one node (NVLink domain) when it is no larger than one: launchers place ranks so
 * that groups do not straddle domains (on GB200/GB300 NVL72 racks, jobs typically use
 * 64 of the 72 GPUs per rack, so a 64-rank expert-parallel group stays on NVLink).
 */
export function groupSpansNodes(cluster: ClusterConfig, group: RankGroup): boolean {
  const span = group.ranks * group.stride;
  if (group.ranks <= 1 || cluster.gpus <= cluster.gpusPerNode) return false;
  return span > cluster.gpusPerNode;
}

export function groupLink(cluster: ClusterConfig, group: RankGroup, pattern: TrafficPattern): Link {
  const intraBytesPerSecond = cluster.gpu.intraNodeGBps * GB * INTRA_NODE_BANDWIDTH_EFFICIENCY;
  if (!groupSpansNodes(cluster, group)) {
    return { kind: 'intraNode', bytesPerSecond: intraBytesPerSecond, latencySeconds: INTRA_NODE_LATENCY_SECONDS };
  }
  const interBytesPerSecond = cluster.gpu.interNodeGBps * GB * INTER_NODE_BANDWIDTH_EFFICIENCY;
  const membersPerNode = Math.max(1, Math.min(group.ranks, Math.floor(cluster.gpusPerNode / group.stride)));
  // The slowest link crossed: a group with several members per node also crosses NVLink.
  const bytesPerSecond =
    membersPerNode === 1
      ? interBytesPerSecond
      : Math.min(intraBytesPerSecond, pattern === 'ring' ? membersPerNode * interBytesPerSecond : interBytesPerSecond);
  return { kind: 'interNode', bytesPerSecond, latencySeconds: INTER_NODE_LATENCY_SECONDS };
}

/** Every group of the layout, Megatron order tp → cp → dp → pp. */
export function parallelGroups(c: RunConfig): Readonly<Record<'tp' | 'cp' | 'dp' | 'ep' | 'etp' | 'expertDp' | 'pp', RankGroup>> {
  const { tp, cp, dp, ep, pp } = c.parallel;
  const etp = expertTensorParallel(c.parallel);
  return {
    tp: { ranks: tp, stride: 1 },
    cp: { ranks: cp, stride: tp },
    // Context-parallel ranks hold the same weights, so gradients reduce over dp × cp.
    dp: { ranks: dp * cp, stride: tp },
    etp: { ranks: etp, stride: 1 },
    ep: { ranks: ep, stride: etp },
    expertDp: { ranks: Math.max(1, (tp * cp * dp) / (ep * etp)), stride: ep * etp },
    pp: { ranks: pp, stride: tp * cp * dp },
  };
}

// ---- Traffic of one stage --------------------------------------------------------

/**
 * tp, cp, ep: one micro-batch's forward and backward on the stage (recomputation
 * included). ppPerMessage: one activation or gradient message across one stage
 * boundary. dp: one optimizer step. zero3Gather: one micro-batch (ZeRO-3 only).
 */
export type CommTerm = 'tp' | 'cp' | 'ep' | 'ppPerMessage' | 'dp' | 'zero3Gather';
export const COMM_TERMS: readonly CommTerm[] = ['tp', 'cp', 'ep', 'ppPerMessage', 'dp', 'zero3Gather'];
export type CommRecord = Readonly<Record<CommTerm, number>>;

export interface StageComm {
  /** Seconds before any overlap with compute. */
  readonly seconds: CommRecord;
  /** Bytes each GPU puts on the wire for the same unit of work. */
  readonly sentBytes: CommRecord;
}

/** Parameters one GPU holds for its stage after the tensor, pipeline and expert split, before ZeRO sharding. */
export interface StageParameters {
  readonly dense: number;
  readonly expert: number;
}

export interface Part {
  readonly seconds: number;
  readonly sentBytes: number;
}
const NONE: Part = { seconds: 0, sentBytes: 0 };
const times = (n: number, p: Part): Part => ({ seconds: n * p.seconds, sentBytes: n * p.sentBytes });
const plus = (a: Part, b: Part): Part => ({ seconds: a.seconds + b.seconds, sentBytes: a.sentBytes + b.sentBytes });

function allReduce(bytes: number, ranks: number, link: Link): Part {
  return ranks <= 1 ? NONE : { seconds: allReduceSeconds(bytes, ranks, link), sentBytes: ((2 * (ranks - 1)) / ranks) * bytes };
}
function allGather(bytes: number, ranks: number, link: Link): Part {
  return ranks <= 1 ? NONE : { seconds: allGatherSeconds(bytes, ranks, link), sentBytes: ((ranks - 1) / ranks) * bytes };
}
function reduceScatter(bytes: number, ranks: number, link: Link): Part {
  return ranks <= 1 ? NONE : { seconds: reduceScatterSeconds(bytes, ranks, link), sentBytes: ((ranks - 1) / ranks) * bytes };
}
function allToAll(bytes: number, ranks: number, link: Link): Part {
  return ranks <= 1 ? NONE : { seconds: allToAllSeconds(bytes, ranks, link), sentBytes: ((ranks - 1) / ranks) * bytes };
}
function pointToPoint(bytes: number, link: Link): Part {
  return { seconds: pointToPointSeconds(bytes, link), sentBytes: bytes };
}

/** MoE layers among the stage's layers when the caller does not say: all of them, up to the model's count (the busiest stage). */
export function defaultMoeLayersOnStage(m: ModelConfig, layersOnStage: number): number {
  return m.moe ? Math.min(layersOnStage, Math.max(0, m.layers - m.moe.denseLayers)) : 0;
}

/** Forward passes per micro-batch: full recomputation reruns each layer's forward, collectives included, during backward. */
function forwardPasses(c: RunConfig): number {
  return c.training.recompute === 'full' ? 2 : 1;
}

/** Tokens of one micro-batch on each context-parallel rank (Megatron splits the sequence over cp). */
function tokensPerRank(c: RunConfig): number {
  return (c.training.microBatch * c.training.seqLen) / c.parallel.cp;
}

/**
 * Tensor parallel: attention and MLP each end in one all-reduce of the s·b·h output in
 * forward and one in backward (Narayanan et al. 2021, section 3.1, the f/g operators).
 * Sequence parallelism swaps each for an all-gather + reduce-scatter of the same
 * buffer (Korthikanti et al. 2022, section 4.2.2): in the ring model that costs the
 * same, so one formula covers both. MoE layers keep attention's pair; their experts
 * (ETP 1) take the sequence-parallel tokens without tensor-parallel collectives,
 * while shared experts are tensor-parallel like a dense MLP.
 */
function tensorParallel(c: RunConfig, layersOnStage: number, moeLayers: number, link: Link): Part {
  // torchtitan gathers the whole MoE module's input and reduce-scatters its output once, shared experts inside (moeDispatchReplicas).
  const sharedExpertPairs = (c.model.moe && c.model.moe.sharedExperts > 0) || c.stack.framework === 'torchtitan' ? 1 : 0;
  const perForward = 2 * (layersOnStage - moeLayers) + (1 + sharedExpertPairs) * moeLayers;
  const bufferBytes = tokensPerRank(c) * c.model.hidden * ACTIVATION_BYTES[c.training.precision];
  return times(perForward * (forwardPasses(c) + 1), allReduce(bufferBytes, c.parallel.tp, link));
}

/**
 * Context parallel (ring attention; Megatron-Core's default p2p CP): each rank passes
 * its K and V blocks around the ring, cp−1 sends per layer in forward, and K/V plus
 * dK/dV (twice that) in backward. MLA: Megatron up-projects the latent and rings the
 * full per-head K (nope + rope dims) and V, not the compressed latent.
 */
function contextParallel(c: RunConfig, layersOnStage: number, link: Link): Part {
  const { cp, tp } = c.parallel;
  if (cp <= 1) return NONE;
  const m = c.model;
  const kvValuesPerToken = m.mla ? m.heads * (m.mla.qkNopeHeadDim + m.mla.qkRopeHeadDim + m.mla.vHeadDim) : 2 * m.kvHeads * m.headDim;
  const blockBytes = ((tokensPerRank(c) * kvValuesPerToken) / tp) * ACTIVATION_BYTES[c.training.precision];
  const ringSendsPerLayer = (cp - 1) * (forwardPasses(c) + 2);
  return times(layersOnStage * ringSendsPerLayer, pointToPoint(blockBytes, link));
}

/** Nodes an expert-parallel group spans (1 when it stays in one NVLink domain). */
function nodesSpanned(c: RunConfig, group: RankGroup): number {
  return groupSpansNodes(c.cluster, group) ? Math.ceil((group.ranks * group.stride) / c.cluster.gpusPerNode) : 1;
}

/**
 * One dispatch or combine of `tokens` sequence-parallel tokens per rank, each element
 * `bytes` wide, by the document's dispatcher:
 * - alltoall: NCCL all-to-all of every routed copy (Megatron-Core MoEAlltoAllTokenDispatcher);
 * - allgather: every rank gathers the group's hidden states once and reduce-scatters the
 *   outputs (MoEAllGatherTokenDispatcher): ep × tokens per rank, whatever topK;
 * - deepep / hybridep: NVLink for the copies inside a node, one RDMA send per remote node
 *   a token touches (moe-time.ts deepEpTransferSeconds).
 */
function dispatchOnce(c: RunConfig, moe: MoeConfig, tokens: number, bytes: number, ep: RankGroup, link: Link): Part {
  if (ep.ranks <= 1) return NONE;
  const h = c.model.hidden;
  const routing = routingShape(c);
  switch (c.stack.moeDispatcher) {
    case 'allgather':
      return allGather(ep.ranks * tokens * h * bytes, ep.ranks, link);
    case 'deepep':
    case 'hybridep': {
      const gpu = c.cluster.gpu;
      const seconds = deepEpTransferSeconds(gpu, moe, ep.ranks, nodesSpanned(c, ep), tokens, h * bytes, routing) + link.latencySeconds;
      return { seconds, sentBytes: (tokens * routedCopiesPerToken(moe) * routing.load * h * bytes * (ep.ranks - 1)) / ep.ranks };
    }
    default:
      // The busiest rank receives (dispatch) and sends back (combine) load × the mean copies, and the exchange waits for it.
      return allToAll(tokens * routedCopiesPerToken(moe) * routing.load * h * bytes, ep.ranks, link);
  }
}

/**
 * Expert parallel: dispatch and combine of the routed tokens per MoE layer in forward,
 * their gradients in backward (DeepSeek-V3, arXiv 2412.19437, section 3.2.2). Megatron
 * requires sequence parallelism for MoE with tp > 1, so each rank dispatches its
 * s/(cp·tp) tokens. With expert tensor parallelism the tokens an expert-parallel rank
 * receives are all-gathered over its etp group before the experts and reduce-scattered
 * after (Megatron-Core token_dispatcher.py, gather/reduce-scatter over the expert
 * tensor-parallel group), forward and backward.
 * Tokens travel in 16-bit under fp8/fp4 recipes too. DeepSeek-V3 does (arXiv 2412.19437, section
 * 3.3.2), but none of the frameworks the document names: Megatron-Core @d98e8a64 sends the
 * 16-bit hidden states through every dispatcher under fp8/fp4 recipes — the all-to-all
 * dispatcher exchanges the permuted bf16 tokens (token_dispatcher.py
 * MoEAlltoAllTokenDispatcher.token_dispatch), DeepEP's fused_dispatch is given the bf16
 * hidden_states (fused_a2a.py, fp8_dispatch only for DeepEP's own low-latency mode, unused),
 * HybridEP hard-codes `fp8_dispatch = False  # Currently, we do not support fp8 dispatch`
 * (fused_a2a.py), and fp8 on the wire exists only for the 'ncclep' flex backend with
 * moe_dispatch_fwd_dtype 'mxfp8' (transformer_config.py, default 'bf16'); torchtitan's
 * all_to_all_single_autograd moves the bf16 routed input (distributed/expert_parallel.py
 * @f3748d8e9), torchao casting inside the grouped GEMM.
 */
function expertParallel(c: RunConfig, moeLayers: number, groups: ReturnType<typeof parallelGroups>): Part {
  const moe = c.model.moe;
  if (!moe || moeLayers <= 0) return NONE;
  const replicas = moeDispatchReplicas(c);
  const tokens = (tokensPerRank(c) / c.parallel.tp) * replicas;
  const sixteenBitBytes = ACTIVATION_BYTES[c.training.precision];
  const epLink = groupLink(c.cluster, groups.ep, 'direct');
  const sixteenBit = dispatchOnce(c, moe, tokens, sixteenBitBytes, groups.ep, epLink);
  const etp = groups.etp.ranks;
  // What the busiest expert-parallel rank received (structure/moe-routing.ts busiestExpertRankLoad), gathered over its etp group.
  const received = tokens * routedCopiesPerToken(moe) * routingShape(c).load * c.model.hidden * sixteenBitBytes;
  const etpLink = groupLink(c.cluster, groups.etp, 'ring');
  const etpPair =
    etp > 1 && replicas === 1 ? plus(allGather(etp * received, etp, etpLink), reduceScatter(etp * received, etp, etpLink)) : NONE;
  // Forward: dispatch + combine (repeated under full recompute); backward: the gradients of both; all in 16-bit.
  const forward = plus(times(2, sixteenBit), etpPair);
  return times(moeLayers, plus(times(forwardPasses(c), forward), plus(times(2, sixteenBit), etpPair)));
}

/** Pipeline: one activation message per micro-batch per boundary (sharded by tp under sequence parallelism). */
function pipelineMessage(c: RunConfig, link: Link): Part {
  if (c.parallel.pp <= 1) return NONE;
  const shards = c.parallel.sequenceParallel ? c.parallel.tp : 1;
  return pointToPoint((tokensPerRank(c) * c.model.hidden * ACTIVATION_BYTES[c.training.precision]) / shards, link);
}

/**
 * Gradient and weight synchronisation of `parameters` over one data-parallel group.
 * Gradients travel in training.gradDtype (Megatron reduces its fp32 main-grad buffer
 * in fp32), updated weights at `weightBytesPerParameter` (16-bit, or fp8 layer weights:
 * gatheredWeightBytesPerParameter).
 * ZeRO 0: one all-reduce of the accumulated gradients per step.
 * ZeRO 1: reduce-scatter gradients, all-gather updated weights, once per step
 *   (Rajbhandari et al. 2020, section 7.2.1: the all-reduce's volume when the types match).
 * ZeRO 2/3: gradients are partitioned, so they are reduce-scattered after every
 *   micro-batch's backward (DeepSpeed issue #2252). ZeRO 3 also all-gathers the weights
 *   for each micro-batch's forward and again for its backward: 1.5× the traffic.
 */
export function dataParallelSyncParts(
  zero: ZeroStage,
  parameters: number,
  ranks: number,
  link: Link,
  gradBytesPerParameter: number,
  weightBytesPerParameter: number,
  microBatches: number,
): { readonly step: Part; readonly perMicroBatch: Part } {
  if (parameters <= 0 || ranks <= 1) return { step: NONE, perMicroBatch: NONE };
  const gradBytes = parameters * gradBytesPerParameter;
  const weightBytes = parameters * weightBytesPerParameter;
  const gradReduceScatter = reduceScatter(gradBytes, ranks, link);
  switch (zero) {
    case 0:
      return { step: allReduce(gradBytes, ranks, link), perMicroBatch: NONE };
    case 1:
      return { step: plus(gradReduceScatter, allGather(weightBytes, ranks, link)), perMicroBatch: NONE };
    case 2:
      return { step: plus(times(microBatches, gradReduceScatter), allGather(weightBytes, ranks, link)), perMicroBatch: NONE };
    case 3:
      return { step: times(microBatches, gradReduceScatter), perMicroBatch: times(2, allGather(weightBytes, ranks, link)) };
  }
}

/**
 * Bytes per parameter of `parameters` in the data-parallel weight all-gather: the 16-bit weight
 * bytes, save that `layerWeights` of them (the transformer layers' weights) move at the bytes
 * of fp8GatheredLayerWeightBytes where the weights are gathered in fp8 (memory/fp8-weight-cache.ts,
 * the rule the memory reads too); the embedding and output layer stay 16-bit.
 */
export function gatheredWeightBytesPerParameter(c: RunConfig, parameters: number, layerWeights: number): number {
  const sixteenBit = WEIGHT_BYTES[c.training.precision];
  const fp8 = fp8GatheredLayerWeightBytes(c);
  if (fp8 === null || parameters <= 0) return sixteenBit;
  const layers = Math.min(Math.max(0, layerWeights), parameters);
  return (sixteenBit * (parameters - layers) + fp8 * layers) / parameters;
}

function dataParallelSync(
  c: RunConfig,
  parameters: number,
  layerWeights: number,
  ranks: number,
  link: Link,
): { readonly step: Part; readonly perMicroBatch: Part } {
  const { training: t, parallel: p } = c;
  return dataParallelSyncParts(
    p.zero,
    parameters,
    ranks,
    link,
    GRAD_BYTES[t.gradDtype],
    gatheredWeightBytesPerParameter(c, parameters, layerWeights),
    microBatchesPerStep(t, p),
  );
}

/** The data-parallel synchronisation of a stage's dense and expert `parameters` over their groups (stageComm's dp and zero3Gather). */
function dataParallelGroupsSync(
  c: RunConfig,
  groups: ReturnType<typeof parallelGroups>,
  parameters: StageParameters,
  layerWeights: StageParameters,
): { readonly dense: ReturnType<typeof dataParallelSync>; readonly expert: ReturnType<typeof dataParallelSync> } {
  return {
    dense: dataParallelSync(c, parameters.dense, layerWeights.dense, groups.dp.ranks, groupLink(c.cluster, groups.dp, 'ring')),
    expert: dataParallelSync(
      c,
      parameters.expert,
      layerWeights.expert,
      groups.expertDp.ranks,
      groupLink(c.cluster, groups.expertDp, 'ring'),
    ),
  };
}

/**
 * stageComm's `dp` seconds alone, for `parameters` without layer weights (a fine-tune's adapters, time/step.ts): one step's
 * gradient and weight synchronisation before overlap, without working out the stage's other traffic.
 */
export function dataParallelStepSeconds(c: RunConfig, parameters: StageParameters): number {
  const { dense, expert } = dataParallelGroupsSync(c, parallelGroups(c), parameters, { dense: 0, expert: 0 });
  return plus(dense.step, expert.step).seconds;
}

/**
 * Communication of one pipeline stage holding `layersOnStage` transformer layers
 * (`moeLayersOnStage` of them MoE) and `parameters` per GPU, `layerWeights` of them the
 * transformer layers' (memory/fp8-weight-cache.ts stageLayerWeights; those the data-parallel
 * weight all-gather may move in fp8; none when not given, so all at 16 bits). Left out: the
 * vocabulary-parallel embedding's and output layer's collectives on the first and
 * last stages (about one s·b·h all-reduce each way: half a layer's TP traffic).
 */
export function stageComm(
  c: RunConfig,
  layersOnStage: number,
  parameters: StageParameters,
  moeLayersOnStage: number = defaultMoeLayersOnStage(c.model, layersOnStage),
  layerWeights: StageParameters = { dense: 0, expert: 0 },
): StageComm {
  const groups = parallelGroups(c);
  const moeLayers = Math.min(Math.max(0, moeLayersOnStage), layersOnStage);
  const link = (g: RankGroup, pattern: TrafficPattern) => groupLink(c.cluster, g, pattern);
  const { dense, expert } = dataParallelGroupsSync(c, groups, parameters, layerWeights);
  const parts: Readonly<Record<CommTerm, Part>> = {
    tp: tensorParallel(c, layersOnStage, moeLayers, link(groups.tp, 'ring')),
    cp: contextParallel(c, layersOnStage, link(groups.cp, 'direct')),
    ep: expertParallel(c, moeLayers, groups),
    ppPerMessage: pipelineMessage(c, link(groups.pp, 'direct')),
    dp: plus(dense.step, expert.step),
    zero3Gather: plus(dense.perMicroBatch, expert.perMicroBatch),
  };
  const pick = (key: keyof Part): CommRecord => ({
    tp: parts.tp[key],
    cp: parts.cp[key],
    ep: parts.ep[key],
    ppPerMessage: parts.ppPerMessage[key],
    dp: parts.dp[key],
    zero3Gather: parts.zero3Gather[key],
  });
  return { seconds: pick('seconds'), sentBytes: pick('sentBytes') };
}

// What a mixture-of-experts layer spends beyond its FLOPs, each a named term with its
// source (../shared/docs/moe.md): the host-bound floor of eager layers (moe-host.ts), how much of
// the dispatch/combine is exposed, DeepEP/HybridEP's once-per-node sending and link
// rates, the grouped GEMM's efficiency at small tokens per expert, and capacity-factor
// padding. Expert tensor parallelism comes from one function (structure/params.ts
// expertTensorParallel) for compute, communication and memory alike.

import { calibration } from '../calibration.ts';
import { busiestExpertRankLoad, expertTensorParallel, moeRouterOf, routedCopiesPerToken } from '../structure/index.ts';

export { routedCopiesPerToken };
import { architectureFacts, type GpuSpec, type MoeConfig, type MoeRouter, type RunConfig } from '../input/index.ts';

/**
 * Tokens each local expert's GEMMs run on, per micro-batch, on the busiest expert-parallel rank:
 * the ep·etp ranks of an expert group pool their tokens (sequence-parallel shards of `tokens / tp`
 * each) and spread tokens × copies over the experts, the busiest rank taking
 * structure/moe-routing.ts busiestExpertRankLoad × the mean (training.moeLoadImbalance; absent 1,
 * balanced). `tokens` is one micro-batch's tokens on a context-parallel rank.
 */
export function tokensPerLocalExpert(c: RunConfig, moe: MoeConfig, tokens: number): number {
  const { tp, ep } = c.parallel;
  const etp = expertTensorParallel(c.parallel);
  return (((tokens / tp) * ep * etp * routedCopiesPerToken(moe)) / moe.experts) * busiestExpertRankLoad(c);
}

/**
 * How many tensor-parallel ranks dispatch the same tokens. torchtitan gathers a MoE
 * layer's input over TP to Replicate (models/llama4/infra/parallelize.py @f3748d8e9
 * apply_moe_ep_tp: PrepareModuleInputOutput, desired_input_layouts Replicate(), output
 * Partial() reduce-scattered to Shard(1)); with expert tensor parallelism
 * (ExpertTensorParallel, distributed/expert_parallel.py) each TP rank then routes,
 * permutes and all-to-alls every token of its TP group over the EP mesh, so the dispatch
 * moves tp times a sequence-parallel shard and no expert-tensor-parallel gather follows.
 * With ETP 1 ReordererSequenceParallel splits the tokens again (1). Megatron-Core
 * dispatches the sequence-parallel shard and gathers over ETP after (1).
 */
export function moeDispatchReplicas(c: RunConfig): number {
  const { tp, ep } = c.parallel;
  return c.stack.framework === 'torchtitan' && tp > 1 && ep > 1 && expertTensorParallel(c.parallel) > 1 ? tp : 1;
}

/**
 * Share of the expert-parallel dispatch and combine left on the critical path.
 * DualPipe overlaps one micro-batch's all-to-all with another's compute and hides
 * nearly all of it (DeepSeek-V3 report, arXiv 2412.19437, section 3.2.1);
 * --overlap-moe-expert-parallel-comm (combined 1F1B) does the same in Megatron-Core
 * (Bridge skill card nemo-mbridge-perf-moe-comm-overlap: Qwen3-30B-A3B on 16 H100,
 * 24.71 → 20.99 s per step); without either, the fitted share (prior: all of it).
 */
export function expertParallelExposedFraction(c: RunConfig): number {
  const MOE_TIME = calibration().moe;
  if (c.parallel.schedule === 'dualpipe') return MOE_TIME.dualPipeExposedFraction;
  return c.stack.overlap.epComm ? MOE_TIME.overlappedExposedFraction : MOE_TIME.exposedFraction;
}

/**
 * Probability that a token's topK distinct experts, drawn from `experts` spread evenly over
 * `groups` groups (nodes or ranks), all miss one given group: C(experts − experts/groups, topK)
 * / C(experts, topK).
 */
function groupMissProbability(experts: number, topK: number, groups: number): number {
  const perGroup = experts / groups;
  let miss = 1;
  for (let i = 0; i < topK; i++) miss *= Math.max(0, experts - perGroup - i) / (experts - i);
  return miss;
}

/** Greatest common divisor of two whole numbers. */
function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Beyond this many start positions the consecutive count takes its uniform-start form (no real MoE has so many experts). */
const MAX_CONSECUTIVE_STARTS = 65_536;

/**
 * Expected number of groups (ranks or nodes, experts spread evenly and in order over them: expert e
 * on group ⌊e·groups/experts⌋) that a token's topK experts live on under AutoModel's fake balanced
 * gate, which sends local token t to experts (t·topK + j) mod experts, j < topK
 * (NVIDIA-NeMo/Automodel nemo_automodel/components/moe/layers.py @36044ad3 FakeBalancedGate.forward,
 * noise 0: `torch.arange(n_tokens * a_exp).view(-1, a_exp) % available_experts`). The first expert
 * t·topK mod experts runs through the multiples of g = gcd(topK, experts), each once in every
 * experts/g tokens, so over whole cycles the count is the mean, over those starts s, of the groups
 * that experts s … s + topK − 1 (mod experts) touch: ⌊(s+topK−1)·groups/experts⌋ − ⌊s·groups/experts⌋ + 1,
 * at most `groups`. With more starts than MAX_CONSECUTIVE_STARTS, every start alike:
 * 1 + (topK − 1)·groups/experts (each neighbouring pair of experts straddles a boundary with
 * probability groups/experts).
 */
export function consecutiveGroupsPerToken(experts: number, topK: number, groups: number): number {
  if (groups <= 1) return 1;
  if (groups >= experts) return Math.min(topK, groups);
  const step = gcd(topK, experts);
  const starts = experts / step;
  if (starts > MAX_CONSECUTIVE_STARTS) return Math.min(groups, 1 + ((topK - 1) * groups) / experts);
  let sum = 0;
  for (let i = 0; i < starts; i++) {
    const first = i * step;
    const span = Math.floor(((first + topK - 1) * groups) / experts) - Math.floor((first * groups) / experts) + 1;
    sum += Math.min(groups, span);
  }
  return sum / starts;
}

/**
 * Expected number of groups (ranks or nodes) a token's experts live on, its own included, by
 * router: the learned router's topK distinct experts taken at random, groups · (1 − miss), or the
 * fake balanced gate's consecutive experts (consecutiveGroupsPerToken).
 */
function groupsPerToken(experts: number, topK: number, groups: number, router: MoeRouter): number {
  if (groups <= 1) return 1;
  if (router === 'fakeBalanced') return consecutiveGroupsPerToken(experts, topK, groups);
  return groups * (1 - groupMissProbability(experts, topK, groups));
}

/**
 * Expected number of other nodes a token's topK experts live on, when the experts of an
 * expert-parallel group are spread evenly over `nodes` nodes: DeepEP and HybridEP send
 * a token once per node it touches and fan it out over NVLink there (deepseek-ai/DeepEP
 * README, "internode" kernels; DeepSeek-V3 report section 3.2.2). With topK distinct
 * experts drawn from `experts`, a given node holding experts/nodes of them is missed
 * with probability C(experts − experts/nodes, topK) / C(experts, topK); the token's own
 * node is among the `nodes`, so the remote ones are (nodes − 1) of them on average
 * weighted by the same hit probability: (nodes − 1)/nodes of the nodes touched. The fake
 * balanced gate routes every rank's local token t alike, whatever node it sits on, so there
 * too (nodes − 1)/nodes of the nodes touched are remote.
 */
export function remoteNodesPerToken(experts: number, topK: number, nodes: number, router: MoeRouter = 'learned'): number {
  if (nodes <= 1) return 0;
  if (router === 'fakeBalanced') return (consecutiveGroupsPerToken(experts, topK, nodes) * (nodes - 1)) / nodes;
  return (nodes - 1) * (1 - groupMissProbability(experts, topK, nodes));
}

/**
 * Expected number of expert-parallel ranks, its own included, a token's topK experts live on:
 * DeepEP's normal dispatch sends a token once to each rank it touches, not once per expert
 * copy — get_dispatch_layout gives `is_token_in_rank` [tokens, ranks], and the received
 * `recv_x` holds one row per (token, rank) pair, permuted into per-expert copies on the
 * receiving rank (deepseek-ai/DeepEP deep_ep/buffer.py @v1.2.1 9af0e0d0, Buffer.dispatch;
 * Megatron-Core's _DeepepManager permutes after the dispatch). Learned routing: ep · (1 − miss);
 * the fake balanced gate: consecutiveGroupsPerToken.
 */
export function ranksPerToken(experts: number, topK: number, ep: number, router: MoeRouter = 'learned'): number {
  return groupsPerToken(experts, topK, ep, router);
}

/**
 * DeepEP's achieved inter-node rate as a share of the 50 GB/s RDMA NIC: 43–58 GB/s
 * (deepseek-ai/DeepEP README @v1.2.1, "Normal kernels with NVLink and RDMA forwarding"
 * table), the lower, dispatch's. The intra-node NVLink share is the GPU architecture's
 * (input/architectures.ts epDispatchNvlinkEfficiency: DeepEP on H800, HybridEP on GB200).
 */
export const DEEPEP_RDMA_EFFICIENCY = 43 / 50;

/** How the run routes (structure/moe-routing.ts): its router and the busiest rank's load over the mean. */
export interface RoutingShape {
  readonly router: MoeRouter;
  readonly load: number;
}

const BALANCED_LEARNED: RoutingShape = { router: 'learned', load: 1 };

/** The run's routing as the dispatch reads it. */
export function routingShape(c: RunConfig): RoutingShape {
  return { router: moeRouterOf(c), load: busiestExpertRankLoad(c) };
}

/**
 * Seconds to move one dispatch or combine of `tokens` hidden vectors of `bytesPerToken` for DeepEP/HybridEP over an EP group
 * spanning `nodes` nodes, as the busiest rank receives them (`routing.load` × the mean rows).
 */
export function deepEpTransferSeconds(
  gpu: GpuSpec,
  moe: MoeConfig,
  ep: number,
  nodes: number,
  tokens: number,
  bytesPerToken: number,
  routing: RoutingShape = BALANCED_LEARNED,
): number {
  // One row per (token, rank touched), as DeepEP's measured rate counts them (ranksPerToken), times the capacity padding and the busiest rank's load.
  const padding = (moe.capacityFactor ?? 1) * routing.load;
  const nvlinkBytes = tokens * bytesPerToken * ranksPerToken(moe.experts, moe.topK, ep, routing.router) * padding;
  const rdmaBytes = tokens * bytesPerToken * remoteNodesPerToken(moe.experts, moe.topK, nodes, routing.router) * padding;
  const nvlink = nvlinkBytes / (gpu.intraNodeGBps * 1e9 * architectureFacts(gpu.architecture).epDispatchNvlinkEfficiency);
  const rdma = rdmaBytes / (gpu.interNodeGBps * 1e9 * DEEPEP_RDMA_EFFICIENCY);
  // The RDMA and NVLink forwarding stages run as one pipeline: the slower sets the pace.
  return Math.max(nvlink, rdma);
}

/**
 * Fraction of the tensor cores a grouped GEMM keeps busy: partial tiles in M (each
 * expert's M rounded up to the 128-row tile) and the last partial wave of tiles over
 * the GPU's streaming multiprocessors (wave quantisation). `groups` experts of M×N each.
 */
export function groupedGemmTileFill(groups: number, m: number, n: number, sms: number): number {
  const tile = 128;
  const mTiles = Math.ceil(m / tile);
  const tiles = groups * mTiles * Math.ceil(n / tile);
  const waves = Math.ceil(tiles / sms);
  return (m / (mTiles * tile)) * (tiles / (waves * sms));
}

// What a mixture-of-experts layer spends beyond its FLOPs, each a named term with its
// source (../shared/docs/moe.md): the host-bound floor of eager layers (moe-host.ts), how much of
// the dispatch/combine is exposed, DeepEP/HybridEP's once-per-node sending and link
// rates, the grouped GEMM's efficiency at small tokens per expert, and capacity-factor
// padding. Expert tensor parallelism comes from one function (structure/params.ts
// expertTensorParallel) for compute, communication and memory alike.

import { calibration } from '../calibration.ts';
import { expertTensorParallel, routedCopiesPerToken } from '../structure/index.ts';

export { routedCopiesPerToken };
import { architectureFacts, type GpuSpec, type MoeConfig, type RunConfig } from '../input/index.ts';

/**
 * Routing balance the engine assumes: every expert receives the mean share of tokens, so
 * the busiest expert-parallel rank is no busier than the mean one (load over mean 1).
 * Benchmarks often force it (Megatron-Core transformer_config.py @d98e8a64
 * moe_router_force_load_balancing, default False, "only for benchmark"); runs with learned
 * routing and an auxiliary load-balancing loss wait for their busiest rank and are slower
 * than this says. The interchange document has no field for it, so it is this documented
 * default (docs/methodology.md, "Mixture-of-experts time").
 */
export const BUSIEST_EXPERT_RANK_LOAD_OVER_MEAN = 1;

/**
 * Tokens each local expert's GEMMs run on, per micro-batch: the ep·etp ranks of an
 * expert group pool their tokens (sequence-parallel shards of `tokens / tp` each) and
 * spread tokens × copies over the experts. `tokens` is one micro-batch's tokens on a
 * context-parallel rank.
 */
export function tokensPerLocalExpert(c: RunConfig, moe: MoeConfig, tokens: number): number {
  const { tp, ep } = c.parallel;
  const etp = expertTensorParallel(c.parallel);
  return (((tokens / tp) * ep * etp * routedCopiesPerToken(moe)) / moe.experts) * BUSIEST_EXPERT_RANK_LOAD_OVER_MEAN;
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

/**
 * Expected number of other nodes a token's topK experts live on, when the experts of an
 * expert-parallel group are spread evenly over `nodes` nodes: DeepEP and HybridEP send
 * a token once per node it touches and fan it out over NVLink there (deepseek-ai/DeepEP
 * README, "internode" kernels; DeepSeek-V3 report section 3.2.2). With topK distinct
 * experts drawn from `experts`, a given node holding experts/nodes of them is missed
 * with probability C(experts − experts/nodes, topK) / C(experts, topK); the token's own
 * node is among the `nodes`, so the remote ones are (nodes − 1) of them on average
 * weighted by the same hit probability.
 */
export function remoteNodesPerToken(experts: number, topK: number, nodes: number): number {
  if (nodes <= 1) return 0;
  return (nodes - 1) * (1 - groupMissProbability(experts, topK, nodes));
}

/**
 * Expected number of expert-parallel ranks, its own included, a token's topK experts live on:
 * DeepEP's normal dispatch sends a token once to each rank it touches, not once per expert
 * copy — get_dispatch_layout gives `is_token_in_rank` [tokens, ranks], and the received
 * `recv_x` holds one row per (token, rank) pair, permuted into per-expert copies on the
 * receiving rank (deepseek-ai/DeepEP deep_ep/buffer.py @v1.2.1 9af0e0d0, Buffer.dispatch;
 * Megatron-Core's _DeepepManager permutes after the dispatch). ep · (1 − miss).
 */
export function ranksPerToken(experts: number, topK: number, ep: number): number {
  if (ep <= 1) return 1;
  return ep * (1 - groupMissProbability(experts, topK, ep));
}

/**
 * DeepEP's achieved inter-node rate as a share of the 50 GB/s RDMA NIC: 43–58 GB/s
 * (deepseek-ai/DeepEP README @v1.2.1, "Normal kernels with NVLink and RDMA forwarding"
 * table), the lower, dispatch's. The intra-node NVLink share is the GPU architecture's
 * (input/architectures.ts epDispatchNvlinkEfficiency: DeepEP on H800, HybridEP on GB200).
 */
export const DEEPEP_RDMA_EFFICIENCY = 43 / 50;

/** Seconds to move one dispatch or combine of `tokens` hidden vectors of `bytesPerToken` for DeepEP/HybridEP over an EP group spanning `nodes` nodes. */
export function deepEpTransferSeconds(
  gpu: GpuSpec,
  moe: MoeConfig,
  ep: number,
  nodes: number,
  tokens: number,
  bytesPerToken: number,
): number {
  // One row per (token, rank touched), as DeepEP's measured rate counts them (ranksPerToken), times the capacity padding.
  const nvlinkBytes = tokens * bytesPerToken * ranksPerToken(moe.experts, moe.topK, ep) * (moe.capacityFactor ?? 1);
  const rdmaBytes = tokens * bytesPerToken * remoteNodesPerToken(moe.experts, moe.topK, nodes) * (moe.capacityFactor ?? 1);
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

// The pieces of a layout's time and memory that depend on only a few of its degrees,
// computed once per key by CALLING THE ENGINE'S OWN FUNCTIONS on a synthetic
// configuration, so that the search cannot drift from what `estimate` computes. Every
// piece is per layer or per pipeline edge; a stage's figure is a linear combination of
// them (the engine sums over the layers a stage holds), which search-eval.ts forms.

import {
  activationBytesPerLayer,
  isOffloadedPosition,
  layerSettings,
  lossReserveBytes,
  recomputeWorkingSetBytes,
  stageActivationBytes,
  engineActivationSettings,
  zero3GatherCacheApplies,
  type ActivationSettings,
} from '../memory/index.ts';
import { groupLink, parallelGroups, stageComm, type Link } from '../time/index.ts';
import { isMoeLayer, layerKind, mtpLayerIndex } from '../structure/index.ts';
import { adapterLayerParameters, frozenBytes, largestAdaptedMatrixOfLayer, modelStateBytes } from '../memory/index.ts';
import { optimizerStepSeconds } from '../time/index.ts';
import {
  denseDataParallel,
  expertDataParallel,
  expertTensorParallel,
  layerGpuParameters,
  pipelineLayout,
  stageGpuParameters,
  type GpuParameters,
  type PipelineStage,
} from '../structure/index.ts';
import type { LayoutGroup, StateCombo } from './space.ts';
import type { LayoutChoice } from './types.ts';
import { stageWorkTimes } from '../time/index.ts';
import type { ModelConfig, OffloadConfig, ParallelConfig, Recompute, RunConfig, ScheduleKind } from '../input/index.ts';

const NO_OFFLOAD: OffloadConfig = { optimizer: false, parameters: false };
const NO_PARAMETERS: GpuParameters = { dense: 0, expert: 0 };

/** The base run with one layout applied: what `estimateConfig` would receive for it. */
export function layoutConfig(base: RunConfig, choice: LayoutChoice): RunConfig {
  return {
    ...base,
    parallel: choice.parallel,
    training: { ...base.training, microBatch: choice.microBatch, recompute: choice.recompute, offload: choice.offload },
    cluster: { ...base.cluster, gpus: choice.gpus },
  };
}

function parallelOf(p: Partial<ParallelConfig>): ParallelConfig {
  return { tp: 1, pp: 1, dp: 1, cp: 1, ep: 1, vpp: 1, sequenceParallel: false, zero: 0, schedule: '1f1b', ...p };
}

/** The document's explicit expert tensor-parallel degree, carried into every layout the search builds (absent: the default rule). */
export function explicitEtp(base: RunConfig): { etp?: number } {
  return base.parallel.etp == null ? {} : { etp: base.parallel.etp };
}

/**
 * The kinds of the main stack's layers (structure/layer-kind.ts: dense or MoE, full or
 * sliding-window attention), numbered in order of first appearance: the engine prices
 * every layer of a kind alike, so a stage's time and saved tensors are sums over kinds.
 */
export interface LayerKinds {
  readonly count: number;
  /** The first layer of each kind. */
  readonly representative: Int32Array;
  readonly moe: Uint8Array;
  /** Kind of each main layer. */
  readonly of: Int32Array;
  /** Layers of each kind in the main stack. */
  readonly layers: Float64Array;
}

const kindsByModel = new WeakMap<ModelConfig, LayerKinds>();

/** The model's layer kinds, computed once per model object (every shape and group of a search asks). */
export function layerKindsOf(m: ModelConfig): LayerKinds {
  let kinds = kindsByModel.get(m);
  if (!kinds) kindsByModel.set(m, (kinds = computeLayerKinds(m)));
  return kinds;
}

function computeLayerKinds(m: ModelConfig): LayerKinds {
  const index = new Map<string, number>();
  const representative: number[] = [];
  const of = new Int32Array(m.layers);
  for (let i = 0; i < m.layers; i++) {
    const key = layerKind(m, i);
    let k = index.get(key);
    if (k === undefined) {
      k = representative.length;
      index.set(key, k);
      representative.push(i);
    }
    of[i] = k;
  }
  const layers = new Float64Array(representative.length);
  for (const k of of) layers[k] = (layers[k] ?? 0) + 1;
  return {
    count: representative.length,
    representative: Int32Array.from(representative),
    moe: Uint8Array.from(representative, (i) => (isMoeLayer(m, i) ? 1 : 0)),
    of,
    layers,
  };
}

/** A first dense and a first MoE layer index of the main stack (−1 when the model has none of that kind). */
export function layerKinds(m: ModelConfig): { readonly dense: number; readonly moe: number } {
  const firstMoe = m.moe ? Math.min(m.moe.denseLayers, m.layers) : m.layers;
  return { dense: firstMoe > 0 ? 0 : -1, moe: firstMoe < m.layers ? firstMoe : -1 };
}

const stageOf = (layers: number[], embedding: boolean, output: boolean): PipelineStage => ({
  index: 0,
  layers,
  chunks: 1,
  embedding,
  output,
});

/** Edge flags of a stage: 1 = embedding, 2 = output layer (and MTP modules), 3 = both. */
export const edgeCode = (s: Pick<PipelineStage, 'embedding' | 'output'>): number => (s.embedding ? 1 : 0) + (s.output ? 2 : 0);

// ---- Stage signatures of a pipeline layout ---------------------------------------

/**
 * Stages that can be the most loaded: the first stage of each distinct signature
 * (dense layers, MoE layers, edges). Stages with one signature have the same time and
 * parameters, and memory that falls with the stage index (fewer micro-batches in flight).
 */
export interface StageCandidates {
  readonly count: number;
  readonly stageIndex: Int32Array;
  readonly denseLayers: Float64Array;
  readonly moeLayers: Float64Array;
  readonly edge: Int32Array;
  /** Layers of each kind (layerKindsOf) on candidate c, at c · kinds + kind. */
  readonly kindLayers: Float64Array;
  /** The kinds of candidate c's layers in stage order, at layerStart[c] … layerStart[c + 1] − 1 (for position-dependent settings). */
  readonly layerKind: Int32Array;
  readonly layerStart: Int32Array;
}

/** `kept`: the document's stated layout where it fits these degrees (input/pipeline-layout.ts layoutKeptFor), else the even split. */
export function stageCandidates(
  m: ModelConfig,
  pp: number,
  vpp: number,
  schedule: ScheduleKind,
  kept: { pipelineLayout?: string } = {},
): StageCandidates {
  const stages = pipelineLayout(m, { pp, vpp, schedule, ...kept });
  const kinds = layerKindsOf(m);
  const seen = new Set<string>();
  const picked: { index: number; dense: number; moe: number; edge: number; kinds: number[] }[] = [];
  for (const stage of stages) {
    const moe = stage.layers.reduce((n, i) => n + (isMoeLayer(m, i) ? 1 : 0), 0);
    const dense = stage.layers.length - moe;
    const edge = edgeCode(stage);
    const order = stage.layers.map((i) => kinds.of[i] ?? 0);
    // The kinds in stage order: settings that depend on a layer's position in its stage (activation offload, layer policies) see them.
    const key = `${edge}/${order.join(',')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    picked.push({ index: stage.index, dense, moe, edge, kinds: order });
  }
  const kindLayers = new Float64Array(picked.length * kinds.count);
  const layerStart = new Int32Array(picked.length + 1);
  picked.forEach((p, c) => {
    for (const k of p.kinds) kindLayers[c * kinds.count + k] = (kindLayers[c * kinds.count + k] ?? 0) + 1;
    layerStart[c + 1] = (layerStart[c] ?? 0) + p.kinds.length;
  });
  return {
    count: picked.length,
    stageIndex: Int32Array.from(picked, (p) => p.index),
    denseLayers: Float64Array.from(picked, (p) => p.dense),
    moeLayers: Float64Array.from(picked, (p) => p.moe),
    edge: Int32Array.from(picked, (p) => p.edge),
    kindLayers,
    layerKind: Int32Array.from(picked.flatMap((p) => p.kinds)),
    layerStart,
  };
}

// ---- Time per layer (time/step.ts stageWorkTimes on one-layer stages) -----------

/** Seconds of one micro-batch's forward + backward + recomputation + exposed tp/cp/ep communication. */
export interface LayerTimePieces {
  /** One layer of each kind (layerKindsOf). */
  readonly kinds: Float64Array;
  /** The same under DualPipe, which hides most of a MoE layer's expert-parallel all-to-all (time/moe-time.ts expertParallelExposedFraction). */
  readonly kindsDualPipe: Float64Array;
  /** Output layer, loss and MTP modules. */
  readonly output: number;
}

function workSeconds(c: RunConfig, stage: PipelineStage): number {
  const t = stageWorkTimes(c, stage, NO_PARAMETERS);
  const exposed = t.exposed.tp + t.exposed.cp + t.exposed.ep + t.exposed.zero3;
  return t.forwardComputeSeconds + t.backwardComputeSeconds + t.recomputeSeconds + exposed;
}

export function layerTimePieces(base: RunConfig, g: LayoutGroup): LayerTimePieces {
  // dp matters to a MoE layer through the expert tensor-parallel default (structure/params.ts expertTensorParallel).
  const p = parallelOf({ tp: g.tp, cp: g.cp, dp: g.dp, ep: g.ep, sequenceParallel: g.sequenceParallel, ...explicitEtp(base) });
  const c = layoutConfig(base, { gpus: g.gpus, parallel: p, microBatch: g.microBatch, recompute: g.recompute, offload: NO_OFFLOAD });
  const kinds = layerKindsOf(base.model);
  const dualPipe = { ...c, parallel: { ...c.parallel, schedule: 'dualpipe' as const } };
  const one = Float64Array.from(kinds.representative, (i) => workSeconds(c, stageOf([i], false, false)));
  return {
    kinds: one,
    // A dense layer has no all-to-all to hide: its time is the same under DualPipe.
    kindsDualPipe: Float64Array.from(kinds.representative, (i, k) =>
      kinds.moe[k] ? workSeconds(dualPipe, stageOf([i], false, false)) : (one[k] ?? 0),
    ),
    output: workSeconds(c, stageOf([], false, true)),
  };
}

/**
 * One activation message across a stage boundary (comm.ts, before overlap; 0 without a
 * pipeline), as seconds = intercept + slope × micro-batch: a point-to-point send is
 * affine in its bytes (alpha-beta), and the bytes are proportional to the micro-batch.
 */
export function pipelineMessagePieces(base: RunConfig, g: LayoutGroup): { readonly intercept: number; readonly slope: number } {
  if (g.pp <= 1) return { intercept: 0, slope: 0 };
  const p = parallelOf({ tp: g.tp, cp: g.cp, pp: g.pp, dp: g.dp, ep: g.ep, sequenceParallel: g.sequenceParallel, ...explicitEtp(base) });
  const at = (microBatch: number) =>
    stageComm(
      layoutConfig(base, { gpus: g.gpus, parallel: p, microBatch, recompute: g.recompute, offload: NO_OFFLOAD }),
      0,
      NO_PARAMETERS,
      0,
    ).seconds.ppPerMessage;
  const one = at(1);
  const slope = at(2) - one;
  return { intercept: one - slope, slope };
}

// ---- Activations per layer (activations.ts) -------------------------------------

export interface ActivationPieces {
  /**
   * Bytes one layer keeps per micro-batch under the recompute policy (kept), keeping everything (keptAll), and its recompute
   * working set, by role r and kind k at r · kinds + k (layerKindsOf). A role is what a layer's position in its stage
   * decides (memory/activations.ts): whether activation offload holds its saved tensors on the host (isOffloadedPosition),
   * and the policy a layer policy gives it (layerSettings). All are for a micro-batch of one sequence: activations.ts counts
   * bytes per token times tokens, so they scale with the micro-batch.
   */
  readonly kinds: number;
  readonly roles: number;
  /** The role of each position within a stage (a stage holds at most the model's layers). */
  readonly roleAt: Int32Array;
  readonly kept: Float64Array;
  readonly keptAll: Float64Array;
  readonly working: Float64Array;
  /**
   * The figures above are at expert TP 1; each further expert-TP rank adds these
   * (activations.ts expertInputGather: the experts' gathered input grows linearly with etp).
   * activationPiecesAtExpertTp applies them for a group's etp.
   */
  readonly keptPerEtp: Float64Array;
  readonly keptAllPerEtp: Float64Array;
  readonly workingPerEtp: Float64Array;
  /** What each further expert-TP rank adds to the output edge: the MTP modules' layers (activations.ts mtpBytes). */
  readonly outputEdgePerEtp: number;
  readonly edges: ActivationEdgePieces;
}

export interface ActivationEdgePieces {
  /** Per micro-batch in flight, by edge code (embedding mask; output inputs, logits, MTP). */
  readonly edgeBytes: Float64Array;
  /** The loss's backward buffers on the output stage, once. */
  readonly lossBytes: number;
  /** What the allocator reserves beyond them on the output stage, per sequence of the micro-batch (memory.ts lossReserveBytes). */
  readonly lossReserve: number;
}

type ActivationKey = Pick<LayoutGroup, 'tp' | 'cp' | 'sequenceParallel' | 'recompute'>;

/** A one-sequence micro-batch on a pp-stage pipeline with two micro-batches per step. */
function activationProbe(base: RunConfig, g: ActivationKey, pp: number): RunConfig {
  const parallel = parallelOf({ tp: g.tp, cp: g.cp, pp, sequenceParallel: g.sequenceParallel });
  return {
    ...layoutConfig(base, { gpus: pp, parallel, microBatch: 1, recompute: g.recompute, offload: NO_OFFLOAD }),
    training: { ...base.training, microBatch: 1, recompute: g.recompute, globalBatch: 2 },
  };
}

/**
 * stageActivationBytes of a stage without layers is x·edges + loss for x micro-batches in
 * flight; two probes (x = 1: pp = 1; x = 2: stage 0 of pp = 2 with two micro-batches) give
 * both. The edges do not depend on the recompute policy (they are kept tensors).
 */
export function activationEdgePieces(base: RunConfig, g: ActivationKey): ActivationEdgePieces {
  const one = activationProbe(base, g, 1);
  const two = activationProbe(base, g, 2);
  // At expert TP 1, as the layer pieces (activationPiecesAtExpertTp adds the MTP layer's share).
  const s = atExpertTp(engineActivationSettings(one), 1);
  const edgeBytes = new Float64Array(4);
  let lossBytes = 0;
  for (const code of [1, 2, 3]) {
    const stage = stageOf([], (code & 1) !== 0, (code & 2) !== 0);
    const x1 = stageActivationBytes(one, stage, s);
    const x2 = stageActivationBytes(two, stage, s);
    edgeBytes[code] = x2 - x1;
    if (code === 2) lossBytes = Math.max(0, x1 - (x2 - x1));
  }
  return { edgeBytes, lossBytes, lossReserve: lossReserveBytes(one, stageOf([], false, true), s) };
}

/** The settings at expert TP `etp` (activations.ts ActivationSettings.expertTp, absent at 1). */
function atExpertTp(s: ActivationSettings, etp: number): ActivationSettings {
  const { expertTp: _probe, ...rest } = s;
  return etp > 1 ? { ...rest, expertTp: etp } : rest;
}

/** The roles of a stage's positions under settings `s`: offloaded or not, and the recompute policy the position runs under. */
function positionRoles(s: ActivationSettings, positions: number): { roleAt: Int32Array; representative: number[] } {
  const roles = new Map<string, number>();
  const representative: number[] = [];
  const roleAt = new Int32Array(positions);
  for (let p = 0; p < positions; p++) {
    // layerSettings changes the recompute policy only.
    const key = `${isOffloadedPosition(s, p)}/${layerSettings(s, p).recompute}`;
    let r = roles.get(key);
    if (r === undefined) {
      r = representative.length;
      roles.set(key, r);
      representative.push(p);
    }
    roleAt[p] = r;
  }
  return { roleAt, representative };
}

export function activationPieces(base: RunConfig, g: ActivationKey, edges: ActivationEdgePieces): ActivationPieces {
  const probe = engineActivationSettings(activationProbe(base, g, 1));
  const m = base.model;
  const kinds = layerKindsOf(m);
  const { roleAt, representative: rolePositions } = positionRoles(probe, Math.max(1, m.layers));
  const K = kinds.count;
  // As stageActivationBytes: a layer keeps its position's policy; keeping everything drops the policy; an offloaded layer keeps nothing on the GPU.
  const at = (etp: number) => {
    const s = atExpertTp(probe, etp);
    const all = { ...s, recompute: 'none' as Recompute };
    const kept = new Float64Array(rolePositions.length * K);
    const keptAll = new Float64Array(rolePositions.length * K);
    const working = new Float64Array(rolePositions.length * K);
    rolePositions.forEach((position, r) => {
      const layer = layerSettings(s, position);
      const offloaded = isOffloadedPosition(s, position);
      kinds.representative.forEach((i, k) => {
        kept[r * K + k] = offloaded ? 0 : activationBytesPerLayer(m, i, layer);
        keptAll[r * K + k] = offloaded ? 0 : activationBytesPerLayer(m, i, all);
        working[r * K + k] = recomputeWorkingSetBytes(m, i, layer);
      });
    });
    const mtp = m.mtpLayers > 0 ? m.mtpLayers * activationBytesPerLayer(m, mtpLayerIndex(m), s) : 0;
    return { kept, keptAll, working, mtp };
  };
  const one = at(1);
  // Expert TP reaches MoE layers only (activations.ts expertInputGather): a dense model's figures do not move with it.
  const two = m.moe ? at(2) : one;
  const less = (a: Float64Array, b: Float64Array) => a.map((v, i) => v - (b[i] ?? 0));
  return {
    kinds: K,
    roles: rolePositions.length,
    roleAt,
    kept: one.kept,
    keptAll: one.keptAll,
    working: one.working,
    keptPerEtp: less(two.kept, one.kept),
    keptAllPerEtp: less(two.keptAll, one.keptAll),
    workingPerEtp: less(two.working, one.working),
    outputEdgePerEtp: two.mtp - one.mtp,
    edges,
  };
}

const atExpertTpCache = new WeakMap<ActivationPieces, Map<number, ActivationPieces>>();

/** A group's activation pieces at its expert TP (structure/params.ts expertTensorParallel), formed once per pieces and etp. */
export function activationPiecesAtExpertTp(a: ActivationPieces, etp: number): ActivationPieces {
  if (etp === 1) return a;
  let byEtp = atExpertTpCache.get(a);
  if (!byEtp) atExpertTpCache.set(a, (byEtp = new Map()));
  let pieces = byEtp.get(etp);
  if (!pieces) byEtp.set(etp, (pieces = withExpertTp(a, etp)));
  return pieces;
}

function withExpertTp(a: ActivationPieces, etp: number): ActivationPieces {
  const extra = etp - 1;
  // The output edges hold the MTP modules' layers (activations.ts mtpBytes).
  const edgeBytes = a.edges.edgeBytes.map((bytes, code) => ((code & 2) !== 0 ? bytes + extra * a.outputEdgePerEtp : bytes));
  const plus = (v: Float64Array, per: Float64Array) => v.map((x, i) => x + extra * (per[i] ?? 0));
  return {
    ...a,
    edges: { ...a.edges, edgeBytes },
    kept: plus(a.kept, a.keptPerEtp),
    keptAll: plus(a.keptAll, a.keptAllPerEtp),
    working: plus(a.working, a.workingPerEtp),
  };
}

// ---- Parameters, ZeRO and data-parallel groups of one grid (gpus, tp, cp, pp, dp, ep) ----

export interface GridPieces {
  readonly layerDense: GpuParameters;
  readonly layerMoe: GpuParameters;
  /** A fine-tune's adapters (ParameterPieces.adapter); null for full training. */
  readonly adapter: AdapterPieces | null;
  /** Parameters of the pipeline edges on one GPU, by edge code. */
  readonly edgeDense: Float64Array;
  readonly edgeExpert: Float64Array;
  /** ZeRO shards over these (memory.ts): dense dp·cp, experts the expert data-parallel group. */
  readonly denseShards: number;
  readonly expertShards: number;
  /** Gradient synchronisation groups (comm.ts parallelGroups). */
  readonly denseSyncRanks: number;
  readonly denseSyncLink: Link;
  readonly expertSyncRanks: number;
  readonly expertSyncLink: Link;
  /** Per state combo: model-state bytes per dense and per expert parameter, optimizer-step seconds per parameter. */
  readonly stateBytesPerDense: Float64Array;
  readonly stateBytesPerExpert: Float64Array;
  /** The gradients' part of stateBytesPer*: what a step that frees them before forward holds only beyond the activations (memory.ts gradientBytesAtPeak). */
  readonly gradBytesPerDense: Float64Array;
  readonly gradBytesPerExpert: Float64Array;
  /** Optimizer seconds per dense parameter on a GPU, and per routed-expert one (time/optimizer.ts: sharded over different groups). */
  readonly optimizerSecondsPerParameter: Float64Array;
  readonly optimizerSecondsPerExpertParameter: Float64Array;
  /** Per state combo, 1 where DeepSpeed ZeRO-3's gather-stream cache applies (memory/zero3-gather-cache.ts zero3GatherCacheApplies). */
  readonly gatherCache: Float64Array;
}

/** Edge parameters = a stage's parameters less its layers', from one- and two-stage pipelines. */
function edgeParameters(
  m: ModelConfig,
  p: ParallelConfig,
  dense: GpuParameters,
  moe: GpuParameters,
): { dense: Float64Array; expert: Float64Array } {
  const edgeDense = new Float64Array(4);
  const edgeExpert = new Float64Array(4);
  for (const pp of [1, 2]) {
    const layout = pipelineLayout(m, { ...p, pp, vpp: 1, schedule: '1f1b' });
    const params = stageGpuParameters(m, { ...p, pp, vpp: 1, schedule: '1f1b' });
    layout.forEach((stage, i) => {
      const moeLayers = stage.layers.reduce((n, l) => n + (isMoeLayer(m, l) ? 1 : 0), 0);
      const denseLayers = stage.layers.length - moeLayers;
      const own = params[i] ?? NO_PARAMETERS;
      const code = edgeCode(stage);
      edgeDense[code] = own.dense - (denseLayers * dense.dense + moeLayers * moe.dense);
      edgeExpert[code] = own.expert - (denseLayers * dense.expert + moeLayers * moe.expert);
    });
  }
  return { dense: edgeDense, expert: edgeExpert };
}

/**
 * A fine-tune's per-layer figures (training.adapter, memory/adapter.ts), by the same split as the base's: one dense and one
 * MoE layer's adapted base weights and trainable adapters on one GPU (adapterLayerParameters: the engine tells layers apart
 * by dense or MoE only), and each layer kind's largest adapted matrix (QLoRA's dequantisation buffer). The embedding, the
 * output layer and the MTP modules carry no adapter.
 */
export interface AdapterPieces {
  readonly adaptedDense: GpuParameters;
  readonly adaptedMoe: GpuParameters;
  readonly adapterDense: GpuParameters;
  readonly adapterMoe: GpuParameters;
  /** The frozen base's bytes of one dense and one MoE layer on one GPU, by data-parallel group (frozenBytes: NF4 where QLoRA adapts). */
  readonly frozenDense: GpuParameters;
  readonly frozenMoe: GpuParameters;
  /** The same of the pipeline edges, by edge code (16-bit: no adapter sits on them). */
  readonly frozenEdgeDense: Float64Array;
  readonly frozenEdgeExpert: Float64Array;
  /** Per layer kind (layerKindsOf): its largest adapted matrix on one GPU, parameters. */
  readonly largestMatrix: Float64Array;
}

/** Parameters per layer kind and of the pipeline edges: they depend on tp and on how experts split (ep × etp) only. */
export interface ParameterPieces {
  readonly layerDense: GpuParameters;
  readonly layerMoe: GpuParameters;
  readonly edgeDense: Float64Array;
  readonly edgeExpert: Float64Array;
  /** A fine-tune's adapters; null for full training. */
  readonly adapter: AdapterPieces | null;
}

/** The key parameterPieces depends on. */
export function parameterKey(base: RunConfig, g: Pick<LayoutGroup, 'tp' | 'dp' | 'cp' | 'ep'>): string {
  return `${g.tp},${g.ep},${expertTensorParallel({ ...g, ...explicitEtp(base) })}`;
}

export function parameterPieces(base: RunConfig, g: Pick<LayoutGroup, 'tp' | 'dp' | 'cp' | 'ep'>): ParameterPieces {
  const m = base.model;
  const p = parallelOf({ tp: g.tp, cp: g.cp, dp: g.dp, ep: g.ep, ...explicitEtp(base) });
  const kinds = layerKinds(m);
  const layerDense = kinds.dense >= 0 ? layerGpuParameters(m, kinds.dense, p) : NO_PARAMETERS;
  const layerMoe = kinds.moe >= 0 ? layerGpuParameters(m, kinds.moe, p) : NO_PARAMETERS;
  const edges = edgeParameters(m, p, layerDense, layerMoe);
  const adapter = adapterPieces(base, p, { layerDense, layerMoe, edgeDense: edges.dense, edgeExpert: edges.expert });
  return { layerDense, layerMoe, edgeDense: edges.dense, edgeExpert: edges.expert, adapter };
}

function adapterPieces(base: RunConfig, p: ParallelConfig, own: Omit<ParameterPieces, 'adapter'>): AdapterPieces | null {
  const adapter = base.training.adapter;
  if (!adapter) return null;
  const m = base.model;
  const kinds = layerKinds(m);
  const layer = (i: number) => (i >= 0 ? adapterLayerParameters(m, i, p, adapter) : { adaptedBase: NO_PARAMETERS, adapter: NO_PARAMETERS });
  const dense = layer(kinds.dense);
  const moe = layer(kinds.moe);
  const edges = [0, 1, 2, 3].map((code) =>
    frozenBytes(base, adapter, { dense: own.edgeDense[code] ?? 0, expert: own.edgeExpert[code] ?? 0 }, NO_PARAMETERS),
  );
  return {
    adaptedDense: dense.adaptedBase,
    adaptedMoe: moe.adaptedBase,
    adapterDense: dense.adapter,
    adapterMoe: moe.adapter,
    frozenDense: frozenBytes(base, adapter, own.layerDense, dense.adaptedBase),
    frozenMoe: frozenBytes(base, adapter, own.layerMoe, moe.adaptedBase),
    frozenEdgeDense: Float64Array.from(edges, (e) => e.dense),
    frozenEdgeExpert: Float64Array.from(edges, (e) => e.expert),
    largestMatrix: Float64Array.from(layerKindsOf(m).representative, (i) => largestAdaptedMatrixOfLayer(m, i, p, adapter)),
  };
}

export function gridPieces(base: RunConfig, g: LayoutGroup, parameters: ParameterPieces): GridPieces {
  const p = parallelOf({ tp: g.tp, cp: g.cp, pp: g.pp, dp: g.dp, ep: g.ep, ...explicitEtp(base) });
  const { layerDense, layerMoe } = parameters;
  const edges = { dense: parameters.edgeDense, expert: parameters.edgeExpert };
  const c = layoutConfig(base, { gpus: g.gpus, parallel: p, microBatch: g.microBatch, recompute: g.recompute, offload: NO_OFFLOAD });
  const groups = parallelGroups(c);
  // The configuration of each state combo, built once for every figure below.
  const configs = g.combos.map((k) =>
    layoutConfig(base, {
      gpus: g.gpus,
      parallel: { ...p, zero: k.zero },
      microBatch: g.microBatch,
      recompute: g.recompute,
      offload: k.offload,
    }),
  );
  const perCombo = (f: (k: StateCombo, c: RunConfig) => number) => Float64Array.from(g.combos, (k, i) => f(k, configs[i] as RunConfig));
  const stateTotal = (s: { parameters: number; gradients: number; optimizer: number }) => s.parameters + s.gradients + s.optimizer;
  const denseStates = configs.map((ck) => modelStateBytes(ck, { dense: 1, expert: 0 }));
  const expertStates = configs.map((ck) => modelStateBytes(ck, { dense: 0, expert: 1 }));
  return {
    layerDense,
    layerMoe,
    adapter: parameters.adapter,
    edgeDense: edges.dense,
    edgeExpert: edges.expert,
    denseShards: denseDataParallel(p),
    expertShards: expertDataParallel(p),
    denseSyncRanks: groups.dp.ranks,
    denseSyncLink: groupLink(c.cluster, groups.dp, 'ring'),
    expertSyncRanks: groups.expertDp.ranks,
    expertSyncLink: groupLink(c.cluster, groups.expertDp, 'ring'),
    stateBytesPerDense: Float64Array.from(denseStates, stateTotal),
    stateBytesPerExpert: Float64Array.from(expertStates, stateTotal),
    gradBytesPerDense: Float64Array.from(denseStates, (st) => st.gradients),
    gradBytesPerExpert: Float64Array.from(expertStates, (st) => st.gradients),
    optimizerSecondsPerParameter: perCombo((_, ck) => optimizerStepSeconds(ck, { dense: 1, expert: 0 })),
    optimizerSecondsPerExpertParameter: perCombo((_, ck) => optimizerStepSeconds(ck, { dense: 0, expert: 1 })),
    gatherCache: perCombo((_, ck) => (zero3GatherCacheApplies(ck) ? 1 : 0)),
  };
}

// The search's hot path: a layout's per-GPU memory and step time from the pieces of
// pieces.ts, without allocating in the innermost loop. It owns no formula: every
// combination is the engine's own function over plain numbers —
//   memory/activations.ts peakActivationBytes (the min of keeping and recomputing);
//   memory/memory.ts gatheredBeyondShardBytes and stageTotalBytes (the "other" terms);
//   memory/adapter.ts frozenOnGpuBytes, frozenGatherBytesPerParameter and
//   adapterStageTotalBytes (a fine-tune's frozen base, from pieces.ts's frozenBytes per
//   layer, beside its adapters' states, which take full training's per-parameter rules);
//   time/comm.ts dataParallelSyncParts (gradient and weight synchronisation per ZeRO stage);
//   time/step.ts exposedDataParallelSeconds; schedule/closed-form.ts pipelineTimeFactor and
//   pipelineBoundarySeconds (the closed-form step, as stepTime(c, 0) times it).
// What stays here is the search's own: caching per level and the affine fits of the
// synchronisation time. evaluate.test.ts checks the result against estimateConfig on
// random layouts. Levels: setGroup (degrees but the shape and ZeRO/offload), setShape
// (the pipeline schedule: stage candidates), then memoryBytes(k) / stepSeconds(k) per
// state combo k.

import { microBatchesInFlight, peakActivationBytes } from '../memory/index.ts';
import {
  adapterStageTotalBytes,
  allocatorReserveFraction,
  cacheWithinCapacity,
  deviceTerms,
  deviceTermsTotal,
  fp8GatheredLayerWeightBytes,
  gatherCacheBytes,
  fp8WeightCacheBytesPerParameter,
  frozenGatherBytesPerParameter,
  frozenOnGpuBytes,
  fsdpQuantizedLayerWeightBytes,
  gatheredBeyondShardBytes,
  gradientBytesAtPeak,
  stageTotalBytes,
} from '../memory/index.ts';
import { calibration, ZERO3_GATHERED_LAYERS, ZERO_UNSHARDED_GRADIENT_LAYERS } from '../calibration.ts';
import { expertTensorParallel, isMoeLayer } from '../structure/index.ts';
import { pipelineBoundarySeconds, pipelineTimeFactor } from '../schedule/index.ts';
import { dataParallelSyncParts, type Link } from '../time/index.ts';
import type { QuantizedLayerWeightBytes } from '../memory/index.ts';
import {
  activationPiecesAtExpertTp,
  layerKindsOf,
  type ActivationPieces,
  type AdapterPieces,
  type LayerKinds,
  type GridPieces,
  type LayerTimePieces,
  type StageCandidates,
} from './pieces.ts';
import type { LayoutGroup, PipelineShape } from './space.ts';
import { exposedDataParallelSeconds } from '../time/index.ts';
import type { AdapterConfig, GpuArchitecture, RunConfig, ZeroStage } from '../input/index.ts';
import { frameworkProfile, GiB, GRAD_BYTES, WEIGHT_BYTES } from '../input/index.ts';

/** Probe points for the affine fits: parameter counts of the size the search meets, far apart. */
const PROBE_PARAMETERS = [1e9, 2e9] as const;

/** Writes slope and intercept of f(p) = slope·p + intercept (for p > 0) at out[at], out[at + 1]. */
function affine(out: Float64Array, at: number, f: (parameters: number) => number): void {
  const [p1, p2] = PROBE_PARAMETERS;
  const f1 = f(p1);
  const slope = (f(p2) - f1) / (p2 - p1);
  out[at] = slope;
  out[at + 1] = f1 - slope * p1;
}

/**
 * Seconds of an affine synchronisation fit over `parameters`, `layers` of them the layers' weights at `layerSlope`
 * (time/comm.ts gatheredWeightBytesPerParameter), the rest at `slope`; none without parameters.
 */
function synced(parameters: number, layers: number, slope: number, layerSlope: number, intercept: number): number {
  if (parameters <= 0) return 0;
  const l = Math.min(Math.max(0, layers), parameters);
  return (parameters - l) * slope + l * layerSlope + intercept;
}

/**
 * A fine-tune's frozen base on a GPU holding nd dense and nm MoE layers and the edges `edge`, dense and expert bytes: the
 * per-layer and per-edge frozenBytes of pieces.ts summed as the engine's stage sums its layers.
 */
function adapterFrozenBytes(a: AdapterPieces, nd: number, nm: number, edge: number): { dense: number; expert: number } {
  return {
    dense: nd * a.frozenDense.dense + nm * a.frozenMoe.dense + (a.frozenEdgeDense[edge] ?? 0),
    expert: nd * a.frozenDense.expert + nm * a.frozenMoe.expert + (a.frozenEdgeExpert[edge] ?? 0),
  };
}

function minOf(values: Float64Array): number {
  let least = Infinity;
  for (const v of values) if (v < least) least = v;
  return least === Infinity ? 0 : least;
}

export interface GroupPieces {
  readonly time: LayerTimePieces;
  readonly activation: ActivationPieces;
  readonly grid: GridPieces;
  readonly pipelineMessage: { readonly intercept: number; readonly slope: number };
}

interface FirstStageTable {
  readonly denseLayers: Float64Array;
  readonly moeLayers: Float64Array;
  /** Layers of each kind on the first stage of shape i, at i · kinds + kind. */
  readonly kindLayers: Float64Array;
  readonly edge: Int32Array;
  readonly inFlight: Float64Array;
  leastTimeFactor: number;
}

const NO_LAYER = { dense: 0, expert: 0 } as const;

interface LayerActivations {
  kept: number;
  keptAll: number;
  working: number;
}

/**
 * Candidate c's layers' saved bytes per micro-batch of one sequence, kept under the policy and keeping everything, and the
 * largest recompute working set (memory/activations.ts stageActivationBytes): by kind where every position plays one role,
 * else layer by layer in stage order.
 */
function stageLayerActivations(a: ActivationPieces, stages: StageCandidates, c: number, out: LayerActivations): void {
  const K = a.kinds;
  let kept = 0;
  let keptAll = 0;
  let working = 0;
  if (a.roles === 1) {
    for (let k = 0; k < K; k++) {
      const n = stages.kindLayers[c * K + k] ?? 0;
      if (n === 0) continue;
      kept += n * (a.kept[k] ?? 0);
      keptAll += n * (a.keptAll[k] ?? 0);
      working = Math.max(working, a.working[k] ?? 0);
    }
  } else {
    const start = stages.layerStart[c] ?? 0;
    const end = stages.layerStart[c + 1] ?? start;
    for (let j = start; j < end; j++) {
      const at = (a.roleAt[j - start] ?? 0) * K + (stages.layerKind[j] ?? 0);
      kept += a.kept[at] ?? 0;
      keptAll += a.keptAll[at] ?? 0;
      working = Math.max(working, a.working[at] ?? 0);
    }
  }
  out.kept = kept;
  out.keptAll = keptAll;
  out.working = working;
}

export class LayoutEvaluator {
  private readonly firstStageTables = new Map<readonly PipelineShape[], Map<number, FirstStageTable>>();
  private readonly weightBytes: number;
  /** vocab · hidden: the embedding or output matrix before the tensor-parallel split (memory.ts edgeUnitParameters). */
  private readonly vocabMatrix: number;
  private readonly gradBytes: number;
  /** Transformer Engine's weight cache per layer weight, by ZeRO stage (memory/fp8-weight-cache.ts). */
  private readonly weightCacheBytes: readonly number[];
  /** Megatron-FSDP's fp8 layer-weight bytes at ZeRO-3 without parameter offload, null where 16-bit (memory/fp8-weight-cache.ts). */
  private readonly quantized: QuantizedLayerWeightBytes | null;
  private readonly memoryScale: number;
  /** The caching allocator's reserve fraction under the framework (memory.ts allocatorReserveFraction). */
  private readonly reserveFraction: number;
  /** One GPU's memory, bytes: what DeepSpeed's gather-stream cache may fill (zero3-gather-cache.ts cacheWithinCapacity). */
  private readonly gpuBytes: number;
  /** What device.ts's terms read of the document: a mixture of experts, the document's expert TP, the GPU's name. */
  private readonly deviceOf: { readonly moe: boolean; readonly etp: number | null; readonly architecture: GpuArchitecture };
  /** The group's device-side bytes outside the allocator (memory/device.ts), before the overhead scale. */
  private deviceBytes = 0;
  private readonly denseLayerCount: number;
  private readonly moeLayerCount: number;
  /** The main stack's layer kinds (pieces.ts layerKindsOf). */
  private readonly kinds: LayerKinds;
  /** Per kind, the group's least kept bytes of one layer over the positions' roles. */
  private readonly leastKept: Float64Array;
  /** A fine-tune's adapter (memory/adapter.ts), null for full training. */
  private readonly adapter: AdapterConfig | null;
  /** A fine-tune: the least share of the frozen base's dense and expert bytes on a GPU over the group's combos (0 offloaded, 1/group at ZeRO-3, else 1). */
  private leastFrozenDense = 1;
  private leastFrozenExpert = 1;

  private group: LayoutGroup | null = null;
  private pieces: GroupPieces | null = null;
  /** The group's activation pieces at its expert TP (pieces.ts activationPiecesAtExpertTp). */
  private groupActivation: ActivationPieces | null = null;
  private microBatches = 1;
  /** The framework frees gradients before the step's forward (memory.ts gradientsFreedAtActivationPeak, with one micro-batch per step). */
  private readonly freesGradients: boolean;
  private gradientsFreed = false;
  private ppSeconds = 0;
  private syncReady = false;
  /** Sequences per micro-batch: the activation pieces are per sequence. */
  private sequences = 1;

  /** Stage candidates of the current shape. */
  private count = 0;
  private readonly work: Float64Array;
  private readonly dense: Float64Array;
  private readonly expert: Float64Array;
  private readonly activation: Float64Array;
  /** Parameters whose gradients are synchronised and optimizer states updated: the stage's, or a fine-tune's adapters only. */
  private readonly trainedDense: Float64Array;
  private readonly trainedExpert: Float64Array;
  /** A fine-tune's frozen base on the candidate's GPU before ZeRO-3 sharding, dense and expert bytes (memory/adapter.ts frozenBytes). */
  private readonly frozenDense: Float64Array;
  private readonly frozenExpert: Float64Array;
  /** QLoRA's 16-bit copy of the candidate's largest adapted matrix (memory/adapter.ts adapterStageMemory's dequantBuffer). */
  private readonly dequantBuffer: Float64Array;
  /** Weights of the candidate's transformer layers on one GPU (what the weight cache holds a copy of). */
  private readonly layerWeights: Float64Array;
  /** What Megatron-FSDP's fp8 buffer takes off the ZeRO-3 weight shard (fp8-weight-cache.ts fsdpQuantizedShardSavingBytes). */
  private readonly quantizedSaving: Float64Array;
  /** The output stage's loss reserve (memory.ts lossReserveBytes), 0 on the others. */
  private readonly lossReserve: Float64Array;
  private readonly gathered: Float64Array;
  private readonly unsharded: Float64Array;
  /** The same buffers when the shard lives on the host (offload): the whole layer is extra (memory.ts gatheredBeyondShard). */
  private readonly gatheredFull: Float64Array;
  private readonly unshardedFull: Float64Array;
  private readonly zero3Exposed: Float64Array;
  /** Per ZeRO stage z, candidate c at z·capacity + c. */
  private readonly dpSync: Float64Array;
  private readonly capacity: number;
  private timeFactor = 1;
  /** Scratch for one candidate's layer activations (setShape). */
  private readonly layerActivations: LayerActivations = { kept: 0, keptAll: 0, working: 0 };
  /** Per ZeRO stage z: dense slope, intercept, expert slope, intercept of the step's synchronisation seconds, at 4z. */
  private readonly syncCoefficients = new Float64Array(16);
  /** ZeRO-3's exposed per-micro-batch gathers: dense slope, intercept, expert slope, intercept. */
  private readonly gatherCoefficients = new Float64Array(4);
  /** The same fits with the layers' weights at their gathered bytes (time/comm.ts gatheredWeightBytesPerParameter). */
  private readonly syncLayerCoefficients = new Float64Array(16);
  private readonly gatherLayerCoefficients = new Float64Array(4);
  /** Per ZeRO stage: bytes a layer weight moves in the weight all-gather (memory/fp8-weight-cache.ts fp8GatheredLayerWeightBytes). */
  private readonly layerGatherBytes: readonly number[];

  constructor(base: RunConfig) {
    const m = base.model;
    this.adapter = base.training.adapter ?? null;
    this.weightBytes = WEIGHT_BYTES[base.training.precision];
    this.vocabMatrix = m.vocab * m.hidden;
    this.gradBytes = GRAD_BYTES[base.training.gradDtype];
    this.weightCacheBytes = ([0, 1, 2, 3] as const).map((z) => fp8WeightCacheBytesPerParameter(base, z));
    this.layerGatherBytes = ([0, 1, 2, 3] as const).map((z) => fp8GatheredLayerWeightBytes(base, z) ?? this.weightBytes);
    const onGpu = { ...base.training.offload, parameters: false };
    this.quantized = fsdpQuantizedLayerWeightBytes({ ...base, training: { ...base.training, offload: onGpu } }, 3);
    this.memoryScale = base.calibration.memoryOverheadScale;
    this.reserveFraction = allocatorReserveFraction(base);
    this.gpuBytes = base.cluster.gpu.memoryGiB * GiB;
    // A fine-tune's stage memory (memory/stages.ts adapterStageDetails) holds its adapters' gradients whole.
    this.freesGradients = !this.adapter && frameworkProfile(base.stack.framework).mechanisms.gradientsFreedBeforeForward;
    this.deviceOf = { moe: base.model.moe != null, etp: base.parallel.etp ?? null, architecture: base.cluster.gpu.architecture };
    let moe = 0;
    for (let i = 0; i < m.layers; i++) if (isMoeLayer(m, i)) moe++;
    this.moeLayerCount = moe;
    this.denseLayerCount = m.layers - moe;
    this.kinds = layerKindsOf(m);
    this.leastKept = new Float64Array(this.kinds.count);
    // At most one candidate per stage, and a pipeline has at most layers + 2 stages (consistency.ts ppProblem).
    this.capacity = m.layers + 2;
    const n = this.capacity;
    this.work = new Float64Array(n);
    this.dense = new Float64Array(n);
    this.expert = new Float64Array(n);
    this.activation = new Float64Array(n);
    this.layerWeights = new Float64Array(n);
    this.trainedDense = new Float64Array(n);
    this.trainedExpert = new Float64Array(n);
    this.frozenDense = new Float64Array(n);
    this.frozenExpert = new Float64Array(n);
    this.dequantBuffer = new Float64Array(n);
    this.quantizedSaving = new Float64Array(n);
    this.lossReserve = new Float64Array(n);
    this.gathered = new Float64Array(n);
    this.unsharded = new Float64Array(n);
    this.gatheredFull = new Float64Array(n);
    this.unshardedFull = new Float64Array(n);
    this.zero3Exposed = new Float64Array(n);
    this.dpSync = new Float64Array(4 * n);
  }

  setGroup(group: LayoutGroup, pieces: GroupPieces): void {
    this.group = group;
    this.pieces = pieces;
    this.groupActivation = activationPiecesAtExpertTp(
      pieces.activation,
      expertTensorParallel({ tp: group.tp, dp: group.dp, cp: group.cp, ep: group.ep, etp: this.deviceOf.etp }),
    );
    // Each kind's least kept bytes over the positions' roles (an offloaded layer keeps none on the GPU), for the lower bounds.
    const a = this.groupActivation;
    const K = this.kinds.count;
    this.leastKept.fill(Infinity);
    for (let r = 0; r < a.roles; r++)
      for (let k = 0; k < K; k++) this.leastKept[k] = Math.min(this.leastKept[k] ?? Infinity, a.kept[r * K + k] ?? 0);
    this.microBatches = group.microBatches;
    this.gradientsFreed = this.freesGradients && group.microBatches === 1;
    if (this.adapter) {
      const { denseShards, expertShards } = pieces.grid;
      this.leastFrozenDense = 1;
      this.leastFrozenExpert = 1;
      for (const k of group.combos) {
        this.leastFrozenDense = Math.min(this.leastFrozenDense, frozenOnGpuBytes(1, 0, k.zero, k.offload.parameters, denseShards, 1));
        this.leastFrozenExpert = Math.min(this.leastFrozenExpert, frozenOnGpuBytes(0, 1, k.zero, k.offload.parameters, 1, expertShards));
      }
    }
    const { moe, etp, architecture } = this.deviceOf;
    this.deviceBytes = deviceTermsTotal(
      deviceTerms({ tp: group.tp, pp: group.pp, dp: group.dp, cp: group.cp, ep: group.ep, etp }, moe, architecture),
    );
    // time.ts: the first forward and the last backward each cross every stage boundary once.
    const message = pieces.pipelineMessage;
    this.ppSeconds = pipelineBoundarySeconds(group.pp, message.intercept + message.slope * group.microBatch);
    this.sequences = group.microBatch;
    this.syncReady = false;
  }

  /** Synchronisation time is affine in the parameters synchronised (alpha-beta model): two probes give slope and intercept. */
  private prepareSync(): void {
    const pieces = this.pieces;
    if (!pieces) return;
    this.syncReady = true;
    const { grid } = pieces;
    const m = this.microBatches;
    const sync = (zero: ZeroStage, parameters: number, ranks: number, link: Link, weightBytes: number) =>
      dataParallelSyncParts(zero, parameters, ranks, link, this.gradBytes, weightBytes, m);
    const exposed = calibration().exposed.zero3Gather;
    // Whole-stage fits at the 16-bit bytes and layer-weight fits at the gathered bytes: a stage's seconds are the first's
    // slope over its embedding and output weights, the second's over its layers' weights, plus the shared intercept.
    const fits = [
      [this.syncCoefficients, this.gatherCoefficients, (_z: ZeroStage) => this.weightBytes],
      [this.syncLayerCoefficients, this.gatherLayerCoefficients, (z: ZeroStage) => this.layerGatherBytes[z] ?? this.weightBytes],
    ] as const;
    for (const [syncOut, gatherOut, bytes] of fits) {
      for (const z of [0, 1, 2, 3] as const) {
        const w = bytes(z);
        affine(syncOut, 4 * z, (p) => sync(z, p, grid.denseSyncRanks, grid.denseSyncLink, w).step.seconds);
        affine(syncOut, 4 * z + 2, (p) => sync(z, p, grid.expertSyncRanks, grid.expertSyncLink, w).step.seconds);
      }
      const w3 = bytes(3);
      affine(gatherOut, 0, (p) => exposed * sync(3, p, grid.denseSyncRanks, grid.denseSyncLink, w3).perMicroBatch.seconds);
      affine(gatherOut, 2, (p) => exposed * sync(3, p, grid.expertSyncRanks, grid.expertSyncLink, w3).perMicroBatch.seconds);
    }
  }

  /**
   * Lower bounds on the step time and on the most loaded GPU's memory over every layout of
   * the group (all its pipeline shapes and ZeRO/offload combos).
   * Time: the busiest device's work per micro-batch is at least the model's over pp (twice
   * that for DualPipe, whose devices hold two chunks each), times the smallest bubble factor
   * of the shapes; data-parallel exposure, optimizer and ZeRO-3 gathers only add.
   * Memory: the larger of the mean over stages (every layer's weights and saved activations
   * sit on some stage, with at least one micro-batch in flight) and the first stage of the
   * shape where that stage is lightest; both with model states at the fullest sharding the
   * group's combos allow and "other" at least runtime and allocator reserve. A fine-tune's
   * frozen base is held apart (no allocator reserve grows with it: adapterStageTotalBytes), at
   * its least share over the combos; the device-used bytes are affine in the rest, so the
   * mean of the stages' bounds is the bound of the means.
   */
  groupLowerBounds(
    shapes: readonly PipelineShape[],
    stagesOf: (shape: PipelineShape) => StageCandidates,
  ): { readonly step: number; readonly memory: number } {
    const group = this.group;
    const pieces = this.pieces;
    if (!group || !pieces) return { step: 0, memory: 0 };
    const { time, grid } = pieces;
    const a = this.groupActivation ?? pieces.activation;
    const m = this.microBatches;
    const b = this.sequences;
    const { perDense, perExpert } = this.leastStateBytes(grid);
    const table = this.firstStageTable(shapes, stagesOf, m);
    const K = this.kinds.count;
    const leastKept = this.leastKept;
    const adapter = this.adapter !== null;
    let firstStage = Infinity;
    for (let i = 0; i < shapes.length; i++) {
      const nd = table.denseLayers[i] ?? 0;
      const nm = table.moeLayers[i] ?? 0;
      const edge = table.edge[i] ?? 0;
      let layersKept = 0;
      for (let k = 0; k < K; k++) layersKept += (table.kindLayers[i * K + k] ?? 0) * (leastKept[k] ?? 0);
      const kept = (table.inFlight[i] ?? 1) * b * (layersKept + (a.edges.edgeBytes[edge] ?? 0));
      if (adapter) {
        const least = this.adapterStateBound(grid, nd, nm, edge, perDense, perExpert);
        firstStage = Math.min(firstStage, this.adapterTotalLowerBound(least.frozen, least.states + kept));
        continue;
      }
      const d = nd * grid.layerDense.dense + nm * grid.layerMoe.dense + (grid.edgeDense[edge] ?? 0);
      const e = nd * grid.layerDense.expert + nm * grid.layerMoe.expert + (grid.edgeExpert[edge] ?? 0);
      firstStage = Math.min(firstStage, perDense * d + perExpert * e + kept);
    }
    let modelWork = time.output;
    let modelKept = 0;
    for (let k = 0; k < K; k++) {
      const layers = this.kinds.layers[k] ?? 0;
      modelWork += layers * Math.min(time.kinds[k] ?? 0, time.kindsDualPipe[k] ?? 0);
      modelKept += layers * (leastKept[k] ?? 0);
    }
    const step = (m * modelWork * table.leastTimeFactor) / group.pp + this.ppSeconds;
    if (adapter) {
      // The total is affine in the churning bytes: the mean over the stages of each stage's bound is the bound of the means.
      const model = this.adapterStateBound(grid, this.denseLayerCount, this.moeLayerCount, 0, perDense, perExpert);
      const mean = this.adapterTotalLowerBound(model.frozen / group.pp, (model.states + b * modelKept) / group.pp);
      return { step, memory: Math.max(mean, firstStage === Infinity ? 0 : firstStage) };
    }
    const states =
      perDense * (this.denseLayerCount * grid.layerDense.dense + this.moeLayerCount * grid.layerMoe.dense) +
      perExpert * (this.denseLayerCount * grid.layerDense.expert + this.moeLayerCount * grid.layerMoe.expert);
    const mean = (states + b * modelKept) / group.pp;
    return { step, memory: this.allocatedToTotalLowerBound(Math.max(mean, firstStage === Infinity ? 0 : firstStage)) };
  }

  /** Per shape of a list, for m micro-batches: the first stage's layers, edges and micro-batches in flight; the least bubble factor. */
  private firstStageTable(
    shapes: readonly PipelineShape[],
    stagesOf: (shape: PipelineShape) => StageCandidates,
    m: number,
  ): FirstStageTable {
    let byCount = this.firstStageTables.get(shapes);
    if (!byCount) this.firstStageTables.set(shapes, (byCount = new Map()));
    let table = byCount.get(m);
    if (table) return table;
    const n = shapes.length;
    table = {
      denseLayers: new Float64Array(n),
      moeLayers: new Float64Array(n),
      kindLayers: new Float64Array(n * this.kinds.count),
      edge: new Int32Array(n),
      inFlight: new Float64Array(n),
      leastTimeFactor: n > 0 ? Infinity : 1,
    };
    for (let i = 0; i < n; i++) {
      const shape = shapes[i] as PipelineShape;
      const stages = stagesOf(shape);
      table.denseLayers[i] = stages.denseLayers[0] ?? 0;
      table.moeLayers[i] = stages.moeLayers[0] ?? 0;
      table.kindLayers.set(stages.kindLayers.subarray(0, this.kinds.count), i * this.kinds.count);
      table.edge[i] = stages.edge[0] ?? 0;
      table.inFlight[i] = microBatchesInFlight(shape, stages.stageIndex[0] ?? 0, m);
      // A DualPipe device holds two chunks: twice the model's work over pp.
      const factor = (shape.schedule === 'dualpipe' ? 2 : 1) * pipelineTimeFactor(shape.schedule, shape.pp, m, shape.vpp);
      table.leastTimeFactor = Math.min(table.leastTimeFactor, factor);
    }
    byCount.set(m, table);
    return table;
  }

  /**
   * The least state bytes per dense and per expert parameter over the group's combos; without the gradients when the step frees
   * them (their peak share is at least 0).
   */
  private leastStateBytes(grid: GridPieces): { perDense: number; perExpert: number } {
    if (!this.gradientsFreed) return { perDense: minOf(grid.stateBytesPerDense), perExpert: minOf(grid.stateBytesPerExpert) };
    const less = (states: Float64Array, grads: Float64Array) => minOf(states.map((v, k) => v - (grads[k] ?? 0)));
    return {
      perDense: less(grid.stateBytesPerDense, grid.gradBytesPerDense),
      perExpert: less(grid.stateBytesPerExpert, grid.gradBytesPerExpert),
    };
  }

  /**
   * A fine-tune's least frozen and adapter-state bytes on a GPU holding nd dense and nm MoE layers and the edges `edge` over
   * the group's combos: the frozen base at its least share (leastFrozenDense, leastFrozenExpert), the adapters' states at
   * the least bytes per parameter.
   */
  private adapterStateBound(
    grid: GridPieces,
    nd: number,
    nm: number,
    edge: number,
    perDense: number,
    perExpert: number,
  ): { frozen: number; states: number } {
    const a = grid.adapter;
    if (!a || !this.adapter) return { frozen: 0, states: 0 };
    const frozen = adapterFrozenBytes(a, nd, nm, edge);
    const trainedDense = nd * a.adapterDense.dense + nm * a.adapterMoe.dense;
    const trainedExpert = nd * a.adapterDense.expert + nm * a.adapterMoe.expert;
    return {
      frozen: this.leastFrozenDense * frozen.dense + this.leastFrozenExpert * frozen.expert,
      states: perDense * trainedDense + perExpert * trainedExpert,
    };
  }

  /** A fine-tune's device-used bytes with nothing gathered and nothing unsharded (adapterStageTotalBytes): a lower bound. */
  private adapterTotalLowerBound(frozen: number, churning: number): number {
    return adapterStageTotalBytes(frozen, churning, 0, 0, this.memoryScale, this.deviceBytes, this.reserveFraction, 0);
  }

  /** Nothing gathered and nothing unsharded: "other" is at least the runtime and the allocator's reserve. */
  private allocatedToTotalLowerBound(allocated: number): number {
    return stageTotalBytes(allocated, 0, 0, this.memoryScale, this.deviceBytes, this.reserveFraction);
  }

  /** Prepares the stage candidates of one pipeline shape. */
  setShape(shape: PipelineShape, stages: StageCandidates): void {
    const group = this.group;
    const pieces = this.pieces;
    if (!group || !pieces) return;
    if (!this.syncReady) this.prepareSync();
    const { time, grid } = pieces;
    const a = this.groupActivation ?? pieces.activation;
    const m = this.microBatches;
    const kindWork = shape.schedule === 'dualpipe' ? time.kindsDualPipe : time.kinds;
    const K = this.kinds.count;
    this.count = stages.count;
    this.timeFactor = pipelineTimeFactor(shape.schedule, shape.pp, m, shape.vpp);
    const denseBig = grid.layerDense.dense + grid.layerDense.expert;
    const moeBig = grid.layerMoe.dense + grid.layerMoe.expert;
    const cap = this.capacity;
    for (let c = 0; c < stages.count; c++) {
      const nd = stages.denseLayers[c] ?? 0;
      const nm = stages.moeLayers[c] ?? 0;
      const edge = stages.edge[c] ?? 0;
      const output = (edge & 2) !== 0;
      const d = nd * grid.layerDense.dense + nm * grid.layerMoe.dense + (grid.edgeDense[edge] ?? 0);
      const e = nd * grid.layerDense.expert + nm * grid.layerMoe.expert + (grid.edgeExpert[edge] ?? 0);
      this.dense[c] = d;
      this.expert[c] = e;
      this.layerWeights[c] = nd * denseBig + nm * moeBig;
      let work = 0;
      for (let k = 0; k < K; k++) work += (stages.kindLayers[c * K + k] ?? 0) * (kindWork[k] ?? 0);
      this.work[c] = work + (output ? time.output : 0);
      const x = microBatchesInFlight(shape, stages.stageIndex[c] ?? 0, m);
      const b = this.sequences;
      const layers = this.layerActivations;
      stageLayerActivations(a, stages, c, layers);
      this.activation[c] = peakActivationBytes(
        x,
        b * layers.kept,
        b * layers.keptAll,
        b * (a.edges.edgeBytes[edge] ?? 0),
        b * layers.working,
        output ? b * a.edges.lossBytes : 0,
      );
      this.lossReserve[c] = output ? b * a.edges.lossReserve : 0;
      // The stage's largest layer (memory.ts largestLayer): the gathered and unsharded buffers hold it.
      const largest = nm > 0 && (nd === 0 || moeBig > denseBig) ? grid.layerMoe : nd > 0 ? grid.layerDense : NO_LAYER;
      const ld = largest.dense;
      const le = largest.expert;
      const ds = grid.denseShards;
      const es = grid.expertShards;
      const edgeUnit = edge !== 0 ? this.vocabMatrix / (this.group?.tp ?? 1) : 0;
      // Megatron-FSDP's fp8 layer weights (memory.ts zero3GatheredWeightBytes, fp8-weight-cache.ts fsdpQuantizedShardSavingBytes).
      const q = this.quantized;
      const layerDense = nd * grid.layerDense.dense + nm * grid.layerMoe.dense;
      const layerExpert = nd * grid.layerDense.expert + nm * grid.layerMoe.expert;
      const ratio = q ? this.weightBytes / q.gathered : 1;
      this.quantizedSaving[c] = q ? (this.weightBytes - q.shard) * (layerDense / ds + layerExpert / es) : 0;
      const heldDense = q ? layerDense + (d - layerDense) * ratio : d;
      const gatheredBytes = q ? q.gathered : this.weightBytes;
      this.gathered[c] = gatheredBeyondShardBytes(
        ZERO3_GATHERED_LAYERS,
        ld,
        le,
        heldDense,
        e,
        ds,
        es,
        gatheredBytes,
        true,
        ratio * edgeUnit,
      );
      this.unsharded[c] = gatheredBeyondShardBytes(ZERO_UNSHARDED_GRADIENT_LAYERS, ld, le, d, e, ds, es, this.gradBytes, true);
      this.gatheredFull[c] = gatheredBeyondShardBytes(ZERO3_GATHERED_LAYERS, ld, le, d, e, ds, es, this.weightBytes, false, edgeUnit);
      this.unshardedFull[c] = gatheredBeyondShardBytes(ZERO_UNSHARDED_GRADIENT_LAYERS, ld, le, d, e, ds, es, this.gradBytes, false);
      this.trainedDense[c] = d;
      this.trainedExpert[c] = e;
      // The layers' weights move at their gathered bytes in the weight all-gather (time/comm.ts stageComm's layerWeights).
      let syncedLayerDense = layerDense;
      let syncedLayerExpert = layerExpert;
      if (grid.adapter && this.adapter) {
        this.setAdapterCandidate(c, grid, stages, { nd, nm, edge, d, e, ld, le, edgeUnit });
        // time/step.ts stageTimes: a fine-tune synchronises its adapters only, as whole-stage parameters (no layerWeights).
        syncedLayerDense = 0;
        syncedLayerExpert = 0;
      }
      const td = this.trainedDense[c] ?? 0;
      const te = this.trainedExpert[c] ?? 0;
      const sc = this.syncCoefficients;
      const sl = this.syncLayerCoefficients;
      for (let z = 0; z < 4; z++) {
        const denseSync = synced(td, syncedLayerDense, sc[4 * z] ?? 0, sl[4 * z] ?? 0, sc[4 * z + 1] ?? 0);
        const expertSync = synced(te, syncedLayerExpert, sc[4 * z + 2] ?? 0, sl[4 * z + 2] ?? 0, sc[4 * z + 3] ?? 0);
        this.dpSync[z * cap + c] = denseSync + expertSync;
      }
      const gc = this.gatherCoefficients;
      const gl = this.gatherLayerCoefficients;
      this.zero3Exposed[c] =
        synced(d, layerDense, gc[0] ?? 0, gl[0] ?? 0, gc[1] ?? 0) + synced(e, layerExpert, gc[2] ?? 0, gl[2] ?? 0, gc[3] ?? 0);
    }
  }

  /**
   * A fine-tune's candidate c (memory/adapter.ts adapterStageMemory): its adapters, the only parameters it trains; its frozen
   * base by dtype (frozenBytes); ZeRO-3's gathered frozen layers at the stage's mean frozen bytes per parameter; ZeRO-2/3's
   * unsharded gradients, the adapters' of one mean layer; QLoRA's dequantisation buffer of its largest adapted matrix.
   */
  private setAdapterCandidate(
    c: number,
    grid: GridPieces,
    stages: StageCandidates,
    s: { nd: number; nm: number; edge: number; d: number; e: number; ld: number; le: number; edgeUnit: number },
  ): void {
    const a = grid.adapter;
    const adapter = this.adapter;
    if (!a || !adapter) return;
    const { nd, nm, d, e } = s;
    const trainedDense = nd * a.adapterDense.dense + nm * a.adapterMoe.dense;
    const trainedExpert = nd * a.adapterDense.expert + nm * a.adapterMoe.expert;
    const frozen = adapterFrozenBytes(a, nd, nm, s.edge);
    this.trainedDense[c] = trainedDense;
    this.trainedExpert[c] = trainedExpert;
    this.frozenDense[c] = frozen.dense;
    this.frozenExpert[c] = frozen.expert;
    const ds = grid.denseShards;
    const es = grid.expertShards;
    const perParameter = frozenGatherBytesPerParameter(frozen.dense + frozen.expert, d + e, this.weightBytes);
    this.gathered[c] = gatheredBeyondShardBytes(ZERO3_GATHERED_LAYERS, s.ld, s.le, d, e, ds, es, perParameter, true, s.edgeUnit);
    this.gatheredFull[c] = gatheredBeyondShardBytes(ZERO3_GATHERED_LAYERS, s.ld, s.le, d, e, ds, es, perParameter, false, s.edgeUnit);
    const layers = Math.max(1, nd + nm);
    const meanDense = trainedDense / layers;
    const meanExpert = trainedExpert / layers;
    const g = this.gradBytes;
    const L = ZERO_UNSHARDED_GRADIENT_LAYERS;
    this.unsharded[c] = gatheredBeyondShardBytes(L, meanDense, meanExpert, trainedDense, trainedExpert, ds, es, g, true);
    this.unshardedFull[c] = gatheredBeyondShardBytes(L, meanDense, meanExpert, trainedDense, trainedExpert, ds, es, g, false);
    let largest = 0;
    if (adapter.method === 'qlora') {
      const K = this.kinds.count;
      for (let k = 0; k < K; k++) if ((stages.kindLayers[c * K + k] ?? 0) > 0) largest = Math.max(largest, a.largestMatrix[k] ?? 0);
    }
    this.dequantBuffer[c] = this.weightBytes * largest;
  }

  /** Lower bound on the step time over the shape's ZeRO/offload combos: ZeRO-3 gathers, data-parallel sync and optimizer only add. */
  shapeStepLowerBound(): number {
    let most = 0;
    for (let c = 0; c < this.count; c++) most = Math.max(most, this.work[c] ?? 0);
    return this.microBatches * most * this.timeFactor + this.ppSeconds;
  }

  /** Lower bound on the most loaded GPU's memory over the shape's combos: states at the fullest sharding, "other" at least runtime and reserve. */
  shapeMemoryLowerBound(): number {
    const grid = this.pieces?.grid;
    if (!grid) return 0;
    const { perDense, perExpert } = this.leastStateBytes(grid);
    let most = 0;
    if (this.adapter) {
      for (let c = 0; c < this.count; c++) {
        const frozen = this.leastFrozenDense * (this.frozenDense[c] ?? 0) + this.leastFrozenExpert * (this.frozenExpert[c] ?? 0);
        const states = perDense * (this.trainedDense[c] ?? 0) + perExpert * (this.trainedExpert[c] ?? 0);
        const churning = states + (this.activation[c] ?? 0) + (this.dequantBuffer[c] ?? 0);
        most = Math.max(most, this.adapterTotalLowerBound(frozen, churning));
      }
      return most;
    }
    for (let c = 0; c < this.count; c++) {
      // Less Megatron-FSDP's fp8 saving, which only ZeRO-3 has: still a bound under every combo.
      const states = perDense * (this.dense[c] ?? 0) + perExpert * (this.expert[c] ?? 0) - (this.quantizedSaving[c] ?? 0);
      most = Math.max(most, this.allocatedToTotalLowerBound(states + (this.activation[c] ?? 0)));
    }
    return most;
  }

  /** State combo k of the group, its ZeRO stage, and the grid's per-combo figures; null before a group is set. */
  private stateCombo(
    k: number,
  ): { readonly grid: GroupPieces['grid']; readonly combo: LayoutGroup['combos'][number] | undefined; readonly zero: ZeroStage } | null {
    const grid = this.pieces?.grid;
    const group = this.group;
    if (!grid || !group) return null;
    const combo = group.combos[k];
    return { grid, combo, zero: combo?.zero ?? 0 };
  }

  /** The most loaded GPU's bytes for state combo k (memory.ts stageMemoryDetails). */
  memoryBytes(k: number): number {
    const state = this.stateCombo(k);
    if (!state) return 0;
    const { grid, zero } = state;
    const offload = state.combo?.offload;
    const perDense = grid.stateBytesPerDense[k] ?? 0;
    const perExpert = grid.stateBytesPerExpert[k] ?? 0;
    const gradDense = this.gradientsFreed ? (grid.gradBytesPerDense[k] ?? 0) : 0;
    const gradExpert = this.gradientsFreed ? (grid.gradBytesPerExpert[k] ?? 0) : 0;
    if (this.adapter) return this.adapterMemoryBytes(perDense, perExpert, zero, offload?.parameters ?? false, offload?.optimizer ?? false);
    const weightCache = this.weightCacheBytes[zero] ?? 0;
    const gatherCache = (grid.gatherCache[k] ?? 0) !== 0;
    let most = 0;
    for (let c = 0; c < this.count; c++) {
      const grads = gradDense * (this.dense[c] ?? 0) + gradExpert * (this.expert[c] ?? 0);
      const activation = this.activation[c] ?? 0;
      const allocated =
        perDense * (this.dense[c] ?? 0) +
        perExpert * (this.expert[c] ?? 0) -
        grads +
        activation +
        gradientBytesAtPeak(grads, activation, this.gradientsFreed) +
        weightCache * (this.layerWeights[c] ?? 0) -
        (zero === 3 && !offload?.parameters ? (this.quantizedSaving[c] ?? 0) : 0);
      const gathered = zero >= 3 ? ((offload?.parameters ? this.gatheredFull[c] : this.gathered[c]) ?? 0) : 0;
      const unsharded = zero >= 2 ? ((offload?.optimizer ? this.unshardedFull[c] : this.unsharded[c]) ?? 0) : 0;
      const total = stageTotalBytes(
        allocated,
        gathered,
        unsharded,
        this.memoryScale,
        this.deviceBytes,
        this.reserveFraction,
        this.lossReserve[c] ?? 0,
      );
      const held = gatherCache ? this.gatherCacheHeld(c, gathered, total) : 0;
      if (total + held > most) most = total + held;
    }
    return most;
  }

  /**
   * A fine-tune's most loaded GPU (memory/stages.ts adapterStageDetails): the frozen base, the adapters' states at the
   * combo's bytes per parameter, activations, QLoRA's buffer and the gathered and unsharded buffers (no gather-stream cache:
   * memory/zero3-gather-cache.ts leaves fine-tunes out).
   */
  private adapterMemoryBytes(
    perDense: number,
    perExpert: number,
    zero: ZeroStage,
    offloadParameters: boolean,
    offloadOptimizer: boolean,
  ): number {
    const grid = this.pieces?.grid;
    if (!grid) return 0;
    const ds = grid.denseShards;
    const es = grid.expertShards;
    let most = 0;
    for (let c = 0; c < this.count; c++) {
      const frozen = frozenOnGpuBytes(this.frozenDense[c] ?? 0, this.frozenExpert[c] ?? 0, zero, offloadParameters, ds, es);
      const states = perDense * (this.trainedDense[c] ?? 0) + perExpert * (this.trainedExpert[c] ?? 0);
      const churning = states + (this.activation[c] ?? 0) + (this.dequantBuffer[c] ?? 0);
      const gathered = zero >= 3 ? ((offloadParameters ? this.gatheredFull[c] : this.gathered[c]) ?? 0) : 0;
      const unsharded = zero >= 2 ? ((offloadOptimizer ? this.unshardedFull[c] : this.unsharded[c]) ?? 0) : 0;
      const total = adapterStageTotalBytes(
        frozen,
        churning,
        gathered,
        unsharded,
        this.memoryScale,
        this.deviceBytes,
        this.reserveFraction,
        this.lossReserve[c] ?? 0,
      );
      if (total > most) most = total;
    }
    return most;
  }

  /** DeepSpeed ZeRO-3's gather-stream cache that candidate c's GPU holds beside its `total` device-used bytes (memory/stages.ts withZero3GatherCache). */
  private gatherCacheHeld(c: number, gathered: number, total: number): number {
    const grid = this.pieces?.grid;
    if (!grid) return 0;
    const shards = { dense: grid.denseShards, expert: grid.expertShards };
    const params = { dense: this.dense[c] ?? 0, expert: this.expert[c] ?? 0 };
    const cache = gatherCacheBytes(this.weightBytes, shards, params, this.memoryScale * gathered);
    return cache > 0 ? cacheWithinCapacity(cache, total, this.gpuBytes) : 0;
  }

  /** The busiest stage's seconds per micro-batch at ZeRO stage `zero` (ZeRO-3 adds its exposed gathers). */
  private criticalStageWork(zero: number): number {
    let critical = 0;
    for (let c = 0; c < this.count; c++) {
      const w = (this.work[c] ?? 0) + (zero === 3 ? (this.zero3Exposed[c] ?? 0) : 0);
      if (w > critical) critical = w;
    }
    return critical;
  }

  /** Seconds per optimizer step for state combo k (time/step.ts stepTime with the closed-form pipeline). */
  stepSeconds(k: number): number {
    const state = this.stateCombo(k);
    if (!state) return 0;
    const { grid, zero } = state;
    const critical = this.criticalStageWork(zero);
    const cap = this.capacity;
    const perParameter = grid.optimizerSecondsPerParameter[k] ?? 0;
    const perExpertParameter = grid.optimizerSecondsPerExpertParameter[k] ?? 0;
    let dpExposed = 0;
    let optimizer = 0;
    for (let c = 0; c < this.count; c++) {
      const dp = this.dpSync[zero * cap + c] ?? 0;
      const exposed = exposedDataParallelSeconds(dp, critical, this.microBatches, zero);
      if (exposed > dpExposed) dpExposed = exposed;
      const opt = perParameter * (this.trainedDense[c] ?? 0) + perExpertParameter * (this.trainedExpert[c] ?? 0);
      if (opt > optimizer) optimizer = opt;
    }
    const busy = this.microBatches * critical;
    return busy * this.timeFactor + this.ppSeconds + dpExposed + optimizer;
  }
}

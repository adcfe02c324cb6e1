// The memory-total explanation: the most loaded GPU's parameters + gradients +
// optimizer + activations + other, each term the output's own bytes, then how each
// was computed (bytes per value × values held after ZeRO sharding; the parts of
// "other"), and the OOM verdict's rule with its numbers.

import {
  crossEntropyCopiesBytes,
  engineActivationSettings,
  fitMemoryBytes,
  microBatchesInFlight,
  mostLoadedFitLayers,
} from '../memory/index.ts';
import { microBatchesPerStep } from '../input/index.ts';
import { ALLOCATOR_RESERVE_FRACTION } from '../calibration.ts';
import { equation, joined, type Equation, type Explanation, type Operator, type Quantity } from './equation.ts';
import { optimizerBytesPerParameter, stageAdapterParameters, stageMemoryDetails, type StageMemory } from '../memory/index.ts';
import { fsdpQuantizedLayerWeightBytes, stageLayerWeights } from '../memory/index.ts';
import {
  denseDataParallel,
  expertDataParallel,
  pipelineLayout,
  stageGpuParameters,
  type GpuParameters,
  type PipelineStage,
} from '../structure/index.ts';
import type { EstimateOutput, MemoryPart, RunConfig } from '../input/index.ts';
import { oomAssessment, type UncertaintyTable } from '../validation/index.ts';
import { GRAD_BYTES, WEIGHT_BYTES } from '../input/index.ts';

const PART_NAMES: Readonly<Record<MemoryPart, string>> = {
  parameters: 'parameters',
  gradients: 'gradients',
  optimizer: 'optimizer state',
  activations: 'activations',
  other: 'other',
};

const FP32_BYTES = 4;
const bytes = (name: string, value: number): Quantity => ({ name, value, unit: 'bytes' });

/** Index of the stage estimate.ts reported: the first that holds the most on the device (memory/fit.ts). */
export function mostLoadedStage(output: EstimateOutput): number {
  return Math.max(0, (mostLoadedFitLayers(output)?.stage ?? 1) - 1);
}

/** b × dense ÷ D + b × expert ÷ E: a model state's bytes on one GPU, with ÷ 1 and empty expert terms left out. */
function stateTerms(bytesPerValue: Quantity, params: GpuParameters, sharded: boolean, c: RunConfig, what: string): (Quantity | Operator)[] {
  const parts: (Quantity | Operator)[] = [];
  const groups: [number, number, string][] = [
    [params.dense, denseDataParallel(c.parallel), 'dense'],
    [params.expert, expertDataParallel(c.parallel), 'routed-expert'],
  ];
  for (const [count, group, label] of groups) {
    if (count === 0 && parts.length > 0) continue;
    if (parts.length > 0) parts.push('+');
    parts.push(bytesPerValue, '×', { name: `${label} ${what} on this GPU`, value: count, unit: 'parameters' });
    if (sharded && group > 1)
      parts.push('÷', { name: `${label} ZeRO shards (data-parallel GPUs holding them)`, value: group, unit: 'gpus' });
  }
  return parts;
}

/**
 * Megatron-FSDP's fp8 layer weights (memory/fp8-weight-cache.ts): what their one-byte buffer takes off the 16-bit shard, as
 * terms to subtract ("− saved bytes × layer weights ÷ shards" per data-parallel group); none where it does not apply
 * (torchao's float8 all-gather leaves the shard as it is: only the gathered unit is fp8).
 */
function quantizedShardTerms(c: RunConfig, stage: PipelineStage | undefined): (Quantity | Operator)[] {
  const q = fsdpQuantizedLayerWeightBytes(c);
  if (!q || !stage || c.training.adapter || q.shard >= WEIGHT_BYTES[c.training.precision]) return [];
  const saved: Quantity = {
    name: 'bytes saved per layer weight kept in fp8 (Megatron-FSDP uint8 buffer)',
    value: WEIGHT_BYTES[c.training.precision] - q.shard,
    unit: 'bytes-per-parameter',
  };
  const layers = stageLayerWeights(c, stage);
  const parts: (Quantity | Operator)[] = [];
  const groups: [number, number, string][] = [
    [layers.dense, denseDataParallel(c.parallel), 'dense'],
    [layers.expert, expertDataParallel(c.parallel), 'routed-expert'],
  ];
  for (const [count, group, label] of groups) {
    if (count === 0) continue;
    parts.push('−', saved, '×', { name: `${label} layer weights on this GPU`, value: count, unit: 'parameters' });
    parts.push('÷', { name: `${label} ZeRO shards (data-parallel GPUs holding them)`, value: group, unit: 'gpus' });
  }
  return parts;
}

function stateEquations(c: RunConfig, output: EstimateOutput, params: GpuParameters, stage?: PipelineStage): Equation[] {
  const { training: t, parallel: p } = c;
  const perGpu = output.memory.perGpu;
  const offloaded = (id: MemoryPart, why: string) =>
    equation(
      id,
      bytes(PART_NAMES[id], perGpu[id]),
      why,
      'ZeRO-Offload (Ren et al. 2021, arXiv 2101.06840) §4.1; ZeRO-Infinity for weights',
      bytes('nothing on the GPU', 0),
    );
  const quantized = quantizedShardTerms(c, stage);
  const weights = t.offload.parameters
    ? offloaded('parameters', 'offloaded to CPU memory')
    : equation(
        'parameters',
        bytes('parameters', perGpu.parameters),
        `bytes per weight × weights${p.zero >= 3 ? ' ÷ ZeRO-3 shards' : ''}` +
          (quantized.length > 0 ? ' − what the fp8 layer weights save (1 byte each)' : ''),
        `${t.precision} weights, ${WEIGHT_BYTES[t.precision]} bytes each; ZeRO stage 3 shards them (Rajbhandari et al. 2020, arXiv 1910.02054, §5)` +
          (quantized.length > 0
            ? '; Megatron-FSDP keeps fp8 layer weights in a uint8 buffer (Megatron-Core core_v0.13.0 custom_fsdp/param_and_grad_buffer.py)'
            : ''),
        ...stateTerms(
          { name: `bytes per ${t.precision} weight`, value: WEIGHT_BYTES[t.precision], unit: 'bytes-per-parameter' },
          params,
          p.zero >= 3,
          c,
          'weights',
        ),
        ...quantized,
      );
  const gradients =
    t.offload.optimizer && p.zero >= 2
      ? offloaded('gradients', 'gradient shards go to the CPU optimizer')
      : equation(
          'gradients',
          bytes('gradients', perGpu.gradients),
          `bytes per gradient × weights${p.zero >= 2 ? ' ÷ ZeRO-2 shards' : ''}`,
          `${t.gradDtype} gradients; ZeRO stage 2 shards them (Rajbhandari et al. 2020 §5)`,
          ...stateTerms(
            { name: `bytes per ${t.gradDtype} gradient`, value: GRAD_BYTES[t.gradDtype], unit: 'bytes-per-parameter' },
            params,
            p.zero >= 2,
            c,
            'weights',
          ),
        );
  const optimizer = t.offload.optimizer
    ? offloaded('optimizer', 'offloaded to CPU memory')
    : equation(
        'optimizer',
        bytes('optimizer state', perGpu.optimizer),
        `optimizer bytes per parameter (K) × weights${p.zero >= 1 ? ' ÷ ZeRO-1 shards' : ''}`,
        `${t.optimizer}${t.masterWeights ? ' with fp32 master weights' : ''}: K of ` +
          `Rajbhandari et al. 2020 §3 (12 for mixed-precision Adam); stage 1 shards it (§5)`,
        ...stateTerms(
          {
            name: 'optimizer bytes per parameter (K)',
            value: optimizerBytesPerParameter(t, c.stack.optimizerStateDtype),
            unit: 'bytes-per-parameter',
          },
          params,
          p.zero >= 1,
          c,
          'weights',
        ),
      );
  return [weights, gradients, optimizer];
}

function activationEquation(c: RunConfig, output: EstimateOutput, stageIndex: number, layers: number): Equation {
  const s = engineActivationSettings(c);
  const inFlight = microBatchesInFlight(c.parallel, stageIndex, microBatchesPerStep(c.training, c.parallel));
  const formula =
    `saved tensors of ${layers} layers × ${inFlight.toFixed(inFlight % 1 === 0 ? 0 : 2)} micro-batches in flight ` +
    `(sequence ${s.seqLen}, micro-batch ${s.microBatch}, TP ` +
    `${s.tp}${s.sequenceParallel ? ' with sequence parallelism' : ''}, ` +
    `CP ${s.cp}, recompute ${s.recompute}` +
    `${s.flashAttention ? ', flash attention' : ''}) + the larger of one layer's recompute working set and the loss's buffers`;
  return equation(
    'activations',
    bytes('activations', output.memory.perGpu.activations),
    formula,
    'Saved-tensor inventory of Korthikanti et al. 2022 (arXiv 2205.05198) §4.1 and Table 2; micro-batches in flight §4.2.3 (src/model/activations.ts)',
  );
}

/**
 * The part of the activations that a stated Megatron-LM release's cross-entropy copies add at the loss
 * (memory/cross-entropy-copies.ts): its bytes per logit beyond the saved fp32 softmax × the logits on this GPU, less
 * what the loss's place already held (one layer's recompute working set). Null when they add nothing.
 */
function crossEntropyCopiesEquation(c: RunConfig, stage: PipelineStage | undefined): Equation | null {
  const s = engineActivationSettings(c);
  const added = stage ? crossEntropyCopiesBytes(c, stage, s) : 0;
  if (added <= 0 || s.crossEntropyPeakBytes === undefined) return null;
  const beyondSaved = s.crossEntropyPeakBytes - FP32_BYTES;
  const tokens = (s.seqLen / s.cp) * s.microBatch;
  const copies = (beyondSaved * tokens * c.model.vocab) / s.tp;
  const alreadyHeld = copies - added;
  return equation(
    'loss-copies',
    bytes(`Megatron-LM ${c.stack.frameworkRelease ?? ''} cross-entropy copies (in activations)`, added),
    `bytes per logit beyond the saved fp32 softmax × tokens × vocabulary ÷ TP${alreadyHeld > 0 ? " − what the loss's place held already" : ''}`,
    'src/model/memory/cross-entropy-copies.ts: the 16-bit logits gpt_model.py keeps during the loss, their fp32 copy, and ' +
      'before core_v0.8.0 the out-of-place max shift (megatron/core/tensor_parallel/cross_entropy.py)',
    { name: 'bytes per logit beyond the saved fp32 softmax', value: beyondSaved, unit: 'bytes-per-logit' },
    '×',
    { name: 'tokens per micro-batch on this GPU', value: tokens, unit: 'tokens' },
    '×',
    { name: 'vocabulary', value: c.model.vocab, unit: 'count' },
    '÷',
    { name: 'tensor-parallel GPUs', value: s.tp, unit: 'gpus' },
    ...(alreadyHeld > 0 ? (['−', bytes("the loss's buffers or a layer's recompute working set", alreadyHeld)] as const) : []),
  );
}

function otherEquations(c: RunConfig, output: EstimateOutput, details: StageMemory): Equation[] {
  const b = details.breakdown;
  const o = details.other;
  // Zero terms (no ZeRO-2/3, no weight cache) add nothing: left out of the line.
  const terms = [
    bytes('ZeRO-3 gathered weights', o.gatheredWeights),
    bytes('unsharded gradients before reduce-scatter', o.unshardedGradients),
    bytes('Transformer Engine fp8 weight cache', o.fp8WeightCache),
  ];
  const parts = joined('+', ...terms.filter((x) => x.value !== 0));
  const lines = [
    equation(
      'other',
      bytes('other', output.memory.perGpu.other),
      `gathered weights + unsharded gradients${o.fp8WeightCache > 0 ? ' + quantized weight copies' : ''}`,
      'Named constants of src/model/calibration.ts; the quantized weight copies: src/model/memory/fp8-weight-cache.ts; ' +
        'the allocator reserve is in memory.reserved, the device-side terms in memory.deviceUsed, not here',
      ...parts,
    ),
  ];
  const d = o.device;
  lines.push(
    equation(
      'device-side',
      bytes('outside the allocator', o.runtime),
      'CUDA context + NCCL buffers of each communicator + cuBLAS workspaces',
      'src/model/memory/device.ts: CUDA lazy-loading context; NCCL_BUFFSIZE and the LL/LL128 buffers × 32 ' +
        'channels per communicator; PyTorch CublasHandlePool.cpp ' +
        'workspace sizes. deviceUsed = reserved + this',
      ...joined('+', bytes('CUDA context', d.cudaContext), bytes('NCCL buffers', d.ncclBuffers), bytes('cuBLAS workspaces', d.workspaces)),
    ),
  );
  // The reserve is a share of everything the allocator holds (memory.ts, otherMemoryTerms); shown when no calibration override scales it.
  if (c.calibration.memoryOverheadScale === 1) {
    const held = b.parameters + b.gradients + b.optimizer + b.activations + o.gatheredWeights + o.unshardedGradients + o.fp8WeightCache;
    // Zero terms (no ZeRO-2/3, no weight cache) add nothing: left out of the line.
    const zeroExtras = [
      bytes('gathered weights', o.gatheredWeights),
      bytes('unsharded gradients', o.unshardedGradients),
      bytes('fp8 weight cache', o.fp8WeightCache),
    ].filter((x) => x.value !== 0);
    lines.push(
      equation(
        'allocated',
        bytes('allocated', held),
        `parameters + gradients + optimizer + activations${zeroExtras.length > 0 ? ' + the buffers of "other"' : ''}`,
        null,
        ...joined(
          '+',
          bytes('parameters', b.parameters),
          bytes('gradients', b.gradients),
          bytes('optimizer state', b.optimizer),
          bytes('activations', b.activations),
          ...zeroExtras,
        ),
      ),
    );
    const hole: (Quantity | Operator)[] = o.lossReserve > 0 ? ['+', bytes('freed 16-bit logits of the eager loss', o.lossReserve)] : [];
    lines.push(
      equation(
        'allocator-reserve',
        bytes('allocator reserve', o.allocatorReserve),
        `reserve fraction × allocated${hole.length > 0 ? ' + the 16-bit logits the eager loss frees and its fp32 backward cannot reuse' : ''}`,
        `FITTED caching-allocator reserve (src/model/calibration.ts, ` +
          `ALLOCATOR_RESERVE_FRACTION)${hole.length > 0 ? '; the freed logits: src/model/memory/loss.ts eagerLossLogitsHoleBytes' : ''}`,
        { name: 'reserve fraction', value: ALLOCATOR_RESERVE_FRACTION, unit: 'fraction' },
        '×',
        bytes('allocated', held),
        ...hole,
      ),
    );
  }
  return lines;
}

function verdictEquation(output: EstimateOutput, table: UncertaintyTable): Equation {
  const { capacity } = output.memory;
  const assessment = oomAssessment(fitMemoryBytes(output), capacity, table.memory);
  return equation(
    'tight-from',
    bytes('"tight" from', assessment.tightFromBytes),
    `capacity × (1 + ${Math.round(table.lowerQuantile * 100)}th-percentile memory ` +
      `error): above it, a run under-predicted as much as that published one would not fit`,
    `Memory errors of ${table.memory.rows} published runs (Validation page); verdict here: ${assessment.verdict}`,
    bytes('GPU capacity', capacity),
    '×',
    { name: 'safe share of capacity', value: assessment.tightFromShare, unit: 'fraction' },
  );
}

export function explainMemory(c: RunConfig, output: EstimateOutput, table: UncertaintyTable): Explanation {
  const stageIndex = mostLoadedStage(output);
  const perGpu = output.memory.perGpu;
  const stage = pipelineLayout(c.model, c.parallel)[stageIndex];
  const adapter = c.training.adapter ?? null;
  // A fine-tune's model states are the adapters' (memory/adapter.ts): the same bytes-per-value rules over their parameters.
  const params =
    adapter && stage
      ? stageAdapterParameters(c, stage, adapter).adapter
      : (stageGpuParameters(c.model, c.parallel)[stageIndex] ?? { dense: 0, expert: 0 });
  const details = stageMemoryDetails(c)[stageIndex];
  const frozen = perGpu.frozen;
  const frozenTerms = frozen === undefined ? [] : [bytes('frozen weights', frozen)];
  // The one memory figure (memory/fit.ts): allocated, then what the allocator reserves beyond it, then what the runtime holds outside it.
  const used = fitMemoryBytes(output);
  const reserve = output.memory.reserved - perGpu.total;
  const total = equation(
    'total',
    bytes('memory per GPU', used),
    'allocated + allocator reserve + outside the allocator (CUDA context, NCCL buffers, cuBLAS workspaces): what the device holds, what the fit is judged on',
    'PyTorch CUDA semantics, memory management (max_memory_allocated, max_memory_reserved; ' +
      'the context is not tracked by the allocator); src/model/memory/device.ts',
    ...joined(
      '+',
      bytes('allocated', perGpu.total),
      bytes('allocator reserve', reserve),
      bytes('outside the allocator', used - output.memory.reserved),
    ),
  );
  const allocatedPeak = equation(
    'allocated-peak',
    bytes('allocated', perGpu.total),
    `${frozen === undefined ? '' : 'frozen weights + '}parameters + gradients + optimizer state + activations + other`,
    'Korthikanti et al. 2022 §4 (activations); Rajbhandari et al. 2020 §3 and §5 (model states, ZeRO)',
    ...joined(
      '+',
      ...frozenTerms,
      bytes(frozen === undefined ? 'parameters' : 'adapter parameters', perGpu.parameters),
      bytes('gradients', perGpu.gradients),
      bytes('optimizer state', perGpu.optimizer),
      bytes('activations', perGpu.activations),
      bytes('other', perGpu.other),
    ),
  );
  const sameStage = details !== undefined && details.breakdown.total === perGpu.total;
  const frozenLine =
    adapter && frozen !== undefined
      ? [
          equation(
            'frozen',
            bytes('frozen weights', frozen),
            `base weights without gradients or optimizer state` +
              (adapter.method === 'qlora' ? ', the adapted matrices in 4-bit NF4 with double quantisation' : '') +
              (c.parallel.zero >= 3 ? ' ÷ ZeRO-3 shards' : ''),
            'Hu et al. 2021, LoRA (arXiv 2106.09685); Dettmers et al. 2023, QLoRA (arXiv 2305.14314) §3 (src/model/memory/adapter.ts)',
          ),
        ]
      : [];
  const equations = [
    total,
    allocatedPeak,
    ...frozenLine,
    ...stateEquations(c, output, params, stage),
    activationEquation(c, output, stageIndex, stage?.layers.length ?? 0),
  ];
  const lossCopies = crossEntropyCopiesEquation(c, stage);
  if (lossCopies) equations.push(lossCopies);
  // A fine-tune's "other" also holds QLoRA's dequantisation buffer and its reserve leaves out the frozen base (adapter.ts): not itemised here.
  if (sameStage && !adapter) equations.push(...otherEquations(c, output, details));
  equations.push(verdictEquation(output, table));
  return {
    figure: 'memory-total',
    title: 'Memory per GPU',
    lead:
      `The most loaded GPU: pipeline stage ${stageIndex + 1} of ${output.memory.stages.length}, holding ${stage?.layers.length ?? 0} layers` +
      `${stage?.embedding ? ' and the embedding' : ''}${stage?.output ? ' and the output layer' : ''}. ` +
      `ZeRO stage ${c.parallel.zero}, TP ${c.parallel.tp}, PP ${c.parallel.pp}, DP ${c.parallel.dp}.`,
    equations,
    notes: sameStage ? [] : ['The parts of "other" are not itemised: the stage breakdown could not be matched to the output.'],
  };
}

// The key figures of one estimate, in display order, each with its label, a
// one-line explanation with its source, the raw value in base units and the
// formatted text. The figure cards and the Markdown and CSV exports share it, so
// a figure reads the same on the page and in a document.

import type { EstimateOutput } from '../model/input/index.ts';
import { fitMemoryBytes } from '../model/memory/index.ts';
import {
  NOT_AVAILABLE,
  formatCompactCount,
  formatDays,
  formatEnergyKwh,
  formatFlopRate,
  formatFlops,
  formatGiB,
  formatGpuHours,
  formatMinutes,
  formatNumber,
  formatPercent,
  formatSeconds,
  formatTokensPerSecond,
  formatUsd,
  formatCo2Kg,
} from './format.ts';
import { hostShortfallWords } from './uncertainty/hostMemoryWords.ts';

export type FigureGroup = 'memory' | 'speed' | 'time-cost' | 'reliability' | 'work';
export const FIGURE_GROUPS: readonly FigureGroup[] = ['memory', 'speed', 'time-cost', 'reliability', 'work'];
export const FIGURE_GROUP_LABELS: Readonly<Record<FigureGroup, string>> = {
  memory: 'Memory',
  speed: 'Speed',
  'time-cost': 'Time and cost',
  reliability: 'Reliability',
  work: 'Work per step',
};

/** The unit of a figure's raw value, as the CSV export writes it. */
export type FigureUnit =
  'bytes' | 'fraction' | 'seconds' | 'tokens/s' | 'FLOP/s' | 'days' | 'GPU-hours' | 'USD' | 'kWh' | 'kg CO2' | 'count' | 'minutes' | 'FLOP';

/** A magnitude (a change, say) in each unit's own display format; fractions as percentage points. */
export const UNIT_MAGNITUDE: Readonly<Record<FigureUnit, (value: number) => string>> = {
  bytes: formatGiB,
  fraction: (v) => `${formatNumber(v * 100)} pp`,
  seconds: formatSeconds,
  'tokens/s': formatTokensPerSecond,
  'FLOP/s': formatFlopRate,
  days: formatDays,
  'GPU-hours': formatGpuHours,
  USD: formatUsd,
  kWh: formatEnergyKwh,
  'kg CO2': formatCo2Kg,
  count: formatCompactCount,
  minutes: formatMinutes,
  FLOP: formatFlops,
};

export interface KeyFigure {
  /** Also the figure's data-testid on the page. */
  readonly id: string;
  readonly group: FigureGroup;
  readonly label: string;
  readonly explanation: string;
  /** Raw value in `unit`, or null when it is not available. */
  readonly value: number | null;
  readonly unit: FigureUnit;
  /** Formatted value, or NOT_AVAILABLE. */
  readonly text: string;
  /** Why the value is missing; null when it is shown. */
  readonly unavailableReason: string | null;
  /** Shown in the compact view too. */
  readonly headline: boolean;
}

type FigureDef = Omit<KeyFigure, 'value' | 'text' | 'unavailableReason'> & {
  readonly format: (value: number) => string;
};

function figure(def: FigureDef, value: number | null, missingReason: string): KeyFigure {
  const { format, ...rest } = def;
  if (value === null) return { ...rest, value: null, text: NOT_AVAILABLE, unavailableReason: missingReason };
  if (!Number.isFinite(value)) return { ...rest, value: null, text: NOT_AVAILABLE, unavailableReason: 'no finite result' };
  return { ...rest, value, text: format(value), unavailableReason: null };
}

const INVALID_REASON = 'the configuration is invalid';

function reasonFor(output: EstimateOutput, part: string): string {
  return output.errors.length > 0 ? INVALID_REASON : `${part} not computed`;
}

/**
 * One memory figure judges the fit (model/memory/fit.ts, fitMemoryBytes: what the device
 * holds); allocated and reserved are the layers inside it, named as such (issue 31, item 1).
 */
function memoryFigures(output: EstimateOutput): KeyFigure[] {
  const valid = output.errors.length === 0;
  return [
    figure(
      {
        id: 'memory-total',
        group: 'memory',
        label: 'Memory per GPU',
        unit: 'bytes',
        headline: true,
        format: formatGiB,
        explanation:
          'What the most loaded GPU holds, as nvidia-smi shows it: weights, gradients, optimizer state, activations and buffers ' +
          "(Korthikanti 2022 §4; ZeRO, Rajbhandari 2020), the caching allocator's reserve, and the CUDA context, NCCL buffers " +
          'and cuBLAS workspaces outside it. ' +
          'Whether the run fits is judged on this',
      },
      valid ? fitMemoryBytes(output) : null,
      INVALID_REASON,
    ),
    figure(
      {
        id: 'memory-allocated',
        group: 'memory',
        label: 'Of which allocated',
        unit: 'bytes',
        headline: true,
        format: formatGiB,
        explanation: "Inside memory per GPU: the tensors PyTorch's allocator hands out at the peak (max_memory_allocated)",
      },
      valid ? output.memory.perGpu.total : null,
      INVALID_REASON,
    ),
    figure(
      {
        id: 'memory-reserved',
        group: 'memory',
        label: 'Of which reserved by the allocator',
        unit: 'bytes',
        headline: true,
        format: formatGiB,
        explanation:
          "Inside memory per GPU: what PyTorch's caching allocator holds (max_memory_reserved), the allocated peak plus its " +
          'reserve; the CUDA context, NCCL and cuBLAS come on top',
      },
      valid ? output.memory.reserved : null,
      INVALID_REASON,
    ),
  ];
}

type MfuPeak = NonNullable<EstimateOutput['throughput']>['mfuPeak'];

/** "MFU of FP8 peak": MFU says which peak it divides by (issue 36). */
function mfuLabel(precision: string | undefined): string {
  return precision ? `MFU of ${precision.toUpperCase()} peak` : 'MFU';
}

function peakWords(peak: MfuPeak): string {
  return peak ? `${peak.precision.toUpperCase()} peak (${Math.round(peak.tflopsPerGpu).toLocaleString('en-US')} TFLOP/s)` : 'peak';
}

function speedFigures(output: EstimateOutput): KeyFigure[] {
  const t = output.throughput;
  const reason = reasonFor(output, 'time model');
  return [
    figure(
      {
        id: 'mfu',
        group: 'speed',
        label: mfuLabel(t?.mfuPeak?.precision),
        unit: 'fraction',
        headline: true,
        format: formatPercent,
        explanation: `Model FLOPs per second ÷ the GPU's dense ${peakWords(t?.mfuPeak)} (Korthikanti 2022 §6)`,
      },
      t?.mfu ?? null,
      reason,
    ),
    // Only where the engine gives it (outputs before issue 36, such as stored scenarios, do not)
    // and where it differs from MFU: a BF16 run's MFU is already of the BF16 peak.
    ...(t && (t.mfuBf16 === undefined || t.mfuPeak?.precision === 'bf16')
      ? []
      : [
          figure(
            {
              id: 'mfu-bf16',
              group: 'speed',
              label: 'MFU of BF16 peak',
              unit: 'fraction',
              headline: false,
              format: formatPercent,
              explanation:
                "The same model FLOPs ÷ the GPU's dense BF16 peak: compares runs across precisions (an FP8 run on H100 reads twice its FP8 MFU)",
            },
            t?.mfuBf16 ?? null,
            reason,
          ),
        ]),
    figure(
      {
        id: 'step-time',
        group: 'speed',
        label: 'Step time',
        unit: 'seconds',
        headline: true,
        format: formatSeconds,
        explanation: 'One optimizer step: pipeline critical path + exposed communication + optimizer update',
      },
      t?.stepSeconds ?? null,
      reason,
    ),
    figure(
      {
        id: 'bubble-fraction',
        group: 'speed',
        label: 'Pipeline bubble',
        unit: 'fraction',
        headline: true,
        format: formatPercent,
        explanation:
          'Share of the step time the critical stage idles in the pipeline schedule: bubble time ÷ step time; 1F1B with equal ' +
          'stages about (p−1)/(m+p−1) (Narayanan 2021 §2.2)',
      },
      t?.bubbleFraction ?? null,
      reason,
    ),
    figure(
      {
        id: 'tokens-per-second',
        group: 'speed',
        label: 'Throughput',
        unit: 'tokens/s',
        headline: true,
        format: formatTokensPerSecond,
        explanation: 'Training tokens per second, whole cluster',
      },
      t?.tokensPerSecond ?? null,
      reason,
    ),
    figure(
      {
        id: 'tflops-per-gpu',
        group: 'speed',
        label: 'Achieved per GPU',
        unit: 'FLOP/s',
        headline: false,
        format: formatFlopRate,
        explanation: 'Model FLOPs per second on one GPU, recomputation not counted',
      },
      t ? t.tflopsPerGpu * 1e12 : null,
      reason,
    ),
    figure(
      {
        id: 'hfu',
        group: 'speed',
        label: 'HFU',
        unit: 'fraction',
        headline: false,
        format: formatPercent,
        explanation: 'Like MFU but counting recomputed FLOPs too (Chowdhery 2022, PaLM app. B)',
      },
      t?.hfu ?? null,
      reason,
    ),
  ];
}

function timeCostFigures(output: EstimateOutput): KeyFigure[] {
  const { time, cost } = output;
  const timeReason = reasonFor(output, 'training time');
  const costReason = reasonFor(output, 'cost model');
  return [
    figure(
      {
        id: 'training-days',
        group: 'time-cost',
        label: 'Training time',
        unit: 'days',
        headline: true,
        format: formatDays,
        explanation: 'Token budget ÷ tokens per second, wall-clock days',
      },
      time?.days ?? null,
      timeReason,
    ),
    figure(
      {
        id: 'gpu-hours',
        group: 'time-cost',
        label: 'GPU-hours',
        unit: 'GPU-hours',
        headline: false,
        format: formatGpuHours,
        explanation: 'Training time × number of GPUs',
      },
      time?.gpuHours ?? null,
      timeReason,
    ),
    figure(
      {
        id: 'cost-usd',
        group: 'time-cost',
        label: 'Cost',
        unit: 'USD',
        headline: true,
        format: formatUsd,
        explanation: 'GPU-hours × price per GPU-hour',
      },
      cost?.usd ?? null,
      costReason,
    ),
    figure(
      {
        id: 'energy',
        group: 'time-cost',
        label: 'Energy',
        unit: 'kWh',
        headline: false,
        format: formatEnergyKwh,
        explanation: 'GPUs × power × hours × data-centre PUE',
      },
      cost?.energyKwh ?? null,
      costReason,
    ),
    figure(
      {
        id: 'co2',
        group: 'time-cost',
        label: 'CO₂',
        unit: 'kg CO2',
        headline: false,
        format: formatCo2Kg,
        explanation: 'Energy × grid carbon intensity',
      },
      cost?.co2Kg ?? null,
      costReason,
    ),
  ];
}

function reliabilityFigures(output: EstimateOutput): KeyFigure[] {
  const r = output.reliability;
  const reason = reasonFor(output, 'reliability model');
  return [
    figure(
      {
        id: 'expected-failures',
        group: 'reliability',
        label: 'Expected failures',
        unit: 'count',
        headline: false,
        format: formatCompactCount,
        explanation: 'GPU-hours ÷ per-GPU MTBF; Llama 3 saw 419 in 54 days on 16,384 GPUs (arXiv 2407.21783 §3.3.4)',
      },
      r?.expectedFailures ?? null,
      reason,
    ),
    figure(
      {
        id: 'checkpoint-interval',
        group: 'reliability',
        label: 'Checkpoint interval',
        unit: 'minutes',
        headline: false,
        format: formatMinutes,
        explanation: '√(2 × checkpoint write time × cluster MTBF) (Young 1974; Daly 2006)',
      },
      r?.checkpointIntervalMinutes ?? null,
      reason,
    ),
    figure(
      {
        id: 'goodput',
        group: 'reliability',
        label: 'Goodput',
        unit: 'fraction',
        headline: false,
        format: formatPercent,
        explanation: 'Useful training time ÷ wall time, after checkpoints, lost work and restarts',
      },
      r?.goodput ?? null,
      reason,
    ),
  ];
}

function workFigures(output: EstimateOutput): KeyFigure[] {
  const valid = output.errors.length === 0;
  return [
    figure(
      {
        id: 'model-flops',
        group: 'work',
        label: 'Model FLOPs per step',
        unit: 'FLOP',
        headline: false,
        format: formatFlops,
        explanation: 'Whole cluster, recomputation not counted (Narayanan 2021 §5.1)',
      },
      valid ? output.flops.modelPerStep : null,
      INVALID_REASON,
    ),
    figure(
      {
        id: 'hardware-flops',
        group: 'work',
        label: 'Hardware FLOPs per step',
        unit: 'FLOP',
        headline: false,
        format: formatFlops,
        explanation: 'Whole cluster, counting recomputed work',
      },
      valid ? output.flops.hardwarePerStep : null,
      INVALID_REASON,
    ),
  ];
}

/** Every key figure of an estimate, grouped and in display order. */
export function keyFigures(output: EstimateOutput): readonly KeyFigure[] {
  return [
    ...memoryFigures(output),
    ...speedFigures(output),
    ...timeCostFigures(output),
    ...reliabilityFigures(output),
    ...workFigures(output),
  ];
}

/** "of 80 GiB" and, when the most loaded GPU does not fit, the shortfall in Calculon's words. */
export function memoryCapacityNote(output: EstimateOutput): { readonly capacityText: string; readonly oomText: string | null } {
  const { perGpu, reserved, capacity, fits } = output.memory;
  const capacityText = `of ${formatGiB(capacity)}`;
  if (fits || output.errors.length > 0) return { capacityText, oomText: null };
  // memory.fits also asks the host to hold what offload puts there (memory.host).
  const used = fitMemoryBytes(output);
  const host = hostShortfallWords(output);
  if (host && used <= capacity) return { capacityText, oomText: `Out of CPU memory: offload ${host}` };
  const gpu =
    `Out of memory: needs ${formatGiB(used)} per GPU (of which ${formatGiB(reserved)} reserved by the allocator, ` +
    `${formatGiB(perGpu.total)} allocated), the GPU has ${formatGiB(capacity)}`;
  return { capacityText, oomText: host ? `${gpu}; and offload ${host}` : gpu };
}

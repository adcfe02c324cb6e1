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

/** A figure as its group lists it: what it is and its value in the estimate (null: not available). */
interface FigureSpec {
  readonly id: string;
  readonly label: string;
  readonly unit: FigureUnit;
  /** Shown in the compact view too. */
  readonly headline?: true;
  readonly explanation: string;
  readonly value: number | null;
}

/** A figure's value as shown: its unit's format, a fraction as a percentage (UNIT_MAGNITUDE writes percentage points). */
const UNIT_FORMAT: Readonly<Record<FigureUnit, (value: number) => string>> = { ...UNIT_MAGNITUDE, fraction: formatPercent };

/** The figures of one group; one without a value says `missingReason`. */
function groupFigures(group: FigureGroup, missingReason: string, specs: readonly FigureSpec[]): KeyFigure[] {
  return specs.map(({ id, label, unit, headline = false, explanation, value }) => {
    const rest = { id, group, label, unit, headline, explanation };
    if (value === null) return { ...rest, value: null, text: NOT_AVAILABLE, unavailableReason: missingReason };
    if (!Number.isFinite(value)) return { ...rest, value: null, text: NOT_AVAILABLE, unavailableReason: 'no finite result' };
    return { ...rest, value, text: UNIT_FORMAT[unit](value), unavailableReason: null };
  });
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
  return groupFigures('memory', INVALID_REASON, [
    {
      id: 'memory-total',
      label: 'Memory per GPU',
      unit: 'bytes',
      headline: true,
      explanation:
        'What the most loaded GPU holds, as nvidia-smi shows it: weights, gradients, optimizer state, activations and buffers ' +
        "(Korthikanti 2022 §4; ZeRO, Rajbhandari 2020), the caching allocator's reserve, and the CUDA context, NCCL buffers " +
        'and cuBLAS workspaces outside it. ' +
        'Whether the run fits is judged on this',
      value: valid ? fitMemoryBytes(output) : null,
    },
    {
      id: 'memory-allocated',
      label: 'Of which allocated',
      unit: 'bytes',
      headline: true,
      explanation: "Inside memory per GPU: the tensors PyTorch's allocator hands out at the peak (max_memory_allocated)",
      value: valid ? output.memory.perGpu.total : null,
    },
    {
      id: 'memory-reserved',
      label: 'Of which reserved by the allocator',
      unit: 'bytes',
      headline: true,
      explanation:
        "Inside memory per GPU: what PyTorch's caching allocator holds (max_memory_reserved), the allocated peak plus its " +
        'reserve; the CUDA context, NCCL and cuBLAS come on top',
      value: valid ? output.memory.reserved : null,
    },
  ]);
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
  return groupFigures('speed', reasonFor(output, 'time model'), [
    {
      id: 'mfu',
      label: mfuLabel(t?.mfuPeak?.precision),
      unit: 'fraction',
      headline: true,
      explanation: `Model FLOPs per second ÷ the GPU's dense ${peakWords(t?.mfuPeak)} (Korthikanti 2022 §6)`,
      value: t?.mfu ?? null,
    },
    // Only where the engine gives it (outputs before issue 36, such as stored scenarios, do not)
    // and where it differs from MFU: a BF16 run's MFU is already of the BF16 peak.
    ...(t && (t.mfuBf16 === undefined || t.mfuPeak?.precision === 'bf16')
      ? []
      : ([
          {
            id: 'mfu-bf16',
            label: 'MFU of BF16 peak',
            unit: 'fraction',
            explanation:
              "The same model FLOPs ÷ the GPU's dense BF16 peak: compares runs across precisions (an FP8 run on H100 reads twice its FP8 MFU)",
            value: t?.mfuBf16 ?? null,
          },
        ] satisfies FigureSpec[])),
    {
      id: 'step-time',
      label: 'Step time',
      unit: 'seconds',
      headline: true,
      explanation: 'One optimizer step: pipeline critical path + exposed communication + optimizer update',
      value: t?.stepSeconds ?? null,
    },
    {
      id: 'bubble-fraction',
      label: 'Pipeline bubble',
      unit: 'fraction',
      headline: true,
      explanation:
        'Share of the step time the critical stage idles in the pipeline schedule: bubble time ÷ step time; 1F1B with equal ' +
        'stages about (p−1)/(m+p−1) (Narayanan 2021 §2.2)',
      value: t?.bubbleFraction ?? null,
    },
    {
      id: 'tokens-per-second',
      label: 'Throughput',
      unit: 'tokens/s',
      headline: true,
      explanation: 'Training tokens per second, whole cluster',
      value: t?.tokensPerSecond ?? null,
    },
    {
      id: 'tflops-per-gpu',
      label: 'Achieved per GPU',
      unit: 'FLOP/s',
      explanation: 'Model FLOPs per second on one GPU, recomputation not counted',
      value: t ? t.tflopsPerGpu * 1e12 : null,
    },
    {
      id: 'hfu',
      label: 'HFU',
      unit: 'fraction',
      explanation: 'Like MFU but counting recomputed FLOPs too (Chowdhery 2022, PaLM app. B)',
      value: t?.hfu ?? null,
    },
  ]);
}

function timeCostFigures(output: EstimateOutput): KeyFigure[] {
  const { time, cost } = output;
  return [
    ...groupFigures('time-cost', reasonFor(output, 'training time'), [
      {
        id: 'training-days',
        label: 'Training time',
        unit: 'days',
        headline: true,
        explanation: 'Token budget ÷ tokens per second, wall-clock days',
        value: time?.days ?? null,
      },
      {
        id: 'gpu-hours',
        label: 'GPU-hours',
        unit: 'GPU-hours',
        explanation: 'Training time × number of GPUs',
        value: time?.gpuHours ?? null,
      },
    ]),
    ...groupFigures('time-cost', reasonFor(output, 'cost model'), [
      {
        id: 'cost-usd',
        label: 'Cost',
        unit: 'USD',
        headline: true,
        explanation: 'GPU-hours × price per GPU-hour',
        value: cost?.usd ?? null,
      },
      {
        id: 'energy',
        label: 'Energy',
        unit: 'kWh',
        explanation: 'GPUs × power × hours × data-centre PUE',
        value: cost?.energyKwh ?? null,
      },
      {
        id: 'co2',
        label: 'CO₂',
        unit: 'kg CO2',
        explanation: 'Energy × grid carbon intensity',
        value: cost?.co2Kg ?? null,
      },
    ]),
  ];
}

function reliabilityFigures(output: EstimateOutput): KeyFigure[] {
  const r = output.reliability;
  return groupFigures('reliability', reasonFor(output, 'reliability model'), [
    {
      id: 'expected-failures',
      label: 'Expected failures',
      unit: 'count',
      explanation: 'GPU-hours ÷ per-GPU MTBF; Llama 3 saw 419 in 54 days on 16,384 GPUs (arXiv 2407.21783 §3.3.4)',
      value: r?.expectedFailures ?? null,
    },
    {
      id: 'checkpoint-interval',
      label: 'Checkpoint interval',
      unit: 'minutes',
      explanation: '√(2 × checkpoint write time × cluster MTBF) (Young 1974; Daly 2006)',
      value: r?.checkpointIntervalMinutes ?? null,
    },
    {
      id: 'goodput',
      label: 'Goodput',
      unit: 'fraction',
      explanation: 'Useful training time ÷ wall time, after checkpoints, lost work and restarts',
      value: r?.goodput ?? null,
    },
  ]);
}

function workFigures(output: EstimateOutput): KeyFigure[] {
  const valid = output.errors.length === 0;
  return groupFigures('work', INVALID_REASON, [
    {
      id: 'model-flops',
      label: 'Model FLOPs per step',
      unit: 'FLOP',
      explanation: 'Whole cluster, recomputation not counted (Narayanan 2021 §5.1)',
      value: valid ? output.flops.modelPerStep : null,
    },
    {
      id: 'hardware-flops',
      label: 'Hardware FLOPs per step',
      unit: 'FLOP',
      explanation: 'Whole cluster, counting recomputed work',
      value: valid ? output.flops.hardwarePerStep : null,
    },
  ]);
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

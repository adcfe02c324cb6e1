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
import FIGURE_EXPLANATIONS from './figure-explanations.json' with { type: 'json' };
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

/** What a figure is, apart from its explanation (figure-explanations.json) and its value. */
interface FigureDescription {
  readonly label: string;
  readonly unit: FigureUnit;
  /** Shown in the compact view too. */
  readonly headline?: true;
}

/** Every figure, in display order within its group; a group names which of them it shows. */
const FIGURES = {
  'memory-total': { label: 'Memory per GPU', unit: 'bytes', headline: true },
  'memory-allocated': { label: 'Of which allocated', unit: 'bytes', headline: true },
  'memory-reserved': { label: 'Of which reserved by the allocator', unit: 'bytes', headline: true },
  mfu: { label: 'MFU', unit: 'fraction', headline: true },
  'mfu-bf16': { label: 'MFU of BF16 peak', unit: 'fraction' },
  'step-time': { label: 'Step time', unit: 'seconds', headline: true },
  'bubble-fraction': { label: 'Pipeline bubble', unit: 'fraction', headline: true },
  'tokens-per-second': { label: 'Throughput', unit: 'tokens/s', headline: true },
  'tflops-per-gpu': { label: 'Achieved per GPU', unit: 'FLOP/s' },
  hfu: { label: 'HFU', unit: 'fraction' },
  'training-days': { label: 'Training time', unit: 'days', headline: true },
  'gpu-hours': { label: 'GPU-hours', unit: 'GPU-hours' },
  'cost-usd': { label: 'Cost', unit: 'USD', headline: true },
  energy: { label: 'Energy', unit: 'kWh' },
  co2: { label: 'CO₂', unit: 'kg CO2' },
  'expected-failures': { label: 'Expected failures', unit: 'count' },
  'checkpoint-interval': { label: 'Checkpoint interval', unit: 'minutes' },
  goodput: { label: 'Goodput', unit: 'fraction' },
  'model-flops': { label: 'Model FLOPs per step', unit: 'FLOP' },
  'hardware-flops': { label: 'Hardware FLOPs per step', unit: 'FLOP' },
} as const satisfies Readonly<Record<string, FigureDescription>>;

type FigureId = keyof typeof FIGURES;

/** Each figure's one-line explanation with its source, as prose in a data file; the compiler asks for one per figure. */
const EXPLANATIONS: Readonly<Record<FigureId, string>> = FIGURE_EXPLANATIONS;

/** A figure's value in an estimate (null: not available), or with the label and explanation this estimate gives it. */
type FigureValue = number | null | { readonly value: number | null; readonly label: string; readonly explanation: string };

/** A figure's value as shown: its unit's format, a fraction as a percentage (UNIT_MAGNITUDE writes percentage points). */
const UNIT_FORMAT: Readonly<Record<FigureUnit, (value: number) => string>> = { ...UNIT_MAGNITUDE, fraction: formatPercent };

/** The figures of one group, in the order `values` names them; one without a value says `missingReason`. */
function groupFigures(group: FigureGroup, missingReason: string, values: Partial<Readonly<Record<FigureId, FigureValue>>>): KeyFigure[] {
  return (Object.entries(values) as [FigureId, FigureValue][]).map(([id, given]) => {
    const { label, unit } = FIGURES[id];
    const headline = 'headline' in FIGURES[id];
    const shown = given !== null && typeof given === 'object' ? given : { value: given, label, explanation: EXPLANATIONS[id] };
    const rest = { id, group, label: shown.label, unit, headline, explanation: shown.explanation };
    const { value } = shown;
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
  return groupFigures('memory', INVALID_REASON, {
    'memory-total': valid ? fitMemoryBytes(output) : null,
    'memory-allocated': valid ? output.memory.perGpu.total : null,
    'memory-reserved': valid ? output.memory.reserved : null,
  });
}

type MfuPeak = NonNullable<EstimateOutput['throughput']>['mfuPeak'];

/** "MFU of FP8 peak": MFU says which peak it divides by (issue 36). */
function mfuLabel(precision: string | undefined): string {
  return precision ? `MFU of ${precision.toUpperCase()} peak` : FIGURES.mfu.label;
}

function peakWords(peak: MfuPeak): string {
  return peak ? `${peak.precision.toUpperCase()} peak (${Math.round(peak.tflopsPerGpu).toLocaleString('en-US')} TFLOP/s)` : 'peak';
}

function speedFigures(output: EstimateOutput): KeyFigure[] {
  const t = output.throughput;
  const mfu = {
    value: t?.mfu ?? null,
    label: mfuLabel(t?.mfuPeak?.precision),
    explanation: EXPLANATIONS.mfu.replace('{peak}', peakWords(t?.mfuPeak)),
  };
  // The BF16-peak MFU only where the engine gives it (outputs before issue 36, such as stored scenarios, do not)
  // and where it differs from MFU: a BF16 run's MFU is already of the BF16 peak.
  const bf16 = t && (t.mfuBf16 === undefined || t.mfuPeak?.precision === 'bf16') ? {} : { 'mfu-bf16': t?.mfuBf16 ?? null };
  return groupFigures('speed', reasonFor(output, 'time model'), {
    mfu,
    ...bf16,
    'step-time': t?.stepSeconds ?? null,
    'bubble-fraction': t?.bubbleFraction ?? null,
    'tokens-per-second': t?.tokensPerSecond ?? null,
    'tflops-per-gpu': t ? t.tflopsPerGpu * 1e12 : null,
    hfu: t?.hfu ?? null,
  });
}

function timeCostFigures(output: EstimateOutput): KeyFigure[] {
  const { time, cost } = output;
  return [
    ...groupFigures('time-cost', reasonFor(output, 'training time'), {
      'training-days': time?.days ?? null,
      'gpu-hours': time?.gpuHours ?? null,
    }),
    ...groupFigures('time-cost', reasonFor(output, 'cost model'), {
      'cost-usd': cost?.usd ?? null,
      energy: cost?.energyKwh ?? null,
      co2: cost?.co2Kg ?? null,
    }),
  ];
}

function reliabilityFigures(output: EstimateOutput): KeyFigure[] {
  const r = output.reliability;
  return groupFigures('reliability', reasonFor(output, 'reliability model'), {
    'expected-failures': r?.expectedFailures ?? null,
    'checkpoint-interval': r?.checkpointIntervalMinutes ?? null,
    goodput: r?.goodput ?? null,
  });
}

function workFigures(output: EstimateOutput): KeyFigure[] {
  const valid = output.errors.length === 0;
  return groupFigures('work', INVALID_REASON, {
    'model-flops': valid ? output.flops.modelPerStep : null,
    'hardware-flops': valid ? output.flops.hardwarePerStep : null,
  });
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

// The key figures of two estimates side by side: the pinned one (A) and the current
// one (B), with B − A, B ÷ A and whether B is better or worse. "Better" is said in
// words, never by color alone; figures with no better direction (work per step, the
// checkpoint interval, HFU) only say that they differ.

import type { EstimateOutput } from '../../model/input/index.ts';
import {
  NOT_AVAILABLE, formatCo2Kg, formatCompactCount, formatDays, formatEnergyKwh, formatFlopRate, formatFlops, formatGiB,
  formatFlopsPerToken, formatGpuHours, formatMinutes, formatNumber, formatParameterCount, formatSeconds, formatTokensPerSecond, formatUsd,
} from '../format.ts';
import { keyFigures, type FigureUnit, type KeyFigure } from '../keyFigures.ts';

export type Verdict = 'better' | 'worse' | 'same' | 'differs' | 'unavailable';

export interface FigureComparison {
  readonly id: string;
  readonly label: string;
  readonly pinned: KeyFigure;
  readonly current: KeyFigure;
  /** B − A in the figure's unit; null when either is missing. */
  readonly delta: number | null;
  /** B ÷ A; null when either is missing or A is 0. */
  readonly ratio: number | null;
  readonly deltaText: string;
  readonly ratioText: string;
  readonly verdict: Verdict;
}

const LOWER_IS_BETTER = new Set(['memory-total', 'step-time', 'bubble-fraction', 'training-days', 'gpu-hours', 'cost-usd', 'energy', 'co2', 'expected-failures']);
const HIGHER_IS_BETTER = new Set(['mfu', 'tokens-per-second', 'tflops-per-gpu', 'goodput']);

/** Relative change below which two figures count as the same (rounding in the engine's sums). */
const SAME_RELATIVE = 1e-9;

/** Magnitudes of a change, in each unit's own display format; fractions as percentage points. */
const MAGNITUDE_FORMAT: Readonly<Record<FigureUnit, (value: number) => string>> = {
  bytes: formatGiB, fraction: (v) => `${formatNumber(v * 100)} pp`, seconds: formatSeconds, 'tokens/s': formatTokensPerSecond,
  'FLOP/s': formatFlopRate, days: formatDays, 'GPU-hours': formatGpuHours, USD: formatUsd, kWh: formatEnergyKwh,
  'kg CO2': formatCo2Kg, count: formatCompactCount, minutes: formatMinutes, FLOP: formatFlops,
};

export function formatDelta(delta: number, unit: FigureUnit): string {
  if (!Number.isFinite(delta)) return NOT_AVAILABLE;
  const magnitude = MAGNITUDE_FORMAT[unit](Math.abs(delta));
  if (magnitude === NOT_AVAILABLE) return magnitude;
  if (delta === 0) return `±${magnitude}`;
  return `${delta < 0 ? '−' : '+'}${magnitude}`;
}

export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return NOT_AVAILABLE;
  const digits = ratio >= 100 ? 0 : ratio >= 10 ? 1 : 2;
  return `×${ratio.toFixed(digits)}`;
}

function verdictOf(id: string, a: number, b: number): Verdict {
  const scale = Math.max(Math.abs(a), Math.abs(b));
  if (scale === 0 || Math.abs(b - a) <= SAME_RELATIVE * scale) return 'same';
  if (LOWER_IS_BETTER.has(id)) return b < a ? 'better' : 'worse';
  if (HIGHER_IS_BETTER.has(id)) return b > a ? 'better' : 'worse';
  return 'differs';
}

function compareOne(pinned: KeyFigure, current: KeyFigure): FigureComparison {
  const a = pinned.value;
  const b = current.value;
  const base = { id: current.id, label: current.label, pinned, current };
  if (a === null || b === null) {
    return { ...base, delta: null, ratio: null, deltaText: NOT_AVAILABLE, ratioText: NOT_AVAILABLE, verdict: 'unavailable' };
  }
  const delta = b - a;
  const ratio = a !== 0 ? b / a : null;
  return {
    ...base, delta, ratio,
    deltaText: formatDelta(delta, current.unit),
    ratioText: ratio === null ? NOT_AVAILABLE : formatRatio(ratio),
    verdict: verdictOf(current.id, a, b),
  };
}

/** The model summary (interchange output `model`) as figures, so compare shows which model each side is. */
function modelFigures(output: EstimateOutput): KeyFigure[] {
  const m = output.model;
  const row = (id: string, label: string, unit: FigureUnit, value: number | undefined, format: (v: number) => string, explanation: string): KeyFigure => ({
    id, group: 'work', label, unit, explanation, headline: false,
    value: value ?? null, text: value === undefined ? NOT_AVAILABLE : format(value),
    unavailableReason: value === undefined ? 'the configuration is invalid' : null,
  });
  return [
    row('model-parameters', 'Parameters', 'count', m?.parameters, formatParameterCount, 'Every weight, embeddings and every expert included'),
    row('model-active-parameters', 'Active parameters', 'count', m?.activeParameters, formatParameterCount, 'Weights one token runs through: shared + top-k experts'),
    row('model-flops-per-token', 'FLOPs per token', 'FLOP', m?.flopsPerToken, formatFlopsPerToken, 'Forward and backward of one token: 6N plus attention'),
  ];
}

/** Every key figure of B next to the same figure of A, in display order, after the model summary. */
export function compareFigures(pinned: EstimateOutput, current: EstimateOutput): readonly FigureComparison[] {
  const pinnedById = new Map([...modelFigures(pinned), ...keyFigures(pinned)].map((f) => [f.id, f]));
  return [...modelFigures(current), ...keyFigures(current)].flatMap((figure) => {
    const other = pinnedById.get(figure.id);
    return other ? [compareOne(other, figure)] : [];
  });
}

export const VERDICT_TEXT: Readonly<Record<Verdict, string>> = {
  better: 'better', worse: 'worse', same: 'same', differs: 'differs', unavailable: 'not comparable',
};

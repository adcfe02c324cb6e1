// The key figures of two estimates side by side: the pinned one (A) and the current
// one (B), with B − A, B ÷ A and whether B is better or worse. "Better" is said in
// words, never by color alone; figures with no better direction (work per step, the
// checkpoint interval, HFU) only say that they differ. Memory is judged by headroom:
// the share of each configuration's own GPU capacity it uses, so 66.6 GiB of 186 is
// better than 37.5 GiB of 80.

import type { EstimateOutput } from '../../model/input/index.ts';
import { NOT_AVAILABLE, formatFlopsPerToken, formatParameterCount } from '../format.ts';
import { keyFigures, UNIT_MAGNITUDE, type FigureUnit, type KeyFigure } from '../keyFigures.ts';

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

/** Memory figures: better is a smaller share of the configuration's own GPU capacity, not fewer bytes. */
const MEMORY_FIGURES = new Set(['memory-total', 'memory-allocated', 'memory-reserved']);
const LOWER_IS_BETTER = new Set([
  'step-time',
  'bubble-fraction',
  'training-days',
  'gpu-hours',
  'cost-usd',
  'energy',
  'co2',
  'expected-failures',
]);
const HIGHER_IS_BETTER = new Set(['mfu', 'tokens-per-second', 'tflops-per-gpu', 'goodput']);

/** Relative change below which two figures count as the same (rounding in the engine's sums). */
const SAME_RELATIVE = 1e-9;

export function formatDelta(delta: number, unit: FigureUnit): string {
  if (!Number.isFinite(delta)) return NOT_AVAILABLE;
  const magnitude = UNIT_MAGNITUDE[unit](Math.abs(delta));
  if (magnitude === NOT_AVAILABLE) return magnitude;
  if (delta === 0) return `±${magnitude}`;
  return `${delta < 0 ? '−' : '+'}${magnitude}`;
}

export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return NOT_AVAILABLE;
  const digits = ratio >= 100 ? 0 : ratio >= 10 ? 1 : 2;
  return `×${ratio.toFixed(digits)}`;
}

/** B against A when `better` says which way is better (null: neither way). */
function directedVerdict(a: number, b: number, better: 'lower' | 'higher' | null): Verdict {
  const scale = Math.max(Math.abs(a), Math.abs(b));
  if (scale === 0 || Math.abs(b - a) <= SAME_RELATIVE * scale) return 'same';
  if (better === 'lower') return b < a ? 'better' : 'worse';
  if (better === 'higher') return b > a ? 'better' : 'worse';
  return 'differs';
}

function verdictOf(id: string, a: number, b: number): Verdict {
  return directedVerdict(a, b, LOWER_IS_BETTER.has(id) ? 'lower' : HIGHER_IS_BETTER.has(id) ? 'higher' : null);
}

/** What the device holds as a share of the GPU's capacity (memory.fits judges deviceUsed against capacity); NaN without a capacity. */
export function memoryShareOfCapacity(output: EstimateOutput): number {
  const { deviceUsed, capacity } = output.memory;
  return capacity > 0 ? deviceUsed / capacity : NaN;
}

/** A memory figure against its own GPU's capacity: the headroom it leaves, comparable across GPUs. */
function shareOf(figure: KeyFigure, output: EstimateOutput): number | null {
  const { capacity } = output.memory;
  return figure.value !== null && capacity > 0 ? figure.value / capacity : null;
}

/** Better or worse headroom: the smaller share of its own capacity is better (the same share is the same). */
export function headroomVerdict(pinnedShare: number, currentShare: number): Verdict {
  if (!Number.isFinite(pinnedShare) || !Number.isFinite(currentShare)) return 'unavailable';
  return directedVerdict(pinnedShare, currentShare, 'lower');
}

function compareOne(
  pinned: KeyFigure,
  current: KeyFigure,
  outputs?: { readonly pinned: EstimateOutput; readonly current: EstimateOutput },
): FigureComparison {
  const a = pinned.value;
  const b = current.value;
  const base = { id: current.id, label: current.label, pinned, current };
  if (a === null || b === null) {
    return { ...base, delta: null, ratio: null, deltaText: NOT_AVAILABLE, ratioText: NOT_AVAILABLE, verdict: 'unavailable' };
  }
  const delta = b - a;
  const ratio = a !== 0 ? b / a : null;
  const shares = outputs && MEMORY_FIGURES.has(current.id) ? [shareOf(pinned, outputs.pinned), shareOf(current, outputs.current)] : null;
  return {
    ...base,
    delta,
    ratio,
    deltaText: formatDelta(delta, current.unit),
    ratioText: ratio === null ? NOT_AVAILABLE : formatRatio(ratio),
    verdict: shares ? headroomVerdict(shares[0] ?? NaN, shares[1] ?? NaN) : verdictOf(current.id, a, b),
  };
}

/** The model summary (interchange output `model`) as figures, so compare shows which model each side is. */
function modelFigures(output: EstimateOutput): KeyFigure[] {
  const m = output.model;
  const row = (
    id: string,
    label: string,
    unit: FigureUnit,
    value: number | undefined,
    format: (v: number) => string,
    explanation: string,
  ): KeyFigure => ({
    id,
    group: 'work',
    label,
    unit,
    explanation,
    headline: false,
    value: value ?? null,
    text: value === undefined ? NOT_AVAILABLE : format(value),
    unavailableReason: value === undefined ? 'the configuration is invalid' : null,
  });
  return [
    row(
      'model-parameters',
      'Parameters',
      'count',
      m?.parameters,
      formatParameterCount,
      'Every weight, embeddings and every expert included',
    ),
    row(
      'model-active-parameters',
      'Active parameters',
      'count',
      m?.activeParameters,
      formatParameterCount,
      'Weights one token runs through: shared + top-k experts',
    ),
    row(
      'model-flops-per-token',
      'FLOPs per token',
      'FLOP',
      m?.flopsPerToken,
      formatFlopsPerToken,
      'Forward and backward of one token: 6N plus attention',
    ),
  ];
}

/** Every key figure of B next to the same figure of A, in display order, after the model summary. */
export function compareFigures(pinned: EstimateOutput, current: EstimateOutput): readonly FigureComparison[] {
  const pinnedById = new Map([...modelFigures(pinned), ...keyFigures(pinned)].map((f) => [f.id, f]));
  return [...modelFigures(current), ...keyFigures(current)].flatMap((figure) => {
    const other = pinnedById.get(figure.id);
    return other ? [compareOne(other, figure, { pinned, current })] : [];
  });
}

export const VERDICT_TEXT: Readonly<Record<Verdict, string>> = {
  better: 'better',
  worse: 'worse',
  same: 'same',
  differs: 'differs',
  unavailable: 'not comparable',
};

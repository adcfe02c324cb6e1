// Geometry and per-stage statistics for the pipeline chart, kept apart from the
// drawing so they can be tested without a DOM.

import { useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type { BlockKind, Timeline } from '../../model/input/index.ts';

/** Room for the row labels, "Stage 16" at 11 px. */
const MARGIN_LEFT = 60;
const MARGIN_RIGHT = 16;
const MARGIN_TOP = 4;
const AXIS_HEIGHT = 24;
const MIN_WIDTH = 320;
/** Rows share about `allRows` pixels; each row's height stays between `min` and `max`. */
const ROW_HEIGHT = { allRows: 420, min: 3, max: 28 } as const;

export interface ChartGeometry {
  readonly width: number;
  readonly height: number;
  readonly left: number;
  readonly plotWidth: number;
  readonly plotBottom: number;
  readonly rowHeight: number;
  readonly rowGap: number;
  readonly span: number;
  readonly x: (seconds: number) => number;
  readonly rowTop: (stage: number) => number;
}

/** The time the chart spans: the makespan, or the last block's end when the makespan is missing. */
export function timelineSpan(timeline: Timeline): number {
  if (Number.isFinite(timeline.makespanSeconds) && timeline.makespanSeconds > 0) return timeline.makespanSeconds;
  let end = 0;
  for (const block of timeline.blocks) if (Number.isFinite(block.endSeconds) && block.endSeconds > end) end = block.endSeconds;
  return end;
}

/** `origin`: the time at the plot's left edge, for a window moved along the step (0: the step's start). */
export function chartGeometry(stages: number, span: number, containerWidth: number, origin = 0): ChartGeometry {
  const width = Math.max(MIN_WIDTH, Math.floor(containerWidth));
  const rows = Math.max(1, stages);
  const rowHeight = Math.min(ROW_HEIGHT.max, Math.max(ROW_HEIGHT.min, Math.floor(ROW_HEIGHT.allRows / rows)));
  const rowGap = rowHeight >= 10 ? 2 : 0;
  const plotWidth = width - MARGIN_LEFT - MARGIN_RIGHT;
  const plotBottom = MARGIN_TOP + rows * rowHeight;
  const scale = span > 0 ? plotWidth / span : 0;
  return {
    width,
    height: plotBottom + AXIS_HEIGHT,
    left: MARGIN_LEFT,
    plotWidth,
    plotBottom,
    rowHeight,
    rowGap,
    span,
    x: (seconds) => MARGIN_LEFT + (seconds - origin) * scale,
    rowTop: (stage) => MARGIN_TOP + stage * rowHeight,
  };
}

/** The round tick step (1, 2 or 5 × 10^k) at or above `raw`. */
export function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
}

/** About `count` round tick values (1, 2 or 5 × 10^k apart) from 0 to span. */
export function niceTicks(span: number, count: number): number[] {
  if (!(span > 0) || !Number.isFinite(span)) return [0];
  const step = niceStep(span / Math.max(1, count));
  const ticks: number[] = [];
  for (let i = 0; i * step <= span * (1 + 1e-9); i++) ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}

export interface StageStats {
  readonly stage: number;
  readonly busySeconds: number;
  readonly idleSeconds: number;
  readonly idleFraction: number;
  readonly blocks: Readonly<Record<BlockKind, number>>;
}

/** Busy time is the union of a stage's blocks, so overlapping blocks are not counted twice. */
export function stageStats(timeline: Timeline, span: number): StageStats[] {
  const perStage = Array.from({ length: timeline.stages }, () => ({ intervals: [] as [number, number][], F: 0, B: 0, W: 0 }));
  for (const block of timeline.blocks) {
    const entry = perStage[block.stage];
    if (!entry) continue;
    entry.intervals.push([block.startSeconds, block.endSeconds]);
    entry[block.kind] += 1;
  }
  return perStage.map((entry, stage) => {
    const busySeconds = unionLength(entry.intervals);
    const idleSeconds = Math.max(0, span - busySeconds);
    return {
      stage,
      busySeconds,
      idleSeconds,
      idleFraction: span > 0 ? idleSeconds / span : 0,
      blocks: { F: entry.F, B: entry.B, W: entry.W },
    };
  });
}

function unionLength(intervals: [number, number][]): number {
  intervals.sort((a, b) => a[0] - b[0]);
  let total = 0;
  let runStart = Number.NEGATIVE_INFINITY;
  let runEnd = Number.NEGATIVE_INFINITY;
  for (const [start, end] of intervals) {
    if (start > runEnd) {
      if (runEnd > runStart) total += runEnd - runStart;
      runStart = start;
      runEnd = end;
    } else if (end > runEnd) {
      runEnd = end;
    }
  }
  if (runEnd > runStart) total += runEnd - runStart;
  return total;
}

/** The element's content width, following resizes; `fallback` until measured (and outside a browser). */
export function useElementWidth<T extends HTMLElement>(fallback: number): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const measured = Math.floor(entries[0]?.contentRect.width ?? 0);
      if (measured > 0) setWidth((current) => (current === measured ? current : measured));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** Narrowest block, in pixels, that still carries its micro-batch number (two digits at 10 px). */
export const MIN_READABLE_BLOCK_PX = 28;

/** A short block's length (seconds), the lower quartile: a forward, which runs about a third of a forward and backward pair. */
export function typicalBlockSeconds(timeline: Timeline): number {
  const lengths = timeline.blocks
    .map((b) => b.endSeconds - b.startSeconds)
    .filter((d) => Number.isFinite(d) && d > 0)
    .sort((a, b) => a - b);
  return lengths[Math.floor(lengths.length / 4)] ?? 0;
}

/**
 * The time window that shows the step's first micro-batches at full size: as long as
 * `plotWidth` pixels hold with the typical block MIN_READABLE_BLOCK_PX wide, never more
 * than the step. Equal to `span` when the whole step is readable already.
 */
export function readableWindow(timeline: Timeline, span: number, plotWidth: number): number {
  const block = typicalBlockSeconds(timeline);
  if (!(block > 0) || !(plotWidth > 0)) return span;
  return Math.min(span, (block * plotWidth) / MIN_READABLE_BLOCK_PX);
}

export type WindowPlace = 'start' | 'steady' | 'cooldown';

/**
 * Where a zoomed window of `window` seconds starts for each named place of a `span`-second step: the fill at the start,
 * the steady state in the middle (every stage busy, the schedule's repeating pattern), the drain at the end.
 */
export function windowStart(place: WindowPlace, span: number, window: number): number {
  const last = Math.max(0, span - window);
  if (place === 'start') return 0;
  return place === 'steady' ? last / 2 : last;
}

/** A window start kept inside the step: never before 0, never so late that the window runs past the end. */
export function clampWindowStart(start: number, span: number, window: number): number {
  const last = Math.max(0, span - window);
  return Number.isFinite(start) ? Math.min(last, Math.max(0, start)) : 0;
}

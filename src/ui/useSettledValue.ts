// The value once it has stopped changing for `quietMs`: while a slider is dragged the
// figures follow every move and the charts (the costly part of a render: recharts and
// thousands of timeline blocks) redraw once the input settles.
//
// Each chart settles at its own moment (SETTLE_MS), so each redraws in a task of its
// own rather than all in one long one; the update is a transition, so React yields
// between its parts and a new input is never kept waiting behind a redraw.
import { startTransition, useEffect, useState } from 'react';

export const CHART_SETTLE_MS = 120;

/** When each deferred part of the page follows a settled input: a separate task for each, costliest first. */
export const SETTLE_MS = {
  memoryChart: CHART_SETTLE_MS,
  pipelineChart: CHART_SETTLE_MS + 40,
  stepBreakdownChart: CHART_SETTLE_MS + 80,
  /** The link, the search form and the calibration text: cheap, after the charts. */
  rest: CHART_SETTLE_MS + 120,
} as const;

export function useSettledValue<T>(value: T, quietMs = CHART_SETTLE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return undefined;
    const timer = setTimeout(() => startTransition(() => setSettled(value)), quietMs);
    return () => clearTimeout(timer);
  }, [value, settled, quietMs]);
  return settled;
}

/**
 * `value`, taken up `delayMs` after it changes and null until it first arrives: parts of one
 * picture (the trade-off panel's charts) given staggered delays mount and redraw one per
 * task, so no single commit carries them all.
 */
export function useStaggeredValue<T>(value: T, delayMs: number): T | null {
  const [shown, setShown] = useState<T | null>(null);
  useEffect(() => {
    if (Object.is(value, shown)) return undefined;
    const timer = setTimeout(() => startTransition(() => setShown(() => value)), delayMs);
    return () => clearTimeout(timer);
  }, [value, shown, delayMs]);
  return shown;
}

// What is not needed for the first answer waits for the browser to be idle after the
// first paint: the charts under the memory chart, then the panels below the fold (search,
// launch arguments, exports, calibration). Each waits for its own idle moment (its round),
// so the page's load is a row of short tasks instead of one long one (Lighthouse's total
// blocking time, issue 16 item 9). A round waits at most IDLE_TIMEOUT_MS.

import { Suspense, startTransition, useEffect, useState, type ReactNode } from 'react';

/** The longest one round waits for an idle moment. */
const IDLE_TIMEOUT_MS = 700;

/** Rounds already reached on this page: a later mount of a deferred part (after comparing, say) shows at once. */
let roundsReached = 0;

function afterIdle(callback: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(callback, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(callback, 100);
  return () => window.clearTimeout(handle);
}

/** True once `round` idle moments have passed since the page first rendered. */
export function useIdle(round = 1): boolean {
  const [reached, setReached] = useState(roundsReached);
  useEffect(() => {
    if (reached >= round) return undefined;
    return afterIdle(() => {
      const next = Math.max(roundsReached, reached + 1);
      roundsReached = next;
      // A transition: React renders what appears in slices that yield, not in one long task.
      startTransition(() => setReached(next));
    });
  }, [reached, round]);
  return reached >= round;
}

/** Renders its children (usually a React.lazy panel) once `round` idle moments have passed; `fallback` before. */
export function WhenIdle({ children, round = 1, fallback = null }: { children: ReactNode; round?: number; fallback?: ReactNode }) {
  const idle = useIdle(round);
  return idle ? <Suspense fallback={fallback}>{children}</Suspense> : fallback;
}

// The pinned configurations' own estimator: a second worker behind its own
// latest-request-wins client (worker/client.ts), started only while a pinned
// configuration waits for its estimate (pins from a link, or pinned before the first
// answer) and disposed as soon as none waits. It estimates one pin at a time, the
// first that waits, so a later request never cancels an earlier one. The current
// configuration's estimator never queues behind it.

import { useEffect, useRef } from 'react';
import type { Doc } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { createEstimator, type Estimator } from '../../worker/client.ts';
import { createEngineWorker } from '../../worker/start-workers.ts';

export function usePinnedEstimate(): void {
  const store = usePlannerStore();
  const waiting = usePlanner((s) => s.pinned.find((p) => p.output === null && p.errors.length === 0)?.document ?? null);
  const estimator = useRef<Estimator | null>(null);
  const anyWaiting = waiting !== null;
  useEffect(() => {
    if (!anyWaiting) return undefined;
    const created = createEstimator({
      createWorker: createEngineWorker,
      onResult: (output, document) => store.getState().receivePinned(output, document as Doc),
      onRestart: (message) => store.getState().engineRestarted(message),
    });
    estimator.current = created;
    return () => {
      created.dispose();
      estimator.current = null;
    };
  }, [anyWaiting, store]);
  useEffect(() => {
    if (waiting) estimator.current?.request(waiting);
  }, [waiting, anyWaiting]);
}

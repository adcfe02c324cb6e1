// The pinned configuration's own estimator: a second worker behind its own
// latest-request-wins client (worker/client.ts), started only while a pinned
// configuration waits for its estimate (one from a link, or pinned before the first
// answer) and disposed as soon as it has one. The current configuration's estimator
// never queues behind it.

import { useEffect } from 'react';
import type { Doc } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { createEstimator } from '../../worker/client.ts';
import { createEngineWorker } from '../../worker/create-worker.ts';

export function usePinnedEstimate(): void {
  const store = usePlannerStore();
  const waiting = usePlanner((s) => (s.pinned && s.pinned.output === null && s.pinned.errors.length === 0 ? s.pinned.document : null));
  useEffect(() => {
    if (!waiting) return undefined;
    const estimator = createEstimator({
      createWorker: createEngineWorker,
      onResult: (output, document) => store.getState().receivePinned(output, document as Doc),
      onRestart: (message) => store.getState().engineRestarted(message),
    });
    estimator.request(waiting);
    return () => estimator.dispose();
  }, [waiting, store]);
}

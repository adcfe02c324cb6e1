import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { connectAddressBar, connectEstimator, readStartPoint } from './state/connect.ts';
import type { Doc } from './state/doc.ts';
import { PlannerContext } from './state/react.ts';
import { createPlannerStore } from './state/store.ts';
import { readHash } from './state/url-codec.ts';
import { App } from './ui/App.tsx';
import { createEstimator } from './worker/client.ts';
import { createEngineWorker } from './worker/start-workers.ts';
import { warmNumberFormats } from './worker/warm-formats.ts';

async function start(root: HTMLElement): Promise<void> {
  // First: a worker makes the number formats the first render needs, off the main thread (warm-formats.ts).
  const formatsReady = warmNumberFormats();
  const startPoint = await readStartPoint(window.location);
  const store = createPlannerStore(startPoint.document, startPoint.embed);
  store.getState().setLinkError(startPoint.linkError);
  const estimator = createEstimator({
    createWorker: createEngineWorker,
    onResult: (output, document) => store.getState().receive(output, document as Doc),
    onRestart: (message) => store.getState().engineRestarted(message),
  });
  connectEstimator(store, estimator);
  if (!startPoint.embed) connectAddressBar(store, window);
  // A link pasted into the address bar of an open page changes only the hash.
  window.addEventListener('hashchange', () => {
    void readHash(window.location.hash).then((read) => {
      if (read.kind === 'document') store.getState().replaceDocument(read.document);
      else if (read.kind === 'error') store.getState().setLinkError(read.message);
    });
  });
  // The first render is a transition, so React renders it in slices of a few ms that yield
  // to the browser instead of one long task (Lighthouse's total blocking time, issue 16 item 9).
  const reactRoot = createRoot(root);
  await formatsReady;
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <PlannerContext value={store}>
          <App />
        </PlannerContext>
      </StrictMode>,
    );
  });
}

const root = document.getElementById('root');
if (root) void start(root);

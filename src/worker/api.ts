// The one object the estimator worker exposes (comlink). The page sees it only as a
// type (`import type { EngineApi }`, `wrap<EngineApi>()`), so the engine's code is
// bundled into the worker and never into the page's first script.

import { estimate, invalidOutput } from '../model/estimate.ts';
import type { EstimateOutput } from '../model/types.ts';

export const engineApi = {
  /** The engine's estimate for an untrusted interchange document; errors come back as field-named values, never as exceptions. */
  estimate(document: unknown): EstimateOutput {
    try {
      return estimate(document);
    } catch (error) {
      // The engine promises not to throw; if it ever does, the page still gets a value it can show.
      const message = error instanceof Error ? error.message : String(error);
      return invalidOutput([`engine: failed on this configuration (${message.slice(0, 200)})`], []);
    }
  },
};

export type EngineApi = typeof engineApi;

// The fixes' Web Worker (fit-suggestions.ts through suggest-client.ts): the estimator's own API
// (comlink), in a script of its own, so the page can start it beside the estimator (for every
// edit, in parallel with the estimate) without touching the estimator's worker.

import { expose } from 'comlink';
import { engineApi } from './api.ts';

expose(engineApi);

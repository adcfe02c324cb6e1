// The estimator's Web Worker: exposes engineApi to the page through comlink.

// First, before the engine's modules run: the number formats the page's first render needs.
import './warm-intl.ts';
import { expose } from 'comlink';
import { engineApi } from './api.ts';

expose(engineApi);

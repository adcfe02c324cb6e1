// The estimator's Web Worker: exposes engineApi to the page through comlink.

import { expose } from 'comlink';
import { engineApi } from './api.ts';

expose(engineApi);

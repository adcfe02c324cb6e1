// The training-log reader's Web Worker: exposes logApi to the page through comlink.

import { expose } from 'comlink';
import { logApi } from './log-api.ts';

expose(logApi);

// The layout search's Web Worker: started only when the page's search runs, so it costs
// nothing at start-up, and its long searches never queue behind the estimator.

import { expose } from 'comlink';
import { createSearchApi } from './search-api.ts';

expose(createSearchApi());

// A worker that only makes the page's number formats (warm-intl.ts), then says so and ends.
// See warm-formats.ts for why.

import './warm-intl.ts';

self.postMessage('ready');
self.close();

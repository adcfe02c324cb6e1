// Number formats (Intl, ICU) cost a few tens of milliseconds the first time a page uses them
// (ICU loads its locale data), and the page's first render formats numbers. ICU's data and
// caches are the renderer process's, shared by its threads: made here first, in the
// estimator worker (engine.worker.ts imports this before the engine), the page's first
// format then costs nothing on its main thread (Lighthouse's total blocking time, issue 31
// item 6). The formats are those of src/ui/format.ts: plain numbers and US dollars.

new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(1234.5);
new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact' }).format(12345);

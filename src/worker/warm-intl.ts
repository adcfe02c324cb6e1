// The number formats the page's first render makes (src/ui/format.ts: plain, compact, US
// dollars), made once. Imported by formats.worker.ts, off the page's main thread.

new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(1234.5);
new Intl.NumberFormat('en-US', { notation: 'compact', compactDisplay: 'long', maximumSignificantDigits: 3 }).format(1e12);
new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact' }).format(12345);

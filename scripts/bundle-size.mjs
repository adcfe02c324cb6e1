// Prints the gzip size of the JavaScript the page loads first (the entry chunk and
// what index.html preloads), and of every chunk, so the 200 kB budget is visible.
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = 'dist';
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = new Set([...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]));
const kB = (n) => (n / 1000).toFixed(1) + ' kB';
let initialGzip = 0;
for (const file of readdirSync(join(dist, 'assets'))
  .filter((f) => f.endsWith('.js'))
  .sort()) {
  const gz = gzipSync(readFileSync(join(dist, 'assets', file))).length;
  const isInitial = initial.has(`assets/${file}`);
  if (isInitial) initialGzip += gz;
  console.log(`${isInitial ? 'initial' : 'lazy   '}  ${kB(gz).padStart(9)} gzip  ${file}`);
}
console.log(`initial JavaScript: ${kB(initialGzip)} gzip (budget 200 kB)`);
if (initialGzip > 200_000) {
  console.error('initial JavaScript is over the 200 kB gzip budget');
  process.exit(1);
}

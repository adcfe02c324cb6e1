// Interaction latency of the page: the time from a slider's input event to the
// updated per-GPU memory figure (data-testid="memory-total") in the DOM, over 200
// moves of the TP slider between two values with different memory. Not a test: it
// prints p50/p95/max against the 16 ms target (one frame at 60 Hz).
//
// Usage: npm run bench:ui [-- --build] [-- --moves N]
// Builds dist/ when it is missing (or with --build), serves it with `vite preview`
// on 127.0.0.1:4318, and drives headless Chromium through Playwright.

/* global document, HTMLInputElement, requestAnimationFrame, MutationObserver -- measure() runs in the page */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { openBenchBrowser } from './bench-browser.mjs';

const PORT = 4318;
const TARGET_P95_MS = 16;
const args = process.argv.slice(2);
const moves = Number(args[args.indexOf('--moves') + 1]) || 200;

if (args.includes('--build') || !existsSync('dist/index.html')) {
  console.log('building dist/ …');
  const built = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const preview = spawn(
  process.execPath,
  ['node_modules/vite/bin/vite.js', 'preview', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort'],
  { stdio: 'ignore' },
);
const stopPreview = () => preview.exitCode === null && preview.kill();
process.on('exit', stopPreview);

/** Runs in the page: moves the TP slider `n` times and times each move to the memory figure's update. */
function measure(n) {
  const slider = [...document.querySelectorAll('input[type="range"]')].find((el) => el.labels?.[0]?.textContent?.includes('(TP)'));
  const results = document.querySelector('[data-testid="results"]');
  if (!slider || !results) throw new Error('TP slider or results not found');
  const figure = () => results.querySelector('[data-testid="memory-total"]');
  const shown = () => `${figure()?.textContent}|${figure()?.getAttribute('data-value')}`;
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  const idle = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 30))));
  const one = () =>
    new Promise((resolve) => {
      const before = shown();
      const index = Number(slider.value);
      const next = index > 0 ? index - 1 : index + 1;
      let start = 0;
      const observer = new MutationObserver(() => {
        if (shown() === before) return;
        observer.disconnect();
        clearTimeout(timer);
        resolve(performance.now() - start);
      });
      const timer = setTimeout(() => {
        observer.disconnect();
        resolve(null);
      }, 2000);
      observer.observe(results, { subtree: true, childList: true, characterData: true, attributes: true });
      start = performance.now();
      setValue.call(slider, String(next));
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    });
  return (async () => {
    const times = [];
    for (let i = 0; i < n; i++) {
      await idle();
      times.push(await one());
    }
    return times;
  })();
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const url = `http://127.0.0.1:${PORT}/`;
let browser;
try {
  browser = await openBenchBrowser(url);
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="results"] [data-testid="memory-total"]')?.getAttribute('data-value'),
  );
  await page.getByTestId('pipeline-chart').waitFor();
  // Warm-up moves (JIT, lazy chunks) are not counted.
  await page.evaluate(measure, 10);
  const times = await page.evaluate(measure, moves);
  const answered = times.filter((t) => t !== null).sort((a, b) => a - b);
  const missed = times.length - answered.length;
  if (answered.length === 0) throw new Error('the memory figure never changed');
  const ms = (t) => `${t.toFixed(1)} ms`;
  const p95 = percentile(answered, 95);
  console.log(`slider input → memory-total updated, ${answered.length} moves${missed ? ` (${missed} with no update in 2 s)` : ''}:`);
  console.log(`  p50 ${ms(percentile(answered, 50))}   p95 ${ms(p95)}   max ${ms(answered[answered.length - 1])}`);
  console.log(`  target p95 ≤ ${TARGET_P95_MS} ms: ${p95 <= TARGET_P95_MS ? 'met' : 'missed'}`);
} finally {
  await browser?.close();
  stopPreview();
}

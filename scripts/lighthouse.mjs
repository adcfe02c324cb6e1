// `npm run lighthouse`: Lighthouse (mobile defaults: Moto G Power emulation, simulated
// slow 4G and 4× CPU slowdown) against `vite preview` of a fresh production build, with the
// system Chromium. Prints the performance score and total blocking time. Not part of
// `npm test`: one run takes about a minute. LIGHTHOUSE_PORT picks the preview port.

import { spawn, execFileSync } from 'node:child_process';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const port = Number(process.env.LIGHTHOUSE_PORT ?? 4399);
const outDir = 'tmp/dist-lighthouse';
const url = `http://127.0.0.1:${port}/`;

execFileSync('npx', ['vite', 'build', '--outDir', outDir], { stdio: 'inherit' });
const preview = spawn('npx', ['vite', 'preview', '--outDir', outDir, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
  stdio: 'ignore',
  detached: true,
});

async function waitForServer() {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`vite preview did not answer at ${url}`);
}

let chrome;
try {
  await waitForServer();
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const result = await lighthouse(url, { port: chrome.port, onlyCategories: ['performance'], output: 'json', logLevel: 'error' });
  const { lhr } = result;
  const audit = (id) => lhr.audits[id]?.displayValue ?? 'n/a';
  console.log(`performance score: ${lhr.categories.performance.score}`);
  console.log(`total blocking time: ${audit('total-blocking-time')}`);
  console.log(
    `first contentful paint: ${audit('first-contentful-paint')}, largest contentful paint: ${audit('largest-contentful-paint')}, ` +
      `speed index: ${audit('speed-index')}, CLS: ${audit('cumulative-layout-shift')}`,
  );
  const lcpElement = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet;
  if (lcpElement) console.log(`largest contentful paint element: ${lcpElement}`);
  const bootup = lhr.audits['bootup-time']?.details?.items ?? [];
  for (const item of bootup.slice(0, 5))
    console.log(`  main-thread ${Math.round(item.total)} ms (script ${Math.round(item.scripting)} ms): ${item.url}`);
  const longTasks = lhr.audits['long-tasks']?.details?.items ?? [];
  for (const task of longTasks.slice(0, 6))
    console.log(`  long task ${Math.round(task.duration)} ms at ${Math.round(task.startTime)} ms: ${task.url}`);
} finally {
  await chrome?.kill();
  process.kill(-preview.pid);
}

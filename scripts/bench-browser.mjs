// What the browser benchmarks share: the wait for `vite preview`, the headless Chromium
// they measure in (Debian's where installed, else Playwright's), and the median.

import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

/** Polls `url` until it answers, or throws after `ms` milliseconds. @param {string} url @param {number} [ms] @returns {Promise<void>} */
export async function waitForServer(url, ms = 20_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`vite preview did not answer on ${url}`);
}

const executablePath = process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

/** Waits for the preview at `url`, then starts the benchmarks' Chromium. @param {string} url */
export async function openBenchBrowser(url) {
  await waitForServer(url);
  return chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
  });
}

/** The median of a non-empty list. @param {readonly number[]} values @returns {number} */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

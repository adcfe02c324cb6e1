// Issue 16 items 10 and 11: the built dist/, copied under a sub-path of a plain static
// host (here /tools/planner/ on a node:http server started by this spec, nothing else),
// opens with its workers and lazy chunks, shows the embed, and a copied share link
// opens there; the link-preview tags name files that the build ships.

import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';
import { test, expect, type Page } from '@playwright/test';

const port = Number(process.env['E2E_PORT'] ?? 4317);
// The folder the config built (playwright.config.ts: the webServer's --outDir).
const DIST = port === 4317 ? 'dist' : `tmp/dist-${port}`;
const SUB_PATH = '/tools/planner/';
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};

let server: Server;
let origin = '';

test.beforeAll(async () => {
  server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    if (!path.startsWith(SUB_PATH)) {
      response.writeHead(404).end();
      return;
    }
    const relative = normalize(path.slice(SUB_PATH.length) || 'index.html');
    if (relative.startsWith('..')) {
      response.writeHead(403).end();
      return;
    }
    const file = join(DIST, relative.endsWith('/') ? `${relative}index.html` : relative);
    readFile(file).then(
      (body) => response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Fails on console errors, page errors, and any request outside the sub-path or that the server could not answer. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (url.origin !== origin || !url.pathname.startsWith(SUB_PATH)) problems.push(`request outside ${SUB_PATH}: ${request.url()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} for ${response.url()}`);
  });
  return problems;
}

test('the page, a share link and the embed work under /tools/planner/ on a plain static server', async ({ page }) => {
  const problems = watch(page);
  await page.goto(`${origin}${SUB_PATH}`);
  const memory = page.getByTestId('results').getByTestId('memory-total');
  await expect(memory).toHaveAttribute('data-value', /\d/);
  await expect(page.locator('[data-testid="results"][aria-busy="true"]')).toHaveCount(0);
  const value = await memory.getAttribute('data-value');

  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByTestId('share-text')).toHaveValue(/#s=1\./);
  const link = await page.getByTestId('share-text').inputValue();
  expect(link.startsWith(`${origin}${SUB_PATH}`)).toBe(true);
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  await expect(page.getByTestId('share-text')).toHaveValue(/^<iframe/);
  const snippet = await page.getByTestId('share-text').inputValue();
  const src = (/src="([^"]+)"/.exec(snippet)?.[1] ?? '').replace(/&amp;/g, '&');
  expect(src.startsWith(`${origin}${SUB_PATH}?embed=1`)).toBe(true);

  await page.goto('about:blank');
  await page.goto(link);
  await expect(page.getByTestId('results').getByTestId('memory-total')).toHaveAttribute('data-value', value ?? '');

  await page.goto('about:blank');
  await page.goto(src);
  const embed = page.getByTestId('embed-view');
  await expect(embed.getByTestId('memory-total')).toHaveAttribute('data-value', value ?? '');
  for (const id of ['oom-verdict', 'embed-layout', 'memory-chart']) await expect(embed.getByTestId(id)).toBeVisible();
  expect(problems).toEqual([]);
});

test("the link-preview tags of the built index.html name files the build ships, and the manifest's icons exist", async ({ page }) => {
  const problems = watch(page);
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const named = [
    ...html.matchAll(
      /<(?:meta (?:property|name)="(?:og:image|twitter:image)" content|link rel="(?:icon|apple-touch-icon|manifest)"[^>]*? href)="([^"]+)"/g,
    ),
  ].map((m) => m[1] ?? '');
  for (const tag of ['og:title', 'og:description', 'og:image', 'twitter:card', 'twitter:image']) expect(html).toContain(`"${tag}"`);
  expect(named.length).toBeGreaterThanOrEqual(5);
  for (const url of named) {
    expect(url, 'relative, so dist/ works under any path').toMatch(/^\.\//);
    expect(existsSync(join(DIST, url)), `${url} is in ${DIST}`).toBe(true);
  }
  const manifest = JSON.parse(readFileSync(join(DIST, 'manifest.webmanifest'), 'utf8')) as { icons: { src: string }[] };
  for (const icon of manifest.icons) expect(existsSync(join(DIST, icon.src)), icon.src).toBe(true);
  // Served under the sub-path, each named file answers (the preview image is a 1200×630 PNG).
  await page.goto(`${origin}${SUB_PATH}`);
  for (const url of named) {
    const response = await page.request.get(new URL(url, `${origin}${SUB_PATH}`).href);
    expect(response.status(), url).toBe(200);
  }
  const preview = await page.request.get(`${origin}${SUB_PATH}preview.png`);
  const bytes = await preview.body();
  expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 630]);
  expect(problems).toEqual([]);
});

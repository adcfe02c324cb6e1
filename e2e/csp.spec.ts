import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, configFragment, figureValue, openPlanner, setSlider, ORIGIN_HOST } from './fixtures.ts';

// No network and a strict policy (issue "Hardening", part 4): the built page carries
// a Content-Security-Policy (scripts, workers and connections from its own origin
// only; docs/security.md), nothing it does during a full session violates it, no
// request leaves the origin, and markup typed into a model name or a Hugging Face
// config is shown as text, never run.

const LLAMA3_8B_CONFIG = JSON.parse(readFileSync(new URL('./data/llama3-8b-config.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;
const XSS = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2"><svg onload="window.__xss=3">';

/** Records CSP violations, dialogs and every request of the page, from before its first script runs. */
async function watch(page: Page): Promise<{ requests: string[]; dialogs: string[]; violations: () => Promise<string[]> }> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const requests: string[] = [];
  const dialogs: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { requests, dialogs, violations: () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations) };
}

async function expectNoScriptRan(page: Page, requests: readonly string[], dialogs: readonly string[]): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(await page.locator('img[src="x"], svg[onload], script:not([src])').count()).toBe(0);
  expect(requests.filter((url) => new URL(url).pathname === '/x')).toEqual([]);
  expect(dialogs).toEqual([]);
}

test("the built page ships the policy; a full session stays on the page's origin and never violates it", async ({ page }) => {
  const { requests, dialogs, violations } = await watch(page);
  await openPlanner(page);
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  for (const directive of [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
  ]) {
    expect(policy).toContain(directive);
  }
  expect(await page.locator('script:not([src])').count()).toBe(0);
  // The policy comes first in <head>, so it governs every script after it.
  expect(await page.evaluate(() => document.head.firstElementChild?.nextElementSibling?.getAttribute('http-equiv'))).toBe(
    'Content-Security-Policy',
  );

  const memory = await figureValue(page, 'memory-total');
  await setSlider(page, /\(TP\)/, 4);
  await setSlider(page, /\(PP\)/, 2);
  await setSlider(page, /\(MBS\)/, 2);
  await expect.poll(() => figureValue(page, 'memory-total')).not.toBe(memory);
  await page.getByLabel('Precision').selectOption('fp8');
  await page.getByLabel(/Import a Hugging Face config\.json/).fill(JSON.stringify(LLAMA3_8B_CONFIG));
  await page.getByRole('button', { name: 'Import pasted config' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Imported' })).toBeVisible();
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByTestId('share-text')).toHaveValue(/#s=1\./);

  // Exports: three text files and the PNG, drawn from the charts (SVG → data: image → canvas → blob:) under the policy.
  for (const name of ['Export JSON', 'Export Markdown', 'Export CSV', 'Save charts as PNG']) {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name }).click();
    const bytes = readFileSync(await (await download).path());
    expect(bytes.length, name).toBeGreaterThan(100);
    // PNG signature (RFC 2083 §3.1): \x89 P N G.
    if (name.includes('PNG')) expect([...bytes.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  }
  await expect(page.getByText(/Saved .*-charts\.png/)).toBeVisible();

  expect(await violations()).toEqual([]);
  expect(dialogs).toEqual([]);
  const outside = requests.filter((url) => !['data:', 'blob:'].includes(new URL(url).protocol) && new URL(url).host !== ORIGIN_HOST);
  expect(outside).toEqual([]);
  // The session did fetch things, all from the origin: the page, its scripts and the estimator's worker.
  expect(requests.some((url) => /\/assets\/engine\.worker-[\w-]+\.js$/.test(url))).toBe(true);
});

test('markup in a model name from a link is shown as text and never runs', async ({ page }) => {
  const { requests, dialogs, violations } = await watch(page);
  const document = {
    version: 1,
    model: { name: XSS, layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 },
    training: { seqLen: 4096, globalBatch: 64, microBatch: 2 },
    parallel: { tp: 2, pp: 2, dp: 4 },
    cluster: { gpu: 'a100-80gb', gpus: 16 },
  };
  await openPlanner(page, `/#${configFragment(document)}`);
  await expect(page.getByLabel('Model name')).toHaveValue(XSS);
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  // The snippet's title attribute escapes the markup (share.ts escapeAttribute).
  await expect(page.getByTestId('share-text')).toHaveValue(
    /title="LLM training plan: &lt;script&gt;window.__xss=1&lt;\/script&gt;&lt;img src=x onerror=&quot;/,
  );

  await page.goto(`/?embed=1#${configFragment(document)}`);
  await expect(page.getByTestId('embed-view').getByRole('heading', { level: 1 })).toContainText(XSS);
  await expect(page.getByTestId('embed-view').getByTestId('memory-total')).toHaveAttribute('data-value', /\d/);
  await expectNoScriptRan(page, requests, dialogs);
  expect(await violations()).toEqual([]);
});

test('markup in an imported Hugging Face config.json is shown as text and never runs', async ({ page }) => {
  const { requests, dialogs, violations } = await watch(page);
  await openPlanner(page);
  const config = { ...LLAMA3_8B_CONFIG, _name_or_path: XSS, [XSS]: XSS };
  await page.getByLabel(/Import a Hugging Face config\.json/).fill(JSON.stringify(config));
  await page.getByRole('button', { name: 'Import pasted config' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Imported ${XSS}.` })).toBeVisible();
  await expect(page.getByLabel('Model name')).toHaveValue(XSS);

  // A refused config echoes the offending value in its error: as text too.
  await page.getByLabel(/Import a Hugging Face config\.json/).fill(JSON.stringify({ architectures: [XSS], model_type: XSS }));
  await page.getByRole('button', { name: 'Import pasted config' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'could not be imported' })).toContainText('<script>window.__xss=1');
  await expectNoScriptRan(page, requests, dialogs);
  expect(await violations()).toEqual([]);
});

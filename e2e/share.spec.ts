import { test, expect, allFigures, configFragment, figureValue, openPlanner, setSlider, slider, ORIGIN_HOST } from './fixtures.ts';

/** The page's own address, escaped for a regular expression (the port follows E2E_PORT). */
const ORIGIN = `http://${ORIGIN_HOST}/`.replace(/[.:/]/g, (c) => `\\${c}`);

test('the URL follows the configuration without adding history entries', async ({ page }) => {
  await openPlanner(page);
  const historyLength = await page.evaluate(() => history.length);
  await setSlider(page, /\(TP\)/, 4);
  await setSlider(page, /\(PP\)/, 2);
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=1\.[A-Za-z0-9_-]+$/);
  expect(await page.evaluate(() => history.length)).toBe(historyLength);
});

test('a copied link opened in a new page reproduces every figure and control', async ({ page, context }) => {
  await openPlanner(page);
  await setSlider(page, /\(TP\)/, 4);
  await setSlider(page, /\(MBS\)/, 4);
  await page.getByLabel('Precision').selectOption('fp8');
  await expect(page.getByTestId('results')).toHaveAttribute('data-answers', /\d/);
  await expect.poll(() => figureValue(page, 'mfu')).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByTestId('share-text').inputValue();
  expect(link).toMatch(new RegExp(`^${ORIGIN}#s=1\\.`));
  const figures = await allFigures(page);
  expect(Object.keys(figures).length).toBeGreaterThan(10);

  const other = await context.newPage();
  await openPlanner(other, link);
  await expect(slider(other, /\(TP\)/)).toHaveAttribute('aria-valuetext', '4');
  await expect(slider(other, /\(MBS\)/)).toHaveAttribute('aria-valuetext', '4');
  await expect(other.getByLabel('Precision')).toHaveValue('fp8');
  await expect.poll(() => allFigures(other)).toEqual(figures);
});

test('the embed code is an iframe of ?embed=1, a read-only card with a link back to the full page', async ({ page }) => {
  await openPlanner(page);
  await setSlider(page, /\(TP\)/, 4);
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  const snippet = await page.getByTestId('share-text').inputValue();
  expect(snippet).toMatch(
    new RegExp(
      `^<iframe src="${ORIGIN}\\?embed=1#s=1\\.[A-Za-z0-9_-]+" title="LLM training plan: Llama 3 70B on 64 × NVIDIA H100 SXM5 80GB"`,
    ),
  );
  const src = /src="([^"]+)"/.exec(snippet)?.[1] ?? '';
  const memory = await figureValue(page, 'memory-total');

  await page.setViewportSize({ width: 700, height: 450 });
  await page.goto(src.replace(/&amp;/g, '&'));
  const embed = page.getByTestId('embed-view');
  await expect(embed).toBeVisible();
  await expect(embed.getByTestId('memory-total')).toHaveAttribute('data-value', String(memory));
  for (const id of ['mfu', 'step-time', 'oom-verdict', 'embed-layout', 'memory-chart']) await expect(embed.getByTestId(id)).toBeVisible();
  await expect(page.getByRole('slider')).toHaveCount(0);
  const back = page.getByRole('link', { name: /Open in the full planner/ });
  await expect(back).toHaveAttribute('href', new RegExp(`^${ORIGIN}#s=1\\.`));
  // Fits its frame (share.ts EMBED_WIDTH × EMBED_HEIGHT): nothing wider than the 700 px viewport (e2e/embed-card.spec.ts checks the height).
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(700);
});

test('a #config= link opens the configuration it encodes (with or without padding)', async ({ page }) => {
  const document = {
    version: 1,
    model: { name: 'Llama 3 8B', layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 },
    training: { seqLen: 4096, globalBatch: 64, microBatch: 2 },
    parallel: { tp: 2, pp: 2, dp: 4 },
    cluster: { gpu: 'a100-80gb', gpus: 16 },
  };
  for (const padded of [false, true]) {
    await openPlanner(page, `/#${configFragment(document, padded)}`);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByLabel('Layers (L)')).toHaveValue('32');
    await expect(page.getByLabel('GPU', { exact: true })).toHaveValue('a100-80gb');
    await expect(page.getByLabel('Cluster size (GPUs)')).toHaveValue('16');
    await expect(slider(page, /\(TP\)/)).toHaveAttribute('aria-valuetext', '2');
    await expect(slider(page, /\(PP\)/)).toHaveAttribute('aria-valuetext', '2');
    await expect(slider(page, /\(MBS\)/)).toHaveAttribute('aria-valuetext', '2');
    await page.goto('about:blank');
  }
});

test('a malformed link shows an alert and the default configuration, never a blank page', async ({ page }) => {
  const links = [
    ['damaged share link', '#s=1.not-a-real-link'],
    ['#config= that is not base64url', '#config=%%%!!'],
    ['unknown link format', '#s=99.abc'],
  ];
  for (const [what, hash] of links) {
    await openPlanner(page, `/${hash}`);
    await expect(page.getByRole('alert').filter({ hasText: 'Showing the default configuration' }), what).toContainText('cannot be read');
    await expect(page.getByLabel('Model preset'), what).toHaveValue('llama3-70b');
    await expect(slider(page, /\(TP\)/), what).toHaveAttribute('aria-valuetext', '8');
    await expect(page.getByTestId('memory-total'), what).not.toHaveText(/NaN|Infinity|^\s*$/);
    await page.goto('about:blank');
  }
});

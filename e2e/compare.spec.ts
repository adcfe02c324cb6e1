import { test, expect, figureValue, openPlanner, setSlider } from './fixtures.ts';
import { readHash, readPinsHash } from '../src/state/url-codec.ts';
import { DEFAULT_DOCUMENT } from '../src/state/defaults.ts';

const value = async (locator: import('@playwright/test').Locator) => Number(await locator.getAttribute('data-value'));

test('pin, change TP: both configurations side by side with Δ, ratio and a verdict in words; removing the pins returns to one view', async ({
  page,
}) => {
  await openPlanner(page);
  const memoryA = await figureValue(page, 'memory-total');
  const stepA = await figureValue(page, 'step-time');
  await page.getByRole('button', { name: 'Pin for comparison' }).click();
  const view = page.getByTestId('compare-view');
  await expect(view).toBeVisible();
  await expect(view.getByTestId('compare-differences')).toContainText('Nothing yet');

  await setSlider(page, /\(TP\)/, 4);
  await expect(view.getByTestId('compare-differences')).toContainText('Tensor parallel (TP): 8 → 4');
  await expect(view.getByTestId('compare-differences')).toContainText('Data parallel (DP): 2 → 4');
  await expect.poll(() => figureValue(page, 'step-time')).not.toBe(stepA);

  // A keeps the pinned figures; B is the current configuration's.
  expect(await value(view.getByTestId('pinned-memory-total'))).toBe(memoryA);
  expect(await value(view.getByTestId('pinned-step-time'))).toBe(stepA);
  const stepB = await figureValue(page, 'step-time');
  expect(await value(view.getByTestId('delta-step-time'))).toBeCloseTo(stepB - stepA, 9);
  expect(await value(view.getByTestId('ratio-step-time'))).toBeCloseTo(stepB / stepA, 12);
  await expect(view.getByTestId('verdict-step-time')).toHaveText(stepB < stepA ? /better/ : /worse/);
  // The same GPU on both sides: less memory is more headroom.
  const memoryB = await figureValue(page, 'memory-total');
  await expect(view.getByTestId('verdict-memory-total')).toHaveText(memoryB < memoryA ? /better/ : /worse/);

  // Memory on one scale, and each configuration's memory chart and pipeline timeline.
  await expect(view.getByTestId('compare-memory-bars')).toHaveAttribute(
    'aria-label',
    /^Memory of the most loaded GPU on one scale, what the device holds: A \(pinned\) .* of 80 GiB; Current .* of 80 GiB/,
  );
  for (const column of ['compare-pinned', 'compare-current']) {
    await expect(view.getByTestId(column).getByTestId('memory-chart')).toBeVisible();
    await expect(view.getByTestId(column).getByTestId('pipeline-chart')).toBeVisible();
  }

  await page.getByRole('button', { name: 'Remove all pins' }).click();
  await expect(view).toHaveCount(0);
  await expect(page.getByTestId('results').getByTestId('memory-chart')).toBeVisible();
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=1\.[\w-]+$/);
});

test('the share link carries both configurations, and opens the same comparison in a new page', async ({ page, context }) => {
  await openPlanner(page);
  await page.getByRole('button', { name: 'Pin for comparison' }).click();
  await setSlider(page, /\(PP\)/, 2);
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=1\.[\w-]+&pins=1\.[\w-]+$/);
  await page.getByRole('button', { name: 'Copy link' }).click();
  const link = await page.getByTestId('share-text').inputValue();
  const hash = new URL(link).hash;
  expect(await readPinsHash(hash)).toEqual({ kind: 'pins', pins: [{ name: 'A', document: DEFAULT_DOCUMENT }] });
  const current = await readHash(hash);
  expect(current.kind === 'document' && current.document['parallel']).toMatchObject({ pp: 2, dp: 4 });
  const pinnedStep = await value(page.getByTestId('pinned-step-time'));
  const currentStep = await figureValue(page, 'step-time');

  // The new page estimates the pinned configuration in its own worker.
  const other = await context.newPage();
  await openPlanner(other, link);
  const view = other.getByTestId('compare-view');
  await expect(view.getByTestId('pinned-step-time')).toHaveAttribute('data-value', String(pinnedStep));
  await expect(view.getByTestId('step-time')).toHaveAttribute('data-value', String(currentStep));
  await expect(view.getByTestId('compare-differences')).toContainText('Pipeline parallel (PP): 4 → 2');
});

test('Apply makes a pinned configuration current again; Remove drops that pin', async ({ page }) => {
  await openPlanner(page);
  const stepA = await figureValue(page, 'step-time');
  await page.getByRole('button', { name: 'Pin for comparison' }).click();
  await setSlider(page, /\(TP\)/, 4);
  await expect.poll(() => figureValue(page, 'step-time')).not.toBe(stepA);
  await page.getByRole('button', { name: 'Apply scenario A' }).click();
  await expect(page.getByTestId('compare-view').getByTestId('step-time')).toHaveAttribute('data-value', String(stepA));
  await expect(page.getByRole('slider', { name: /\(TP\)/ })).toHaveAttribute('aria-valuetext', '8');
  await page.getByRole('button', { name: 'Remove scenario A' }).click();
  await expect(page.getByTestId('compare-view')).toHaveCount(0);
});

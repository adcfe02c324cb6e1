import type { Page } from '@playwright/test';
import { test, expect, openPlanner, switchToDark } from './fixtures.ts';
import { axeViolations } from './axe.ts';

async function expectNoViolations(page: Page, charts: readonly string[] = ['memory-chart', 'pipeline-chart']): Promise<void> {
  // The charts load lazily: check them drawn, not their loading text.
  for (const chart of charts) await expect(page.getByTestId(chart)).toBeVisible();
  const summary = await axeViolations(page);
  expect(summary).toEqual([]);
}

test('axe finds no WCAG 2.1 A/AA violations on the full page, errors shown (light and dark)', async ({ page }) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: 'light' });
  await openPlanner(page);
  // Open every "Formula and source", and show a field error and an import error, so their text is checked too.
  await page.locator('details').evaluateAll((nodes) => nodes.forEach((n) => n.setAttribute('open', '')));
  await page.getByLabel('Layers (L)').fill('abc');
  await page.getByRole('button', { name: 'Import pasted config' }).click();
  await expect(page.getByRole('alert')).toHaveCount(2);
  await expectNoViolations(page);
  // The same page, errors still shown, in the dark scheme.
  await switchToDark(page);
  await expect(page.getByRole('alert')).toHaveCount(2);
  await expectNoViolations(page);
});

test('axe finds no WCAG 2.1 A/AA violations on the embed view (light and dark)', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openPlanner(page, '/?embed=1');
  // The embed card draws one chart: memory per stage against capacity.
  await expectNoViolations(page, ['memory-chart']);
  await switchToDark(page);
  await expectNoViolations(page, ['memory-chart']);
});

test('the formula and source open from the keyboard', async ({ page }) => {
  await openPlanner(page);
  const summary = page.getByText('Formula and source for Tensor parallel (TP)');
  await summary.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText(/Shoeybi et al\. 2019/).first()).toBeVisible();
});

test('axe finds no WCAG 2.1 A/AA violations with the comparison view, a calibration and the launch arguments shown (light and dark)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: 'light' });
  await openPlanner(page);
  const step = Number(await page.getByTestId('results').getByTestId('step-time').getAttribute('data-value'));
  await page.getByRole('button', { name: 'Pin for comparison' }).click();
  await page.getByRole('slider', { name: /\(TP\)/ }).focus();
  await page.keyboard.press('ArrowLeft');
  await page.getByLabel('Measured step time (s)').fill(String(1.1 * step));
  await page.getByRole('button', { name: 'Fit to my run' }).click();
  await expect(page.getByRole('button', { name: 'Clear calibration' })).toBeVisible();
  await page.locator('details').evaluateAll((nodes) => nodes.forEach((n) => n.setAttribute('open', '')));
  const view = page.getByTestId('compare-view');
  const check = async () => {
    await expect(page.getByTestId('launch-torchtitan')).toBeVisible();
    await expect(view.getByTestId('compare-differences')).toContainText('Tensor parallel (TP)');
    for (const column of ['compare-pinned', 'compare-current']) {
      await expect(view.getByTestId(column).getByTestId('memory-chart')).toBeVisible();
      await expect(view.getByTestId(column).getByTestId('pipeline-chart')).toBeVisible();
    }
    const summary = await axeViolations(page);
    expect(summary).toEqual([]);
  };
  await check();
  // The same comparison, calibration and launch arguments in the dark scheme.
  await switchToDark(page);
  await expect(page.getByRole('button', { name: 'Clear calibration' })).toBeVisible();
  await check();
});

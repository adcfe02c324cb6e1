// axe on the pages issue 6 adds (the Validation page, the formula dialog), in both
// colour schemes, with the same WCAG tags as a11y.spec.ts.

import { test, expect, openPlanner, switchToDark } from './fixtures.ts';
import { axeViolations } from './axe.ts';

test('axe finds no WCAG 2.1 A/AA violations on the Validation page, filtered, tables open (light and dark)', async ({ page }) => {
  // Validating 400 runs in the browser and axe's contrast checks over the tables take ~25 s on a busy machine;
  // the page is set up once and checked in each scheme.
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/#/validation');
  await expect(page.getByTestId('validation-table').locator('tbody tr').first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('validation-scatter-throughput').locator('svg').first()).toBeVisible();
  // One GPU and precision: the rows repeat one pattern, and axe over all 400 takes most of a minute.
  await page.getByTestId('filter-gpu').selectOption('h100-sxm');
  await page.getByTestId('filter-precision').selectOption('bf16');
  await expect(page.getByTestId('validation-filtered-summary')).toBeVisible();
  await page.locator('details').evaluateAll((nodes) => nodes.forEach((n) => n.setAttribute('open', '')));
  expect(await axeViolations(page)).toEqual([]);
  await switchToDark(page);
  await expect(page.getByTestId('validation-scatter-throughput').locator('svg').first()).toBeVisible();
  await expect(page.getByTestId('validation-filtered-summary')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});

test('axe finds no WCAG 2.1 A/AA violations with the formula dialog of memory open (light and dark)', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openPlanner(page);
  await page.getByTestId('results').getByTestId('memory-total').getByRole('button').click();
  const dialog = page.getByRole('dialog', { name: /Memory per GPU/ });
  await expect(dialog.getByTestId('explain-total')).toBeVisible();
  // The dialog alone: the page behind it has its full-page passes in e2e/a11y.spec.ts.
  const inDialog = ['dialog[open]'];
  expect(await axeViolations(page, inDialog)).toEqual([]);
  await switchToDark(page);
  await expect(dialog.getByTestId('explain-total')).toBeVisible();
  expect(await axeViolations(page, inDialog)).toEqual([]);
});

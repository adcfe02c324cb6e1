// axe on the pages issue 6 adds (the Validation page, the formula dialog), in both
// colour schemes, with the same WCAG tags as a11y.spec.ts.

import { test, expect, openPlanner, switchToDark } from './fixtures.ts';
import { axeViolations } from './axe.ts';

// The Validation page's passes (light and dark) run on e2e/validation.spec.ts's direct visit of that page.

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

// Not a check: writes the README's screenshots of the Validation page and the formula
// view to docs/ when SCREENSHOTS=1
// (`SCREENSHOTS=1 CI=1 npx playwright test e2e/screenshots-explain.spec.ts`); skipped otherwise.

import { test, expect, openPlanner } from './fixtures.ts';

test.skip(!process.env['SCREENSHOTS'], 'set SCREENSHOTS=1 to write docs/*.png');

test('screenshot: the Validation page', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 1600 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/#/validation');
  await expect(page.getByTestId('validation-table').locator('tbody tr').first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('validation-scatter-memory').locator('svg').first()).toBeVisible();
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'docs/screenshot-validation.png' });
});

test('screenshot: the formula view of memory per GPU', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.emulateMedia({ colorScheme: 'light' });
  await openPlanner(page);
  await page.getByTestId('results').getByTestId('memory-total').getByRole('button').click();
  await expect(page.getByRole('dialog').getByTestId('explain-total')).toBeVisible();
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'docs/screenshot-formula.png' });
});

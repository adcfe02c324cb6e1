// Not a check: writes the README's screenshots to docs/ when SCREENSHOTS=1
// (`SCREENSHOTS=1 CI=1 npx playwright test e2e/screenshots.spec.ts`); skipped otherwise.

import { test, expect, openPlanner, setSlider } from './fixtures.ts';

// A laptop (1440×900), a narrow window (800×900: the strip pins at the top of the results),
// a phone (390×844, one column: the answer pinned above the controls) and the embed card at
// the size its copied snippet asks for (700×450).
const views = [
  { name: 'full', path: '/', viewport: { width: 1440, height: 900 } },
  { name: 'narrow', path: '/', viewport: { width: 800, height: 900 } },
  { name: 'phone', path: '/', viewport: { width: 390, height: 844 } },
  { name: 'embed', path: '/?embed=1', viewport: { width: 700, height: 450 } },
] as const;

test.skip(!process.env['SCREENSHOTS'], 'set SCREENSHOTS=1 to write docs/*.png');

for (const view of views) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`screenshot: ${view.name} page, ${colorScheme}`, async ({ page }) => {
      await page.setViewportSize(view.viewport);
      await page.emulateMedia({ colorScheme });
      await openPlanner(page, view.path);
      await expect(page.getByTestId('memory-chart')).toBeVisible();
      await page.waitForTimeout(300);
      await page.screenshot({ path: `docs/screenshot-${view.name}-${colorScheme}.png` });
    });
  }
}

test('screenshot: comparison view (pinned TP 8 × PP 4 against TP 4 × PP 4)', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await openPlanner(page);
  await page.getByRole('button', { name: 'Pin for comparison' }).click();
  await setSlider(page, /\(TP\)/, 4);
  const view = page.getByTestId('compare-view');
  await expect(view.getByTestId('compare-differences')).toContainText('Tensor parallel (TP): 8 → 4');
  await expect(view.getByTestId('compare-current').getByTestId('pipeline-chart')).toBeVisible();
  await expect(view.getByTestId('compare-pinned').getByTestId('pipeline-chart')).toBeVisible();
  await page.getByTestId('results').evaluate((node) => node.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'docs/screenshot-compare.png' });
});

// Not a check: writes the README's screenshots to docs/ when SCREENSHOTS=1
// (`SCREENSHOTS=1 CI=1 npx playwright test e2e/screenshots.spec.ts`); skipped otherwise.

import { test, expect, openPlanner } from './fixtures.ts';

const views = [
  { name: 'full', path: '/', viewport: { width: 1440, height: 1000 } },
  { name: 'embed', path: '/?embed=1', viewport: { width: 760, height: 1080 } },
] as const;

test.skip(!process.env['SCREENSHOTS'], 'set SCREENSHOTS=1 to write docs/*.png');

for (const view of views) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`screenshot: ${view.name} page, ${colorScheme}`, async ({ page }) => {
      await page.setViewportSize(view.viewport);
      await page.emulateMedia({ colorScheme });
      await openPlanner(page, view.path);
      await expect(page.getByTestId('pipeline-chart')).toBeVisible();
      await page.waitForTimeout(300);
      await page.screenshot({ path: `docs/screenshot-${view.name}-${colorScheme}.png` });
    });
  }
}

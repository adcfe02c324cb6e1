// Issue 16 item 5: a run that does not fit lists the changes that make it fit, and one click applies one.

import AxeBuilder from '@axe-core/playwright';
import { test, expect, openPlanner, resultsSettled } from './fixtures.ts';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

async function deepSeekOn64(page: import('@playwright/test').Page) {
  await openPlanner(page);
  await page.getByLabel('Model preset').selectOption('deepseek-v3');
  await expect(page.getByLabel('Cluster size (GPUs)')).toHaveValue('64');
  await expect(page.getByTestId('results').getByTestId('oom-verdict').first()).toHaveAttribute('data-verdict', 'will-not-fit');
}

test('DeepSeek-V3 on 64 H100 lists fixes with their cost in tokens/s, and the first one makes it fit', async ({ page }) => {
  await deepSeekOn64(page);
  const list = page.getByTestId('fit-suggestions');
  const fixes = list.getByTestId('fit-suggestion');
  await expect(fixes.first()).toBeVisible({ timeout: 20_000 });
  expect(await fixes.count()).toBeGreaterThanOrEqual(2);
  for (const text of await fixes.allTextContents()) expect(text).toMatch(/GiB per GPU( \(tight\))? · [\d.,]+\s?[kM]? tokens\/s \(([−+][\d.]+\s?% tokens\/s|same tokens\/s)(, on \d+× the GPUs)?\)$/);
  await fixes.first().click();
  await expect(page.getByTestId('results').getByTestId('oom-verdict').first()).not.toHaveAttribute('data-verdict', 'will-not-fit');
  await resultsSettled(page);
  await expect(list).toHaveCount(0);
});

test('while the input is invalid, the fixes say they are for the previous input', async ({ page }) => {
  await deepSeekOn64(page);
  const list = page.getByTestId('fit-suggestions');
  await expect(list.getByTestId('fit-suggestion').first()).toBeVisible({ timeout: 20_000 });
  await page.getByLabel('Layers (L)').fill('abc');
  await expect(list).toHaveAttribute('data-stale', 'true');
  await expect(list.getByRole('heading')).toHaveText('Make it fit (for the previous input)');
  await page.getByLabel('Layers (L)').fill('61');
  await expect(list).not.toHaveAttribute('data-stale', 'true');
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`axe finds no WCAG 2.1 A/AA violations with the fixes listed (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await deepSeekOn64(page);
    await expect(page.getByTestId('fit-suggestion').first()).toBeVisible({ timeout: 20_000 });
    const results = await new AxeBuilder({ page }).include('[data-testid="fit-suggestions"]').withTags(WCAG_TAGS).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
}

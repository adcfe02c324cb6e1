import { readFileSync } from 'node:fs';
import { test, expect, figureValue, openPlanner } from './fixtures.ts';
import { readValidationCases, summarize, type ErrorSummary } from '../src/model/validation/index.ts';
import { caseResult } from '../src/model/validation/index.ts';

// What `npm run validate` computes (scripts/validate.ts), computed here in the test
// process from the same file with the same functions.
const file = JSON.parse(readFileSync(new URL('../validation/published-runs.json', import.meta.url), 'utf8')) as unknown;
const cases = readValidationCases(file)
  .map(caseResult)
  .filter((c) => c.rows.length > 0);
const rows = cases.flatMap((c) => c.rows);
const expected: Record<'throughput' | 'memory', ErrorSummary> = {
  throughput: summarize(rows.filter((r) => r.figure !== 'memoryBytesPerGpu')),
  memory: summarize(rows.filter((r) => r.figure === 'memoryBytesPerGpu')),
};
const percent = (x: number) => `${(x * 100).toFixed(1)} %`;
const signed = (x: number) => (x < 0 ? `−${percent(-x)}` : percent(x));

test('the Validation tab lists every published run, and its summary equals npm run validate', async ({ page }) => {
  const runRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('published-runs')) runRequests.push(request.url());
  });
  await openPlanner(page);
  // The 1.2 MB of published runs is not part of the planner: nothing asked for it yet.
  expect(runRequests).toEqual([]);

  // Keyboard: the tab is a link in the page's navigation.
  const tab = page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Validation against published runs' });
  await tab.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/validation$/);
  await expect(page.getByRole('heading', { name: /Validation against published runs/ })).toBeFocused();
  await expect(page.getByTestId('validation-table').locator('tbody tr')).toHaveCount(cases.length, { timeout: 60_000 });
  expect(runRequests.length).toBeGreaterThan(0);

  for (const part of ['throughput', 'memory'] as const) {
    const s = expected[part];
    const cell = (key: string) => page.getByTestId(`summary-${part}-${key}`);
    await expect(cell('cases')).toHaveText(String(s.cases));
    await expect(cell('invalid')).toHaveText(String(s.invalid));
    await expect(cell('median')).toHaveText(percent(s.medianAbsError));
    await expect(cell('p90')).toHaveText(percent(s.p90AbsError));
    await expect(cell('worst-under')).toHaveText(signed(s.worstUnderPrediction));
    for (const [key, value] of [
      ['median', s.medianAbsError],
      ['p90', s.p90AbsError],
      ['worst-under', s.worstUnderPrediction],
    ] as const) {
      expect(Number(await cell(key).getAttribute('data-value')), `${part} ${key}`).toBeCloseTo(value, 12);
    }
  }
  // Each row's error is the one validate.ts gives for that case.
  const first = cases[0];
  const firstRow = page.locator(`tr[data-case="${first?.id ?? ''}"]`);
  const firstError = first?.rows[0]?.error ?? NaN;
  expect(Number(await firstRow.locator('td[data-error]').first().getAttribute('data-error'))).toBeCloseTo(firstError, 12);
  await expect(page.getByTestId('validation-scatter-throughput')).toBeVisible();
  await expect(page.getByTestId('validation-scatter-memory')).toBeVisible();
});

test('filters narrow the table to one GPU and precision; the planner keeps its configuration after a visit', async ({ page }) => {
  await openPlanner(page);
  const memory = await figureValue(page, 'memory-total');
  await page.getByRole('link', { name: 'Validation against published runs' }).click();
  const table = page.getByTestId('validation-table').locator('tbody tr');
  await expect(table).toHaveCount(cases.length, { timeout: 60_000 });

  await page.getByTestId('filter-gpu').selectOption('h100-sxm');
  await page.getByTestId('filter-precision').selectOption('fp8');
  const shown = cases.filter((c) => c.gpu === 'h100-sxm' && c.precision === 'fp8');
  await expect(table).toHaveCount(shown.length);
  const filtered = summarize(shown.flatMap((c) => c.rows).filter((r) => r.figure !== 'memoryBytesPerGpu'));
  await expect(page.getByTestId('filtered-summary-throughput-median')).toHaveText(percent(filtered.medianAbsError));

  await page.getByRole('link', { name: 'Planner' }).click();
  await expect(page).not.toHaveURL(/validation/);
  await expect.poll(() => figureValue(page, 'memory-total')).toBe(memory);
});

test('#/validation opens the Validation page directly', async ({ page }) => {
  await page.goto('/#/validation');
  await expect(page.getByTestId('validation-page')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Validation against published runs' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('validation-table').locator('tbody tr')).toHaveCount(cases.length, { timeout: 60_000 });
});

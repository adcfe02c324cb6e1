import { readFileSync } from 'node:fs';
import { test, expect, figureValue, openPlanner, switchToDark } from './fixtures.ts';
import { axeViolations } from './axe.ts';
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

// One visit from the planner and back (what test 1 and 2 each did with a page of their own: the Validation page
// validates every published run in the browser, the slowest page the suite opens), then one direct visit.
test(
  'the Validation tab lists every published run, and its summary equals npm run validate; ' +
    'filters narrow the table to one GPU and precision; the planner keeps its configuration after a visit',
  async ({ page }) => {
    const runRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('published-runs')) runRequests.push(request.url());
    });
    await openPlanner(page);
    const memory = await figureValue(page, 'memory-total');
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

    // The filters, on the same visit.
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
  },
);

// One direct visit for what three tests each opened the page for: this one, the GPU names (e2e/readable-pictures.spec.ts
// before) and the page's axe passes (e2e/a11y-explain.spec.ts before).
test(
  '#/validation opens the Validation page directly; the table and its GPU filter name GPUs; ' +
    'axe finds no WCAG 2.1 A/AA violations on the Validation page, filtered, tables open (light and dark)',
  async ({ page }) => {
    // Validating 400 runs in the browser and axe's contrast checks over the tables take ~25 s on a busy machine;
    // the page is set up once and checked in each scheme.
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/#/validation');
    await expect(page.getByTestId('validation-page')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Validation against published runs' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('validation-table').locator('tbody tr')).toHaveCount(cases.length, { timeout: 60_000 });

    // GPUs by name (issue 16 item 7), not by preset id.
    const filter = page.getByTestId('filter-gpu');
    await expect(page.locator('tr[data-case]').first()).toBeVisible({ timeout: 20_000 });
    await expect(filter.locator('option[value="h100-sxm"]')).toHaveText(/^NVIDIA H100 SXM5 80GB \(\d+\)$/);
    await filter.selectOption('h100-sxm');
    const firstRow = page.locator('tr[data-case]').first();
    await expect(firstRow).toContainText('NVIDIA H100 SXM5 80GB');
    await expect(firstRow).not.toContainText('h100-sxm');

    // axe (issue 6), light then dark.
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
  },
);

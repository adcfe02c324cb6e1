import type { Page } from '@playwright/test';
import { test, expect, figureValue, openPlanner, slider, switchToDark, sharedPage } from './fixtures.ts';
import { axeViolations } from './axe.ts';

async function openSearch(page: Page) {
  const panel = page.getByTestId('search-panel');
  // Opened once per page: the summary toggles the panel. The panels deferred to idle moments (WhenIdle) mount above it
  // while the page loads, so a click can land where the summary was a moment before: click again until it is open.
  await expect(async () => {
    if (!(await panel.evaluate((details) => (details as HTMLDetailsElement).open))) await panel.getByText('Find the best layout').click();
    await expect(panel.getByRole('button', { name: 'Search' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  return panel;
}

async function searchToTheEnd(page: Page) {
  const panel = await openSearch(page);
  await panel.getByRole('button', { name: 'Search' }).click();
  await expect(panel.getByTestId('search-status')).toContainText(/Searched [\d,]+ layouts/, { timeout: 30_000 });
  await expect(panel.getByTestId('search-progress')).toHaveJSProperty('value', 1);
  await expect(panel.getByTestId('search-row').first()).toBeVisible();
  return panel;
}

// The tests below share one page, in this order: each searches what the page shows when it starts.
test.describe('the search of the default run', () => {
  const page = sharedPage(openPlanner);

  test('the search finds layouts for the default run, and Apply moves the sliders and the figures to the chosen one', async () => {
    const panel = await searchToTheEnd(page());
    const rows = panel.getByTestId('search-row');
    expect(await rows.count()).toBe(10);
    // The default layout is TP 8 × PP 4 × DP 2: apply the best row that differs from it.
    const layouts = await rows.evaluateAll((nodes) =>
      nodes.map((n) => ({
        rank: n.getAttribute('data-rank'),
        tp: n.getAttribute('data-tp'),
        pp: n.getAttribute('data-pp'),
        dp: n.getAttribute('data-dp'),
        memory: Number(n.getAttribute('data-memory')),
      })),
    );
    const chosen = layouts.find((l) => !(l.tp === '8' && l.pp === '4' && l.dp === '2'));
    expect(chosen).toBeDefined();
    if (!chosen) return;
    const memoryBefore = await figureValue(page(), 'memory-total');
    expect(chosen.memory).not.toBeCloseTo(memoryBefore, -6);
    await panel.getByRole('button', { name: `Apply layout ${chosen.rank}`, exact: true }).click();
    await expect(slider(page(), /\(TP\)/)).toHaveAttribute('aria-valuetext', chosen.tp ?? '');
    await expect(slider(page(), /\(PP\)/)).toHaveAttribute('aria-valuetext', chosen.pp ?? '');
    await expect(slider(page(), /\(DP\)/)).toHaveAttribute('aria-valuetext', chosen.dp ?? '');
    // The page's estimate of the applied layout is the engine's figure the row showed (same estimateConfig).
    await expect.poll(async () => Math.abs((await figureValue(page(), 'memory-total')) / chosen.memory - 1)).toBeLessThan(1e-9);
    await expect(panel.getByText(`Applied layout ${chosen.rank}:`)).toBeVisible();
  });

  test('the results table sorts by a column, and the Pareto chart is drawn with a text alternative', async () => {
    const panel = await searchToTheEnd(page());
    const header = panel.getByRole('columnheader', { name: /Memory per GPU/ });
    await expect(header).toHaveAttribute('aria-sort', 'none');
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    const memories = await panel.getByTestId('search-row').evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-memory'))));
    expect(memories).toEqual([...memories].sort((a, b) => a - b));
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    const chart = panel.getByTestId('pareto-chart');
    await expect(chart).toBeVisible();
    await expect(chart).toHaveAttribute('aria-label', /Pareto front of \d+ layouts/);
  });

  test('axe finds no WCAG 2.1 A/AA violations with the search panel open and its results shown (light and dark)', async () => {
    test.setTimeout(120_000);
    await page().emulateMedia({ colorScheme: 'light' });
    const panel = await searchToTheEnd(page());
    await expect(panel.getByTestId('pareto-chart')).toBeVisible();
    await panel.getByText('The front as a table').click();
    const check = async () => {
      // The panel alone: the rest of the page has its full-page passes in e2e/a11y.spec.ts.
      const summary = await axeViolations(page(), ['[data-testid="search-panel"]']);
      expect(summary).toEqual([]);
    };
    await check();
    // The same results, the table still open, in the dark scheme.
    await switchToDark(page());
    await expect(panel.getByTestId('search-row').first()).toBeVisible();
    await expect(panel.getByTestId('pareto-chart')).toBeVisible();
    await check();
  });

  test('a long search shows its progress and Cancel stops it, saying so', async () => {
    // DeepSeek-V3 on 2,048 GPUs with uneven layer splits (61 layers split evenly only 1 or 61 ways): about 2.4 million layouts, several seconds of search.
    await page().getByLabel('Model preset').selectOption('deepseek-v3');
    await page().getByLabel('Cluster size (GPUs)').fill('2048');
    await expect(page().getByLabel('Cluster size (GPUs)')).toHaveValue('2048');
    const panel = await openSearch(page());
    await panel.getByLabel(/Allow uneven layer splits/).check();
    await panel.getByRole('button', { name: 'Search' }).click();
    const progress = panel.getByTestId('search-progress');
    await expect
      .poll(async () => Number(await progress.evaluate((p) => (p as HTMLProgressElement).value)), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await expect(panel.getByTestId('search-status')).toContainText(/Searching… [\d.]+\s?% of [\d,]+ layouts/);
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await expect(panel.getByTestId('search-status')).toContainText('Search cancelled', { timeout: 10_000 });
    await expect(panel.getByRole('button', { name: 'Search' })).toBeEnabled();
    await expect(panel.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  });
});

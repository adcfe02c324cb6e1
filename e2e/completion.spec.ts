// Issue 37: the run's end as a range. Choosing spot capacity shows both answers (on-demand and
// spot, days and dollars each); the runs' distribution picture has a text alternative; the
// quarters of the token budget are dated from the start date; axe clean.

import { test, expect, openPlanner, resultsSettled } from './fixtures.ts';
import { axeViolations } from './axe.ts';

test('choosing spot shows on-demand and spot side by side; the histogram has a text alternative', async ({ page }) => {
  await openPlanner(page);
  const panel = page.getByTestId('completion');
  await expect(panel).toBeVisible({ timeout: 30_000 });
  // On-demand: the three percentiles, and the picture named by its caption.
  await expect(panel.getByRole('row', { name: /p50/ })).toBeVisible();
  const picture = panel.getByRole('img');
  await expect(picture).toHaveAccessibleName(
    /Of 1,000 simulated runs, one in ten ends within .+ days?, half within .+, nine in ten within .+\./,
  );

  await page.getByLabel('Capacity', { exact: true }).selectOption('spot');
  await page.getByLabel('Spot price ($/GPU-h)').fill('1');
  await page.getByLabel('Preemptions per node-day').fill('0.2');
  await page.getByLabel('Start date (YYYY-MM-DD)').fill('2027-01-04');
  await resultsSettled(page);
  const both = panel.getByTestId('capacity-comparison');
  await expect(both).toBeVisible({ timeout: 30_000 });
  const onDemand = both.getByRole('row', { name: /On-demand/ });
  const spot = both.getByRole('row', { name: /Spot/ });
  // Each row: days and dollars, the median with its p10–p90 range.
  await expect(onDemand).toContainText(/days? \(p10 .+, p90 .+\).*\$.+\(p10 \$.+, p90 \$.+\)/);
  await expect(spot).toContainText(/days? \(p10 .+, p90 .+\).*\$.+\(p10 \$.+, p90 \$.+\)/);
  await expect(panel).toContainText(/Spot ends on 2027-\d\d-\d\d/);
  // The date each quarter of the token budget is reached, from the start date.
  await expect(panel.getByTestId('completion-milestones').getByRole('row', { name: /25 % of the tokens/ })).toContainText(
    /20\d\d-\d\d-\d\d/,
  );
  await expect(panel.getByRole('img')).toHaveAccessibleName(/Of 1,000 simulated runs/);

  expect(await axeViolations(page, ['[data-testid="completion"]', '[data-testid="section-cost"]'])).toEqual([]);
});

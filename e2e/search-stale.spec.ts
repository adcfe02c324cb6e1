import { test, expect, openPlanner } from './fixtures.ts';

// ux.md principle 18: a search's results answer the configuration searched. Apply keeps that question (it writes the
// searched degrees back); a change of the batch asks another, and the panel says so until Search runs again.
test('search results stay current after Apply and are marked as an earlier configuration after the batch changes', async ({ page }) => {
  test.setTimeout(45_000);
  await openPlanner(page);
  const panel = page.getByTestId('search-panel');
  // The panels deferred to idle moments mount above this one while the page loads: click until it is open (search.spec.ts).
  await expect(async () => {
    if (!(await panel.evaluate((details) => (details as HTMLDetailsElement).open))) await panel.getByText('Find the best layout').click();
    await expect(panel.getByRole('button', { name: 'Search', exact: true })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await panel.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(panel.getByTestId('search-status')).toContainText(/Searched [\d,]+ layouts/, { timeout: 30_000 });
  await expect(panel.getByTestId('search-row').first()).toBeVisible();
  await expect(panel.getByTestId('search-stale')).toHaveCount(0);

  await panel.getByRole('button', { name: 'Apply layout 1', exact: true }).click();
  await expect(panel.getByText('Applied layout 1:')).toBeVisible();
  // The panel reads the settled configuration: give it its moment, then the results are still this run's.
  await page.waitForTimeout(600);
  await expect(panel.getByTestId('search-stale')).toHaveCount(0);

  await page.getByLabel(/^Global batch size/).fill('512');
  await expect(panel.getByTestId('search-stale')).toContainText('found for an earlier configuration');
  await panel.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(panel.getByTestId('search-status')).toContainText(/Searched [\d,]+ layouts/, { timeout: 30_000 });
  await expect(panel.getByTestId('search-stale')).toHaveCount(0);
});

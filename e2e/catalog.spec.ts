// Issue 38 item 2: the model catalog (loaded lazily, a chunk of its own) fills the preset
// picker, and the model field finds a model by name or Hugging Face id, variants included,
// saying which entry it used. One page load for every check.

import { axeViolations } from './axe.ts';
import { test, expect, openPlanner, resultsSettled } from './fixtures.ts';

test('the catalog fills the picker; a Hub id with a dated instruct suffix finds its model, says which entry, and estimates', async ({
  page,
}) => {
  await openPlanner(page);
  const picker = page.getByLabel('Model preset', { exact: true });
  await expect(picker).toHaveValue('llama3-70b');
  await expect.poll(() => picker.locator('option').count()).toBeGreaterThanOrEqual(60);

  // In the Model section, open by default.
  const finder = page.getByRole('region', { name: 'Model', exact: true }).getByLabel('Find a model (name or Hugging Face id)');
  await expect(finder).toBeVisible();
  await finder.fill('Qwen/Qwen3-4B-Instruct-2507');
  await finder.press('Enter');
  await expect(page.getByTestId('model-find-note')).toHaveText(
    'Using the catalog entry Qwen3 4B (qwen3-4b), found by its Hugging Face id Qwen/Qwen3-4B-Instruct-2507.',
  );
  await expect(picker).toHaveValue('qwen3-4b');
  await expect(page.getByTestId('model-context')).toContainText('Longest context 40,960 tokens');
  await resultsSettled(page);
  await expect(page.getByTestId('model-summary')).toContainText('4.02 B parameters'); // 4,022,468,096 (catalog.test.ts: within 2 % of the published 4.0B)

  expect(await axeViolations(page, ['#ctl-model-find', '[data-testid="model-context"]'])).toEqual([]);

  await finder.fill('no such model');
  await finder.press('Enter');
  await expect(page.getByTestId('model-find-note')).toContainText('No model named no such model in the catalog');
  await expect(picker).toHaveValue('qwen3-4b');
});

import { test, expect, figureValue, openPlanner, resultsSettled } from './fixtures.ts';
import { axeViolations } from './axe.ts';

// parallel.pipelineLayout (model/input/pipeline-layout.ts): Megatron's layout as text in the parallel section.
// One page load: the even split as placeholder, a bad layout named in words with the last good figures kept,
// a stated one moving the step time, and the section clean under axe.
test('the pipeline layout field: placeholder, inline error, last good figures, a stated layout moves step time', async ({ page }) => {
  await openPlanner(page);
  // The default run: Llama 3 70B, 80 layers on PP 4: the even split is 20 layers a stage.
  const field = page.getByLabel('Pipeline layout (Megatron)');
  await expect(field).toHaveAttribute('placeholder', 'Et*20|t*20|t*20|t*20L');
  const stepEven = await figureValue(page, 'step-time');

  await field.fill('Et*20|t*20|t*40L');
  await expect(page.getByText(/has 3 chunks between "\|"; pp × vpp = 4 × 1 needs 4/).first()).toBeVisible();
  expect(await figureValue(page, 'step-time')).toBe(stepEven);

  // 26 layers on the first stage, 18 on each of the others: the first stage is the critical one, so the step is slower.
  await field.fill('Et*26|t*18|t*18|t*18L');
  await expect(page.getByText(/has 3 chunks/)).toHaveCount(0);
  await resultsSettled(page);
  await expect.poll(() => figureValue(page, 'step-time')).toBeGreaterThan(stepEven);

  expect(await axeViolations(page, ['section[aria-labelledby="section-parallel"]'])).toEqual([]);
});

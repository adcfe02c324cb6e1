import { test, expect, figureValue, openPlanner, resultsSettled } from './fixtures.ts';
import { axeViolations } from './axe.ts';

// The software stack (issue 14): the Framework control changes the engine's defaults,
// so memory and step time change; a field set explicitly wins; a bad value is named.

test('changing the framework changes memory and step time, shows its defaults, and the reserved figure', async ({ page }) => {
  await openPlanner(page);
  const framework = page.getByLabel('Framework', { exact: true });
  await expect(framework).toHaveValue('generic');
  await expect(page.getByTestId('memory-reserved')).not.toHaveText(/NaN|Infinity|^\s*$/);
  // Reserved is a layer inside memory per GPU (what the device holds), above the allocated peak.
  expect(await figureValue(page, 'memory-reserved')).toBeGreaterThan(await figureValue(page, 'memory-allocated'));
  expect(await figureValue(page, 'memory-reserved')).toBeLessThan(await figureValue(page, 'memory-total'));
  const memoryBefore = await figureValue(page, 'memory-total');
  const stepBefore = await figureValue(page, 'step-time');

  await framework.selectOption('megatron');
  await resultsSettled(page);
  // Megatron's profile: fused loss, cuDNN attention, "selective" = --recompute-modules core_attn.
  await expect(page.getByLabel('Loss kernel')).toHaveValue('__profile__');
  await expect(page.getByLabel('Loss kernel').locator('option').first()).toHaveText('profile default (fused)');
  await expect(page.getByLabel('Attention kernel').locator('option').first()).toHaveText('profile default (cudnn)');
  await expect.poll(() => figureValue(page, 'memory-total')).not.toBe(memoryBefore);
  await expect.poll(() => figureValue(page, 'step-time')).not.toBe(stepBefore);

  // An explicit field wins over the profile.
  const megatronStep = await figureValue(page, 'step-time');
  await page.getByLabel('Attention kernel').selectOption('flash2');
  await expect.poll(() => figureValue(page, 'step-time')).toBeGreaterThan(megatronStep);

  // Megatron's release (input/framework-release.ts): text that is not a tag is named in words and the
  // last good figures stay; a tag clears it. This dense model's memory does not depend on it (moe-permutation.ts).
  const release = page.getByLabel('Megatron-LM release');
  const memoryAtNewest = await figureValue(page, 'memory-total');
  await release.fill('six');
  await expect(page.getByText(/"six" is not a Megatron-LM release tag/).first()).toBeVisible();
  expect(await figureValue(page, 'memory-total')).toBe(memoryAtNewest);
  await release.fill('core_v0.6.0');
  await expect(page.getByText(/is not a Megatron-LM release tag/)).toHaveCount(0);
  await expect.poll(() => figureValue(page, 'memory-total')).toBe(memoryAtNewest);
});

test('a bad stack value gets an error naming the field, and the section passes axe', async ({ page }) => {
  await openPlanner(page);
  await page.getByLabel('Offloaded layers per stage').fill('999');
  await expect(page.getByText(/Offloaded layers per stage: 999 is more layers than a pipeline stage holds/).first()).toBeVisible();
  await page.getByLabel('Offloaded layers per stage').fill('2');
  await expect(page.getByText(/Offloaded layers per stage: 999/)).toHaveCount(0);
  // The sections below the first screen mount in idle moments after the first paint (Results/controls, issue 31 item 6).
  await expect(page.locator('section[aria-labelledby="section-stack"]')).toBeVisible();
  expect(await axeViolations(page, ['section[aria-labelledby="section-stack"]'])).toEqual([]);
});

test('screenshots of the stack section', async ({ page }) => {
  // One load of the planner for both widths: the window resized to 800 px shows the same torchtitan run.
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlanner(page);
  await page.getByLabel('Framework', { exact: true }).selectOption('torchtitan');
  await resultsSettled(page);
  for (const [width, height] of [
    [1440, 900],
    [800, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.locator('section[aria-labelledby="section-stack"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `tmp/framework-${width}.png` });
  }
  await page.setViewportSize({ width: 700, height: 450 });
  await openPlanner(page, '/?embed=1');
  await page.screenshot({ path: 'tmp/framework-embed-700.png' });
});

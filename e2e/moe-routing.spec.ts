// training.moeLoadImbalance on the page (issue 32 item 4): on a MoE preset (Qwen3-30B-A3B, EP 8)
// the imbalance box sits in the Mixture of experts fieldset; 1.4 makes the busiest expert-parallel
// rank's experts and all-to-all 1.4 × the mean (src/model/time/moe-routing.test.ts), so the step
// gets longer; the link carries the value and a reload opens it again with the same step time. One
// page load and one reload.

import { findCatalogEntry } from '../src/model/catalog/all.ts';
import { readHash } from '../src/state/url-codec.ts';
import { test, expect, configFragment, figureValue, openPlanner, resultsSettled } from './fixtures.ts';
import { axeViolations } from './axe.ts';

const run = {
  version: 1,
  model: findCatalogEntry('qwen3-30b-a3b')?.model,
  training: { seqLen: 4096, globalBatch: 64, microBatch: 1, recompute: 'full', framework: 'megatron', moeDispatcher: 'alltoall' },
  parallel: { tp: 1, pp: 1, dp: 8, ep: 8 },
  cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 8 },
};

test('expert load imbalance: 1.4 lengthens the step, the link carries it, a reload keeps it; the section passes axe', async ({ page }) => {
  await openPlanner(page, `/#${configFragment(run)}`);
  const imbalance = page.getByLabel('Expert load imbalance (busiest EP rank ÷ mean)');
  await expect(imbalance).toHaveValue('');
  await expect(imbalance).toHaveAttribute('placeholder', '1 = perfectly balanced');
  const balanced = await figureValue(page, 'step-time');

  await imbalance.fill('1.4');
  await expect.poll(() => figureValue(page, 'step-time')).toBeGreaterThan(balanced);
  const skewed = await figureValue(page, 'step-time');
  await expect
    .poll(async () => {
      const read = await readHash(await page.evaluate(() => location.hash));
      return read.kind === 'document' ? (read.document as { training?: { moeLoadImbalance?: unknown } }).training?.moeLoadImbalance : null;
    })
    .toBe(1.4);
  expect(await axeViolations(page, ['section[aria-labelledby="section-stack"]'])).toEqual([]);

  await page.reload();
  await resultsSettled(page);
  await expect(page.getByLabel('Expert load imbalance (busiest EP rank ÷ mean)')).toHaveValue('1.4');
  await expect.poll(() => figureValue(page, 'step-time')).toBe(skewed);
});

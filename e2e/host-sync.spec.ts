// training.forwardHostSync on the page (issue 34): the select shows under DeepSpeed ZeRO-3 with
// its label and default; "none" adds ZeRO-3's gather-stream cache to memory per GPU (Llama 2 7B
// on 8 A100s: 11.89 GiB, src/model/memory/zero3-gather-cache.test.ts), and the default takes it
// away again; under FSDP, with no value stated, the select is gone. One page load.

import { findModelPreset } from '../src/model/catalog/all.ts';
import { test, expect, configFragment, figureValue, openPlanner, resultsSettled } from './fixtures.ts';
import { axeViolations } from './axe.ts';

const GiB = 2 ** 30;
const run = {
  version: 1,
  model: findModelPreset('llama2-7b')?.model,
  training: { seqLen: 4096, globalBatch: 64, microBatch: 1, recompute: 'full', framework: 'deepspeed' },
  parallel: { tp: 1, pp: 1, dp: 8, zero: 3 },
  cluster: { gpu: 'a100-80gb', gpusPerNode: 8, gpus: 8 },
};

test('forward host sync: shown under DeepSpeed ZeRO-3, "none" adds the gather cache, gone under FSDP', async ({ page }) => {
  await openPlanner(page, `/#${configFragment(run)}`);
  const sync = page.getByLabel('Forward host sync');
  await expect(sync).toHaveValue('__default__');
  await expect(sync.locator('option').first()).toHaveText('default (every layer: a padded batch is unpadded)');
  const before = await figureValue(page, 'memory-total');

  await sync.selectOption('none');
  await resultsSettled(page);
  await expect.poll(async () => ((await figureValue(page, 'memory-total')) - before) / GiB).toBeCloseTo(11.89, 1);
  expect(await axeViolations(page, ['section[aria-labelledby="section-stack"]'])).toEqual([]);

  await sync.selectOption('__default__');
  await expect.poll(() => figureValue(page, 'memory-total')).toBe(before);
  await page.getByLabel('Framework', { exact: true }).selectOption('fsdp');
  await expect(sync).toHaveCount(0);
});

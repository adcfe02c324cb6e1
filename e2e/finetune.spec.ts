// Issue 24: a fine-tune on one consumer GPU. Llama 3.1 8B on one 24 GB RTX 4090 does not
// fit as full training, nor as LoRA (its bf16 base alone is 15 GiB); QLoRA's 4-bit base
// does, and the memory chart draws the frozen weights as their own part.

import { findModelPreset } from '../src/model/catalog/all.ts';
import { test, expect, openPlanner, resultsSettled } from './fixtures.ts';
import { axeViolations } from './axe.ts';

const DOCUMENT = {
  version: 1,
  model: findModelPreset('llama3.1-8b')?.model,
  training: { seqLen: 2048, globalBatch: 8, microBatch: 1, tokens: 1e8, recompute: 'none' },
  parallel: { tp: 1, pp: 1, dp: 1, zero: 0 },
  cluster: { gpu: 'rtx-4090', gpus: 1 },
};

test('full → LoRA → QLoRA on one RTX 4090: will not fit until QLoRA, frozen weights drawn apart; the control passes axe', async ({
  page,
}) => {
  await openPlanner(page, `/#config=${Buffer.from(JSON.stringify(DOCUMENT)).toString('base64url')}`);
  const verdict = page.getByTestId('results').getByTestId('oom-verdict').first();
  const legend = page.getByTestId('results').getByTestId('memory-chart').first().locator('[data-legend-label="Frozen weights"]');
  await expect(verdict).toHaveAttribute('data-verdict', 'will-not-fit');
  await expect(legend).toHaveCount(0);

  const method = page.getByLabel('Training method');
  await method.selectOption('lora');
  await resultsSettled(page);
  await expect(page.getByLabel('Adapter rank r')).toHaveValue('16');
  await expect(verdict).toHaveAttribute('data-verdict', 'will-not-fit');
  await expect(legend).toHaveCount(1);

  await method.selectOption('qlora');
  await resultsSettled(page);
  await expect(verdict).toHaveAttribute('data-verdict', /^(safe|tight)$/);
  await expect(legend).toHaveCount(1);
  // The adapted matrices are checkboxes with their own labels, in the keyboard's reach.
  await page.getByLabel('FFN down').focus();
  await page.keyboard.press('Space');
  await expect(page.getByLabel('FFN down')).not.toBeChecked();
  expect(page.url()).toContain('#s=');

  expect(await axeViolations(page, ['[data-testid="training-method"]'])).toEqual([]);
});

// model.slidingWindow on the page (issue 32): a GPT-OSS link opens with its window shown; the
// window's pattern and size are edited by keyboard; turning it off makes the model's FLOPs a
// token go up (the summary line), bad text is named; the controls pass axe.

import { findCatalogEntry } from '../src/model/catalog/all.ts';
import { test, expect, openPlanner, resultsSettled } from './fixtures.ts';
import { axeViolations } from './axe.ts';

const DOCUMENT = {
  version: 1,
  model: findCatalogEntry('gpt-oss-120b')?.model,
  training: { seqLen: 4096, globalBatch: 512, microBatch: 1 },
  parallel: { tp: 1, pp: 1, dp: 64, ep: 8 },
  cluster: { gpu: 'h100-sxm', gpus: 64 },
};

test('GPT-OSS 120B: the window shows, edits and turns off; FLOPs a token follow; axe clean', async ({ page }) => {
  await openPlanner(page, `/#config=${Buffer.from(JSON.stringify(DOCUMENT)).toString('base64url')}`);
  const on = page.getByLabel('Sliding-window attention');
  const window = page.getByLabel('Window (tokens)');
  const layers = page.getByLabel('Sliding layers');
  const summary = page.getByTestId('model-summary');
  await expect(on).toBeChecked();
  await expect(window).toHaveValue('128');
  await expect(layers).toHaveValue('alternate');
  const windowed = await summary.textContent();

  await layers.selectOption('five-to-one');
  await resultsSettled(page);
  await expect(layers).toHaveValue('five-to-one');
  await window.fill('abc');
  await expect(window).toHaveAttribute('aria-invalid', 'true');
  await window.fill('128');
  await resultsSettled(page);
  expect(await axeViolations(page, ['[data-testid="section-model"]'])).toEqual([]);

  await on.focus();
  await page.keyboard.press('Space');
  await resultsSettled(page);
  await expect(on).not.toBeChecked();
  await expect(window).toHaveCount(0);
  await expect(summary).not.toHaveText(windowed ?? '');
  expect(page.url()).toContain('#s=');
});

// Issue 16 items 6 and 7: one bubble figure everywhere; a pipeline timeline readable at any
// micro-batch count; time axes on round times; stages counted alike; GPUs by name.

import type { Page } from '@playwright/test';
import { test, expect, figureValue, openPlanner, resultsSettled, sharedPage, switchToDark } from './fixtures.ts';
import { axeViolations } from './axe.ts';

// The timeline, caption, bubble and stage tests read one page at 1440×900, in this order; each closes what it opened.
test.describe('the default run at 1440×900', () => {
  const shared = sharedPage(async (page: Page) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openPlanner(page);
  });

  test('the timeline opens on the first micro-batches at full size, and a button shows the whole step', async () => {
    const page = shared();
    // The default run: m = 256 / (1 × 2) = 128 micro-batches on 4 stages, 1,024 blocks: too many to read at once.
    const chart = page.getByTestId('pipeline-chart');
    await expect(chart).toBeVisible();
    const step = await figureValue(page, 'step-time');
    await expect(page.getByTestId('pipeline-window')).toContainText(/^The first .* of the .* step, blocks at full size\.$/);
    const zoomed = Number(await chart.getAttribute('data-window-seconds'));
    expect(zoomed).toBeLessThan(step / 4);
    // At full size the blocks carry their micro-batch numbers, from 1.
    await expect(chart.locator('svg text', { hasText: /^1$/ }).first()).toBeAttached();
    await expect(chart.locator('rect[data-kind]')).toHaveCount(1024);

    const whole = page.getByRole('button', { name: 'Show the whole step (128 micro-batches)' });
    await whole.click();
    await expect(page.getByRole('button', { name: 'Show the first micro-batches at full size' })).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(async () => Number(await chart.getAttribute('data-window-seconds'))).toBeGreaterThan(zoomed * 4);
    await expect(page.getByTestId('pipeline-window')).toContainText('The whole step: 128 micro-batches');
  });

  test('the zoomed timeline moves to the steady state and the cool-down, by button and by keyboard', async () => {
    const page = shared();
    // The first test left the whole step shown: back to the first micro-batches at full size.
    await page.getByRole('button', { name: 'Show the first micro-batches at full size' }).click();
    const chart = page.getByTestId('pipeline-chart');
    await expect(chart).toBeVisible();
    const window = Number(await chart.getAttribute('data-window-seconds'));
    await expect(chart).toHaveAttribute('data-window-start', '0');
    const span = Number(await page.getByTestId('step-time').getAttribute('data-value'));
    await page.getByRole('button', { name: 'Cool-down', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Cool-down', exact: true })).toHaveAttribute('aria-pressed', 'true');
    const end = Number(await chart.getAttribute('data-window-start'));
    // The window ends where the drawn schedule ends (at most the step time: the optimizer step is outside the timeline).
    expect(end + window).toBeLessThanOrEqual(span);
    expect(end).toBeGreaterThan(window);
    await expect(page.getByTestId('pipeline-window')).toContainText(/^From .* to .* of the .* step, blocks at full size\.$/);
    // The last micro-batch (128) is drawn with its number in the cool-down.
    await expect(chart.locator('svg text', { hasText: /^128$/ }).first()).toBeAttached();
    await page.getByRole('button', { name: 'Steady state', exact: true }).click();
    const middle = Number(await chart.getAttribute('data-window-start'));
    expect(middle).toBeCloseTo(end / 2, 6);
    // The slider: Home back to the start, arrows move the window a step at a time.
    const position = page.getByTestId('pipeline-window-position');
    await position.focus();
    await page.keyboard.press('Home');
    await expect(chart).toHaveAttribute('data-window-start', '0');
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => Number(await chart.getAttribute('data-window-start'))).toBeGreaterThan(0);
    await expect(position).toHaveAttribute('aria-valuetext', /^From .* of the .* step/);
  });

  test('the timeline caption says what the step time adds after the drawn schedule', async () => {
    const page = shared();
    const stripStep = (await page.getByTestId('summary-strip').getByTestId('step-time').innerText()).trim();
    const after = page.getByTestId('pipeline-after');
    await expect(after).toContainText(`The step time (${stripStep}) adds what comes after this timeline`);
    await expect(after).toContainText('optimizer step');
  });

  test('the bubble is one number: card, timeline caption, step breakdown and formula view', async () => {
    const page = shared();
    const card = page.getByTestId('results').getByTestId('bubble-fraction').first();
    const text = ((await card.textContent()) ?? '').match(/[\d.]+\s?%/)?.[0] ?? 'none';
    await expect(page.getByTestId('pipeline-chart')).toHaveAttribute('aria-label', new RegExp(`pipeline bubble ${text} of the step`));
    await expect(page.getByTestId('pipeline-chart').locator('xpath=..').locator('figcaption')).toContainText(
      `pipeline bubble ${text} of the step`,
    );
    await expect(page.getByText(`${text} of the step: the Pipeline bubble figure`)).toBeVisible();
    await card.getByRole('button').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('bubble time ÷ step time');
    await expect(dialog).toContainText(text);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test('stages count from 1 in the timeline, the memory chart and the formula view', async () => {
    const page = shared();
    const chart = page.getByTestId('pipeline-chart');
    for (const n of [1, 2, 3, 4]) await expect(chart.locator('svg text', { hasText: new RegExp(`^Stage ${n}$`) })).toHaveCount(1);
    await expect(chart.locator('svg text', { hasText: /^Stage 0$/ })).toHaveCount(0);
    await page.getByText('Memory per stage as a table (GiB)').click();
    await expect(page.getByRole('region', { name: 'Memory per stage (scrollable table)' }).getByRole('rowheader').first()).toHaveText('1');
    await page.getByTestId('results').getByTestId('memory-total').first().getByRole('button').click();
    await expect(page.getByRole('dialog')).toContainText(/pipeline stage [1-4] of 4/);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  });
});

test('the compare view names GPUs, not their preset ids', async ({ page }) => {
  await openPlanner(page);
  await page.getByRole('button', { name: 'Pin for comparison' }).click();
  await page.getByLabel('GPU', { exact: true }).selectOption('a100-80gb');
  await resultsSettled(page);
  const differences = page.getByTestId('compare-view').getByTestId('compare-differences');
  await expect(differences).toContainText('NVIDIA H100 SXM5 80GB → NVIDIA A100 SXM4 80GB');
  await expect(differences).not.toContainText('a100-80gb');
});

// The validation table and its GPU filter name GPUs: e2e/validation.spec.ts, on that spec's one direct visit.

test("axe finds no WCAG 2.1 A/AA violations on the timeline's window control (light and dark)", async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openPlanner(page);
  await expect(page.getByTestId('pipeline-window')).toBeVisible();
  const timeline = ['section[aria-label="Pipeline timeline"]'];
  expect(await axeViolations(page, timeline)).toEqual([]);
  await switchToDark(page);
  expect(await axeViolations(page, timeline)).toEqual([]);
});

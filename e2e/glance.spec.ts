// The page answers at a glance (issue 16, items 1–4): the summary strip stays in view,
// a preset keeps what the user typed, Ctrl+Z steps back through the configuration,
// and figures of an invalid input are marked stale, with the field named in words.

import { test, expect, figureValue, openPlanner, resultsSettled, slider, switchToDark } from './fixtures.ts';
import { axeViolations } from './axe.ts';

const STRIP_FIGURES = ['oom-verdict', 'memory-total', 'step-time', 'tokens-per-second', 'mfu', 'training-days', 'cost-usd'];

test('at 1440×900 the summary strip and the memory chart are in view without scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlanner(page);
  const strip = page.getByTestId('summary-strip');
  for (const id of STRIP_FIGURES) await expect(strip.getByTestId(id)).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('memory-chart')).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: 'tmp/shots-4403/glance-1440x900.png' });
});

test('at 800×900 the summary strip stays in view after scrolling to the end of the controls', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await openPlanner(page);
  await page.screenshot({ path: 'tmp/shots-4403/glance-800x900.png' });
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  const strip = page.getByTestId('summary-strip');
  for (const id of STRIP_FIGURES) await expect(strip.getByTestId(id)).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: 'tmp/shots-4403/glance-800x900-scrolled.png' });
});

test('a model preset that moves the sequence length says so, and its Undo brings the length back', async ({ page }) => {
  await openPlanner(page);
  const seqLen = page.getByLabel('Sequence length (s, tokens)');
  const before = await seqLen.inputValue();
  await page.getByLabel('Model preset').selectOption('llama2-7b');
  const note = page.getByTestId('preset-note');
  await expect(note).toContainText(/Sequence length changed from [\d,]+ to 4,096/);
  await note.getByRole('button', { name: 'Undo' }).click();
  await expect(seqLen).toHaveValue(before);
  await expect(note).toHaveCount(0);
});

test('Ctrl+Z restores the previous figures and Ctrl+Shift+Z brings the change back; the link follows', async ({ page }) => {
  await openPlanner(page);
  const before = await figureValue(page, 'memory-total');
  const linkBefore = await page.evaluate(() => location.hash);
  const tpSlider = slider(page, /\(TP\)/);
  const tp = Number(await tpSlider.getAttribute('aria-valuetext'));
  // One key press, one history step: arrow steps more than HISTORY_MERGE_MS apart (a loaded machine)
  // would each be a step of their own, and Ctrl+Z would then go back one of them only.
  await tpSlider.focus();
  await tpSlider.press(tp === 1 ? 'ArrowRight' : 'Home');
  await expect(page.getByTestId('memory-total')).not.toHaveAttribute('data-value', String(before));
  await resultsSettled(page);
  const after = await figureValue(page, 'memory-total');
  await expect.poll(() => page.evaluate(() => location.hash)).not.toBe(linkBefore);
  // The address bar follows 250 ms after the last edit (URL_UPDATE_DELAY_MS); the slider passed through other values first.
  await page.waitForTimeout(1000);
  const linkAfter = await page.evaluate(() => location.hash);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('memory-total')).toHaveAttribute('data-value', String(before));
  await expect.poll(() => page.evaluate(() => location.hash)).not.toBe(linkAfter);
  await page.keyboard.press('Control+Shift+z');
  await expect(page.getByTestId('memory-total')).toHaveAttribute('data-value', String(after));
  await expect.poll(() => page.evaluate(() => location.hash)).toBe(linkAfter);
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(page.getByTestId('memory-total')).toHaveAttribute('data-value', String(before));
});

test('invalid layers keep the last figures, dimmed and marked stale, and the alert names the field in words', async ({ page }) => {
  await openPlanner(page);
  const memory = await page.getByTestId('memory-total').getAttribute('data-value');
  await page.getByLabel('Layers (L)').fill('abc');
  const alert = page.getByRole('alert').filter({ hasText: 'This configuration cannot run' });
  await expect(alert).toContainText('Layers (L)');
  await expect(alert).not.toContainText('model.layers');
  const strip = page.getByTestId('summary-strip');
  await expect(strip).toHaveAttribute('data-stale', 'true');
  await expect(strip).toContainText('for the previous input');
  // The strip, the figures under it and the phone's strip (hidden at this width; the trade-off panel, when drawn, marks its
  // curves too: e2e/tradeoffs.spec.ts).
  await expect(page.locator('[data-stale="true"]:not([data-testid="tradeoff-panel"] *)')).toHaveCount(3);
  await expect(page.getByTestId('phone-strip')).toHaveAttribute('data-stale', 'true');
  await expect(page.getByTestId('memory-total')).toHaveAttribute('data-value', memory ?? '');
  await page.getByLabel('Layers (L)').fill('80');
  await expect(page.locator('[data-stale="true"]')).toHaveCount(0);
});

// The typed price and the GPU preset change that leave the note are also the state the axe passes check: one page for both.
test(
  'a typed price survives a GPU preset change, and the page says it kept it; ' +
    'axe: no WCAG 2.1 A/AA violations with the strip stale (light and dark)',
  async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: 'light' });
    await openPlanner(page);
    await page.getByLabel('Price ($/GPU-h)').fill('1.23');
    await expect(page.getByTestId('cost-usd')).not.toHaveAttribute('data-value', '');
    await page.getByLabel('GPU', { exact: true }).selectOption('a100-80gb');
    await expect(page.getByTestId('preset-note')).toContainText('Kept your price of $1.23');
    await expect(page.getByLabel('Price ($/GPU-h)')).toHaveValue('1.23');
    await expect(page.getByTestId('preset-note')).toBeVisible();
    await page.getByLabel('Layers (L)').fill('abc');
    // Each scheme is checked in the same state: the preset's note shown and the strip stale (the input stays invalid).
    for (const colorScheme of ['light', 'dark'] as const) {
      if (colorScheme === 'dark') await switchToDark(page);
      await expect(page.getByTestId('preset-note')).toBeVisible();
      await expect(page.getByTestId('summary-strip')).toHaveAttribute('data-stale', 'true');
      await expect(page.getByTestId('memory-chart')).toBeVisible();
      // What this state changes (the strip, the note, the alert, the chart): the full page has its passes in e2e/a11y.spec.ts.
      const parts = ['[data-testid="summary-strip"]', '[data-testid="preset-note"]', '[role="alert"]', '[data-testid="memory-chart"]'];
      expect(await axeViolations(page, parts)).toEqual([]);
      await page.screenshot({ path: `tmp/shots-4403/glance-stale-${colorScheme}.png`, fullPage: false });
    }
  },
);

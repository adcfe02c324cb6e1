// Issue 16 item 8: the embed (?embed=1) is a card that shows, at 700 × 450 and without
// scrolling, the run's name, its layout in words, the verdict, the key figures and one
// chart; the copied snippet's frame is that size.

import { test, expect, figureValue, openPlanner } from './fixtures.ts';
import { axeViolations } from './axe.ts';

const FIGURES = ['memory-total', 'step-time', 'tokens-per-second', 'mfu', 'training-days', 'cost-usd'];

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the embed card shows the layout, verdict, key figures and a chart in 700 × 450 without scrolling (${colorScheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 700, height: 450 });
    await openPlanner(page, '/?embed=1');
    const card = page.getByTestId('embed-view');
    await expect(card.getByRole('heading', { level: 1 })).toHaveText('Llama 3 70B on 64 × NVIDIA H100 SXM5 80GB');
    const layout = card.getByTestId('embed-layout');
    // The default run: TP 8 × PP 4 × DP 2 on 64 H100, ZeRO-1, 1F1B, global batch 256 of 8,192 tokens (state/defaults.ts).
    for (const words of [
      '64 × NVIDIA H100 SXM5 80GB',
      'TP 8 · PP 4 · DP 2 · CP 1 · EP 1',
      'ZeRO-1',
      '1F1B schedule',
      'global batch 256 × 8,192 tokens',
    ]) {
      await expect(layout).toContainText(words);
    }
    await expect(card.getByTestId('oom-verdict')).toHaveAttribute('data-verdict', /^(safe|tight)$/);
    await expect(card.getByTestId('oom-verdict')).toContainText(/GiB of 80 GiB per GPU .* to spare/);
    await expect(card.getByTestId('memory-chart')).toBeVisible();
    for (const id of ['embed-layout', 'oom-verdict', ...FIGURES, 'memory-chart']) {
      await expect(card.getByTestId(id), id).toBeInViewport({ ratio: 1 });
    }
    for (const id of FIGURES) await expect(card.getByTestId(id)).toHaveAttribute('data-value', /\d/);
    const size = await page.evaluate(() => ({
      width: document.documentElement.scrollWidth,
      height: document.documentElement.scrollHeight,
    }));
    expect(size.width).toBeLessThanOrEqual(700);
    expect(size.height).toBeLessThanOrEqual(450);
    await page.screenshot({ path: `test-results/embed-card-${colorScheme}.png` });
    expect(await axeViolations(page)).toEqual([]);
  });
}

test('the copied embed snippet is a 700 × 450 frame showing the same figures as the page', async ({ page }) => {
  await openPlanner(page);
  const memory = await figureValue(page, 'memory-total');
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  const snippet = await page.getByTestId('share-text').inputValue();
  expect(snippet).toMatch(/ width="700" height="450" /);
  const src = (/src="([^"]+)"/.exec(snippet)?.[1] ?? '').replace(/&amp;/g, '&');
  await page.setViewportSize({ width: 700, height: 450 });
  await page.goto(src);
  await expect(page.getByTestId('embed-view').getByTestId('memory-total')).toHaveAttribute('data-value', String(memory));
});

test('a run that does not fit says so on the card, with how far over', async ({ page }) => {
  await openPlanner(page);
  await page.getByLabel('Model preset').selectOption('deepseek-v3');
  await expect(page.getByTestId('results').getByTestId('oom-verdict').first()).toHaveAttribute('data-verdict', 'will-not-fit');
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  const src = (/src="([^"]+)"/.exec(await page.getByTestId('share-text').inputValue())?.[1] ?? '').replace(/&amp;/g, '&');
  await page.setViewportSize({ width: 700, height: 450 });
  await page.goto(src);
  const verdict = page.getByTestId('embed-view').getByTestId('oom-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', 'will-not-fit');
  await expect(verdict).toContainText(/Will not fit: .* GiB over/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('DeepSeek-V3 671B on 64 × NVIDIA H100 SXM5 80GB');
});

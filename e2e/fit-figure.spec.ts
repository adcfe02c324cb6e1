// Issue 31, items 1 and 5: one figure judges the fit and everything shows it. Llama 3 70B on
// 64 H100, TP 8 · PP 2 · micro-batch 2 · VPP 2 (DP 4, interleaved 1F1B): the engine puts the
// first stage at 72.3 GiB allocated, 79.5 GiB reserved and 81.2 GiB on the device, over the
// 80 GiB GPU. The strip, the chart (bars, caption, table), the embed and the search all say so
// with that one figure; "tight" says in words where its margin comes from.

import { test, expect, configFragment, figureValue, openPlanner } from './fixtures.ts';
import { estimate } from '../src/model/estimate.ts';
import { DEFAULT_DOCUMENT } from '../src/state/defaults.ts';
import { VERDICT_TIGHT_FROM_SHARE } from '../src/model/validation/index.ts';

const GIB = 2 ** 30;
const DOC = {
  ...DEFAULT_DOCUMENT,
  training: { ...(DEFAULT_DOCUMENT['training'] as object), microBatch: 2 },
  parallel: { ...(DEFAULT_DOCUMENT['parallel'] as object), tp: 8, pp: 2, dp: 4, vpp: 2, schedule: 'interleaved-1f1b' },
};

test('70B TP 8 · PP 2 · MBS 2 · VPP 2 on 64 H100: the verdict, the strip, the chart and the search show one memory figure', async ({
  page,
}) => {
  // One page load for every check, the search included: more than the default minute on a loaded machine.
  test.setTimeout(120_000);
  const engine = estimate(DOC).memory;
  expect(engine.deviceUsed).toBeGreaterThan(80 * GIB);
  expect(engine.perGpu.total).toBeLessThan(80 * GIB);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openPlanner(page, `/#${configFragment(DOC)}`);
  const strip = page.getByTestId('summary-strip');

  // The strip: "will not fit", one memory figure (what the device holds), and the margin from it.
  await expect(strip.getByTestId('oom-verdict')).toHaveAttribute('data-verdict', 'will-not-fit');
  const figure = await figureValue(page, 'memory-total');
  expect(figure).toBe(engine.deviceUsed);
  await expect(strip.getByTestId('memory-total')).toContainText('81.2 GiB of 80 GiB');
  await expect(strip.getByTestId('memory-margin')).toHaveText('1.23 GiB over');
  const stripText = await strip.innerText();
  for (const rival of ['72.3 GiB', '79.5 GiB', 'used on the device']) expect(stripText).not.toContain(rival);
  // "Tight" in words beside the verdict: the share, and where that margin comes from.
  await expect(strip.getByTestId('tight-rule')).toBeVisible();
  await expect(strip.getByTestId('tight-rule')).toContainText(
    new RegExp(
      String.raw`Tight from [\d.]+ % of the GPU's memory \([\d.]+ GiB\): ` +
        String.raw`(1 in 20 of \d+ published runs used [\d.]+ % or more above their estimate` +
        String.raw`|of \d+ published runs like this one, the furthest over its estimate used [\d.]+ % more)`,
    ),
  );

  // The chart: its tallest bar is the strip's figure, its caption agrees with the verdict, its table too.
  const chart = page.getByTestId('results').getByTestId('memory-chart').first();
  await expect(chart).toHaveAttribute('data-tallest-bytes', String(figure));
  await expect(chart).toHaveAttribute('aria-label', /81\.2 GiB per GPU on the device .*1 of 2 stages exceed it/);
  const caption = page.getByTestId('results').locator('figcaption').filter({ hasText: 'Memory per GPU by pipeline stage' }).first();
  await expect(caption).toContainText('1 of 2 stages do not fit in 80 GiB.');
  await expect(caption).not.toContainText('All stages fit');
  for (const layer of ['Allocator reserve', 'CUDA context, NCCL, cuBLAS'])
    await expect(chart.locator(`[data-legend-label="${layer}"]`)).toBeVisible();
  const table = page.getByText('Memory per stage as a table (GiB)').first();
  await table.click();
  const stageOne = page.getByRole('region', { name: 'Memory per stage (scrollable table)' }).first().getByRole('row').nth(1);
  await expect(stageOne).toContainText('81.2');
  await expect(stageOne).toContainText('no: out of memory');

  // The search (item 5): its default margin is the verdict's, so none of its layouts is "tight", and each row's memory is the verdict's figure.
  await strip.getByRole('button', { name: 'Search layouts' }).click();
  const panel = page.getByTestId('search-panel');
  await expect(panel).toHaveAttribute('open', '');
  await expect(panel.getByLabel('Memory kept free (%)')).toHaveValue(String(Math.ceil((1 - VERDICT_TIGHT_FROM_SHARE) * 1000 - 1e-9) / 10));
  await panel.getByRole('button', { name: 'Search' }).click();
  await expect(panel.getByTestId('search-status')).toContainText(/Searched [\d,]+ layouts/, { timeout: 30_000 });
  const rows = panel.getByTestId('search-row');
  await expect(rows.first()).toBeVisible();
  const memories = await rows.evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-memory'))));
  expect(memories.length).toBeGreaterThan(0);
  for (const m of memories) expect(m).toBeLessThanOrEqual(VERDICT_TIGHT_FROM_SHARE * 80 * GIB);
  for (const text of await rows.allInnerTexts()) expect(text).not.toContain('(tight)');

  // The embed card: the same figure, the same verdict, "tight" in the same words.
  await page.setViewportSize({ width: 700, height: 450 });
  await page.goto(`/?embed=1#${configFragment(DOC)}`);
  const card = page.getByTestId('embed-view');
  await expect(card.getByTestId('oom-verdict')).toHaveAttribute('data-verdict', 'will-not-fit');
  await expect(card.getByTestId('memory-total')).toHaveAttribute('data-value', String(figure));
  await expect(card.getByTestId('oom-verdict')).toContainText(/81\.2 GiB of 80 GiB per GPU \([\d.]+ %\), 1\.23 GiB over/);
  await expect(card.getByTestId('tight-rule')).toContainText(/Tight from [\d.]+ % of the GPU's memory/);
  await expect(card.getByTestId('memory-chart')).toHaveAttribute('data-tallest-bytes', String(figure));
});

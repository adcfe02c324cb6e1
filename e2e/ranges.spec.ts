// Issue 35: every figure with the spread of published runs like it. An H100 dense run and a
// GB200 fine-grained MoE run show different ranges, each with its basis one click away
// ("why this range"), the same as the engine's `uncertainty`; the embed card shows ranges.

import { test, expect, configFragment, openPlanner } from './fixtures.ts';
import { estimate } from '../src/model/estimate.ts';
import { DEFAULT_DOCUMENT } from '../src/state/defaults.ts';

/** The default Llama 3 70B on 64 H100, under Megatron: a segment of many published runs. */
const H100_DENSE = { ...DEFAULT_DOCUMENT, training: { ...(DEFAULT_DOCUMENT['training'] as object), framework: 'megatron' } };
/** DeepSeek-V3's shape (arXiv 2412.19437) on 256 GB200 under Megatron: fine-grained MoE on Blackwell. */
const GB200_MOE = {
  ...H100_DENSE,
  model: {
    name: 'DeepSeek-V3-like',
    layers: 61,
    hidden: 7168,
    heads: 128,
    ffnHidden: 18432,
    vocab: 129280,
    moe: { experts: 256, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 3 },
  },
  parallel: { tp: 1, pp: 8, dp: 32, ep: 32 },
  cluster: { gpu: 'gb200', gpus: 256 },
};

test('an H100 dense run and a GB200 MoE run show different ranges with their bases; the embed shows a range', async ({ page }) => {
  test.setTimeout(20_000);
  const dense = estimate(H100_DENSE).uncertainty;
  const moe = estimate(GB200_MOE).uncertainty;
  expect(dense?.tokensPerSecond.basis).toMatch(/^dense on Hopper with Megatron: \d+ published runs$/);
  expect(moe?.tokensPerSecond.basis).toMatch(/^fine-grained MoE on Blackwell with Megatron: \d+ published runs/);

  /** high ÷ low of the strip's tokens/s and memory ranges. */
  const spread = async () =>
    Promise.all(
      ['tokens-per-second', 'memory-total'].map(async (id) => {
        const range = page.getByTestId('summary-strip').getByTestId(`strip-range-${id}`);
        await expect(range).toHaveAttribute('data-low', /\d/);
        return Number(await range.getAttribute('data-high')) / Number(await range.getAttribute('data-low'));
      }),
    );
  const why = async (basis: string) => {
    const details = page.getByTestId('summary-strip').getByTestId('why-range');
    await details.getByText(/Why this range/).click();
    await expect(details.getByTestId('range-basis-speed')).toContainText(basis);
    await expect(details.getByTestId('range-basis-memory')).toContainText(/published runs/);
  };

  await openPlanner(page, `/#${configFragment(H100_DENSE)}`);
  await why(dense?.tokensPerSecond.basis ?? '');
  const denseSpread = await spread();
  for (const id of ['memory-total', 'training-days', 'cost-usd']) {
    await expect(page.getByTestId('summary-strip').getByTestId(`strip-range-${id}`)).toContainText('–');
  }

  await openPlanner(page, `/#${configFragment(GB200_MOE)}`);
  await why(moe?.tokensPerSecond.basis ?? '');
  const moeSpread = await spread();
  // Different segments, different ranges: each the engine's own (tokens/s and memory).
  const engineSpread = (u: typeof dense) => [u?.tokensPerSecond, u?.memory].map((r) => (r?.high ?? NaN) / (r?.low ?? NaN));
  engineSpread(dense).forEach((s, i) => expect(denseSpread[i]).toBeCloseTo(s, 6));
  engineSpread(moe).forEach((s, i) => expect(moeSpread[i]).toBeCloseTo(s, 6));
  expect(Math.max(...moeSpread.map((s, i) => Math.abs(s - (denseSpread[i] ?? NaN))))).toBeGreaterThan(0.01);

  await page.setViewportSize({ width: 700, height: 450 });
  await openPlanner(page, `/?embed=1#${configFragment(GB200_MOE)}`);
  const ranges = page.getByTestId('embed-view').getByTestId('embed-ranges');
  await expect(ranges.getByTestId('embed-range-tokens-per-second')).toContainText(/speed .+ – .+tokens\/s/);
  await expect(ranges.getByTestId('embed-range-memory-total')).toContainText(/[\d.]+ – [\d.]+ GiB/);
});

import { readFileSync } from 'node:fs';
import { test, expect, figureValue, openPlanner, resultsSettled, setSlider, slider } from './fixtures.ts';

const LLAMA3_8B_CONFIG = readFileSync(new URL('./data/llama3-8b-config.json', import.meta.url), 'utf8');

// The defaults, the keyboard and a bad value on one page (three tests each loaded it before): reading the defaults moves
// nothing, the keyboard test starts from the top of the page, and the bad value is typed back to 80.
test(
  'opens on the default: Llama 3 70B on 64 H100 SXM, TP 8 × PP 4 × DP 2; ' +
    'sliders work from the keyboard: Tab reaches TP, arrow keys move it; ' +
    'bad input shows a field-named alert and keeps the last good results on screen',
  async ({ page }) => {
    await openPlanner(page);
    await expect(page.getByLabel('Model preset')).toHaveValue('llama3-70b');
    await expect(page.getByLabel('GPU', { exact: true })).toHaveValue('h100-sxm');
    await expect(page.getByLabel('Cluster size (GPUs)')).toHaveValue('64');
    await expect(slider(page, /\(TP\)/)).toHaveAttribute('aria-valuetext', '8');
    await expect(slider(page, /\(PP\)/)).toHaveAttribute('aria-valuetext', '4');
    await expect(slider(page, /\(DP\)/)).toHaveAttribute('aria-valuetext', '2');
    for (const id of ['memory-total', 'mfu', 'step-time', 'bubble-fraction']) {
      await expect(page.getByTestId(id)).not.toHaveText(/NaN|Infinity|^\s*$/);
    }
    await expect(page.getByTestId('memory-chart')).toBeVisible();
    await expect(page.getByTestId('pipeline-chart')).toBeVisible();

    const tp = slider(page, /\(TP\)/);
    // The run's frame (model, GPU, GPU count, price, token budget) comes first, then the layout knobs (issue 22, item 4).
    for (let i = 0; i < 30 && !(await tp.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(tp).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(tp).toHaveAttribute('aria-valuetext', '4');
    await page.keyboard.press('Home');
    await expect(tp).toHaveAttribute('aria-valuetext', '1');
    await expect(slider(page, /\(DP\)/)).toHaveAttribute('aria-valuetext', '16');
    // Back to the default's TP 8 (the last stop) for the bad value, which the default run takes.
    await page.keyboard.press('End');
    await expect(tp).toHaveAttribute('aria-valuetext', '8');
    await expect(slider(page, /\(DP\)/)).toHaveAttribute('aria-valuetext', '2');
    await resultsSettled(page);

    const memory = await page.getByTestId('memory-total').textContent();
    await page.getByLabel('Layers (L)').fill('abc');
    await expect(page.getByRole('alert').filter({ hasText: 'Layers (L): must be' })).toBeVisible();
    await expect(page.getByLabel('Layers (L)')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('memory-total')).toHaveText(memory ?? '');
    await expect(page.getByTestId('results')).not.toContainText(/NaN|Infinity/);
    await page.getByLabel('Layers (L)').fill('80');
    await expect(page.getByRole('alert')).toHaveCount(0);
  },
);

test('the TP slider offers only valid values, says why not the others, and moving it changes memory-total and the chart', async ({
  page,
}) => {
  await openPlanner(page);
  // Llama 3 70B has 8 KV heads, so TP 16 (a divisor of 64 / PP 4) is not offered: the slider has 4 stops, 1, 2, 4, 8.
  await expect(slider(page, /\(TP\)/)).toHaveAttribute('max', '3');
  await expect(page.getByText('Not offered: 16 (16 does not divide KV heads (GQA) = 8).')).toBeVisible();
  const memoryBefore = await figureValue(page, 'memory-total');
  const chartBefore = await page.getByTestId('memory-chart').innerHTML();
  await setSlider(page, /\(TP\)/, 4);
  // 64 GPUs = TP 4 × PP 4 × DP 4: half the tensor split, twice the replicas.
  await expect(slider(page, /\(DP\)/)).toHaveAttribute('aria-valuetext', '4');
  await expect.poll(() => figureValue(page, 'memory-total')).toBeGreaterThan(memoryBefore);
  await expect.poll(() => page.getByTestId('memory-chart').innerHTML()).not.toBe(chartBefore);
});

test('PP and the micro-batch count change the timeline blocks and the bubble as (p − 1) / m predicts', async ({ page }) => {
  await openPlanner(page);
  // MBS 32 with DP 2: m = 256 / (32 × 2) = 4 micro-batches per step.
  await setSlider(page, /\(MBS\)/, 32);
  await expect(page.getByTestId('micro-batch-count')).toContainText('= 4');
  const blocks = page.getByTestId('pipeline-chart').locator('rect[data-kind]');
  // 1F1B: every stage runs one forward and one backward per micro-batch: 2 × p × m = 2 × 4 × 4 blocks.
  await expect(blocks).toHaveCount(32);
  // Bubble over ideal time is (p − 1) / m (Narayanan 2021, section 2.2); the share of the step is then (p − 1) / (m + p − 1) = 3 / 7.
  await expect.poll(() => figureValue(page, 'bubble-fraction')).toBeCloseTo(3 / 7, 1);
  const bubbleAtPp4 = await figureValue(page, 'bubble-fraction');

  await setSlider(page, /\(PP\)/, 2);
  // 64 = TP 8 × PP 2 × DP 4, so m = 256 / (32 × 4) = 2: 2 × 2 × 2 blocks and a bubble of 1 / (2 + 1).
  await expect(page.getByTestId('micro-batch-count')).toContainText('= 2');
  await expect(blocks).toHaveCount(8);
  await expect.poll(() => figureValue(page, 'bubble-fraction')).toBeCloseTo(1 / 3, 1);
  expect(await figureValue(page, 'bubble-fraction')).toBeLessThan(bubbleAtPp4);

  // Fewer micro-batches, same PP: MBS 64 gives m = 1 and a bubble of 1 / (1 + 1).
  await setSlider(page, /\(MBS\)/, 64);
  await expect(blocks).toHaveCount(4);
  await expect.poll(() => figureValue(page, 'bubble-fraction')).toBeCloseTo(1 / 2, 1);
});

// An unknown architecture refused (the page keeps Llama 3 70B), then Llama 3 8B imported, on one page.
test(
  'an uploaded config.json of an unknown architecture is refused with a clear alert; ' +
    'a Hugging Face config.json of Llama 3 8B imports to its dimensions',
  async ({ page }) => {
    await openPlanner(page);
    const memory = await figureValue(page, 'memory-total');
    await page.getByLabel('or upload config.json:').setInputFiles({
      name: 'config.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ architectures: ['MambaForCausalLM'], model_type: 'mamba', hidden_size: 768 })),
    });
    await expect(page.getByRole('alert').filter({ hasText: 'could not be imported' })).toContainText('Mamba');
    await expect(page.getByLabel('Layers (L)')).toHaveValue('80');
    expect(await figureValue(page, 'memory-total')).toBe(memory);

    await page.getByLabel(/Import a Hugging Face config\.json/).fill(LLAMA3_8B_CONFIG);
    await page.getByRole('button', { name: 'Import pasted config' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Imported' })).toBeVisible();
    // meta-llama/Meta-Llama-3-8B config.json: 32 layers, 4096 hidden, 32 heads, 8 KV heads, 14336 FFN, 128256 vocabulary.
    await expect(page.getByLabel('Layers (L)')).toHaveValue('32');
    await expect(page.getByLabel('Hidden size (h)')).toHaveValue('4096');
    await expect(page.getByLabel('Attention heads (a)')).toHaveValue('32');
    await expect(page.getByLabel('KV heads (GQA)')).toHaveValue('8');
    await expect(page.getByLabel('FFN hidden size (FFN)')).toHaveValue('14336');
    await expect(page.getByLabel('Vocabulary (V)')).toHaveValue('128256');
    await expect(page.getByLabel('MLP type (FFN)')).toHaveValue('swiglu');
  },
);

// Issue 22 items 1, 2, 5, 6, 7: exploring is safe. The GPU count can go anywhere and back
// to the layout the user had; a refused count changes nothing else; every forced change
// says what it changed, with an Undo; "cannot run" offers the nearest values that run.

import { test, expect, openPlanner, resultsSettled, setSlider, slider } from './fixtures.ts';

async function typeGpus(page: import('@playwright/test').Page, value: string) {
  const field = page.getByLabel('Cluster size (GPUs)');
  await field.fill(value);
  await field.press('Enter');
}

async function layout(page: import('@playwright/test').Page) {
  const read = async (name: RegExp) => Number(await slider(page, name).getAttribute('aria-valuetext'));
  return { tp: await read(/\(TP\)/), pp: await read(/\(PP\)/), dp: await read(/\(DP\)/) };
}

// The GPU-count tests share one page, in this order: each ends on the default's 64 GPUs at TP 8 × PP 4 × DP 2, where the
// next one starts (five tests each loaded the page before).
test(
  'GPUs 64 → 48 → 64 → 24 → 64 gives back TP 8 × PP 4 × DP 2; ' +
    'a refused GPU count (7, 1e99) changes nothing else, and 64 afterwards is the layout as it was; ' +
    '24 GPUs forces PP 4 → 3 and says why; Undo brings back 64 GPUs at PP 4; ' +
    'ZeRO at DP 1 says it changes nothing, and what would help',
  async ({ page }) => {
    await openPlanner(page);
    expect(await layout(page)).toEqual({ tp: 8, pp: 4, dp: 2 });
    for (const gpus of ['48', '64', '24', '64']) {
      await typeGpus(page, gpus);
      await expect(page.getByLabel('Cluster size (GPUs)')).toHaveValue(gpus);
    }
    await resultsSettled(page);
    expect(await layout(page)).toEqual({ tp: 8, pp: 4, dp: 2 });

    // Each typo's own words (src/model/input/layout-intent.ts), so that the second is not read off the first one's note.
    const refusals = [
      ['7', '7 GPUs not taken'],
      ['1e99', 'is not a GPU count'],
    ] as const;
    for (const [typo, words] of refusals) {
      await resultsSettled(page);
      const memory = await page.getByTestId('results').getByTestId('memory-total').first().getAttribute('data-value');
      await typeGpus(page, typo);
      await expect(page.getByTestId('preset-note'), typo).toContainText(/not taken|is not a GPU count/);
      await expect(page.getByTestId('preset-note'), typo).toContainText(words);
      expect(await layout(page), typo).toEqual({ tp: 8, pp: 4, dp: 2 });
      // The last good results stay on screen.
      await expect(page.getByTestId('results').getByTestId('memory-total').first(), typo).toHaveAttribute('data-value', memory ?? '');
      await typeGpus(page, '64');
      await expect(page.getByRole('alert'), typo).toHaveCount(0);
      expect(await layout(page), typo).toEqual({ tp: 8, pp: 4, dp: 2 });
    }

    await typeGpus(page, '24');
    const note = page.getByTestId('preset-note');
    await expect(note).toContainText('PP 4 → 3 because 24 GPUs ÷ TP 8 = 3 is not a multiple of PP 4');
    await expect(note).toContainText('DP 2 → 1 follows');
    expect(await layout(page)).toEqual({ tp: 8, pp: 3, dp: 1 });
    await note.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByLabel('Cluster size (GPUs)')).toHaveValue('64');
    expect(await layout(page)).toEqual({ tp: 8, pp: 4, dp: 2 });
    await expect(note).toHaveCount(0);

    await typeGpus(page, '32'); // TP 8 × PP 4 × DP 1
    await expect(page.getByTestId('zero-note')).toContainText('changes nothing');
    await typeGpus(page, '64');
    await expect(page.getByTestId('zero-note')).toHaveCount(0);
  },
);

test('the Mixtral preset says it moved the sequence length and spread the experts (EP 8); Undo restores both', async ({ page }) => {
  await openPlanner(page);
  await page.getByLabel('Model preset').selectOption('mixtral-8x7b');
  const note = page.getByTestId('preset-note');
  await expect(note).toContainText('Sequence length changed from 8,192 to 32,768');
  await expect(note).toContainText('EP 1 → 8');
  await expect(slider(page, /\(EP\)/)).toHaveAttribute('aria-valuetext', '8');
  await note.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByLabel('Model preset')).toHaveValue('llama3-70b');
  await expect(page.getByLabel(/^Sequence length/)).toHaveValue('8192');
});

test('96 GPUs with global batch 256 cannot run; the cure buttons offer the nearest values, and one click makes it run', async ({
  page,
}) => {
  await openPlanner(page);
  await typeGpus(page, '96');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('256 is not a multiple');
  const cures = alert.getByTestId('cures');
  await expect(cures.getByRole('button', { name: 'GBS 255' })).toBeVisible();
  await expect(cures.getByRole('button', { name: 'GBS 258' })).toBeVisible();
  await expect(cures.getByRole('button', { name: 'PP 3 (DP 4)' })).toBeVisible();
  await cures.getByRole('button', { name: 'GBS 258' }).click();
  await expect(alert).toHaveCount(0);
  await expect(page.getByLabel(/^Global batch size/)).toHaveValue('258');
  await expect(page.getByLabel('Cluster size (GPUs)')).toHaveValue('96');
  await resultsSettled(page);
});

test('DeepSeek-V3 with EP 1 on 64 H100: "Make it fit" offers a fix that fits when applied', async ({ page }) => {
  await openPlanner(page);
  await page.getByLabel('Model preset').selectOption('deepseek-v3');
  await setSlider(page, /\(EP\)/, 1);
  await expect(page.getByTestId('results').getByTestId('oom-verdict').first()).toHaveAttribute('data-verdict', 'will-not-fit');
  const fixes = page.getByTestId('fit-suggestions').getByTestId('fit-suggestion');
  await expect(fixes.first()).toBeVisible({ timeout: 30_000 });
  await fixes.first().click();
  await expect(page.getByTestId('results').getByTestId('oom-verdict').first()).not.toHaveAttribute('data-verdict', 'will-not-fit');
});

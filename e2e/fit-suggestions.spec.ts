// Issue 16 item 5 and issue 31 items 3–4: a run that does not fit lists the changes that make
// it fit, in the order a person tries them (the user's own GPUs first), and one click applies
// one; a preset sets the model's pre-training sequence length and shows its longest context.

import { findModelPreset } from '../src/model/catalog/all.ts';
import { test, expect, openPlanner, resultsSettled, switchToDark } from './fixtures.ts';
import { axeViolations } from './axe.ts';

async function deepSeekOn64(page: import('@playwright/test').Page) {
  await openPlanner(page);
  await page.getByLabel('Model preset').selectOption('deepseek-v3');
  await expect(page.getByLabel('Cluster size (GPUs)')).toHaveValue('64');
  await expect(page.getByTestId('results').getByTestId('oom-verdict').first()).toHaveAttribute('data-verdict', 'will-not-fit');
}

// One DeepSeek-V3 page for the fixes' content and their axe passes (two tests each computed the whole list before).
test(
  'DeepSeek-V3 on 64 H100: the first fix keeps the 64 GPUs, each is priced in tokens/s and days, ' +
    'the preset note stays until dismissed, and the first fix makes it fit; ' +
    'while the input is invalid, the fixes say they are for the previous input; ' +
    'axe finds no WCAG 2.1 A/AA violations with the fixes listed (light and dark)',
  async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: 'light' });
    await deepSeekOn64(page);
    const note = page.getByTestId('preset-note');
    await expect(note).toContainText("Sequence length changed from 8,192 to 4,096, DeepSeek-V3 671B's pre-training length");
    const list = page.getByTestId('fit-suggestions');
    const fixes = list.getByTestId('fit-suggestion');
    await expect(fixes.first()).toBeVisible({ timeout: 20_000 });
    await expect(fixes.first()).toHaveAttribute('data-gpus', '64');
    await expect(fixes.first()).toHaveAttribute('data-group', 'sameGpus');
    await expect(list.getByTestId('fit-group-sameGpus').getByRole('heading')).toHaveText('On your 64 GPUs, same model');
    // The layout searches come after the knob fixes: on the same 64 GPUs, and labelled, on another count.
    await expect(list).not.toHaveAttribute('aria-busy', 'true', { timeout: 60_000 });
    await expect(fixes.first()).toHaveAttribute('data-gpus', '64');
    await expect(list.getByTestId('fit-group-sameGpus').getByText(/^Layout search on your 64 GPUs: /)).toBeVisible();
    for (const text of await fixes.allTextContents()) {
      expect(text).toMatch(
        /GiB per GPU( \(tight\))? · [\d.,]+\s?[kM]? tokens\/s \(([−+][\d.]+\s?% tokens\/s|same tokens\/s)(, on [\d.,]+× the GPUs)?\) · [\d.,]+ (days?|years)$/,
      );
    }
    // Groups in the order to try them: the same GPUs, the fewest that fit, any count.
    const order = ['fit-group-sameGpus', 'fit-group-fewestGpus', 'fit-group-anyCount'];
    const groups = await list
      .locator('[data-testid^="fit-group-"]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-testid') ?? ''));
    const ranks = groups.map((g) => order.indexOf(g));
    expect(ranks[0]).toBe(0);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));

    // While the input is invalid, the fixes say they are for the previous input (a test of its own on a page of its own
    // before); 61 layers again, and the list answers for it.
    await page.getByLabel('Layers (L)').fill('abc');
    await expect(list).toHaveAttribute('data-stale', 'true');
    await expect(list.getByRole('heading', { level: 2 })).toHaveText('Make it fit (for the previous input)');
    await page.getByLabel('Layers (L)').fill('61');
    await expect(list).not.toHaveAttribute('data-stale', 'true');
    await expect(list).not.toHaveAttribute('aria-busy', 'true', { timeout: 60_000 });
    await expect(fixes.first()).toHaveAttribute('data-gpus', '64');

    // The preset's note is still there after the fixes came (and after any edit), until dismissed.
    await expect(note).toBeVisible();

    // axe over the fixes, every group listed, in each scheme.
    const check = async () => {
      expect(await axeViolations(page, ['[data-testid="fit-suggestions"]', '[data-testid="model-context"]'])).toEqual([]);
    };
    await check();
    // The same fixes in the dark scheme.
    await switchToDark(page);
    await expect(page.getByTestId('fit-suggestion').first()).toBeVisible();
    await expect(page.getByTestId('fit-suggestions')).not.toHaveAttribute('aria-busy', 'true');
    await check();

    await note.getByRole('button', { name: 'Dismiss' }).click();
    await expect(note).toHaveCount(0);
    await fixes.first().click();
    await expect(page.getByTestId('results').getByTestId('oom-verdict').first()).not.toHaveAttribute('data-verdict', 'will-not-fit');
    await resultsSettled(page);
    await expect(list).toHaveCount(0);
  },
);

test(
  'Llama 3.1 8B: the preset trains at 8,192 tokens and shows its 131,072-token context; ' +
    'a QLoRA fine-tune at 131,072 on one RTX 4090 is first offered a fix on that one GPU',
  async ({ page }) => {
    await openPlanner(page);
    await page.getByLabel('Model preset').selectOption('llama3.1-8b');
    await expect(page.getByLabel(/^Sequence length/)).toHaveValue('8192');
    await expect(page.getByTestId('model-context')).toContainText('Pre-trained at 8,192 tokens per sequence');
    await expect(page.getByTestId('model-context')).toContainText('longest context 131,072 tokens');

    const document = {
      version: 1,
      model: findModelPreset('llama3.1-8b')?.model,
      training: {
        seqLen: 131072,
        globalBatch: 8,
        microBatch: 1,
        tokens: 1e8,
        recompute: 'selective',
        adapter: { method: 'qlora', rank: 16, modules: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] },
      },
      parallel: { tp: 1, pp: 1, dp: 1, zero: 0 },
      cluster: { gpu: 'rtx-4090', gpus: 1 },
    };
    // A fresh load of the link (not a same-page hash change).
    await page.goto('about:blank');
    await openPlanner(page, `/#config=${Buffer.from(JSON.stringify(document)).toString('base64url')}`);
    await expect(page.getByTestId('results').getByTestId('oom-verdict').first()).toHaveAttribute('data-verdict', 'will-not-fit');
    const fixes = page.getByTestId('fit-suggestions').getByTestId('fit-suggestion');
    await expect(fixes.first()).toBeVisible({ timeout: 20_000 });
    await expect(fixes.first()).toHaveAttribute('data-gpus', '1');
    await expect(fixes.first()).toContainText(
      /^Sequence length [\d,]+ tokens \(from 131,072\)Changes the training: changes what each step trains on/,
    );
    await expect(page.getByTestId('fit-suggestions')).not.toHaveAttribute('aria-busy', 'true', { timeout: 60_000 });
    await expect(fixes.first()).toHaveAttribute('data-gpus', '1');
  },
);

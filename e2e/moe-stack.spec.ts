import { test, expect, figureValue, openPlanner, resultsSettled, setSlider, slider } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { DEFAULT_DOCUMENT } from '../src/state/defaults.ts';
import { encodeConfigFragment } from '../src/state/url-codec.ts';

// Issue 20, item 5: the mixture-of-experts stack controls. On a MoE run the dispatcher,
// expert-parallel overlap and CUDA graphs change the step time (the engine's host-sync and
// EP-exposure terms, src/model/time/moe-time.ts); on a dense run they are absent and the
// same fields in the document change nothing; the Megatron-LM launch file the page writes
// comes back through the page's import with its MoE flags.

const MOE_FLAGS = [
  '--moe-token-dispatcher-type flex',
  '--moe-flex-dispatcher-backend hybridep',
  '--overlap-moe-expert-parallel-comm',
  '--moe-expert-capacity-factor 1.25',
  '--moe-pad-expert-input-to-capacity',
  '--cuda-graph-impl local',
  '--cuda-graph-scope full_iteration',
  '--expert-tensor-parallel-size 1',
];

async function mixtralWithEp(page: import('@playwright/test').Page): Promise<void> {
  await openPlanner(page);
  await page.getByLabel('Model preset').selectOption('mixtral-8x7b');
  await resultsSettled(page);
  // EP 8 puts the experts on different GPUs, so the token exchange is real communication.
  await setSlider(page, /\(EP\)/, 8);
  await expect(slider(page, /\(EP\)/)).toHaveAttribute('aria-valuetext', '8');
  await resultsSettled(page);
}

// One Mixtral page for the step-time checks and then the bad values and axe (two tests each set Mixtral up before).
test(
  'on a MoE run, the dispatcher, EP overlap and CUDA graphs each change the step time; ' +
    'bad values are named by their field and the last estimate stays; the MoE controls pass axe',
  async ({ page }) => {
    await mixtralWithEp(page);
    const dispatcher = page.getByLabel('Token dispatcher');
    await expect(dispatcher).toHaveValue('__profile__');
    let step = await figureValue(page, 'step-time');

    await dispatcher.selectOption('hybridep');
    await expect.poll(() => figureValue(page, 'step-time')).not.toBe(step);
    step = await figureValue(page, 'step-time');

    await page.getByLabel('Overlap expert-parallel communication').check();
    // Hiding the exchange behind compute can only shorten the step.
    await expect.poll(() => figureValue(page, 'step-time')).toBeLessThan(step);
    step = await figureValue(page, 'step-time');

    await page.getByLabel('CUDA graphs').selectOption('full');
    // Whole-iteration graphs remove the dispatcher's host wait: the step gets shorter.
    await expect.poll(() => figureValue(page, 'step-time')).toBeLessThan(step);

    // Bad values, on the same run.
    await resultsSettled(page);
    step = await figureValue(page, 'step-time');
    await page.getByLabel('Expert capacity factor').fill('-1');
    await expect(page.getByText(/^Expert capacity factor: /).first()).toBeVisible();
    await resultsSettled(page);
    expect(await figureValue(page, 'step-time')).toBe(step);
    await expect(page.getByLabel('Expert capacity factor')).toHaveValue('-1');
    await page.getByLabel('Expert capacity factor').fill('');
    await expect(page.getByText(/^Expert capacity factor: /)).toHaveCount(0);
    // Expert TP offers the engine's default and the values that divide the expert group.
    const etp = page.getByLabel('Expert tensor parallel (ETP)');
    await expect(etp).toHaveValue('__default__');
    await etp.selectOption('1');
    await expect(etp).toHaveValue('1');
    for (const section of ['section-stack', 'section-parallel']) {
      expect(await axeViolations(page, [`section[aria-labelledby="${section}"]`]), section).toEqual([]);
    }
  },
);

test('on a dense run the MoE controls are absent, and the MoE fields in the document leave the step time as it was', async ({ page }) => {
  await openPlanner(page);
  await expect(page.getByLabel('Token dispatcher')).toHaveCount(0);
  await expect(page.getByLabel('CUDA graphs')).toHaveCount(0);
  await expect(page.getByLabel('Overlap expert-parallel communication')).toHaveCount(0);
  await expect(page.getByLabel('Expert tensor parallel (ETP)')).toHaveCount(0);
  await expect(page.getByText(/Mixture-of-experts settings .* appear here for a model with experts/)).toBeVisible();
  const dense = await figureValue(page, 'step-time');
  const base = DEFAULT_DOCUMENT as { training: Record<string, unknown> };
  const withMoeFields = {
    ...DEFAULT_DOCUMENT,
    training: { ...base.training, moeDispatcher: 'hybridep', cudaGraph: 'full', overlap: { epComm: true } },
  };
  await openPlanner(page, `/#${encodeConfigFragment(withMoeFields)}`);
  expect(await figureValue(page, 'step-time')).toBe(dense);
});

test("the Megatron-LM launch file of a MoE run with every MoE field set round-trips through the page's import", async ({ page }) => {
  await mixtralWithEp(page);
  await page.getByLabel('Framework', { exact: true }).selectOption('megatron');
  await page.getByLabel('Token dispatcher').selectOption('hybridep');
  await page.getByLabel('CUDA graphs').selectOption('full');
  await page.getByLabel('Overlap expert-parallel communication').check();
  await page.getByLabel('Expert capacity factor').fill('1.25');
  await page.getByLabel('Expert tensor parallel (ETP)').selectOption('1');
  await resultsSettled(page);
  const step = await figureValue(page, 'step-time');
  await page.getByText('Launch arguments: Megatron-LM, DeepSpeed, torchtitan').click();
  const launch = page.getByTestId('launch-megatron');
  for (const flag of MOE_FLAGS) await expect(launch).toContainText(`${flag} \\`);
  const text = (await launch.textContent()) ?? '';

  // A fresh page (dense Llama 3 70B), then the file pasted into its import.
  await openPlanner(page);
  await page.getByLabel(/Import a launch file/).fill(text);
  await page.getByRole('button', { name: 'Import pasted launch file' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Imported the Megatron-LM launch file' })).toBeVisible();
  await expect(page.getByLabel('Token dispatcher')).toHaveValue('hybridep');
  await expect(page.getByLabel('CUDA graphs')).toHaveValue('full');
  await expect(page.getByLabel('Overlap expert-parallel communication')).toBeChecked();
  await expect(page.getByLabel('Expert capacity factor')).toHaveValue('1.25');
  await expect(page.getByLabel('Expert tensor parallel (ETP)')).toHaveValue('1');
  await resultsSettled(page);
  expect(await figureValue(page, 'step-time')).toBe(step);
  await page.getByText('Launch arguments: Megatron-LM, DeepSpeed, torchtitan').click();
  for (const flag of MOE_FLAGS) await expect(page.getByTestId('launch-megatron')).toContainText(`${flag} \\`);
});

import { readFile } from 'node:fs/promises';
import { test, expect, configFragment, figureValue, openPlanner } from './fixtures.ts';
import { estimate } from '../src/model/estimate.ts';
import { findGpuPreset } from '../src/model/input/index.ts';
import { DEFAULT_DOCUMENT } from '../src/state/defaults.ts';
import { formatFormulaBytes } from '../src/ui/explain/quantityFormat.ts';
import type { EstimateOutput } from '../src/model/input/index.ts';

const GIB = 2 ** 30;

test('a configuration at 95 % of GPU memory is flagged "tight"', async ({ page }) => {
  // Memory does not depend on the GPU's capacity: give the default configuration's
  // H100 exactly deviceUsed ÷ 0.95 of memory, so the figure the verdict judges (what the
  // device holds: the allocator's reserved peak plus the CUDA context, NCCL buffers and
  // cuBLAS workspaces, none of which depends on capacity) sits at 95 % of it.
  const total = estimate(DEFAULT_DOCUMENT).memory.deviceUsed;
  const preset = findGpuPreset('h100-sxm');
  if (!preset) throw new Error('no h100-sxm preset');
  const { id: _id, nvlinkDomainGpus: _domain, nodeGpus: _node, source: _source, ...spec } = preset;
  const gpu = { ...spec, name: 'H100 with 95 % headroom (test)', memoryGiB: total / 0.95 / GIB };
  const cluster = { ...(DEFAULT_DOCUMENT['cluster'] as object), gpu };
  await openPlanner(page, `/#${configFragment({ ...DEFAULT_DOCUMENT, cluster })}`);
  // The page's one memory figure is the one the verdict judges: deviceUsed = 95 %.
  expect((await figureValue(page, 'memory-total')) / total).toBeCloseTo(1, 9);
  const verdict = page.getByTestId('oom-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', 'tight');
  await expect(verdict).toContainText('Tight');
  await expect(verdict).toContainText('95 % of the GPU');
  await expect(page.getByTestId('oom-warning')).toHaveCount(0);
  await expect(page.getByTestId('band-memory-total')).toContainText('range from published runs');
});

// The default page's verdict, its formula views and their dialogs on one page (three tests each loaded it before);
// each dialog is closed before the next check.
test(
  'the default configuration is "safe", and every headline figure shows its range; ' +
    'the formula view of memory-total substitutes the same numbers the engine used; ' +
    'every headline figure opens its formula, and Close shuts it',
  async ({ page }) => {
    await openPlanner(page);
    await expect(page.getByTestId('oom-verdict')).toHaveAttribute('data-verdict', 'safe');
    for (const id of ['memory-total', 'step-time', 'tokens-per-second', 'mfu', 'training-days', 'cost-usd']) {
      const band = page.getByTestId(`band-${id}`);
      const value = await figureValue(page, id);
      expect(Number(await band.getAttribute('data-low')), id).toBeLessThanOrEqual(value);
      expect(Number(await band.getAttribute('data-high')), id).toBeGreaterThanOrEqual(value);
    }

    // The engine's output as the page exports it.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export JSON' }).click();
    const exported = JSON.parse(await readFile(await (await download).path(), 'utf8')) as { output: EstimateOutput };
    const perGpu = exported.output.memory.perGpu;

    const figure = page.getByTestId('results').getByRole('button', { name: /GiB of/ });
    await figure.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /Memory per GPU/ });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();

    // Memory per GPU is what the device holds: allocated + the allocator's reserve + the runtime outside it.
    const memory = exported.output.memory;
    const total = dialog.getByTestId('explain-total');
    await expect(total.getByTestId('explain-operand')).toHaveCount(3);
    await expect(total.getByTestId('explain-operand').first()).toHaveAttribute('data-value', String(perGpu.total));
    await expect(total.getByTestId('explain-result')).toHaveAttribute('data-value', String(memory.deviceUsed));
    await expect(total.getByTestId('explain-result')).toHaveText(formatFormulaBytes(memory.deviceUsed));
    const allocated = dialog.getByTestId('explain-allocated-peak');
    const operands = allocated.getByTestId('explain-operand');
    await expect(operands).toHaveCount(5);
    const parts = ['parameters', 'gradients', 'optimizer', 'activations', 'other'] as const;
    for (const [i, part] of parts.entries()) {
      const operand = operands.nth(i);
      await expect(operand, part).toHaveAttribute('data-value', String(perGpu[part]));
      await expect(operand, part).toHaveText(formatFormulaBytes(perGpu[part]));
    }
    await expect(allocated.getByTestId('explain-result')).toHaveAttribute('data-value', String(perGpu.total));
    await expect(allocated.getByTestId('explain-result')).toHaveText(formatFormulaBytes(perGpu.total));
    // Each term's own line ends in the same number.
    for (const part of parts) {
      await expect(dialog.getByTestId(`explain-${part}`).getByTestId('explain-result'), part).toHaveAttribute(
        'data-value',
        String(perGpu[part]),
      );
    }
    await expect(dialog.getByText(/Source: .*Rajbhandari/).first()).toBeVisible();

    // Escape closes it and gives focus back to the figure.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(figure).toBeFocused();

    for (const id of ['step-time', 'tokens-per-second', 'mfu', 'bubble-fraction', 'training-days', 'cost-usd']) {
      await page.getByTestId('results').getByTestId(id).getByRole('button').click();
      const dialog = page.getByTestId('explain-dialog');
      await expect(dialog.getByTestId('explain-result').first(), id).toBeVisible();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toHaveCount(0);
    }
  },
);

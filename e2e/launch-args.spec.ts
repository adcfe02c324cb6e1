import { readFileSync } from 'node:fs';
import { test, expect, openPlanner, setSlider } from './fixtures.ts';

// The golden files were written by hand from each project's documented names
// (docs/launch-args.md); the unit tests check the exporter against them too.
const golden = (file: string) => readFileSync(new URL(`../src/model/export/__golden__/launch/${file}`, import.meta.url), 'utf8');

const exports = [
  ['megatron', 'Megatron-LM', 'llama3-70b-default.megatron.sh'],
  ['deepspeed', 'DeepSpeed', 'llama3-70b-default.deepspeed.sh'],
  ['torchtitan', 'torchtitan', 'llama3-70b-default.torchtitan.toml'],
] as const;

test('each launch file of the default configuration matches its golden file (the text `npm run launch` prints), and has a Copy button', async ({
  page,
}) => {
  await openPlanner(page);
  await page.getByText('Launch arguments: Megatron-LM, DeepSpeed, torchtitan').click();
  for (const [target, label, file] of exports) {
    const block = page.getByTestId(`launch-${target}`);
    await expect(block).toBeVisible();
    expect(await block.textContent()).toBe(golden(file));
    await page.getByRole('button', { name: `Copy ${label}` }).click();
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: /Copied the .*|did not allow clipboard access/ })
        .first(),
    ).toBeVisible();
  }
});

test('the exports follow the layout: TP 4 becomes --tensor-model-parallel-size 4 and tensor_parallel_degree = 4', async ({ page }) => {
  await openPlanner(page);
  await page.getByText('Launch arguments: Megatron-LM, DeepSpeed, torchtitan').click();
  await setSlider(page, /\(TP\)/, 4);
  await expect(page.getByTestId('launch-megatron')).toContainText('--tensor-model-parallel-size 4 \\');
  await expect(page.getByTestId('launch-torchtitan')).toContainText('tensor_parallel_degree = 4');
  // Megatron-DeepSpeed shards with the Megatron flag; its ds_config asks for no AutoTP on top (issue 23).
  await expect(page.getByTestId('launch-deepspeed')).toContainText('--tensor-model-parallel-size 4 \\');
  await expect(page.getByTestId('launch-deepspeed')).not.toContainText('autotp_size');
});

import { readFileSync } from 'node:fs';
import { test, expect, openPlanner, slider } from './fixtures.ts';

// Issue 15, item 4: the page reads the launch files people already have (the same importer
// as `npm run import`), pasted, chosen or dropped next to the Hugging Face import. Files as
// the frameworks publish them: scripts/fixtures/import/README.md.
const fixture = (path: string) => readFileSync(new URL(`../scripts/fixtures/import/${path}`, import.meta.url), 'utf8');

test("a pasted torchtitan TOML (llama3_8b.toml): flavor 8B, FSDP over the page's 64 GPUs, framework torchtitan", async ({ page }) => {
  await openPlanner(page);
  await page.getByLabel(/Import a launch file/).fill(fixture('torchtitan/llama3_8b.toml'));
  await page.getByRole('button', { name: 'Import pasted launch file' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Imported the torchtitan launch file' })).toBeVisible();
  // torchtitan's 8B flavor: 32 layers of 4096, 8 KV heads, FFN 14336; data_parallel_shard_degree = -1 → 64 / TP 1.
  await expect(page.getByLabel('Layers (L)')).toHaveValue('32');
  await expect(page.getByLabel('Hidden size (h)')).toHaveValue('4096');
  await expect(page.getByLabel('KV heads (GQA)')).toHaveValue('8');
  await expect(page.getByLabel('Framework', { exact: true })).toHaveValue('torchtitan');
  await expect(slider(page, /\(TP\)/)).toHaveAttribute('aria-valuetext', '1');
  await expect(slider(page, /\(DP\)/)).toHaveAttribute('aria-valuetext', '64');
  await expect(page.getByText(/flags and keys not mapped or missing/)).toBeVisible();
});

test('a chosen Megatron-LM script (Mixtral example): 8 experts top-2, PP 4, framework megatron', async ({ page }) => {
  await openPlanner(page);
  await page.getByLabel('or choose a launch file:').setInputFiles({
    name: 'train_mixtral_8x7b_distributed.sh',
    mimeType: 'text/x-sh',
    buffer: Buffer.from(fixture('megatron/train_mixtral_8x7b_distributed.sh')),
  });
  await expect(page.getByRole('status').filter({ hasText: 'Imported the Megatron-LM launch file' })).toBeVisible();
  await expect(page.getByLabel('Experts (E)')).toHaveValue('8');
  await expect(page.getByLabel('Active experts per token (top-k)')).toHaveValue('2');
  await expect(page.getByLabel('Framework', { exact: true })).toHaveValue('megatron');
  await expect(slider(page, /\(PP\)/)).toHaveAttribute('aria-valuetext', '4');
});

test("a dropped DeepSpeed config: ZeRO 3 with the page's model, framework deepspeed", async ({ page }) => {
  await openPlanner(page);
  const config = JSON.stringify({
    train_batch_size: 256,
    train_micro_batch_size_per_gpu: 1,
    zero_optimization: { stage: 3 },
    bf16: { enabled: true },
  });
  const dataTransfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'ds_config.json', { type: 'application/json' }));
    return dt;
  }, config);
  await page.getByTestId('launch-import').dispatchEvent('drop', { dataTransfer });
  await expect(page.getByRole('status').filter({ hasText: 'Imported the DeepSpeed launch file' })).toBeVisible();
  await expect(page.getByLabel('Framework', { exact: true })).toHaveValue('deepspeed');
  // A DeepSpeed config does not describe the model: Llama 3 70B stays.
  await expect(page.getByLabel('Layers (L)')).toHaveValue('80');
});

test('a malformed TOML is refused with its line, and the page keeps its configuration', async ({ page }) => {
  await openPlanner(page);
  await page.getByLabel(/Import a launch file/).fill('[model]\nflavor = 8B\n');
  await page.getByRole('button', { name: 'Import pasted launch file' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'could not be imported' })).toContainText('line 2');
  await expect(page.getByLabel('Layers (L)')).toHaveValue('80');
});

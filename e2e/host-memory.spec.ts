// Issue 31, item 2: offload counts the host. 405B with ZeRO-3 and full offload on one 8-GPU
// DGX H100 needs 22 bytes per parameter on the host (src/model/memory/host.test.ts): 8.12 TiB
// per node against 2 TiB, so it does not fit, and the verdict says why in words; the same
// node with 16 TiB of CPU memory holds it. 70B with ZeRO-3 optimizer offload on the same
// 8 GPUs needs 1.28 TiB of the 2 TiB and fits host and GPU.

import { findModelPreset } from '../src/model/catalog/all.ts';
import { test, expect, configFragment, openPlanner, resultsSettled } from './fixtures.ts';
import { axeViolations } from './axe.ts';

const run = (preset: string, offload: object) => ({
  version: 1,
  model: findModelPreset(preset)?.model,
  training: { seqLen: 8192, globalBatch: 64, microBatch: 1, recompute: 'full', framework: 'deepspeed', offload },
  parallel: { tp: 1, pp: 1, dp: 8, zero: 3 },
  cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 8 },
});

test('405B with full offload: "needs 8.12 TiB of CPU memory per node; this node has 2 TiB" until the node has more; 70B optimizer offload fits', async ({
  page,
}) => {
  await openPlanner(page, `/#${configFragment(run('llama3-405b', { optimizer: true, parameters: true }))}`);
  const results = page.getByTestId('results');
  const verdict = results.getByTestId('oom-verdict').first();
  await expect(verdict).toHaveAttribute('data-verdict', 'will-not-fit');
  await expect(verdict).toContainText('Will not fit: offload needs 8.12 TiB of CPU memory per node; this node has 2 TiB');
  await expect(results.getByTestId('oom-warning')).toContainText('Out of CPU memory');
  const card = results.getByTestId('host-memory');
  await expect(card).toHaveAttribute('data-fits', 'false');
  await expect(card).toContainText('8.12 TiB of 2 TiB');

  // The field under Cluster, its label visible and its default shown; a node with 16 TiB holds it.
  const field = page.getByLabel('CPU memory per node (GiB)');
  await expect(field).toHaveValue('');
  await expect(field).toHaveAttribute('placeholder', '2,048 (default)');
  await expect(page.getByTestId('host-memory-default')).toContainText('2,048 GiB, the usual server for the NVIDIA H100 SXM5 80GB');
  await field.fill('16384');
  await resultsSettled(page);
  await expect(verdict).toHaveAttribute('data-verdict', /^(safe|tight)$/);
  await expect(card).toHaveAttribute('data-fits', 'true');
  await expect(card).toContainText('8.12 TiB of 16 TiB');

  await openPlanner(page, `/#${configFragment(run('llama3-70b', { optimizer: true, parameters: false }))}`);
  await expect(verdict).toHaveAttribute('data-verdict', /^(safe|tight)$/);
  await expect(verdict).not.toContainText('CPU memory');
  await expect(card).toHaveAttribute('data-fits', 'true');
  await expect(card).toContainText('1.28 TiB of 2 TiB (64.2 %), 8 GPUs × 164 GiB');

  expect(await axeViolations(page, ['[data-testid="host-memory"]', '[data-testid="section-cluster"]'])).toEqual([]);
});

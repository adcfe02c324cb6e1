import { test, expect, openPlanner, resultsSettled, setSlider, slider } from './fixtures.ts';
import { syntheticMegatronLog } from '../src/model/log/index.ts';
import { findModelPreset } from '../src/model/catalog/all.ts';
import { encodeConfigFragment } from '../src/state/url-codec.ts';

// Issue 38: what is shown follows what is set, on one page load. Mixtral 8x7B on 8 H100s at TP 2 · DP 4 · EP 8: a
// training log of that run compared with the page; EP 8 → 4 flips the default expert TP 1 → 2 (EP 4 divides DP × CP = 4;
// the same rule as DeepSeek-V3's EP 64 → 32, state/options.test.ts), said and named in the strip; "15T" typed as the token
// budget; the GPU count typed and left to settle (no Enter) moves the comparison.
const mixtral = findModelPreset('mixtral-8x7b');
const DOC = {
  version: 1,
  model: mixtral?.model,
  training: { seqLen: 4096, globalBatch: 256, microBatch: 1, tokens: 1e12 },
  parallel: { tp: 2, pp: 1, dp: 4, ep: 8 },
  cluster: { gpu: 'h100-sxm', gpus: 8 },
};

test('the log comparison, the expert-TP default and the token budget follow what is set', async ({ page }) => {
  await openPlanner(page, `/#${encodeConfigFragment(DOC)}`);
  await resultsSettled(page);
  await expect(page.getByTestId('strip-run')).toContainText(/EP\s8 · ETP\s1/);

  // A log of this very run (8 GPUs, TP 2, PP 1, global batch 256 of 4096 tokens): compared, no mismatch.
  const log = syntheticMegatronLog({ steps: 40, stepSeconds: 20, globalBatch: 256, seqLen: 4096, gpus: 8, tp: 2, pp: 1, jitter: 0 });
  const drop = page.getByTestId('log-drop');
  await drop.scrollIntoViewIfNeeded();
  const dataTransfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'train.log', { type: 'text/plain' }));
    return dt;
  }, log);
  await drop.dispatchEvent('drop', { dataTransfer });
  const predicted = page.getByTestId('log-predicted-stepSeconds');
  await expect(predicted).toHaveAttribute('data-value', /\d/, { timeout: 15_000 });
  const before = Number(await predicted.getAttribute('data-value'));
  await expect(page.getByTestId('log-mismatch')).toHaveCount(0);

  // EP 8 → 4: EP now divides DP × CP = 4, so the default expert TP becomes TP = 2; the note and the strip say so.
  await setSlider(page, /\(EP\)/, 4);
  await expect(slider(page, /\(EP\)/)).toHaveAttribute('aria-valuetext', '4');
  await expect(page.getByTestId('preset-note')).toContainText('EP 4: expert TP 1 → 2, the default while ETP is not set');
  await expect(page.getByTestId('strip-run')).toContainText(/EP\s4 · ETP\s2/);
  // The log's comparison follows (a new prediction for the new layout), without pressing Read again.
  await expect.poll(async () => Number(await predicted.getAttribute('data-value')), { timeout: 10_000 }).not.toBe(before);
  await expect(page.getByTestId('log-stale')).toHaveCount(0);

  // "15T" as the token budget reads 1.5e13.
  const tokens = page.getByLabel('Token budget (tokens)');
  await tokens.fill('15T');
  await expect(page.getByTestId('ctl-training-tokens-words')).toHaveText('15 trillion tokens');
  await tokens.blur();
  await expect(tokens).toHaveValue('1.5e13');

  // The GPU count typed and left alone (no Enter, no leaving the field) commits after a pause; the log, of an 8-GPU
  // run, is now of another run than the page's, and the comparison says so.
  const gpus = page.getByLabel('Cluster size (GPUs)');
  await gpus.fill('16');
  await expect(gpus).toBeFocused();
  await expect(page.getByTestId('log-mismatch')).toContainText("GPUs: the log's 8, the document's 16", { timeout: 20_000 });
  await expect(page.getByTestId('strip-run')).toContainText(/DP\s8/);
});

import { test, expect, configFragment, figureValue, openPlanner, setSlider } from './fixtures.ts';
import { estimate } from '../src/model/estimate.ts';
import { readHash } from '../src/state/url-codec.ts';

test('entering a measured step time changes predictions for other layouts by the fitted factor', async ({ page, context }) => {
  await openPlanner(page);
  const predicted = await figureValue(page, 'step-time');
  const measured = 1.2 * predicted;
  await page.getByLabel('Measured step time (s)').fill(String(measured));
  await page.getByRole('button', { name: 'Fit to my run' }).click();
  await expect(page.getByTestId('calibration-status')).toContainText('Compute efficiency ×');

  // The fitted scale is shown and written into the document; the configuration as run now predicts what was measured.
  const scale = page.getByTestId('calibration-compute-scale');
  await expect(scale).toContainText('fitted to your run');
  const fitted = Number(await scale.getAttribute('data-value'));
  expect(fitted).toBeLessThan(1);
  expect(fitted).toBeGreaterThan(0.5);
  await expect.poll(async () => Math.abs((await figureValue(page, 'step-time')) / measured - 1)).toBeLessThan(1e-6);

  // Another layout: TP 4 (DP follows to 4).
  await setSlider(page, /\(TP\)/, 4);
  await expect.poll(async () => Math.abs((await figureValue(page, 'step-time')) / measured - 1)).toBeGreaterThan(1e-3);
  const calibratedTp4 = await figureValue(page, 'step-time');
  // The address bar follows edits after a short pause: wait for the TP 4 document.
  type Written = { parallel: { tp: number }; calibration: { computeEfficiencyScale: number } };
  const addressBarDocument = async (): Promise<Written | null> => {
    const read = await readHash(await page.evaluate(() => location.hash));
    return read.kind === 'document' ? (read.document as Written) : null;
  };
  await expect.poll(async () => (await addressBarDocument())?.parallel.tp).toBe(4);
  const document = await addressBarDocument();
  if (!document) throw new Error('the address bar has no configuration');
  expect(document.calibration.computeEfficiencyScale).toBe(fitted);

  // The same document as a #config= link gives the same step time; without the calibration it is faster, as the fit said.
  const other = await context.newPage();
  await openPlanner(other, `/#${configFragment(document)}`);
  expect(await figureValue(other, 'step-time')).toBe(calibratedTp4);
  const { calibration: _calibration, ...uncalibrated } = document;
  const engineTp4 = estimate(document).throughput?.stepSeconds ?? NaN;
  expect(calibratedTp4 / engineTp4).toBeCloseTo(1, 9);
  const uncalibratedTp4 = estimate(uncalibrated).throughput?.stepSeconds ?? NaN;
  expect(calibratedTp4).toBeGreaterThan(uncalibratedTp4);
  // Back to the first page, in front: a page behind another gets no animation frames, and a click waits on them
  // (a clean-clone CI run timed out on this click, 2026-12-05).
  await other.close();
  await page.bringToFront();

  // Clearing returns to the published-runs calibration.
  await page.getByRole('button', { name: 'Clear calibration' }).click();
  await expect(page.getByTestId('calibration-compute-scale')).toHaveAttribute('data-value', '1');
  await expect.poll(async () => Math.abs((await figureValue(page, 'step-time')) / uncalibratedTp4 - 1)).toBeLessThan(1e-9);
});

test('a measured peak memory fits the memory overhead; a nonsense entry is refused in words', async ({ page }) => {
  await openPlanner(page);
  // The field takes nvidia-smi's figure, so the fit matches memory.deviceUsed.
  const predicted = await figureValue(page, 'memory-total');
  await page.getByLabel('Measured peak memory (GiB)').fill(String(predicted / 2 ** 30 + 2));
  await page.getByRole('button', { name: 'Fit to my run' }).click();
  await expect(page.getByTestId('calibration-memory-scale')).toContainText('fitted to your run');
  expect(Number(await page.getByTestId('calibration-memory-scale').getAttribute('data-value'))).toBeGreaterThan(1);
  await expect.poll(async () => Math.abs((await figureValue(page, 'memory-total')) - (predicted + 2 * 2 ** 30))).toBeLessThan(1e3);

  await page.getByLabel('Measured peak memory (GiB)').fill('lots');
  await page.getByRole('button', { name: 'Fit to my run' }).click();
  await expect(page.getByTestId('calibration-status')).toContainText('positive numbers');
});

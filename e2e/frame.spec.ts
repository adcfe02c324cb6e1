// The run's frame first, a way to the results and to the search, the phone's pinned
// answer, the embed's budget, one "tight" threshold (issue 22, items 3, 4, 9, 10, 11).

import { readFileSync } from 'node:fs';
import { DEFAULT_DOCUMENT } from '../src/state/defaults.ts';
import { setAt } from '../src/state/doc.ts';
import { test, expect, configFragment, openPlanner, resultsSettled } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { TIMING, TRACE_CATEGORIES, longestMainThreadTask } from './main-thread.ts';

const FRAME_LABELS = ['Model preset', 'GPU', 'Cluster size (GPUs)', 'Price ($/GPU-h)', 'Token budget (tokens)'] as const;
/** The issue's budget for one main-thread task, CPU time (e2e/main-thread.ts). */
const BUDGET_MS = Number(process.env['MAIN_THREAD_BUDGET_MS'] ?? 50);
/** "A few Tab presses from the top" (ux.md principle 10); the GPU count took 83 before the frame moved up. */
const MOST_TABS_TO_THE_FRAME = 20;

test('the first Tab reaches "Skip to results", which moves the focus to the results', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await openPlanner(page);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to results' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  const hash = await page.evaluate(() => location.hash);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Results', exact: true })).toBeFocused();
  // The address still carries the configuration: the jump never replaced the #config fragment.
  expect(await page.evaluate(() => location.hash)).toBe(hash);
});

// Three checks of the default page at 1440×900 on one page (each loaded it before): the Tab order from the top first,
// then the folded frame (unfolded again by its run name), then the search beside the verdict.
test(
  "at 1440×900 the run's frame opens the controls on the first screen, a few Tab presses from the top; " +
    "the strip's run name opens the folded frame and focuses the model preset; " +
    '"Search layouts" beside the verdict opens the search, whose "tight" is the strip\'s',
  async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openPlanner(page);
    for (const label of FRAME_LABELS) await expect(page.getByLabel(label, { exact: true })).toBeInViewport({ ratio: 1 });
    // Beside the model, its size (issue 36): Llama 3 70B, 70,553,706,496 parameters (structure/params.test.ts), all active.
    await expect(page.getByTestId('model-summary')).toHaveText(
      /^Model size: 70\.6 B parameters · 70\.6 B active · \d\.\de11 FLOPs\/token$/,
    );
    // The frame's controls before any layout knob, in the order of the page.
    const reached: string[] = [];
    for (let press = 0; press < MOST_TABS_TO_THE_FRAME && reached.length < FRAME_LABELS.length; press++) {
      await page.keyboard.press('Tab');
      const id = await page.evaluate(() => document.activeElement?.id ?? '');
      if (['ctl-model-preset', 'ctl-cluster-gpu', 'ctl-cluster-gpus', 'ctl-cost-usdPerGpuHour', 'ctl-training-tokens'].includes(id))
        reached.push(id);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('role')), 'no layout slider before the frame').not.toBe(
        'slider',
      );
    }
    expect(reached).toEqual(['ctl-model-preset', 'ctl-cluster-gpu', 'ctl-cluster-gpus', 'ctl-cost-usdPerGpuHour', 'ctl-training-tokens']);

    const fold = page.getByRole('button', { name: 'Run: model, GPUs, budget', exact: true });
    await fold.click();
    await expect(fold).toHaveAttribute('aria-expanded', 'false');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const name = page.getByTestId('summary-strip').getByRole('button', { name: /^Llama 3 70B on 64 × NVIDIA H100/ });
    await name.click();
    await expect(fold).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByLabel('Model preset', { exact: true })).toBeFocused();
    await expect(page.getByLabel('Cluster size (GPUs)', { exact: true })).toBeInViewport();

    const verdict = page.getByTestId('summary-strip').getByTestId('oom-verdict');
    const stripShare = /tight from ([\d.]+ %)/.exec(await verdict.innerText())?.[1];
    expect(stripShare).toMatch(/%/);
    await page.getByTestId('summary-strip').getByRole('button', { name: 'Search layouts' }).click();
    const panel = page.getByTestId('search-panel');
    await expect(panel).toHaveAttribute('open', '');
    await expect(panel.locator('summary')).toBeFocused();
    await expect(panel.getByLabel('Memory kept free (%)')).toBeInViewport();
    const hint = await panel.getByText(/The page calls this run tight above/).innerText();
    // One rule, one place: the form names the strip's share, not a threshold of its own.
    expect(hint).toContain(`tight above ${stripShare} used`);
    expect(hint).not.toContain('above 90 %');
  },
);

test('phone 390×844: the verdict and memory per GPU are on the first screen and stay in view while a field is edited', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlanner(page);
  const strip = page.getByTestId('phone-strip');
  await expect(strip.getByTestId('phone-verdict')).toBeInViewport({ ratio: 1 });
  await expect(strip.getByTestId('phone-memory')).toBeInViewport({ ratio: 1 });
  await expect(strip.getByTestId('phone-memory')).toContainText(/\d+(\.\d+)? GiB of 80 GiB per GPU/);
  const before = await strip.getByTestId('phone-memory').innerText();
  // A field far down the controls: the strip pins to the window while it is edited.
  const seqLen = page.getByLabel('Sequence length (s, tokens)');
  await seqLen.scrollIntoViewIfNeeded();
  await seqLen.fill('4096');
  await resultsSettled(page);
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(844);
  await expect(strip.getByTestId('phone-verdict')).toBeInViewport({ ratio: 1 });
  await expect(strip.getByTestId('phone-memory')).toBeInViewport({ ratio: 1 });
  await expect(strip.getByTestId('phone-memory')).not.toHaveText(before);
  await expect(seqLen).toBeInViewport();
  // At most a fifth of the screen.
  const height = (await strip.boundingBox())?.height ?? Infinity;
  expect(height).toBeLessThanOrEqual(844 / 5);
  await page.screenshot({ path: 'tmp/shots-4422/phone-editing.png' });
});

test('phone: the pinned strip\'s run name and "Search layouts" land below the strip, not under it', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlanner(page);
  const strip = page.getByTestId('phone-strip');
  await page.getByLabel('Sequence length (s, tokens)').scrollIntoViewIfNeeded();
  await strip.getByRole('button', { name: /^Llama 3 70B on 64/ }).click();
  await expect(page.getByLabel('Model preset', { exact: true })).toBeFocused();
  const stripBottom = async () => (await strip.boundingBox())?.height ?? 0;
  const title = page.getByRole('button', { name: 'Run: model, GPUs, budget', exact: true });
  await expect.poll(async () => (await title.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(await stripBottom());
  await strip.getByRole('button', { name: 'Search layouts' }).click();
  const panel = page.getByTestId('search-panel');
  await expect(panel).toHaveAttribute('open', '');
  await expect(panel.locator('summary')).toBeFocused();
  await expect.poll(async () => (await panel.locator('summary').boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(await stripBottom());
  await expect(panel.locator('summary')).toBeInViewport();
});

test('the embed says the token budget and price its days and dollars assume', async ({ page }) => {
  await page.setViewportSize({ width: 700, height: 450 });
  await openPlanner(page, '/?embed=1');
  const budget = page.getByTestId('embed-budget');
  await expect(budget).toHaveText('days and cost for 1 trillion tokens at $2.50 per GPU-hour');
  await expect(budget).toBeInViewport({ ratio: 1 });
});

test('a PP 1 layout names no schedule in the embed', async ({ page }) => {
  // The default run with one stage (PP 4 → 1, DP 2 → 8) and a schedule the document still carries.
  let doc = setAt(DEFAULT_DOCUMENT, ['parallel', 'pp'], 1);
  doc = setAt(doc, ['parallel', 'dp'], 8);
  doc = setAt(doc, ['parallel', 'schedule'], 'gpipe');
  await openPlanner(page, `/?embed=1#${configFragment(doc)}`);
  const layout = page.getByTestId('embed-layout');
  await expect(layout).toContainText('PP 1');
  await expect(layout).not.toContainText(/gpipe|1F1B|schedule/i);
});

test("the frame, the skip link, the strip's new buttons and the phone strip are axe clean", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlanner(page);
  await page.keyboard.press('Tab');
  expect(await axeViolations(page, ['[data-testid="phone-strip"]', '[data-testid="section-run"]', '[data-testid="skip-link"]'])).toEqual(
    [],
  );
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(await axeViolations(page, ['[data-testid="summary-strip"]'])).toEqual([]);
});

test("a launch file that replaces the imported model clears the Hugging Face import's message; the budget reads in words", async ({
  page,
}) => {
  await openPlanner(page);
  const config = readFileSync(new URL('./data/llama3-8b-config.json', import.meta.url), 'utf8');
  await page.getByLabel(/Import a Hugging Face config\.json/).fill(config);
  await page.getByRole('button', { name: 'Import pasted config' }).click();
  const hfMessage = page.getByRole('status').filter({ hasText: /^Imported (?!the )/ });
  await expect(hfMessage).toBeVisible();
  // Without _name_or_path the model is named by its family, not by its Python class.
  await expect(page.getByLabel('Model name')).toHaveValue('Llama (imported config)');
  await page
    .getByLabel(/Import a launch file/)
    .fill(readFileSync(new URL('../scripts/fixtures/import/torchtitan/llama3_8b.toml', import.meta.url), 'utf8'));
  await page.getByRole('button', { name: 'Import pasted launch file' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Imported the torchtitan launch file' })).toBeVisible();
  await expect(hfMessage).toHaveCount(0);
  // Whatever budget the file implies, it reads as a count a person can say, never "5.24288e11" alone.
  await expect(page.getByTestId('ctl-training-tokens-words')).toHaveText(/^[\d.,]+( thousand| million| billion| trillion)? tokens$/);
});

test(
  `no main-thread task over ${BUDGET_MS} ms across these flows: a phone edit, the frame, the search, the timeline window`,
  TIMING,
  async ({ page, browser }) => {
    const longest: number[] = [];
    const traced = async (flow: () => Promise<void>) => {
      await browser.startTracing(page, { categories: TRACE_CATEGORIES });
      await flow();
      await page.waitForTimeout(300);
      longest.push(longestMainThreadTask(await browser.stopTracing()).cpuMs);
    };
    // The phone: a field edited under the pinned strip. (A window resized from phone to laptop width relays out the whole
    // page at once, which no user flow here asks for: the laptop flows open a page of their own.)
    // Each page first finishes what it draws once the page is idle (charts, the search panel: WhenIdle), which is page load.
    const loaded = async () => {
      await expect(page.getByTestId('search-panel')).toBeAttached();
      await page.waitForTimeout(1000);
    };
    await page.setViewportSize({ width: 390, height: 844 });
    await openPlanner(page);
    await loaded();
    // One edit first, untraced: the first one after load also compiles the code paths an edit takes (V8's lazy
    // compilation), once per page; the flow measured is the user's next edit.
    await page.getByLabel('Sequence length (s, tokens)').fill('2048');
    await resultsSettled(page);
    await page.waitForTimeout(300);
    await traced(async () => {
      await page.getByLabel('Sequence length (s, tokens)').fill('4096');
      await resultsSettled(page);
    });
    await page.setViewportSize({ width: 1440, height: 900 });
    await openPlanner(page);
    await loaded();
    await traced(async () => {
      await page
        .getByTestId('summary-strip')
        .getByRole('button', { name: /^Llama 3 70B on/ })
        .click();
      await expect(page.getByLabel('Model preset', { exact: true })).toBeFocused();
      await page.getByLabel('Cluster size (GPUs)', { exact: true }).fill('128');
      await page.keyboard.press('Enter');
      await resultsSettled(page);
      await page.getByTestId('summary-strip').getByRole('button', { name: 'Search layouts' }).click();
      await expect(page.getByTestId('search-panel')).toHaveAttribute('open', '');
      await page.getByRole('button', { name: 'Cool-down', exact: true }).click();
      await page.getByRole('button', { name: 'Steady state', exact: true }).click();
    });
    console.log(`frame flows: longest main-thread task (CPU) ${longest.map((ms) => `${ms.toFixed(1)} ms`).join(', ')}`);
    for (const ms of longest) expect(ms).toBeLessThan(BUDGET_MS);
  },
);

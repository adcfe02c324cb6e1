import type { BrowserContext, Page } from '@playwright/test';
import { estimate } from '../src/model/estimate.ts';
import { readHash } from '../src/state/url-codec.ts';
import { test, expect, figureValue, openPlanner, setSlider } from './fixtures.ts';

// Worker faults (issue "Hardening", part 3). The production worker is served as built,
// except that the first copy of it gets a few lines in front that, on its second
// estimate (the first slider move), hang, close the worker mid-computation, or throw.
// Later copies (the restarts) are the real worker. Nothing test-only ships in the bundle.
// The page must say what happened, and the next slider move must update the figures.

const WORKER_SCRIPT = '**/assets/engine.worker-*.js';

type Fault = 'hang' | 'close' | 'throw';

/** Runs before comlink's own listener: on the second estimate request, the fault instead of an answer. */
function faultPrelude(fault: Fault): string {
  const action = { hang: 'for (;;) {}', close: 'self.close();', throw: "throw new Error('injected worker fault');" }[fault];
  return `let estimates = 0;
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'APPLY' || !Array.isArray(data.path) || data.path[0] !== 'estimate') return;
  estimates += 1;
  if (estimates < 2) return;
  event.stopImmediatePropagation();
  ${action}
});
`;
}

/** Serves the faulty worker to the first worker request of the context, the real one to every later request. */
async function injectFault(context: BrowserContext, fault: Fault): Promise<{ served: () => number }> {
  let requests = 0;
  await context.route(WORKER_SCRIPT, async (route) => {
    requests += 1;
    if (requests > 1) return route.continue();
    const response = await route.fetch();
    return route.fulfill({ response, body: faultPrelude(fault) + (await response.text()) });
  });
  return { served: () => requests };
}

/** The memory per GPU the engine computes for the configuration in the address bar. */
async function engineMemoryForAddressBar(page: Page): Promise<number | null> {
  const read = await readHash(await page.evaluate(() => location.hash));
  if (read.kind !== 'document') return null;
  const output = estimate(read.document);
  return output.errors.length > 0 ? null : output.memory.deviceUsed;
}

/** The figures follow the slider: memory-total equals the engine's answer for the configuration in the address bar. */
async function expectFiguresFollowTheAddressBar(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        const expected = await engineMemoryForAddressBar(page);
        return expected !== null && (await figureValue(page, 'memory-total')) === expected;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
}

for (const fault of ['hang', 'close'] as const) {
  test(
    `a worker that ${fault === 'hang' ? 'hangs' : 'closes itself mid-computation'} is restarted after the timeout, ` +
      'the page says so, and the next move works',
    async ({ page, context }) => {
      const worker = await injectFault(context, fault);
      await openPlanner(page);
      const before = await figureValue(page, 'memory-total');

      await setSlider(page, /\(TP\)/, 4);
      const notice = page.getByRole('status').filter({ hasText: 'did not answer within 4 s and was restarted' });
      await expect(notice).toBeVisible({ timeout: 10_000 });
      // The timed-out request is not retried (the same input would hang again): the figures are still the last answered ones.
      expect(await figureValue(page, 'memory-total')).toBe(before);
      expect(worker.served()).toBe(2);

      await setSlider(page, /\(TP\)/, 2);
      await expect.poll(() => figureValue(page, 'memory-total')).not.toBe(before);
      await expectFiguresFollowTheAddressBar(page);
      await notice.getByRole('button', { name: 'Dismiss' }).click();
      await expect(notice).toHaveCount(0);
    },
  );
}

test('a worker that throws is restarted at once, the request retried, the page says so, and the next move works', async ({
  page,
  context,
}) => {
  const worker = await injectFault(context, 'throw');
  await openPlanner(page);
  const before = await figureValue(page, 'memory-total');

  await setSlider(page, /\(TP\)/, 4);
  await expect(page.getByRole('status').filter({ hasText: 'The estimator stopped unexpectedly and was restarted.' })).toBeVisible();
  // The crashed request runs once more on the fresh worker, so TP 4's figures arrive without another move.
  await expect.poll(() => figureValue(page, 'memory-total')).not.toBe(before);
  await expectFiguresFollowTheAddressBar(page);
  expect(worker.served()).toBe(2);

  const atTp4 = await figureValue(page, 'memory-total');
  await setSlider(page, /\(TP\)/, 2);
  await expect.poll(() => figureValue(page, 'memory-total')).not.toBe(atTp4);
  await expectFiguresFollowTheAddressBar(page);
});

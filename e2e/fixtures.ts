// The fixture every spec uses: it fails a test on any console error, uncaught page
// error, or request to a host other than the page's own (127.0.0.1:4317), in every
// page of the test's browser context. Each test gets pages of its own in a browser
// context that the tests of one worker share (see `context` below).

import { test as base, expect, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';

export const ORIGIN_HOST = `127.0.0.1:${process.env['E2E_PORT'] ?? 4317}`;

/** Records console errors, uncaught page errors and requests to other hosts of every page of `context`; returns the way to stop. */
function watchProblems(context: BrowserContext, problems: string[]): () => void {
  const onConsole = (message: import('@playwright/test').ConsoleMessage) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  };
  const onError = (error: import('@playwright/test').WebError) => problems.push(`page error: ${error.error().message}`);
  const onRequest = (request: import('@playwright/test').Request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (url.host !== ORIGIN_HOST) problems.push(`request to another host: ${request.url()}`);
  };
  context.on('console', onConsole);
  context.on('weberror', onError);
  context.on('request', onRequest);
  return () => {
    context.off('console', onConsole);
    context.off('weberror', onError);
    context.off('request', onRequest);
  };
}

const PROBLEMS = 'console errors, page errors or outside requests';

/** The browser context the tests of this worker share, with the options it was made with. */
let reused: { browser: Browser; key: string; context: BrowserContext } | undefined;

async function dropReusedContext(): Promise<void> {
  const context = reused?.context;
  reused = undefined;
  await context?.close().catch(() => undefined);
}

export const test = base.extend<{ problems: string[] }, { reusedContextTeardown: void }>({
  /**
   * One browser context for the tests of a worker, instead of Playwright's context per test. A new context starts
   * with an empty HTTP cache, so each test's first page load fetched and compiled the app's scripts from scratch;
   * in a shared context later loads reuse Chromium's cache and V8's code cache: a page load to the first settled
   * estimate took ~2.8 s of CPU instead of ~4.5 s (four of each, probe of the built page, 2026-12-05). Each test
   * still gets pages of its own (`page`, and any it opens with `context.newPage()`), closed after it, and starts
   * with no routes; the app keeps nothing in cookies, localStorage or IndexedDB, and its sessionStorage (the
   * folded sections) belongs to a page, so no state passes from one test to the next. A test that fails discards
   * the context, so the next one starts on a fresh one.
   */
  context: async (
    {
      browser,
      baseURL,
      viewport,
      userAgent,
      deviceScaleFactor,
      isMobile,
      hasTouch,
      colorScheme,
      locale,
      timezoneId,
      reducedMotion,
      forcedColors,
      contrast,
      acceptDownloads,
      javaScriptEnabled,
      bypassCSP,
      ignoreHTTPSErrors,
      offline,
      permissions,
      serviceWorkers,
    },
    use,
    testInfo,
  ) => {
    // The options Playwright's own context fixture passes (the project's `use` and Playwright's defaults), unset ones left out.
    const options: BrowserContextOptions = Object.fromEntries(
      Object.entries({
        baseURL,
        viewport,
        userAgent,
        deviceScaleFactor,
        isMobile,
        hasTouch,
        colorScheme,
        locale,
        timezoneId,
        reducedMotion,
        forcedColors,
        contrast,
        acceptDownloads,
        javaScriptEnabled,
        bypassCSP,
        ignoreHTTPSErrors,
        offline,
        permissions,
        serviceWorkers,
      }).filter(([, value]) => value !== undefined),
    );
    const key = JSON.stringify(options);
    if (reused?.browser !== browser || reused.key !== key) {
      await dropReusedContext();
      reused = { browser, key, context: await browser.newContext(options) };
    }
    const context = reused.context;
    await use(context);
    if (testInfo.status !== testInfo.expectedStatus) {
      await dropReusedContext();
      return;
    }
    for (const page of context.pages()) await page.close();
    await context.unrouteAll({ behavior: 'ignoreErrors' });
  },
  reusedContextTeardown: [
    // Playwright reads a fixture's dependencies from its first parameter, which must be a destructuring pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      await use();
      await dropReusedContext();
    },
    { scope: 'worker', auto: true },
  ],
  problems: [
    async ({ context }, use) => {
      const problems: string[] = [];
      const stop = watchProblems(context, problems);
      await use(problems);
      stop();
      expect(problems, PROBLEMS).toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * One page for every test of the calling file or describe block: opened once (with the project's
 * baseURL and device) and set up by `open`, instead of a page load and a worker warm-up per test.
 * The tests run in order on the same page, so each leaves the view as the next one expects it
 * (or sets up what it needs). Console errors, page errors and outside requests fail the test in
 * which they happen, as the `problems` fixture does for a test's own page.
 */
export function sharedPage(open: (page: Page) => Promise<void>): () => Page {
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const problems: string[] = [];
  test.beforeAll(async ({ browser }, testInfo) => {
    const use: Record<string, unknown> = testInfo.project.use;
    const keys = ['baseURL', 'viewport', 'userAgent', 'deviceScaleFactor', 'isMobile', 'hasTouch', 'colorScheme'];
    context = await browser.newContext(Object.fromEntries(keys.filter((key) => use[key] !== undefined).map((key) => [key, use[key]])));
    watchProblems(context, problems);
    page = await context.newPage();
    await open(page);
  });
  test.afterEach(() => {
    expect(problems.splice(0), PROBLEMS).toEqual([]);
  });
  test.afterAll(async () => {
    await context?.close();
  });
  return () => {
    if (!page) throw new Error('sharedPage: the page opens in beforeAll');
    return page;
  };
}

export { expect };

/** The raw value behind a figure (data-value, base units), once the page shows one. */
export async function figureValue(page: Page, id: string): Promise<number> {
  const figure = page.getByTestId('results').getByTestId(id);
  await expect(figure).toHaveAttribute('data-value', /\d/);
  await resultsSettled(page);
  return Number(await figure.getAttribute('data-value'));
}

/** Waits until the results column shows the newest answer everywhere: the key figures render first, the rest right after (aria-busy meanwhile). */
export async function resultsSettled(page: Page): Promise<void> {
  await expect(page.locator('[data-testid="results"][aria-busy="true"]')).toHaveCount(0);
}

/** Opens the page and waits for the first estimate. */
export async function openPlanner(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page.getByTestId('memory-total').first()).toHaveAttribute('data-value', /\d/);
  await resultsSettled(page);
}

/** A slider's current value (its aria-valuetext), by the abbreviation in its label. */
export function slider(page: Page, name: RegExp) {
  return page.getByRole('slider', { name });
}

/** Moves a slider to `value` with the keyboard (it offers only valid values, in order). */
export async function setSlider(page: Page, name: RegExp, value: number): Promise<void> {
  const control = slider(page, name);
  await control.focus();
  for (let step = 0; step < 64; step++) {
    const current = Number(await control.getAttribute('aria-valuetext'));
    if (current === value) return;
    await control.press(current < value ? 'ArrowRight' : 'ArrowLeft');
  }
  throw new Error(`slider ${name} never reached ${value}`);
}

/** Every figure on the page as id → data-value, for comparing two pages. */
export async function allFigures(page: Page): Promise<Record<string, string | null>> {
  await resultsSettled(page);
  return page
    .getByTestId('results')
    .locator('[data-value]')
    .evaluateAll((nodes) => Object.fromEntries(nodes.map((n) => [n.getAttribute('data-testid') ?? '', n.getAttribute('data-value')])));
}

/** base64url (RFC 4648 §5) of a JSON document, for #config= links. */
export function configFragment(document: unknown, padded = false): string {
  const text = Buffer.from(JSON.stringify(document)).toString('base64url');
  return `config=${padded ? text + '='.repeat((4 - (text.length % 4)) % 4) : text}`;
}

/**
 * Switches a page set up in the light colour scheme to the dark one and waits until it has
 * restyled (the scheme matches and the body's background has changed), so one test can run
 * the same check in both schemes without setting the page up twice.
 */
export async function switchToDark(page: Page): Promise<void> {
  const lightBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(() => matchMedia('(prefers-color-scheme: dark)').matches);
  await page.waitForFunction((light) => getComputedStyle(document.body).backgroundColor !== light, lightBackground);
}

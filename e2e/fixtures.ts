// The fixture every spec uses: it fails a test on any console error, uncaught page
// error, or request to a host other than the page's own (127.0.0.1:4317), in every
// page of the test's browser context.

import { test as base, expect, type Page } from '@playwright/test';

export const ORIGIN_HOST = `127.0.0.1:${process.env['E2E_PORT'] ?? 4317}`;

export const test = base.extend<{ problems: string[] }>({
  problems: [async ({ context }, use) => {
    const problems: string[] = [];
    context.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    context.on('weberror', (error) => problems.push(`page error: ${error.error().message}`));
    context.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol === 'data:' || url.protocol === 'blob:') return;
      if (url.host !== ORIGIN_HOST) problems.push(`request to another host: ${request.url()}`);
    });
    await use(problems);
    expect(problems, 'console errors, page errors or outside requests').toEqual([]);
  }, { auto: true }],
});

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
  return page.getByTestId('results').locator('[data-value]').evaluateAll((nodes) =>
    Object.fromEntries(nodes.map((n) => [n.getAttribute('data-testid') ?? '', n.getAttribute('data-value')])));
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

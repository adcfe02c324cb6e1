// The controls come in foldable sections (issue 16, item 2): each title is a button
// with aria-expanded that Enter and Space fold and unfold; the fold state lasts the
// browser session and never enters the share link.

import { test, expect, openPlanner, sharedPage } from './fixtures.ts';

/** Each section, by its title, with one control inside it (its visible label). */
const SECTIONS = [
  { title: 'Run: model, GPUs, budget', control: 'Cluster size (GPUs)' },
  { title: 'Model', control: 'Layers (L)' },
  { title: 'Cluster', control: 'GPUs per node' },
  { title: 'Parallelism', control: /\(TP\)/ },
  { title: 'Memory savers', control: /^ZeRO stage/ },
  { title: 'Schedule', control: /\(MBS\)/ },
  { title: 'Cost and reliability', control: 'Power usage effectiveness (PUE)' },
] as const;

// One page for the seven sections: each test leaves its section unfolded, as it found it.
test.describe('each section', () => {
  const shared = sharedPage(openPlanner);
  for (const { title, control } of SECTIONS) {
    test(`the ${title} section folds and unfolds from the keyboard`, async () => {
      const page = shared();
      const section = page.getByRole('region', { name: title, exact: true });
      const heading = section.getByRole('heading', { level: 2, name: title, exact: true });
      await expect(heading).toBeVisible();
      const button = heading.getByRole('button', { name: title, exact: true });
      const field = section.getByLabel(control, { exact: typeof control === 'string' });
      await expect(button).toHaveAttribute('aria-expanded', 'true');
      await expect(field).toBeVisible();

      await button.focus();
      await page.keyboard.press('Enter');
      await expect(button).toHaveAttribute('aria-expanded', 'false');
      await expect(field).toBeHidden();
      await expect(button).toBeFocused();

      await page.keyboard.press('Space');
      await expect(button).toHaveAttribute('aria-expanded', 'true');
      await expect(field).toBeVisible();
    });
  }
});

test('a folded section stays folded on reload in the same session, and the link does not carry it', async ({ page }) => {
  await openPlanner(page);
  const button = page.getByRole('button', { name: 'Model', exact: true });
  const hashBefore = await page.evaluate(() => location.hash);
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Layers (L)', { exact: true })).toBeHidden();
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => location.hash)).toBe(hashBefore);
  await page.reload();
  await expect(page.getByTestId('memory-total').first()).toHaveAttribute('data-value', /\d/);
  await expect(page.getByRole('button', { name: 'Model', exact: true })).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByLabel('Layers (L)', { exact: true })).toBeHidden();
  // Only the section that was folded stays folded.
  await expect(page.getByRole('button', { name: 'Cluster', exact: true })).toHaveAttribute('aria-expanded', 'true');
});

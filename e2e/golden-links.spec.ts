import { readFileSync, readdirSync } from 'node:fs';
import { estimate } from '../src/model/estimate.ts';
import { keyFigures } from '../src/ui/keyFigures.ts';
import { CARD_FIGURES } from '../src/ui/embed/embedCard.ts';
import { test, expect, resultsSettled, slider } from './fixtures.ts';

// Links forever (issue "Hardening", part 2): each golden link opens the configuration
// it was released with, and the page shows for it exactly what the engine computes
// for that document here in the test process. The figures are not hard-coded: they
// follow the engine's calibration; the configuration a link opens never changes.
// src/state/golden-links.test.ts checks the decoded documents byte for byte.

interface GoldenLink {
  readonly description: string;
  readonly url: string;
  readonly expect: { readonly document: { readonly parallel?: { tp?: number; pp?: number }; readonly model: { layers: number } } };
}

const DIR = new URL('./golden-links/', import.meta.url);
const goldens = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => [file, JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as GoldenLink] as const);

/** Browser and Node run the same engine source; allow only floating-point noise between two V8 builds. */
const RELATIVE_TOLERANCE = 1e-9;

for (const [file, golden] of goldens) {
  test(`golden link ${file}: ${golden.description}`, async ({ page }) => {
    const embed = golden.url.startsWith('/?embed=1');
    await page.goto(golden.url);
    const view = embed ? page.getByTestId('embed-view') : page.getByTestId('results');
    await expect(view.getByTestId('memory-total')).toHaveAttribute('data-value', /\d/);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await resultsSettled(page);

    const output = estimate(golden.expect.document);
    expect(output.errors).toEqual([]);
    const expected = keyFigures(output).filter((f) => !embed || CARD_FIGURES.includes(f.id));
    const shown = await view
      .locator('[data-value]')
      .evaluateAll((nodes) =>
        Object.fromEntries(nodes.map((n) => [n.getAttribute('data-testid') ?? '', n.getAttribute('data-value') ?? ''])),
      );
    for (const figure of expected) {
      const value = Number(shown[figure.id]);
      expect(figure.value, figure.id).not.toBeNull();
      expect(Math.abs(value - (figure.value ?? NaN)), `${figure.id}: page ${shown[figure.id]}, engine ${figure.value}`).toBeLessThanOrEqual(
        Math.abs(figure.value ?? 0) * RELATIVE_TOLERANCE,
      );
    }

    if (!embed) {
      const { parallel, model } = golden.expect.document;
      await expect(slider(page, /\(TP\)/)).toHaveAttribute('aria-valuetext', String(parallel?.tp ?? 1));
      await expect(slider(page, /\(PP\)/)).toHaveAttribute('aria-valuetext', String(parallel?.pp ?? 1));
      await expect(page.getByLabel('Layers (L)')).toHaveValue(String(model.layers));
    }
  });
}

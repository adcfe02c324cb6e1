// One axe pass, the way every spec runs it: WCAG 2.1 A/AA rules over the page or a part of it,
// each violation as one line (rule, help, node count, the first three targets).

import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The violations of one axe pass over `page`, or over the elements `include` selects.
 * Legacy mode runs axe.run in the page itself; the default runs axe.runPartial per frame, then
 * opens a blank page, injects axe a second time and calls axe.finishRun there: the same rules
 * and results (the page has no frames) for ~40 % more time per pass (9.0 s against 15.9 s on a
 * full page of 900 elements, two passes of each on the built page, 2026-12-05).
 */
export async function axeViolations(page: Page, include: readonly string[] = []): Promise<string[]> {
  // resultTypes: axe still runs every rule on every node, but builds selectors and summaries for the
  // violations only (one node each for passes, incomplete and inapplicable, which no spec reads): the
  // same violations in about half the time of a full pass (a full page with its details open: 23–34 s
  // against 10–21 s, three pairs of passes at load average ~20, 2026-12-05). options() replaces the
  // options object, so it comes before withTags, which adds runOnly to it.
  let builder = new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(WCAG_TAGS)
    .setLegacyMode(true);
  for (const selector of include) builder = builder.include(selector);
  const results = await builder.analyze();
  return results.violations.map(
    (v) =>
      `${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(' | ')}`,
  );
}

import { describe, it, expect } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { FigureBand, OomVerdictLine } from './FigureUncertainty.tsx';
import { sampleOutput } from '../testOutputs.ts';
import { UNCERTAINTY_TABLE } from '../../model/validation/index.ts';
import { MAX_TIGHT_FROM_SHARE } from '../../model/validation/index.ts';
import { formatPercent } from '../format.ts';
import type { EstimateOutput } from '../../model/input/index.ts';

const GIB = 2 ** 30;

/** The sample output with its most loaded GPU at `share` of an 80 GiB capacity. */
function atShare(share: number): EstimateOutput {
  const output = sampleOutput();
  const total = share * 80 * GIB;
  return {
    ...output,
    memory: {
      ...output.memory,
      perGpu: { ...output.memory.perGpu, total },
      reserved: total,
      deviceUsed: total,
      fits: total <= output.memory.capacity,
    },
  };
}

const verdictOf = (output: EstimateOutput) =>
  /data-verdict="([^"]+)"/.exec(renderToStaticMarkup(createElement(OomVerdictLine, { output })))?.[1];

describe('OomVerdictLine', () => {
  it('says safe well below capacity, tight at 95 %, will not fit above it', () => {
    // Tight from the lower of 1 + the committed band's lower error and 90 % of capacity.
    expect(verdictOf(atShare(0.5))).toBe('safe');
    expect(verdictOf(atShare(0.95))).toBe('tight');
    expect(verdictOf(atShare(1.15))).toBe('will-not-fit');
  });

  it('states the rule with its threshold, and says in words what the margin is and where it comes from', () => {
    const html = renderToStaticMarkup(createElement(OomVerdictLine, { output: atShare(0.95) }));
    const threshold = formatPercent(Math.min(1 + UNCERTAINTY_TABLE.memory.lowerError, MAX_TIGHT_FROM_SHARE));
    expect(html).toContain(`${formatPercent(0.95)} of the GPU&#x27;s memory, tight from ${threshold}`);
    // 1 in 20 (the 5th percentile) of the band's rows; the margin is 1 / (1 + lower) − 1 of the estimate.
    const margin = formatPercent(1 / (1 + UNCERTAINTY_TABLE.memory.lowerError) - 1);
    expect(html).toContain(`1 in 20 of ${UNCERTAINTY_TABLE.memory.rows} published runs used ${margin} or more above their estimate`);
    expect(html).toContain('data-testid="tight-rule"');
  });

  it('a segment of fewer than 20 runs has no "1 in 20": its edge is the furthest run, and the words say so', () => {
    const output = atShare(0.5);
    const fit = output.memory.deviceUsed;
    // A band of 19 runs from −20 % to +10 %: measured = predicted / (1 + e), so low = fit / 1.1, high = fit / 0.8;
    // the margin is 1 / 0.8 − 1 = 25 % above the estimate.
    const range = (runs: number) => ({ low: fit / 1.1, high: fit / 0.8, basis: 'test', runs });
    const withRuns = (runs: number) => ({
      ...output,
      uncertainty: { tokensPerSecond: { low: 1, high: 2, basis: 'test', runs }, memory: range(runs) },
    });
    const words = (runs: number) =>
      renderToStaticMarkup(createElement(OomVerdictLine, { output: withRuns(runs) })).replace(/<[^>]+>/g, ' ');
    expect(words(19)).toContain('of 19 published runs like this one, the furthest over its estimate used 25 % more');
    expect(words(19)).not.toContain('1 in 20');
    expect(words(40)).toContain('1 in 20 of 40 published runs used 25 % or more above their estimate');
  });

  it('names no second memory figure: the share of capacity, never GiB used', () => {
    const text = renderToStaticMarkup(createElement(OomVerdictLine, { output: atShare(0.5) })).replace(/<[^>]+>/g, ' ');
    // The GiB in the line are the tight threshold's and the capacity, not a used figure.
    expect(text).not.toContain('used on the device');
    expect(text).not.toContain(`${40} GiB`);
  });
});

describe('FigureBand', () => {
  it('brackets step time by the throughput band: 5.21 s × (1 + lower) to × (1 + upper)', () => {
    const html = renderToStaticMarkup(createElement(FigureBand, { figureId: 'step-time', output: sampleOutput() }));
    const low = Number(/data-low="([^"]+)"/.exec(html)?.[1]);
    const high = Number(/data-high="([^"]+)"/.exec(html)?.[1]);
    const step = sampleOutput().throughput?.stepSeconds ?? NaN;
    expect(low).toBeCloseTo(step * (1 + UNCERTAINTY_TABLE.throughput.lowerError), 12);
    expect(high).toBeCloseTo(step * (1 + UNCERTAINTY_TABLE.throughput.upperError), 12);
  });

  it('shows nothing for a figure without a band', () => {
    expect(renderToStaticMarkup(createElement(FigureBand, { figureId: 'hfu', output: sampleOutput() }))).toBe('');
  });
});

// Issue 31, item 1: one figure judges the fit, and everything shows it. For random documents
// the verdict's figure (memory/fit.ts, fitMemoryBytes, what memory.fits judges), the strip's
// "Memory per GPU", the memory chart's tallest stage and the layout search's memory column
// for the same layout are one number; the chart's layers stack to each stage's figure; the
// chart says "all fit" only when the verdict does not say "will not fit".

import fc from 'fast-check';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { estimate } from '../model/estimate.ts';
import { fitMemoryBytes, stageFitLayers } from '../model/memory/index.ts';
import { searchDocument } from '../model/search/index.ts';
import type { EstimateOutput } from '../model/input/index.ts';
import { DEFAULT_DOCUMENT } from '../state/defaults.ts';
import type { Doc } from '../state/doc.ts';
import MemoryChart from './charts/MemoryChart.tsx';
import { keyFigures } from './keyFigures.ts';
import { searchDocumentOf, withLayout } from './search/searchRequest.ts';
import { searchRows } from './search/searchTable.ts';
import { outputVerdict } from './uncertainty/hostMemoryWords.ts';

/** A small dense model on a few GPUs: small enough to search quickly, large enough that some layouts do not fit. */
const documents = fc
  .record({
    layers: fc.constantFrom(4, 8, 16),
    hidden: fc.constantFrom(2048, 4096),
    seqLen: fc.constantFrom(1024, 4096),
    gpu: fc.constantFrom('a100-40gb', 'h100-sxm', 'v100-32gb'),
    tp: fc.constantFrom(1, 2, 4),
    pp: fc.constantFrom(1, 2, 4),
    dp: fc.constantFrom(1, 2),
    microBatch: fc.constantFrom(1, 2, 4),
    zero: fc.constantFrom(0, 1, 2, 3),
    recompute: fc.constantFrom('none', 'selective', 'full'),
    framework: fc.constantFrom('generic', 'megatron', 'deepspeed', 'torchtitan'),
  })
  .map((r): Doc => ({
    ...DEFAULT_DOCUMENT,
    model: {
      name: 'test',
      layers: r.layers,
      hidden: r.hidden,
      heads: 16,
      kvHeads: 8,
      ffnHidden: 4 * r.hidden,
      vocab: 32_000,
      ffnType: 'swiglu',
    },
    training: {
      ...(DEFAULT_DOCUMENT['training'] as object),
      seqLen: r.seqLen,
      globalBatch: 16 * r.microBatch * r.dp,
      microBatch: r.microBatch,
      recompute: r.recompute,
    },
    parallel: { tp: r.tp, pp: r.pp, dp: r.dp, cp: 1, ep: 1, vpp: 1, sequenceParallel: r.tp > 1, zero: r.zero, schedule: '1f1b' },
    cluster: { gpu: r.gpu, gpusPerNode: 8, gpus: r.tp * r.pp * r.dp },
    stack: { framework: r.framework },
  }));

/** The figures each view shows for one output, in bytes. */
function shown(output: EstimateOutput) {
  const html = renderToStaticMarkup(createElement(MemoryChart, { output }));
  const strip = keyFigures(output).find((f) => f.id === 'memory-total')?.value;
  return {
    verdict: fitMemoryBytes(output),
    strip,
    chartTallest: Number(/data-tallest-bytes="([^"]+)"/.exec(html)?.[1]),
    chartSaysAllFit: html.includes('All stages fit in'),
  };
}

describe('one memory figure everywhere (property)', () => {
  it('the verdict, the strip and the chart\'s tallest stage show one figure; the layers stack to it; "all fit" only when it fits', () => {
    let checked = 0;
    fc.assert(
      fc.property(documents, (doc) => {
        const output = estimate(doc);
        if (output.errors.length > 0) return;
        checked++;
        const s = shown(output);
        expect(s.strip).toBe(s.verdict);
        expect(s.chartTallest).toBe(s.verdict);
        for (const l of stageFitLayers(output)) {
          const a = l.allocated;
          const stacked =
            (a.frozen ?? 0) + a.parameters + a.gradients + a.optimizer + a.activations + a.other + l.allocatorReserve + l.runtime;
          expect(stacked).toBeCloseTo(l.deviceUsed, -1);
          expect(Math.min(l.allocatorReserve, l.runtime)).toBeGreaterThanOrEqual(0);
        }
        const verdict = outputVerdict(output);
        expect(s.chartSaysAllFit).toBe(verdict !== 'will-not-fit');
      }),
      { numRuns: 60 },
    );
    expect(checked).toBeGreaterThan(20);
  });

  it('the search column shows, for each layout found, the figure the verdict judges once that layout is applied', () => {
    let rows = 0;
    fc.assert(
      fc.property(documents, (doc) => {
        // Margin 0: the search also lists the layouts the verdict calls tight.
        const found = searchDocument(searchDocumentOf(doc), { topK: 2, variants: 1, pareto: false, memoryMargin: 0 });
        for (const row of searchRows(found.results)) {
          const applied = estimate(withLayout(doc, row.result));
          expect(applied.errors).toEqual([]);
          const s = shown(applied);
          expect(row.memoryBytes).toBe(s.verdict);
          expect(row.memoryBytes).toBe(s.chartTallest);
          expect(row.memoryBytes).toBe(s.strip);
          expect(row.verdict).toBe(outputVerdict(applied));
          rows++;
        }
      }),
      { numRuns: 12 },
    );
    expect(rows).toBeGreaterThan(5);
  });
});

// Issue 16 item 6, "one bubble": the pipeline bubble on its card, in the step-time
// breakdown, in the pipeline timeline's caption and in its formula view is one number,
// and the formula view's formula, evaluated, is the number.

import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { estimate } from '../../model/estimate.ts';
import { explainFigure, evaluateEquation } from '../../model/explain/index.ts';
import { parseDocument } from '../../model/input/index.ts';
import { UNCERTAINTY_TABLE } from '../../model/validation/index.ts';
import { formatPercent } from '../format.ts';
import { keyFigures } from '../keyFigures.ts';
import PipelineChart from './PipelineChart.tsx';
import StepBreakdownChart, { partRows } from './StepBreakdownChart.tsx';

// A 1F1B pipeline of 4 stages with m = 64 / (2 × 2) = 16 micro-batches: a bubble of a few per cent of the step.
const document = {
  version: 1,
  model: { name: 'test', layers: 16, hidden: 2048, heads: 16, kvHeads: 8, ffnHidden: 5632, ffnType: 'swiglu', vocab: 32000 },
  training: { seqLen: 2048, globalBatch: 64, microBatch: 2 },
  parallel: { tp: 1, pp: 4, dp: 2, zero: 1, schedule: '1f1b' },
  cluster: { gpu: 'h100-sxm', gpus: 8 },
};

describe('one bubble', () => {
  const output = estimate(document);
  const parsed = parseDocument(document);
  const t = output.throughput;
  if (!t || !parsed.ok) throw new Error('the test run must be valid');
  const bubble = t.bubbleFraction;

  it("is the step-time breakdown's bubble over the step", () => {
    expect(bubble).toBeGreaterThan(0);
    expect(bubble).toBe(t.breakdown.bubble / t.stepSeconds);
    expect(partRows(t).find((row) => row.part === 'bubble')?.share).toBe(bubble);
  });

  it("is the card's value", () => {
    expect(keyFigures(output).find((f) => f.id === 'bubble-fraction')?.value).toBe(bubble);
  });

  it("is the formula view's result, and its formula evaluates to it", () => {
    const explanation = explainFigure('bubble-fraction', parsed.config, output, UNCERTAINTY_TABLE);
    const [headline, bubbleTime] = explanation?.equations ?? [];
    expect(headline?.result.value).toBe(bubble);
    expect(headline?.formula).toBe('bubble time ÷ step time');
    expect(evaluateEquation(headline?.operands ?? [], headline?.operators ?? [])).toBeCloseTo(bubble, 12);
    // Its bubble time is the breakdown's, from the simulated makespan less the critical stage's work.
    expect(bubbleTime?.result.value).toBe(t.breakdown.bubble);
    expect(evaluateEquation(bubbleTime?.operands ?? [], bubbleTime?.operators ?? [])).toBeCloseTo(t.breakdown.bubble, 9);
  });

  it('is the number the pipeline timeline and the step breakdown write in their captions', () => {
    const text = formatPercent(bubble);
    expect(renderToStaticMarkup(createElement(PipelineChart, { output }))).toContain(`pipeline bubble ${text} of the step`);
    expect(renderToStaticMarkup(createElement(StepBreakdownChart, { output }))).toContain(
      `${text} of the step: the Pipeline bubble figure`,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { estimateConfig } from '../estimate.ts';
import { evaluateEquation, explainFigure } from './explain.ts';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { llama3_8bMegatronTp8 } from '../../testing/documents.ts';
import type { UncertaintyTable } from '../validation/index.ts';

// The memory explanation names a stated Megatron-LM release's cross-entropy copies
// (memory/cross-entropy-copies.ts) on Llama 3 8B (vocab 128,256) at TP 8, sequence 8192,
// micro-batch 1: core_v0.6.0 holds 6 bytes per logit beyond the saved fp32 softmax,
// 6 × 8192 × 128,256 / 8 = 788,004,864 bytes.
const LOGITS_PER_GPU = 8192 * (128_256 / 8);

function config(training: Record<string, unknown>): RunConfig {
  const parsed = parseDocument(llama3_8bMegatronTp8(training));
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('explain names the part', () => {
  const TABLE: UncertaintyTable = {
    lowerQuantile: 0.05,
    upperQuantile: 0.95,
    throughput: { lowerError: -0.2, upperError: 0.25, rows: 10 },
    memory: { lowerError: -0.2, upperError: 0.25, rows: 10 },
  };
  const lossLine = (training: Record<string, unknown>) => {
    const c = config(training);
    return explainFigure('memory-total', c, estimateConfig(c), TABLE)?.equations.find((e) => e.id === 'loss-copies');
  };
  it('core_v0.6.0: a "loss-copies" line of 788,004,864 bytes that evaluates to its result', () => {
    const line = lossLine({ frameworkRelease: 'core_v0.6.0' });
    expect(line?.result.name).toContain('core_v0.6.0');
    expect(line?.result.value).toBeCloseTo(6 * LOGITS_PER_GPU, 0);
    expect(evaluateEquation(line?.operands ?? [], line?.operators ?? [])).toBeCloseTo(line?.result.value ?? NaN, 0);
  });
  it('under full recompute the line subtracts what the loss’s place held already and still evaluates to its result', () => {
    const line = lossLine({ frameworkRelease: 'core_v0.6.0', recompute: 'full' });
    expect(line?.operators).toContain('−');
    expect(evaluateEquation(line?.operands ?? [], line?.operators ?? [])).toBeCloseTo(line?.result.value ?? NaN, 0);
  });
  it('no line without a release', () => {
    expect(lossLine({})).toBeUndefined();
  });
});

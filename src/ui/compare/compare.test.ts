import { describe, it, expect } from 'vitest';
import { estimate } from '../../model/estimate.ts';
import { DEFAULT_DOCUMENT } from '../../state/defaults.ts';
import { setAt } from '../../state/doc.ts';
import { compareFigures, formatDelta, formatRatio } from './compareFigures.ts';
import { configDifferences } from './configDiff.ts';

describe('comparing two estimates figure by figure', () => {
  const a = estimate(DEFAULT_DOCUMENT);
  // The same run at double the price per GPU-hour: cost doubles, nothing else moves.
  const pricier = estimate(setAt(DEFAULT_DOCUMENT, ['cost', 'usdPerGpuHour'], 5));

  it('gives B − A, B ÷ A and a verdict in words', () => {
    const rows = compareFigures(a, pricier);
    const cost = rows.find((r) => r.id === 'cost-usd');
    expect(cost?.ratio).toBeCloseTo(2, 12);
    expect(cost?.delta).toBeCloseTo(a.cost?.usd ?? NaN, 3);
    expect(cost?.verdict).toBe('worse');
    expect(cost?.ratioText).toBe('×2.00');
    expect(cost?.deltaText.startsWith('+$')).toBe(true);
    for (const id of ['memory-total', 'step-time', 'mfu', 'training-days']) expect(rows.find((r) => r.id === id)?.verdict).toBe('same');
  });

  it('knows which way is better: a smaller pipeline bubble and a higher MFU are better, a longer step worse', () => {
    // PP 4 → PP 2 with DP 4 (64 GPUs): fewer stages, smaller bubble.
    const shallower = estimate(setAt(setAt(DEFAULT_DOCUMENT, ['parallel', 'pp'], 2), ['parallel', 'dp'], 4));
    const rows = compareFigures(a, shallower);
    const bubble = rows.find((r) => r.id === 'bubble-fraction');
    expect((bubble?.current.value ?? 1) < (bubble?.pinned.value ?? 0)).toBe(true);
    expect(bubble?.verdict).toBe('better');
    const mfu = rows.find((r) => r.id === 'mfu');
    expect(mfu?.verdict).toBe((mfu?.current.value ?? 0) > (mfu?.pinned.value ?? 0) ? 'better' : 'worse');
    // Swapping the two flips every verdict that has a direction.
    const back = compareFigures(shallower, a);
    for (const row of rows) {
      const other = back.find((r) => r.id === row.id);
      if (row.verdict === 'better') expect(other?.verdict).toBe('worse');
      if (row.verdict === 'worse') expect(other?.verdict).toBe('better');
    }
  });

  it('opens with the model summary: which model each side is, same model same figures', () => {
    const rows = compareFigures(a, pricier);
    expect(rows.slice(0, 3).map((r) => r.id)).toEqual(['model-parameters', 'model-active-parameters', 'model-flops-per-token']);
    expect(rows[0]?.current.value).toBe(a.model?.parameters);
    expect(rows.slice(0, 3).every((r) => r.verdict === 'same')).toBe(true);
    // A deeper model: more parameters, said to differ (neither bigger nor smaller is better).
    const deeper = estimate(
      setAt(DEFAULT_DOCUMENT, ['model', 'layers'], 2 * Number((DEFAULT_DOCUMENT as { model: { layers: number } }).model.layers)),
    );
    const params = compareFigures(a, deeper).find((r) => r.id === 'model-parameters');
    expect(params?.verdict).toBe('differs');
    expect((params?.ratio ?? 0) > 1.5).toBe(true);
  });

  it('marks figures an invalid estimate lacks as not comparable', () => {
    const invalid = estimate({ version: 1 });
    expect(compareFigures(a, invalid).every((r) => r.verdict === 'unavailable' && r.delta === null)).toBe(true);
  });

  it("formats changes with a sign and in the figure's unit; fractions in percentage points", () => {
    expect(formatDelta(-2 * 2 ** 30, 'bytes')).toBe('−2 GiB');
    expect(formatDelta(0.032, 'fraction')).toBe('+3.2 pp');
    expect(formatDelta(0, 'seconds')).toBe('±0 s');
    expect(formatRatio(0.8333)).toBe('×0.83');
    expect(formatRatio(12.34)).toBe('×12.3');
  });
});

describe('what differs between two configurations', () => {
  it('lists changed fields with their labels, and fields only one side has', () => {
    let current = setAt(DEFAULT_DOCUMENT, ['parallel', 'tp'], 4);
    current = setAt(current, ['parallel', 'dp'], 4);
    current = setAt(current, ['calibration', 'computeEfficiencyScale'], 0.9);
    expect(configDifferences(DEFAULT_DOCUMENT, current)).toEqual([
      { field: 'parallel.tp', label: 'Tensor parallel (TP)', pinnedText: '8', currentText: '4' },
      { field: 'parallel.dp', label: 'Data parallel (DP)', pinnedText: '2', currentText: '4' },
      { field: 'calibration.computeEfficiencyScale', label: 'Compute efficiency scale', pinnedText: '(default)', currentText: '0.9' },
    ]);
    expect(configDifferences(current, DEFAULT_DOCUMENT).map((d) => d.field)).toEqual([
      'parallel.tp',
      'parallel.dp',
      'calibration.computeEfficiencyScale',
    ]);
    expect(configDifferences(DEFAULT_DOCUMENT, DEFAULT_DOCUMENT)).toEqual([]);
  });

  it('names every field as its control does, and switches as on or off', () => {
    let current = setAt(DEFAULT_DOCUMENT, ['model', 'layers'], 40);
    current = setAt(current, ['training', 'flashAttention'], false);
    expect(configDifferences(DEFAULT_DOCUMENT, current)).toEqual([
      { field: 'model.layers', label: 'Layers (L)', pinnedText: '80', currentText: '40' },
      { field: 'training.flashAttention', label: 'Flash attention (FA)', pinnedText: 'on', currentText: 'off' },
    ]);
  });

  it('names GPUs, not their preset ids', () => {
    const current = setAt(DEFAULT_DOCUMENT, ['cluster', 'gpu'], 'a100-80gb');
    expect(configDifferences(DEFAULT_DOCUMENT, current)).toEqual([
      { field: 'cluster.gpu', label: 'GPU', pinnedText: 'NVIDIA H100 SXM5 80GB', currentText: 'NVIDIA A100 SXM4 80GB' },
    ]);
  });

  it('reads a token budget as a count a person can say', () => {
    const current = setAt(DEFAULT_DOCUMENT, ['training', 'tokens'], 5.24288e11);
    expect(configDifferences(DEFAULT_DOCUMENT, current)).toEqual([
      { field: 'training.tokens', label: 'Token budget (tokens)', pinnedText: '1 trillion tokens', currentText: '524 billion tokens' },
    ]);
  });
});

// The anomaly rules on a synthetic Megatron-LM log with known faults injected at known steps,
// and the comparison with a document.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareWithDocument, logOutput, readLog, GiB } from './test-api.ts';
import { syntheticMegatronLog } from './synthetic.ts';

const MiB = 1024 * 1024;

describe('anomalies', () => {
  it('a clean steady run flags nothing', () => {
    const r = readLog(syntheticMegatronLog({ steps: 100 }));
    expect(r.anomalies).toEqual([]);
    expect(r.steps).toBe(100);
    // The first 10 steps are skipped (10 % of 100); step 1 is 4× slower and inside them.
    expect(r.steady).toMatchObject({ from: 11, to: 100 });
  });

  it('each injected fault is found at its step with its rule', () => {
    const r = readLog(syntheticMegatronLog({ steps: 200, lossSpikeAt: 60, nanAt: 90, stallAt: 120, memoryGrowthFrom: 150 }));
    const found = r.anomalies.map((a) => [a.step, a.kind]);
    expect(found).toEqual([
      [60, 'loss-spike'],
      [90, 'loss-nan'],
      [90, 'nan-iterations'],
      [120, 'stall'],
      // 1 GiB more every 10 steps from step 150 over 60,000 MiB at the first steady step (21): the rule's
      // limit is 5 % of it, 3,000 MiB; step 180 is 3 × 1,024 = 3,072 MiB above (step 170: 2,048, under).
      [180, 'memory-growth'],
    ]);
    expect(r.anomalies[0]?.detail).toMatch(/rule: more than 6 robust spreads about that trend and 10 % above it/);
    expect(r.anomalies[3]?.detail).toMatch(/more than 5× slower than the steady median/);
    // The NaN step is not in the loss series (JSON has no NaN); the anomaly marks it.
    expect(r.series.loss.some(([step]) => step === 90)).toBe(false);
  });

  it('a +40 % loss spike while the loss still falls is flagged (the trend is taken out of the window first)', () => {
    // The synthetic loss is (2 + 8 / √step) × (1 ± 1 %): at step 30, 3.46. Over steps 10–29 it falls from 4.53 to 3.49;
    // about their median (≈ 3.9) the spread is the fall itself (1.4826 × MAD ≈ 0.3, six of them ≈ 1.8), so a median rule lets
    // 3.46 × 1.4 = 4.84 pass (limit ≈ 5.7). About the trend the residuals are the curvature and the 1 % wobble (six spreads
    // ≈ 0.3), and the trend expects no lower than the window's lowest (3.49): the limit is ≈ 3.49 + max(0.3, 0.35) ≈ 3.84.
    const r = readLog(syntheticMegatronLog({ steps: 100, lossSpikeAt: 30, lossSpikeFactor: 1.4 }));
    expect(r.anomalies.map((a) => [a.step, a.kind])).toEqual([[30, 'loss-spike']]);
    expect(r.anomalies[0]?.detail).toMatch(/^loss 4\.\d{3} at step 30 against 3\.\d{3} expected from the trend/);
    // The same curve without the spike, and with a 5 % bump (inside the 10 % share), flags nothing.
    expect(readLog(syntheticMegatronLog({ steps: 100 })).anomalies).toEqual([]);
    expect(readLog(syntheticMegatronLog({ steps: 100, lossSpikeAt: 30, lossSpikeFactor: 1.05 })).anomalies).toEqual([]);
  });

  it('the real excerpts in the tests flag no loss spike: each is a healthy run', () => {
    const dir = new URL('./__fixtures__/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.log'));
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const f of files) {
      const spikes = readLog(readFileSync(new URL(f, dir), 'utf8')).anomalies.filter((a) => a.kind === 'loss-spike');
      expect({ file: f, spikes }).toEqual({ file: f, spikes: [] });
    }
  });

  it('a throughput drop (2× slower) is a drop, not a stall', () => {
    const text = syntheticMegatronLog({ steps: 50 }).replace(
      /elapsed time per iteration \(ms\): ([\d.]+) \| (.*)\n\[Rank 0\] \(after 30 iterations\)/,
      (_m, ms: string, rest: string) =>
        `elapsed time per iteration (ms): ${(Number(ms) * 2).toFixed(1)} | ${rest}\n[Rank 0] (after 30 iterations)`,
    );
    const r = readLog(text);
    expect(r.anomalies.map((a) => [a.step, a.kind])).toEqual([[30, 'throughput-drop']]);
  });

  it('a grad-norm spike against its window', () => {
    const text = syntheticMegatronLog({ steps: 40 }).replace(/(iteration\s+25\/.*?grad norm: )[\d.]+/, '$1 9.000');
    const r = readLog(text);
    expect(r.anomalies.map((a) => [a.step, a.kind])).toEqual([[25, 'grad-norm-spike']]);
  });
});

describe('figures from the facts the log states', () => {
  it('tokens/s per GPU = global batch × sequence ÷ step time ÷ GPUs (arguments dump)', () => {
    const r = readLog(syntheticMegatronLog({ steps: 30, stepSeconds: 2, globalBatch: 512, seqLen: 4096, gpus: 64, jitter: 0 }));
    expect(r.measured.stepSeconds).toBe(2);
    expect(r.measured.tokensPerSecondPerGpu).toBe((512 * 4096) / 2 / 64); // 16,384
    expect(r.measured).toMatchObject({ memoryMetric: 'peak reserved', memoryBytes: 60000 * MiB });
    expect(r.facts).toMatchObject({ globalBatch: 512, seqLen: 4096, gpus: 64, tp: 8, pp: 1 });
  });
});

const doc = {
  version: 1,
  model: { name: 'test', layers: 32, hidden: 4096, heads: 32, vocab: 32000, ffnType: 'swiglu', ffnHidden: 11008 },
  training: { seqLen: 4096, globalBatch: 512, microBatch: 1, precision: 'bf16' },
  parallel: { tp: 8, pp: 1, dp: 8 },
  cluster: { gpu: 'h100-sxm', gpus: 64 },
};

describe('compared with a document', () => {
  const log = readLog(syntheticMegatronLog({ steps: 30, stepSeconds: 2, globalBatch: 512, seqLen: 4096, gpus: 64, jitter: 0 }));

  it("gives the estimate's figures and measured ÷ predicted", () => {
    const c = compareWithDocument(log, doc);
    expect(c.errors).toEqual([]);
    expect(c.mismatch).toEqual([]);
    const p = c.predicted;
    expect(p?.stepSeconds).toBeGreaterThan(0);
    expect(c.ratio?.stepSeconds).toBeCloseTo(2 / (p?.stepSeconds as number), 12);
    expect(c.ratio?.tokensPerSecondPerGpu).toBeCloseTo(16384 / (p?.tokensPerSecondPerGpu as number), 9);
    expect(c.ratio?.memoryBytes).toBeCloseTo((60000 * MiB) / (p?.memoryBytes as number), 9);
    // Megatron prints no MFU: nothing to divide.
    expect(c.ratio?.mfu).toBeNull();
    const out = logOutput(log, c);
    expect(Object.keys(out)).toEqual(
      expect.arrayContaining(['framework', 'steps', 'steady', 'measured', 'series', 'anomalies', 'warnings', 'predicted', 'ratio']),
    );
  });

  it('a log of another layout says so and compares nothing', () => {
    const c = compareWithDocument(log, { ...doc, training: { ...doc.training, globalBatch: 1024 }, parallel: { tp: 4, pp: 1, dp: 16 } });
    expect(c.ratio).toBeNull();
    expect(c.mismatch).toEqual([
      "global batch (sequences): the log's 512, the document's 1024",
      "tensor parallel: the log's 8, the document's 4",
    ]);
    expect(logOutput(log, c).warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^not compared: the log is of another run/)]));
  });

  it('an invalid document gives its errors, not an exception', () => {
    const c = compareWithDocument(log, { version: 1 });
    expect(c.predicted).toBeNull();
    expect(c.errors.length).toBeGreaterThan(0);
  });

  it('memory of the kind the log printed: "peak allocated" against the allocated peak, "after setup" against the model states', () => {
    const allocated = { ...log, measured: { ...log.measured, memoryMetric: 'peak allocated' as const, memoryBytes: 50 * GiB } };
    const setup = { ...log, measured: { ...log.measured, memoryMetric: 'after setup' as const, memoryBytes: 10 * GiB } };
    const a = compareWithDocument(allocated, doc).predicted?.memoryBytes as number;
    const s = compareWithDocument(setup, doc).predicted?.memoryBytes as number;
    const reserved = compareWithDocument(log, doc).predicted?.memoryBytes as number;
    expect(s).toBeLessThan(a);
    expect(a).toBeLessThan(reserved);
  });
});

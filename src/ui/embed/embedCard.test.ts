import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT } from '../../state/defaults.ts';
import { setAt } from '../../state/doc.ts';
import { findModelPreset, loadCatalog } from '../../state/catalog.ts';
import { sampleOutput } from '../testOutputs.ts';
import { completionCardWords, layoutWords, verdictWords } from './embedCard.ts';

// The catalog is a chunk of its own on the page (state/catalog.ts); a test below reads DeepSeek-V3 from it.
await loadCatalog();

const GiB = 2 ** 30;

describe('the embed card in words', () => {
  it("says the default run's layout: GPUs, every degree, ZeRO, schedule, batch and sequence length", () => {
    expect(layoutWords(DEFAULT_DOCUMENT)).toEqual({
      cluster: '64 × NVIDIA H100 SXM5 80GB',
      degrees: 'TP 8 · PP 4 · DP 2 · CP 1 · EP 1',
      memoryAndSchedule: 'ZeRO-1 · 1F1B schedule · selective recompute',
      batch: 'global batch 256 × 8,192 tokens (micro-batch 1)',
      budget: '1 trillion tokens at $2.50 per GPU-hour',
    });
  });

  it('says the token budget and price that the days and dollars assume, in readable numbers', () => {
    let doc = setAt(DEFAULT_DOCUMENT, ['training', 'tokens'], 524_288_000_000);
    doc = setAt(doc, ['cost', 'usdPerGpuHour'], 1.9);
    expect(layoutWords(doc)?.budget).toBe('524 billion tokens at $1.90 per GPU-hour');
  });

  it('names the virtual stages of an interleaved schedule and what is offloaded', () => {
    let doc = setAt(DEFAULT_DOCUMENT, ['parallel', 'schedule'], 'interleaved-1f1b');
    doc = setAt(doc, ['parallel', 'vpp'], 2);
    doc = setAt(doc, ['training', 'offload', 'optimizer'], true);
    expect(layoutWords(doc)?.memoryAndSchedule).toBe(
      'ZeRO-1 · interleaved 1F1B (VPP 2) schedule · selective recompute · optimizer offloaded',
    );
  });

  it('names no schedule at PP 1, where there is no pipeline', () => {
    let doc = setAt(DEFAULT_DOCUMENT, ['parallel', 'pp'], 1);
    doc = setAt(doc, ['parallel', 'dp'], 8);
    doc = setAt(doc, ['parallel', 'schedule'], 'gpipe');
    const words = layoutWords(doc);
    expect(words?.memoryAndSchedule).toBe('ZeRO-1 · selective recompute');
    expect(JSON.stringify(words)).not.toMatch(/gpipe|1F1B/i);
  });

  it('has no words for a document the engine cannot read', () => {
    expect(layoutWords(setAt(DEFAULT_DOCUMENT, ['parallel', 'tp'], 0))).toBeNull();
  });

  it('gives the verdict with the margin in GiB, over or to spare', () => {
    const sample = sampleOutput();
    const at = (totalGiB: number) =>
      verdictWords({
        ...sample,
        memory: {
          ...sample.memory,
          capacity: 80 * GiB,
          perGpu: { ...sample.memory.perGpu, total: totalGiB * GiB },
          reserved: totalGiB * GiB,
          deviceUsed: totalGiB * GiB,
        },
      });
    // 40 of 80 GiB: half, 40 GiB to spare, below the 90 % tight line (uncertainty.ts MAX_TIGHT_FROM_SHARE).
    expect(at(40)).toMatchObject({ verdict: 'safe', headline: 'Safe', detail: '40 GiB of 80 GiB per GPU (50 %), 40 GiB to spare' });
    // "Tight" explains itself on the card: where it starts and where that margin comes from.
    expect(at(40).tight).toMatch(
      /^Tight from [\d.]+ % of the GPU's memory \([\d.]+ GiB\): 1 in 20 of \d+ published runs used [\d.]+ % or more above their estimate/,
    );
    expect(at(100)).toMatchObject({ verdict: 'will-not-fit', headline: 'Will not fit' });
    expect(at(100).detail).toMatch(/, 20 GiB over$/);
  });
});

describe('the layout line names expert TP once EP is above 1', () => {
  const v3 = findModelPreset('deepseek-v3');
  const doc = (ep: number) => ({
    version: 1,
    model: v3?.model,
    training: { seqLen: 4096, globalBatch: 1024, microBatch: 1 },
    parallel: { tp: 8, pp: 1, dp: 32, ep },
    cluster: { gpu: 'h100-sxm', gpus: 256 },
  });

  it('EP 64 at TP 8 · DP 32: ETP 1 (64 does not divide 32); EP 32: ETP 8 (= TP); a dense model says no ETP', () => {
    expect(layoutWords(doc(64))?.degrees).toBe('TP 8 · PP 1 · DP 32 · CP 1 · EP 64 · ETP 1');
    expect(layoutWords(doc(32))?.degrees).toBe('TP 8 · PP 1 · DP 32 · CP 1 · EP 32 · ETP 8');
    expect(layoutWords(DEFAULT_DOCUMENT)?.degrees).not.toContain('ETP');
  });
});

describe("the embed card's range of the run's end", () => {
  const P = (p10: number, p50: number, p90: number) => ({ p10, p50, p90 });
  const completion = { days: P(53.9, 54.2, 54.6), usd: P(1_000_000, 1_100_000, 1_300_000), basis: '…' };
  const withCompletion = (c: unknown) => {
    const out = sampleOutput();
    return { ...out, reliability: { ...out.reliability!, completion: c as typeof completion } };
  };

  it('the median with its p10–p90 in days and dollars; on spot, the on-demand answer beside it', () => {
    expect(completionCardWords(withCompletion(completion))).toBe(
      'end over simulated runs: 54.2 days (p10 53.9 days, p90 54.6 days), $1.1M (p10 $1M, p90 $1.3M)',
    );
    const spot = {
      ...completion,
      onDemand: { days: P(50, 50.1, 50.3), usd: P(2_000_000, 2_100_000, 2_200_000), expectedInterruptions: 3 },
    };
    expect(completionCardWords(withCompletion(spot))).toBe(
      'Spot, end over simulated runs: 54.2 days (p10 53.9 days, p90 54.6 days), $1.1M (p10 $1M, p90 $1.3M); ' +
        'on-demand: 50.1 days (p10 50 days, p90 50.3 days), $2.1M (p10 $2M, p90 $2.2M)',
    );
  });

  it('nothing without a simulation', () => {
    const out = sampleOutput();
    if (!out.reliability) throw new Error('no reliability');
    const { completion: _dropped, ...reliability } = out.reliability;
    expect(completionCardWords({ ...out, reliability })).toBeNull();
    expect(completionCardWords({ ...out, reliability: null })).toBeNull();
  });
});

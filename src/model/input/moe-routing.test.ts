import { describe, expect, it } from 'vitest';
import { QWEN3_30B_A3B_MODEL } from '../../testing/documents.ts';
import { parseDocument } from './document.ts';

// training.moeLoadImbalance and training.moeRouter at the edge (input/moe-routing.ts).

function parse(training: Record<string, unknown>) {
  return parseDocument({
    version: 1,
    model: { ...QWEN3_30B_A3B_MODEL, layers: 4, vocab: 32000 },
    training: { seqLen: 4096, globalBatch: 8, microBatch: 1, ...training },
    parallel: { tp: 1, pp: 1, dp: 8, ep: 8 },
    cluster: { gpu: 'h100-sxm', gpusPerNode: 8 },
  });
}

function errors(training: Record<string, unknown>): string {
  const parsed = parse(training);
  return parsed.ok ? '' : parsed.errors.join(' | ');
}

describe('training.moeLoadImbalance', () => {
  it('absent or null: the key stays out of the config (balanced, as before)', () => {
    for (const training of [{}, { moeLoadImbalance: null }]) {
      const parsed = parse(training);
      expect(parsed.ok && 'moeLoadImbalance' in parsed.config.training).toBe(false);
    }
  });
  it('1 and 1.3 read as written', () => {
    const parsed = parse({ moeLoadImbalance: 1.3 });
    expect(parsed.ok && parsed.config.training.moeLoadImbalance).toBe(1.3);
    const one = parse({ moeLoadImbalance: 1 });
    expect(one.ok && one.config.training.moeLoadImbalance).toBe(1);
  });
  it('below 1: an error saying what the number means', () => {
    expect(errors({ moeLoadImbalance: 0.8 })).toBe(
      "training.moeLoadImbalance: must be at least 1 (the busiest expert-parallel rank's routed tokens over the mean, 1 when " +
        'perfectly balanced): no rank can be busier than the mean by less than nothing, got 0.8',
    );
  });
  it('NaN, text or a boolean: an error naming the field and the value', () => {
    expect(errors({ moeLoadImbalance: Number.NaN })).toMatch(/^training\.moeLoadImbalance: must be a number ≥ 1 .*got NaN$/);
    expect(errors({ moeLoadImbalance: '1.2' })).toMatch(/^training\.moeLoadImbalance: must be a number ≥ 1 .*got "1\.2"$/);
    expect(errors({ moeLoadImbalance: true })).toMatch(/^training\.moeLoadImbalance: must be a number ≥ 1 .*got boolean$/);
  });
  it('above EP: a warning (the busiest of ep ranks takes at most ep × the mean), estimated as stated', () => {
    const parsed = parseDocument({
      version: 1,
      model: { ...QWEN3_30B_A3B_MODEL, layers: 4, vocab: 32000 },
      training: { seqLen: 4096, globalBatch: 8, microBatch: 1, moeLoadImbalance: 1.3 },
      parallel: { tp: 1, pp: 1, dp: 8, ep: 1 },
      cluster: { gpu: 'h100-sxm', gpusPerNode: 8 },
    });
    expect(parsed.ok && parsed.config.training.moeLoadImbalance).toBe(1.3);
    expect(parsed.warnings).toContain(
      'training.moeLoadImbalance: 1.3 is more than parallel.ep = 1 allows: the busiest of 1 expert-parallel rank takes at most ' +
        'every routed token, 1 × the mean; estimated as stated',
    );
    expect(parse({ moeLoadImbalance: 1.3 }).warnings.filter((w) => w.startsWith('training.moeLoadImbalance'))).toEqual([]);
  });
  it('a typing slip far above any run: an error', () => {
    expect(errors({ moeLoadImbalance: 1e9 })).toContain('training.moeLoadImbalance: must be at most 1,000,000');
  });
});

describe('training.moeRouter', () => {
  it('absent: the key stays out; "fakeBalanced" and "learned" read as written', () => {
    const absent = parse({});
    expect(absent.ok && 'moeRouter' in absent.config.training).toBe(false);
    const fake = parse({ moeRouter: 'fakeBalanced' });
    expect(fake.ok && fake.config.training.moeRouter).toBe('fakeBalanced');
    const learned = parse({ moeRouter: 'learned' });
    expect(learned.ok && learned.config.training.moeRouter).toBe('learned');
  });
  it('another word: an error listing the two', () => {
    expect(errors({ moeRouter: 'fake_balanced_gate' })).toBe(
      'training.moeRouter: must be one of "learned", "fakeBalanced", got "fake_balanced_gate"',
    );
  });
  it('"fakeBalanced" with an imbalance above 1 contradicts the gate: an error; with 1 it reads', () => {
    expect(errors({ moeRouter: 'fakeBalanced', moeLoadImbalance: 1.2 })).toContain(
      'training.moeLoadImbalance: must be 1 with training.moeRouter "fakeBalanced"',
    );
    expect(parse({ moeRouter: 'fakeBalanced', moeLoadImbalance: 1 }).ok).toBe(true);
  });
});

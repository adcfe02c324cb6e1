import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT } from '../../state/defaults.ts';
import { parseDocument } from './document.ts';
import { describeLayoutMove, layoutForGpuCount, layoutFromIntent } from './layout-intent.ts';
import {
  dpOnGpus,
  intentOfLayout,
  layoutChanges,
  layoutOfRun,
  scheduleForVpp,
  withLayoutDegree,
  withLayoutSchedule,
  type Layout,
} from './layout.ts';
import type { RunConfig } from './types.ts';

function llama70b(): RunConfig {
  const parsed = parseDocument(DEFAULT_DOCUMENT);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

// Llama 3 70B on 64 H100: TP 8 × PP 4 × DP 2, global batch 256, micro-batch 1, 80 layers, 64 heads, 8 KV heads.
const base: Layout = layoutOfRun(llama70b());
const rules = llama70b();
const mine = intentOfLayout(base);

describe('a degree moves, DP follows', () => {
  it('DP = GPUs ÷ (TP × PP × CP), or null when that is not whole', () => {
    expect(dpOnGpus(64, 8, 4, 1)).toBe(2); // 64 / 32
    expect(dpOnGpus(48, 8, 4, 1)).toBeNull(); // 48 / 32 = 1.5
    expect(dpOnGpus(Number.NaN, 1, 1, 1)).toBeNull();
  });

  it('TP 4 at 64 GPUs and PP 4 gives DP 64 / (4 × 4) = 4; TP 3 does not split 64', () => {
    const edit = withLayoutDegree(base, 'tp', 4);
    expect(edit.ok && edit.layout).toMatchObject({ tp: 4, pp: 4, dp: 4, gpus: 64 });
    const bad = withLayoutDegree(base, 'tp', 3);
    expect(bad.ok).toBe(false);
  });

  it('DP moves the GPU count: DP 4 at TP 8 × PP 4 is 128 GPUs', () => {
    const edit = withLayoutDegree(base, 'dp', 4);
    expect(edit.ok && edit.layout.gpus).toBe(128);
  });

  it('VPP above 1 means interleaved 1F1B, and VPP 1 takes 1F1B back', () => {
    expect(scheduleForVpp('1f1b', 2)).toBe('interleaved-1f1b');
    expect(scheduleForVpp('interleaved-1f1b', 1)).toBe('1f1b');
    expect(scheduleForVpp('zero-bubble', 1)).toBe('zero-bubble');
    expect(withLayoutSchedule(base, 'interleaved-1f1b').vpp).toBe(2);
    const edit = withLayoutDegree(base, 'vpp', 2);
    expect(edit.ok && edit.layout.schedule).toBe('interleaved-1f1b');
  });

  it('lists only the fields that differ, plus those asked for', () => {
    const edit = withLayoutDegree(base, 'tp', 4);
    if (!edit.ok) throw new Error(edit.reason);
    expect(layoutChanges(base, edit.layout)).toEqual([
      { path: ['parallel', 'tp'], value: 4 },
      { path: ['parallel', 'dp'], value: 4 },
    ]);
    expect(layoutChanges(base, base, ['tp'])).toEqual([{ path: ['parallel', 'tp'], value: 8 }]);
  });
});

describe("the GPU count moves, the user's degrees stay where they fit", () => {
  it('24 GPUs: TP 8 stays, PP 4 → 3 (24 / 8 = 3 is not a multiple of 4; 3 is the largest divisor below), DP 1', () => {
    const at24 = layoutFromIntent(rules, mine, '1f1b', 24);
    expect(at24.layout).toMatchObject({ tp: 8, pp: 3, cp: 1, dp: 1, microBatch: 1 });
    expect(at24.forced).toEqual([{ key: 'pp', wanted: 4, got: 3, reason: '24 GPUs ÷ TP 8 = 3 is not a multiple of PP 4' }]);
    expect(at24.problem).toBeNull(); // 256 / (1 × 1) is whole
  });

  it('64 → 48 → 64 → 24 → 64 ends on the layout the user had', () => {
    let layout = base;
    for (const gpus of [48, 64, 24, 64]) {
      const step = layoutForGpuCount(rules, mine, layout.schedule, gpus);
      if (!step.ok) throw new Error(step.reason);
      layout = step.layout;
    }
    expect(layout).toEqual(base);
  });

  it('refuses 7 (TP 8 → 1 and PP 4 → 1 and then 256 is not a multiple of DP 7) and 1e99, and takes 96 (only DP moves, to 3)', () => {
    const seven = layoutForGpuCount(rules, mine, '1f1b', 7);
    expect(seven.ok).toBe(false);
    expect(!seven.ok && seven.reason).toMatch(/^7 GPUs not taken: they would need TP 8 → 1, PP 4 → 1/);
    expect(layoutForGpuCount(rules, mine, '1f1b', 1e99).ok).toBe(false);
    expect(layoutForGpuCount(rules, mine, '1f1b', 2.5).ok).toBe(false);
    const ninetySix = layoutForGpuCount(rules, mine, '1f1b', 96);
    expect(ninetySix.ok && ninetySix.layout).toMatchObject({ tp: 8, pp: 4, dp: 3 });
    expect(ninetySix.ok && ninetySix.problem).toMatch(/256 is not a multiple of training.microBatch × parallel.dp = 1×3/);
  });

  it('says what it forced and what came back, in words', () => {
    const at24 = layoutFromIntent(rules, mine, '1f1b', 24);
    expect(describeLayoutMove(base, at24, mine, '24 GPUs')).toEqual([
      'PP 4 → 3 because 24 GPUs ÷ TP 8 = 3 is not a multiple of PP 4; your PP 4 is kept and comes back when it fits again.',
      'DP 2 → 1 follows, so TP × PP × DP × CP = 24 GPUs.',
    ]);
    const back = layoutFromIntent(rules, mine, '1f1b', 64);
    expect(describeLayoutMove(at24.layout, back, mine, '64 GPUs')[0]).toBe('PP 3 → 4: your own choice, back on 64 GPUs.');
  });

  it('a model with 28 heads moves TP 8 to 4 (the largest divisor of 28 and of 4 KV heads below 8)', () => {
    const qwen = { ...rules.model, heads: 28, kvHeads: 4 };
    const result = layoutFromIntent({ ...rules, model: qwen }, mine, '1f1b', 64);
    expect(result.layout).toMatchObject({ tp: 4, pp: 4, dp: 4 });
    expect(result.forced[0]).toMatchObject({ key: 'tp', wanted: 8, got: 4, reason: '8 does not divide model.heads=28' });
  });

  it('a huge VPP in a link does not build a huge candidate list', () => {
    const result = layoutFromIntent(rules, { ...mine, vpp: 1e9 }, 'interleaved-1f1b', 64);
    expect(result.layout.vpp).toBe(20); // PP 4 × VPP ≤ 80 + 2 layers: VPP 20
  });
});

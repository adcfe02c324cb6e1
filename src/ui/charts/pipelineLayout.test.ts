import { describe, it, expect } from 'vitest';
import { chartGeometry, clampWindowStart, niceTicks, stageStats, timelineSpan, windowStart } from './pipelineLayout.ts';
import { gpipeTimeline } from '../testOutputs.ts';

describe('stageStats', () => {
  it('reproduces the GPipe bubble: each stage idles (p−1)/(m+p−1) of the step', () => {
    // p = 4, m = 8, tf = 1 s, tb = 2 s: makespan (8 + 3)(1 + 2) = 33 s, busy 8 × 3 = 24 s, idle 9 s = 3/11.
    const timeline = gpipeTimeline(4, 8, 1, 2);
    expect(timelineSpan(timeline)).toBe(33);
    const stats = stageStats(timeline, timelineSpan(timeline));
    expect(stats).toHaveLength(4);
    for (const s of stats) {
      expect(s.busySeconds).toBeCloseTo(24, 12);
      expect(s.idleSeconds).toBeCloseTo(9, 12);
      expect(s.idleFraction).toBeCloseTo(3 / 11, 12);
      expect(s.blocks).toEqual({ F: 8, B: 8, W: 0 });
    }
  });

  it('counts overlapping blocks once', () => {
    const timeline = {
      stages: 1,
      microBatches: 2,
      makespanSeconds: 4,
      bubbleFraction: 0.25,
      blocks: [
        { stage: 0, microBatch: 0, chunk: 0, kind: 'F' as const, startSeconds: 0, endSeconds: 2 },
        { stage: 0, microBatch: 1, chunk: 1, kind: 'F' as const, startSeconds: 1, endSeconds: 3 },
      ],
    };
    // Union of [0, 2] and [1, 3] is 3 s of a 4 s span.
    expect(stageStats(timeline, 4)[0]?.busySeconds).toBe(3);
  });

  it('falls back to the last block end when the makespan is missing', () => {
    const timeline = { ...gpipeTimeline(2, 2, 1, 1), makespanSeconds: Number.NaN };
    // (2 + 1) × (1 + 1) = 6 s.
    expect(timelineSpan(timeline)).toBe(6);
  });
});

describe('chartGeometry', () => {
  it('maps the span onto the plot width and keeps rows readable for 128 stages', () => {
    const g = chartGeometry(128, 10, 1000);
    expect(g.x(0)).toBe(g.left);
    expect(g.x(10)).toBeCloseTo(g.left + g.plotWidth, 9);
    expect(g.rowHeight).toBeGreaterThanOrEqual(3);
    expect(chartGeometry(4, 10, 1000).rowHeight).toBe(28);
    expect(chartGeometry(4, 10, 100).width).toBe(320);
  });
});

describe('niceTicks', () => {
  it('steps by 1, 2 or 5 × 10^k', () => {
    expect(niceTicks(33, 8)).toEqual([0, 5, 10, 15, 20, 25, 30]);
    expect(niceTicks(1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0, 8)).toEqual([0]);
  });
});

describe('the zoomed window moved along the step', () => {
  it('names the start, the steady state in the middle and the cool-down at the end, and never leaves the step', () => {
    // A 100 s step seen through a 10 s window: the last start is 90 s.
    expect([windowStart('start', 100, 10), windowStart('steady', 100, 10), windowStart('cooldown', 100, 10)]).toEqual([0, 45, 90]);
    expect(clampWindowStart(-5, 100, 10)).toBe(0);
    expect(clampWindowStart(95, 100, 10)).toBe(90);
    expect(clampWindowStart(Number.NaN, 100, 10)).toBe(0);
    // A window longer than the step stays at 0.
    expect(windowStart('cooldown', 5, 10)).toBe(0);
  });

  it("draws the window's start at the plot's left edge", () => {
    const g = chartGeometry(4, 10, 1000, 45);
    expect(g.x(45)).toBe(g.left);
    expect(g.x(55)).toBeCloseTo(g.left + g.plotWidth, 9);
  });
});

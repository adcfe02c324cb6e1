import { describe, it, expect } from 'vitest';
import { bubbleOverIdeal, maxInFlight, simulateSchedule, simulateScheduleSummary } from './schedule.ts';
import type { ScheduleInput } from './types.ts';
import { SCHEDULES } from '../input/index.ts';
import type { ScheduleKind } from '../input/index.ts';

/** Every stage alike: F forward, B whole backward, `fraction` of B is weight gradients. */
function uniform(kind: ScheduleKind, p: number, m: number, v: number, F: number, B: number, fraction = 0.5, p2p = 0): ScheduleInput {
  return {
    kind,
    stages: p,
    microBatches: m,
    virtualStages: v,
    forwardSeconds: Array<number>(p).fill(F),
    backwardSeconds: Array<number>(p).fill(B),
    weightGradFraction: fraction,
    p2pSeconds: p2p,
  };
}

/**
 * (makespan − ideal) / ideal. Ideal = m(F+B): every device does m·(F+B) of work, except
 * DualPipe, whose F and B cover two chunks of which each micro-batch passes one: m(F+B)/2.
 */
function bubbleOverIdealSimulated(input: ScheduleInput): number {
  const F = input.forwardSeconds[0] ?? 0;
  const B = input.backwardSeconds[0] ?? 0;
  const ideal = input.microBatches * (F + B) * (input.kind === 'dualpipe' ? 0.5 : 1);
  return (simulateSchedule(input).makespanSeconds - ideal) / ideal;
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('closed-form bubbles (p2p = 0, identical stages)', () => {
  // GPipe and 1F1B: the last backward leaves stage 0 after (m + p − 1)(F + B), so the
  // bubble is (p − 1)(F + B) and over the ideal m(F + B) it is (p − 1)/m
  // (Narayanan et al. 2021, section 2.2), for any F and B.
  it.each(['gpipe', '1f1b'] as const)('%s: (p − 1)/m', (kind) => {
    for (const p of [1, 2, 4, 8]) {
      for (const m of range(1, 32)) {
        for (const [F, B] of [
          [1, 2],
          [1, 1],
          [3, 1],
        ] as const) {
          const input = uniform(kind, p, m, 1, F, B);
          expect(bubbleOverIdealSimulated(input), `${kind} p=${p} m=${m} F=${F} B=${B}`).toBeCloseTo((p - 1) / m, 9);
          expect(simulateSchedule(input).adjustment).toBeNull();
        }
      }
    }
    expect(bubbleOverIdeal(kind, 4, 8, 1)).toBe(3 / 8);
  });

  // Interleaving: each chunk is 1/v of a stage, so the warm-up costs (p − 1)(F + B)/v and
  // the bubble over ideal is (p − 1)/(v·m) (Narayanan et al. 2021, section 2.2).
  it('interleaved-1f1b: (p − 1)/(v·m) for m a multiple of p', () => {
    for (const p of [1, 2, 4, 8]) {
      for (const m of range(1, 32).filter((x) => x % p === 0)) {
        for (const v of [2, 3, 4]) {
          for (const [F, B] of [
            [1, 1],
            [1, 2],
          ] as const) {
            const input = uniform('interleaved-1f1b', p, m, v, F, B);
            expect(bubbleOverIdealSimulated(input), `p=${p} m=${m} v=${v} F=${F} B=${B}`).toBeCloseTo((p - 1) / (v * m), 9);
            expect(simulateSchedule(input).adjustment).toBeNull();
          }
        }
      }
    }
    expect(bubbleOverIdeal('interleaved-1f1b', 4, 8, 2)).toBe(3 / 16);
  });

  // Fewer micro-batches than stages: each of the v − 1 later chunk rounds waits p − m slots too.
  it('interleaved-1f1b with m < p: [(p − 1) + (p − m)(v − 1)]/(v·m)', () => {
    for (const p of [2, 4, 8]) {
      for (const m of range(1, p - 1)) {
        for (const v of [2, 3, 10]) {
          for (const [F, B] of [
            [1, 1],
            [1, 2],
          ] as const) {
            const input = uniform('interleaved-1f1b', p, m, v, F, B);
            const expected = (p - 1 + (p - m) * (v - 1)) / (v * m);
            expect(bubbleOverIdealSimulated(input), `p=${p} m=${m} v=${v} F=${F} B=${B}`).toBeCloseTo(expected, 9);
            expect(bubbleOverIdeal('interleaved-1f1b', p, m, v)).toBeCloseTo(expected, 12);
          }
        }
      }
    }
    // Llama 3 70B's case from the search: p = 2, v = 10, m = 1 idles as much as plain 1F1B.
    expect(bubbleOverIdeal('interleaved-1f1b', 2, 1, 10)).toBe(1);
  });

  it("interleaved-1f1b with m ≥ p not a multiple of p: Megatron-Core's larger group keeps (p − 1)/(v·m), and says so", () => {
    for (const [p, m] of [
      [4, 5],
      [4, 7],
      [4, 9],
      [8, 13],
      [8, 30],
    ] as const) {
      const input = uniform('interleaved-1f1b', p, m, 2, 1, 2);
      expect(bubbleOverIdealSimulated(input)).toBeCloseTo((p - 1) / (2 * m), 9);
      expect(simulateSchedule(input).adjustment).toMatch(/microbatch_group_size_per_vp_stage/);
    }
  });

  // ZB-H1 (Qi et al. 2023, section 3.1): bubble (p − 1)(F + B − W) with B the
  // input-gradient part. With F = B = W = 1 (whole backward 2, half of it weight
  // gradients) that is p − 1 over m·3: (p − 1)/(3m), a third of 1F1B's.
  it('zero-bubble ZB-H1: (p − 1)/(3m) when F = B = W, for m ≥ p', () => {
    for (const p of [1, 2, 4, 8]) {
      for (const m of range(p, 32)) {
        const input = uniform('zero-bubble', p, m, 1, 1, 2, 0.5);
        expect(bubbleOverIdealSimulated(input), `p=${p} m=${m}`).toBeCloseTo((p - 1) / (3 * m), 9);
      }
    }
    expect(bubbleOverIdeal('zero-bubble', 4, 8, 1)).toBe(3 / 24);
  });

  it('zero-bubble ZB-H1: (p − 1)(F + B − W) with unequal parts (W ≤ F)', () => {
    // F = 2, B = 1, W = 1 (whole backward 2, fraction 0.5): bubble (p − 1)·2.
    // F = 1, B = 1.5, W = 0.5 (whole backward 2, fraction 0.25): bubble (p − 1)·2.
    for (const [F, whole, fraction] of [
      [2, 2, 0.5],
      [1, 2, 0.25],
    ] as const) {
      for (const p of [2, 4, 8]) {
        for (const m of [p, 2 * p, 3 * p + 1]) {
          const t = simulateSchedule(uniform('zero-bubble', p, m, 1, F, whole, fraction));
          expect(t.makespanSeconds - m * (F + whole), `F=${F} p=${p} m=${m}`).toBeCloseTo((p - 1) * 2, 9);
        }
      }
    }
  });

  // DualPipe (DeepSeek-V3 report, table 2): bubble (p/2 − 1)(F&B + B − 3W), times of one
  // chunk, B the whole backward. Device totals F = 2, B = 4 over its two chunks make a
  // chunk's F = 1, B = 2, W = 1 and F&B = F + B = 3: (p/2 − 1)·2 whatever m (even, ≥ 2p
  // as the reference requires), over the ideal m·3 per device.
  it("dualpipe: (p/2 − 1)(F&B + B − 3W), the report's figure", () => {
    for (const p of [2, 4, 6, 8, 16]) {
      for (let m = 2 * p; m <= 2 * p + 24; m += 2) {
        const input = uniform('dualpipe', p, m, 1, 2, 4, 0.5);
        const t = simulateSchedule(input);
        expect(t.makespanSeconds - 3 * m, `p=${p} m=${m}`).toBeCloseTo((p / 2 - 1) * (3 + 2 - 3 * 1), 9);
        expect(bubbleOverIdealSimulated(input)).toBeCloseTo(bubbleOverIdeal('dualpipe', p, m, 1), 9);
        expect(t.adjustment).toBeNull();
      }
    }
    // Figure 5's setting, 8 ranks and 20 micro-batches: 20·3 of work + 3·2 of bubble.
    expect(simulateSchedule(uniform('dualpipe', 8, 20, 1, 2, 4)).makespanSeconds).toBeCloseTo(66, 9);
  });

  it('orders the schedules as the papers do: dualpipe < zero-bubble < 1f1b at p = 8, m = 20', () => {
    // One model: a stage takes F = 1, B = 2; a DualPipe device holds two stages (F = 2, B = 4).
    const bubble = (kind: ScheduleKind): number => {
      const perDevice = kind === 'dualpipe' ? 2 : 1;
      return simulateSchedule(uniform(kind, 8, 20, 1, perDevice, 2 * perDevice)).makespanSeconds - 60;
    };
    // 1F1B 7·3 = 21, ZB-H1 7·1 = 7, DualPipe 3·2 = 6.
    expect([bubble('dualpipe'), bubble('zero-bubble'), bubble('1f1b')].map((x) => Math.round(x * 1e9) / 1e9)).toEqual([6, 7, 21]);
  });
});

describe('hand-timed timelines', () => {
  it('1f1b, p = 2, m = 2, F = 1, B = 2, p2p = 0.5', () => {
    // Stage 1: F0 1.5–2.5, B0 2.5–4.5, F1 4.5–5.5 (input there since 2.5), B1 5.5–7.5.
    // Stage 0: F0 0–1, F1 1–2, B0 needs stage 1's B0 + 0.5 → 5–7, B1 → 8–10.
    const t = simulateSchedule(uniform('1f1b', 2, 2, 1, 1, 2, 0.5, 0.5));
    const times = (stage: number): string[] =>
      t.blocks.filter((b) => b.stage === stage).map((b) => `${b.kind}${b.microBatch} ${b.startSeconds}-${b.endSeconds}`);
    expect(times(0)).toEqual(['F0 0-1', 'F1 1-2', 'B0 5-7', 'B1 8-10']);
    expect(times(1)).toEqual(['F0 1.5-2.5', 'B0 2.5-4.5', 'F1 4.5-5.5', 'B1 5.5-7.5']);
    expect(t.makespanSeconds).toBe(10);
    // busy 2 stages × 2 micro-batches × 3 = 12 of 2 × 10: bubble 0.4.
    expect(t.bubbleFraction).toBeCloseTo(0.4, 12);
  });

  it('gpipe, p = 2, m = 1: half the stage-time is idle', () => {
    // F 0–1, 1–2; B 2–4 on stage 1, 4–6 on stage 0: busy 6 of 12.
    const t = simulateSchedule(uniform('gpipe', 2, 1, 1, 1, 2));
    expect(t.makespanSeconds).toBe(6);
    expect(t.bubbleFraction).toBeCloseTo(0.5, 12);
  });

  it("dualpipe, p = 2, m = 4: device 0 runs the reference's steps 2, 4, 6, 8 without a gap", () => {
    // Direction 0 feeds micro-batches 0, 1 at device 0; direction 1 feeds 2, 3 at device 1.
    // Step 2: F0 F1; step 4 (middle rank, first pair not overlapped): F0, B1, then F1&B0;
    // step 6: B1 whole, B0 split (zero-bubble); step 8: its W.
    // Device totals F = 2, B = 4: a chunk's F = 1, B = 2, so 4 × 3 of work per device.
    const t = simulateSchedule(uniform('dualpipe', 2, 4, 1, 2, 4));
    const order = t.blocks.filter((b) => b.stage === 0).map((b) => `${b.kind}${b.chunk}.${b.microBatch}`);
    expect(order).toEqual(['F0.0', 'F1.2', 'F0.1', 'B1.2', 'F1.3', 'B0.0', 'B1.3', 'B0.1', 'W0.1']);
    expect(t.makespanSeconds).toBeCloseTo(12, 12);
  });
});

describe('activation memory: micro-batches in flight', () => {
  it('1f1b never holds more than p − s on stage s (min(p, m) on stage 0); gpipe holds all m', () => {
    for (const p of [1, 2, 4, 8]) {
      for (const m of [1, 3, 8, 17]) {
        const t = simulateSchedule(uniform('1f1b', p, m, 1, 1, 2, 0.5, 0.1));
        expect(maxInFlight(t, 0)).toBe(Math.min(p, m));
        for (let s = 0; s < p; s++) expect(maxInFlight(t, s)).toBeLessThanOrEqual(p - s);
        expect(maxInFlight(simulateSchedule(uniform('gpipe', p, m, 1, 1, 2)), 0)).toBe(m);
        // ZB-H1 keeps 1F1B's memory (Qi et al. 2023, section 3.1), held until each W.
        expect(maxInFlight(simulateSchedule(uniform('zero-bubble', p, m, 1, 1, 2)), 0)).toBe(Math.min(p, m));
      }
    }
  });

  it('interleaved stage 0 holds 2(p − 1) + (v − 1)p + 1 chunks (Megatron-Core warm-up + 1)', () => {
    expect(maxInFlight(simulateSchedule(uniform('interleaved-1f1b', 4, 8, 2, 1, 2)), 0)).toBe(6 + 4 + 1);
    expect(maxInFlight(simulateSchedule(uniform('interleaved-1f1b', 4, 8, 3, 1, 2)), 0)).toBe(6 + 8 + 1);
  });

  it('dualpipe holds p + 1 on every device (DeepSeek-V3 report, table 2: activation PP + 1)', () => {
    for (const [p, m] of [
      [2, 4],
      [4, 8],
      [4, 14],
      [8, 20],
    ] as const) {
      const t = simulateSchedule(uniform('dualpipe', p, m, 1, 1, 2));
      for (let s = 0; s < p; s++) expect(maxInFlight(t, s), `p=${p} m=${m} s=${s}`).toBe(p + 1);
    }
  });
});

describe('degenerate and invalid inputs', () => {
  it('zero times give a zero makespan and no NaN', () => {
    for (const kind of SCHEDULES) {
      for (const [p, m, v] of [
        [1, 1, 1],
        [4, 8, 2],
        [3, 5, 1],
        [2, 1, 1],
      ] as const) {
        const t = simulateSchedule(uniform(kind, p, m, v, 0, 0));
        expect(t.makespanSeconds).toBe(0);
        expect(t.bubbleFraction).toBe(0);
        expect(t.blocks.every((b) => b.startSeconds === 0 && b.endSeconds === 0)).toBe(true);
      }
    }
  });

  it('p = 1 has no bubble', () => {
    for (const kind of SCHEDULES) {
      const t = simulateSchedule(uniform(kind, 1, 5, kind === 'interleaved-1f1b' ? 2 : 1, 1, 2, 0.5, 0.3));
      expect(t.bubbleFraction, kind).toBeCloseTo(0, 12);
    }
  });

  it('nonsense numbers do not throw and give finite results', () => {
    for (const kind of SCHEDULES) {
      const t = simulateSchedule({
        kind,
        stages: Number.NaN,
        microBatches: -3,
        virtualStages: 0,
        forwardSeconds: [],
        backwardSeconds: [Number.NaN],
        weightGradFraction: Number.POSITIVE_INFINITY,
        p2pSeconds: -1,
      });
      expect(Number.isFinite(t.makespanSeconds) && Number.isFinite(t.bubbleFraction)).toBe(true);
    }
  });

  it('reports what it changed: odd p for dualpipe, small m, v on a non-interleaved schedule', () => {
    expect(simulateSchedule(uniform('dualpipe', 3, 6, 1, 1, 2)).adjustment).toMatch(/even number of stages/);
    expect(simulateSchedule(uniform('dualpipe', 4, 6, 1, 1, 2)).adjustment).toMatch(/at least 2p/);
    expect(simulateSchedule(uniform('1f1b', 4, 8, 2, 1, 2)).adjustment).toMatch(/ignores virtualStages=2/);
    expect(simulateSchedule(uniform('interleaved-1f1b', 4, 2, 2, 1, 2)).adjustment).toMatch(/at least as many micro-batches/);
  });

  it('times too large a step by the closed form instead of allocating for it', () => {
    // ZB-H1, p = 128, m = 100 000: 38.4 million blocks. F = 1, B = 2 (W = 1): the busiest
    // device works 3m, the bubble is (p − 1)·1, and each of the 2(p − 1) hops costs 0.01.
    const input = uniform('zero-bubble', 128, 100_000, 1, 1, 2, 0.5, 0.01);
    const t = simulateSchedule(input);
    expect(t.blocks).toEqual([]);
    expect(t.makespanSeconds).toBeCloseTo(300_000 + 127 + 2 * 127 * 0.01, 6);
    expect(t.adjustment).toMatch(/closed form/);
    expect(simulateScheduleSummary(input).makespanSeconds).toBe(t.makespanSeconds);
  });

  it('the summary agrees with the full timeline', () => {
    for (const kind of SCHEDULES) {
      const input = uniform(kind, 4, 12, kind === 'interleaved-1f1b' ? 3 : 1, 1.3, 2.9, 0.4, 0.2);
      const full = simulateSchedule(input);
      const summary = simulateScheduleSummary(input);
      expect(summary.makespanSeconds).toBe(full.makespanSeconds);
      expect(summary.bubbleFraction).toBe(full.bubbleFraction);
    }
  });
});

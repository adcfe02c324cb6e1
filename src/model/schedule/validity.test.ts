import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { simulateSchedule, simulateScheduleSummary } from './schedule.ts';
import { timeProgram } from './engine.ts';
import { OP_BFULL, OP_F, Program, gpipeLikeReorder, linkDependencies } from './program.ts';
import type { ScheduleInput } from './types.ts';
import { SCHEDULES } from '../input/index.ts';
import type { ScheduleBlock, ScheduleKind, Timeline } from '../input/index.ts';

const EPS = 1e-9;

/**
 * The pipeline a micro-batch walks, worked out here independently of the simulator.
 * Linear schedules: path position c·p + s is chunk c on stage s (Narayanan et al. 2021).
 * DualPipe: chunk 0 walks stages 0 → p−1, chunk 1 walks p−1 → 0; a block takes half of
 * the device's time (its two chunks).
 */
interface Path {
  /** Forwards (and backwards) each stage runs: m per chunk, DualPipe m in all (m/2 per direction). */
  readonly forwardsPerStage: number;
  previous(stage: number, chunk: number): { stage: number; chunk: number } | null;
  next(stage: number, chunk: number): { stage: number; chunk: number } | null;
  /** Which entry of forwardSeconds / backwardSeconds times this chunk, and its share. */
  timing(stage: number, chunk: number): { index: number; share: number };
}

function pathOf(input: ScheduleInput): Path {
  const p = input.stages;
  if (input.kind === 'dualpipe' && p % 2 === 0) {
    return {
      forwardsPerStage: input.microBatches,
      previous: (s, c) => (c === 0 ? (s > 0 ? { stage: s - 1, chunk: 0 } : null) : s < p - 1 ? { stage: s + 1, chunk: 1 } : null),
      next: (s, c) => (c === 0 ? (s < p - 1 ? { stage: s + 1, chunk: 0 } : null) : s > 0 ? { stage: s - 1, chunk: 1 } : null),
      timing: (s) => ({ index: s, share: 1 / 2 }),
    };
  }
  const v = input.kind === 'interleaved-1f1b' ? input.virtualStages : 1;
  // Odd-p DualPipe falls back to ZB-H1, each block still one of the device's two chunks.
  const share = input.kind === 'dualpipe' ? 1 / 2 : 1 / v;
  const at = (pos: number): { stage: number; chunk: number } | null =>
    pos >= 0 && pos < v * p ? { stage: pos % p, chunk: Math.floor(pos / p) } : null;
  return {
    forwardsPerStage: input.microBatches * v,
    previous: (s, c) => at(c * p + s - 1),
    next: (s, c) => at(c * p + s + 1),
    timing: (s) => ({ index: s, share }),
  };
}

/** Every way the timeline breaks the rules of the brief; empty when it keeps them all. */
function problems(t: Timeline, input: ScheduleInput): string[] {
  const out: string[] = [];
  const path = pathOf(input);
  const byKey = new Map<string, ScheduleBlock>();
  const key = (kind: string, stage: number, chunk: number, mb: number): string => `${kind}|${stage}|${chunk}|${mb}`;
  for (const b of t.blocks) {
    const k = key(b.kind, b.stage, b.chunk, b.microBatch);
    if (byKey.has(k)) out.push(`duplicate ${k}`);
    byKey.set(k, b);
  }
  const hop = (a: number, b: number): number => (a === b ? 0 : input.p2pSeconds);
  for (const b of t.blocks) {
    const own = (kind: string): ScheduleBlock | undefined => byKey.get(key(kind, b.stage, b.chunk, b.microBatch));
    const { index, share } = path.timing(b.stage, b.chunk);
    if (b.kind === 'F') {
      const prev = path.previous(b.stage, b.chunk);
      const dep = prev && byKey.get(key('F', prev.stage, prev.chunk, b.microBatch));
      if (prev && !dep) out.push(`F ${b.stage}/${b.chunk}/${b.microBatch} has no upstream forward`);
      if (prev && dep && b.startSeconds < dep.endSeconds + hop(prev.stage, b.stage) - EPS)
        out.push(`F ${b.stage}/${b.microBatch} starts before its input`);
      if (Math.abs(b.endSeconds - b.startSeconds - (input.forwardSeconds[index] ?? 0) * share) > EPS)
        out.push(`F ${b.stage}/${b.microBatch} has the wrong length`);
    } else if (b.kind === 'B') {
      const next = path.next(b.stage, b.chunk);
      const dep = next && byKey.get(key('B', next.stage, next.chunk, b.microBatch));
      if (next && !dep) out.push(`B ${b.stage}/${b.chunk}/${b.microBatch} has no downstream backward`);
      if (next && dep && b.startSeconds < dep.endSeconds + hop(next.stage, b.stage) - EPS)
        out.push(`B ${b.stage}/${b.microBatch} starts before its gradient`);
      const forward = own('F');
      if (!forward || b.startSeconds < forward.endSeconds - EPS) out.push(`B ${b.stage}/${b.microBatch} before its own forward`);
      const w = own('W');
      const backward = b.endSeconds - b.startSeconds + (w ? w.endSeconds - w.startSeconds : 0);
      if (Math.abs(backward - (input.backwardSeconds[index] ?? 0) * share) > EPS)
        out.push(`B+W ${b.stage}/${b.microBatch} has the wrong length`);
    } else {
      const backward = own('B');
      if (!backward || b.startSeconds < backward.endSeconds - EPS) out.push(`W ${b.stage}/${b.microBatch} before its B`);
    }
  }
  for (let s = 0; s < t.stages; s++) {
    const mine = t.blocks.filter((b) => b.stage === s);
    const count = (kind: string): number => mine.filter((b) => b.kind === kind).length;
    const expected = path.forwardsPerStage;
    if (count('F') !== expected || count('B') !== expected) out.push(`stage ${s}: ${count('F')} F, ${count('B')} B, expected ${expected}`);
    if (input.kind === 'zero-bubble' && count('W') !== expected) out.push(`stage ${s}: ${count('W')} W, expected ${expected}`);
    const sorted = [...mine].sort((a, b) => a.startSeconds - b.startSeconds);
    for (let i = 1; i < sorted.length; i++) {
      if ((sorted[i]?.startSeconds ?? 0) < (sorted[i - 1]?.endSeconds ?? 0) - EPS) out.push(`stage ${s}: blocks overlap`);
    }
  }
  const last = t.blocks.reduce((most, b) => Math.max(most, b.endSeconds), 0);
  if (Math.abs(last - t.makespanSeconds) > EPS) out.push("makespan is not the last block's end");
  return out;
}

const arbitraryInput = fc
  .record({
    kind: fc.constantFrom(...SCHEDULES),
    stages: fc.integer({ min: 1, max: 6 }),
    microBatches: fc.integer({ min: 1, max: 20 }),
    virtualStages: fc.integer({ min: 1, max: 3 }),
    times: fc.array(fc.double({ min: 0, max: 2, noNaN: true }), { minLength: 12, maxLength: 12 }),
    weightGradFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    p2pSeconds: fc.double({ min: 0, max: 0.5, noNaN: true }),
  })
  .map(({ times, ...rest }): ScheduleInput => ({
    ...rest,
    virtualStages: rest.kind === 'interleaved-1f1b' ? rest.virtualStages : 1,
    forwardSeconds: times.slice(0, rest.stages),
    backwardSeconds: times.slice(6, 6 + rest.stages),
  }));

describe('every simulated timeline keeps the rules', () => {
  it('dependencies, one block at a time per device, block counts and lengths (property)', () => {
    fc.assert(
      fc.property(arbitraryInput, (input) => {
        expect(problems(simulateSchedule(input), input)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('runs the requested order without adjustment wherever the schedule is defined', () => {
    const cases: [ScheduleKind, number, number, number][] = [
      ['gpipe', 4, 7, 1],
      ['1f1b', 5, 3, 1],
      ['zero-bubble', 4, 9, 1],
      ['interleaved-1f1b', 4, 12, 3],
      ['dualpipe', 6, 14, 1],
    ];
    for (const [kind, p, m, v] of cases) {
      const input: ScheduleInput = {
        kind,
        stages: p,
        microBatches: m,
        virtualStages: v,
        forwardSeconds: Array.from({ length: p }, (_, s) => 1 + 0.3 * s),
        backwardSeconds: Array.from({ length: p }, (_, s) => 2.5 - 0.2 * s),
        weightGradFraction: 0.45,
        p2pSeconds: 0.15,
      };
      const t = simulateSchedule(input);
      expect(t.adjustment, kind).toBeNull();
      expect(problems(t, input), kind).toEqual([]);
    }
  });

  it('zero-bubble is never slower than 1f1b with identical stages (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 24 }),
        fc.double({ min: 0, max: 3, noNaN: true }),
        fc.double({ min: 0, max: 5, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (p, m, F, B, fraction, p2p) => {
          const input = (kind: ScheduleKind): ScheduleInput => ({
            kind,
            stages: p,
            microBatches: m,
            virtualStages: 1,
            forwardSeconds: Array<number>(p).fill(F),
            backwardSeconds: Array<number>(p).fill(B),
            weightGradFraction: fraction,
            p2pSeconds: p2p,
          });
          const zeroBubble = simulateScheduleSummary(input('zero-bubble')).makespanSeconds;
          expect(zeroBubble).toBeLessThanOrEqual(simulateScheduleSummary(input('1f1b')).makespanSeconds + EPS);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('an order that cannot run', () => {
  it('is detected, and the GPipe-like fallback order runs it', () => {
    // p = 2, m = 1. Stage 0 lists its backward before its own forward: it waits for itself.
    const times = {
      chunks: 1,
      forwardSeconds: new Float64Array([1, 1]),
      backwardSeconds: new Float64Array([2, 2]),
      weightGradFraction: 0.5,
    };
    const prog = new Program(4, 2, times);
    prog.startDevice(0);
    prog.push(OP_BFULL, 0, 0, 0, 0);
    prog.push(OP_F, 0, 0, 0, 0);
    prog.startDevice(1);
    prog.push(OP_F, 0, 1, 0, 0);
    prog.push(OP_BFULL, 0, 1, 0, 0);
    prog.finish();
    const topo = { directions: 1, positions: 2, microBatchesPerDirection: 1, microBatchOffset: [0] };
    expect(timeProgram(prog, linkDependencies(prog, topo), 0)).toBeNull();
    const safe = gpipeLikeReorder(prog, topo);
    const timed = timeProgram(safe, linkDependencies(safe, topo), 0);
    // F 0–1 on stage 0, F 1–2 and B 2–4 on stage 1, B 4–6 on stage 0.
    expect(timed && Array.from(timed.endSeconds)).toEqual([1, 6, 2, 4]);
  });
});

describe('speed', () => {
  it('p = 64, m = 512 runs for every schedule (milliseconds logged, not asserted)', () => {
    for (const kind of SCHEDULES) {
      const p = 64;
      const m = 512;
      const input: ScheduleInput = {
        kind,
        stages: p,
        microBatches: m,
        virtualStages: kind === 'interleaved-1f1b' ? 2 : 1,
        forwardSeconds: Array<number>(p).fill(1),
        backwardSeconds: Array<number>(p).fill(2),
        weightGradFraction: 0.5,
        p2pSeconds: 0.01,
      };
      const started = performance.now();
      const t = simulateSchedule(input);
      const ms = performance.now() - started;
      console.log(`schedule ${kind} p=${p} m=${m}: ${t.blocks.length} blocks in ${ms.toFixed(0)} ms`);
      expect(Number.isFinite(t.makespanSeconds)).toBe(true);
    }
  });
});

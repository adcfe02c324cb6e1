import { describe, expect, it } from 'vitest';
import { OP_B, OP_BFULL, OP_F, OP_W, type ChunkTimes, type Program } from './program.ts';
import { oneFOneBProgram, zeroBubbleH1Program } from './orders.ts';

// Regression (issue "Hardening", extreme inputs): with p ≫ m the 1F1B and ZB-H1 orders
// used to walk every empty step, p − 1 − s of them per stage, so 10^5 stages with one
// micro-batch took 5·10^9 loop turns. The orders must be the same block for block as
// the step-by-step definitions, and cost time in proportion to their blocks.

function times(p: number): ChunkTimes {
  return { chunks: 1, forwardSeconds: new Float64Array(p).fill(1), backwardSeconds: new Float64Array(p).fill(2), weightGradFraction: 0.5 };
}

function blocks(prog: Program): string[] {
  const out: string[] = [];
  for (let d = 0; d < prog.devices; d++) {
    for (let i = prog.deviceStart(d); i < (prog.deviceEnd[d] ?? 0); i++) out.push(`${d}:${prog.kind[i]}:${prog.microBatch[i]}`);
  }
  return out;
}

/** 1F1B by its definition (Narayanan et al. 2021, section 2.2): step x runs F_x and B_(x−(p−1−s)) where they exist. */
function oneFOneBReference(p: number, m: number): string[] {
  const out: string[] = [];
  for (let s = 0; s < p; s++) {
    for (let x = 0; x < m + p - 1 - s; x++) {
      if (x < m) out.push(`${s}:${OP_F}:${x}`);
      const b = x - (p - 1 - s);
      if (b >= 0) out.push(`${s}:${OP_BFULL}:${b}`);
    }
  }
  return out;
}

/** ZB-H1 by its definition (Qi et al. 2023, section 3.1): step x runs F_x, B_(x−(p−1−s)), W_(x−(p−1)). */
function zeroBubbleReference(p: number, m: number): string[] {
  const out: string[] = [];
  for (let s = 0; s < p; s++) {
    for (let x = 0; x < m + p - 1; x++) {
      if (x < m) out.push(`${s}:${OP_F}:${x}`);
      const b = x - (p - 1 - s);
      if (b >= 0 && b < m) out.push(`${s}:${OP_B}:${b}`);
      const w = x - (p - 1);
      if (w >= 0) out.push(`${s}:${OP_W}:${w}`);
    }
  }
  return out;
}

describe('1F1B and ZB-H1 block orders', () => {
  it('equal the step-by-step definitions for every p, m up to 9', () => {
    for (let p = 1; p <= 9; p++) {
      for (let m = 1; m <= 9; m++) {
        const shape = { stages: p, microBatches: m, virtualStages: 1 };
        expect(blocks(oneFOneBProgram(shape, times(p))), `1F1B p=${p} m=${m}`).toEqual(oneFOneBReference(p, m));
        expect(blocks(zeroBubbleH1Program(shape, times(p))), `ZB-H1 p=${p} m=${m}`).toEqual(zeroBubbleReference(p, m));
      }
    }
  });

  it('build 10^5 stages with one micro-batch in linear time (2·10^5 and 3·10^5 blocks)', () => {
    const p = 100_000;
    const shape = { stages: p, microBatches: 1, virtualStages: 1 };
    const start = performance.now();
    expect(oneFOneBProgram(shape, times(p)).length).toBe(2 * p);
    expect(zeroBubbleH1Program(shape, times(p)).length).toBe(3 * p);
    // The quadratic walk took minutes here; the linear one takes milliseconds, so even a loaded machine stays far below this.
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});

// Block orders of the single-direction schedules. Device s holds path positions
// c·p + s for chunks c = 0 … v−1 (Narayanan et al. 2021, section 2.2: chunk c of every
// device before chunk c+1 of any).

import { OP_B, OP_BFULL, OP_F, OP_W, Program } from './program.ts';
import type { ChunkTimes } from './program.ts';

export interface LinearShape {
  readonly stages: number;
  readonly microBatches: number;
  readonly virtualStages: number;
}

/** A program of `blocks` blocks on `p` stages, each stage's blocks pushed in order by `stage`. */
function stagedProgram(blocks: number, p: number, times: ChunkTimes, stage: (prog: Program, s: number) => void): Program {
  const prog = new Program(blocks, p, times);
  for (let s = 0; s < p; s++) {
    prog.startDevice(s);
    stage(prog, s);
  }
  prog.finish();
  return prog;
}

/**
 * The first step from `x` on at which a stage has a block to run: forwards run at
 * steps 0 … m−1, and the later kinds at [lag, lag + m) for each lag. With p ≫ m the
 * steps in between are empty; skipping them keeps building the order linear in its
 * blocks rather than quadratic in p (10^5 stages, one micro-batch: 5·10^9 empty steps).
 */
function nextBusyStep(x: number, m: number, firstLag: number, secondLag: number): number {
  if (x < m) return x;
  let next = Infinity;
  for (const lag of [firstLag, secondLag]) if (x < lag + m) next = Math.min(next, Math.max(x, lag));
  return next;
}

/**
 * GPipe (Huang et al. 2019, figure 2c): every forward, then every backward; backwards in micro-batch order as
 * torch.distributed.pipelining's ScheduleGPipe runs them.
 */
export function gpipeProgram(shape: LinearShape, times: ChunkTimes): Program {
  const { stages: p, microBatches: m } = shape;
  return stagedProgram(2 * p * m, p, times, (prog, s) => {
    for (let j = 0; j < m; j++) prog.push(OP_F, 0, s, j, 0);
    for (let j = 0; j < m; j++) prog.push(OP_BFULL, 0, s, j, 0);
  });
}

/**
 * 1F1B / PipeDream-Flush (Narayanan et al. 2021, section 2.2; Megatron-Core
 * forward_backward_pipelining_without_interleaving). Step x pairs F_x with
 * B_(x−(p−1−s)), so stage s runs min(p−1−s, m) warm-up forwards, then 1F1B, then
 * cool-down backwards; blocks whose micro-batch is outside 0 … m−1 are skipped.
 */
export function oneFOneBProgram(shape: LinearShape, times: ChunkTimes): Program {
  const { stages: p, microBatches: m } = shape;
  return stagedProgram(2 * p * m, p, times, (prog, s) => {
    const warmup = p - 1 - s;
    for (let x = 0; x < m + warmup; x = nextBusyStep(x + 1, m, warmup, warmup)) {
      if (x < m) prog.push(OP_F, 0, s, x, 0);
      const b = x - warmup;
      if (b >= 0) prog.push(OP_BFULL, 0, s, b, 0);
    }
  });
}

/**
 * ZB-H1 (Qi et al. 2023, arXiv 2401.10241, section 3.1, figure 3 top): step x on stage s
 * runs F_x, B_(x−(p−1−s)), W_(x−(p−1)). Same warm-up forwards as 1F1B, so at most p
 * micro-batches hold activations on stage 0 (held until their W), while each W waits
 * p−1−s steps behind its B and fills what would be 1F1B's cool-down bubble.
 */
export function zeroBubbleH1Program(shape: LinearShape, times: ChunkTimes): Program {
  const { stages: p, microBatches: m } = shape;
  return stagedProgram(3 * p * m, p, times, (prog, s) => {
    const bLag = p - 1 - s;
    const wLag = p - 1;
    for (let x = 0; x < m + wLag; x = nextBusyStep(x + 1, m, bLag, wLag)) {
      if (x < m) prog.push(OP_F, 0, s, x, 0);
      const b = x - bLag;
      if (b >= 0 && b < m) prog.push(OP_B, 0, s, b, 0);
      const w = x - wLag;
      if (w >= 0) prog.push(OP_W, 0, s, w, 0);
    }
  });
}

/**
 * Megatron-Core's forward order for interleaving (schedules.py get_schedule_table):
 * micro-batches in groups of `groupSize` (the last group may be smaller), and within a group
 * every micro-batch through chunk 0, then chunk 1, …  The k-th forward's micro-batch
 * and chunk sit at 2k and 2k+1.
 */
function interleavedTable(groupSize: number, m: number, v: number): Int32Array {
  const table = new Int32Array(2 * m * v);
  let k = 0;
  for (let first = 0; first < m; first += groupSize) {
    const size = Math.min(groupSize, m - first);
    for (let c = 0; c < v; c++) {
      for (let j = 0; j < size; j++) {
        table[k++] = first + j;
        table[k++] = c;
      }
    }
  }
  return table;
}

/**
 * Interleaved 1F1B (Narayanan et al. 2021, section 2.2; Megatron-Core
 * forward_backward_pipelining_with_interleaving and get_pp_rank_microbatches). Stage s
 * runs 2(p−1−s) + (v−1)·groupSize warm-up forwards (at most all of them), then one
 * forward and one backward, backwards taking the same order with the chunks reversed.
 */
export function interleavedProgram(shape: LinearShape, times: ChunkTimes, groupSize: number): Program {
  const { stages: p, microBatches: m, virtualStages: v } = shape;
  const total = m * v;
  const table = interleavedTable(groupSize, m, v);
  return stagedProgram(2 * p * total, p, times, (prog, s) => {
    const pushForward = (k: number): void => {
      const j = table[2 * k] ?? 0;
      const c = table[2 * k + 1] ?? 0;
      prog.push(OP_F, 0, c * p + s, j, c);
    };
    const pushBackward = (k: number): void => {
      const j = table[2 * k] ?? 0;
      const c = v - 1 - (table[2 * k + 1] ?? 0);
      prog.push(OP_BFULL, 0, c * p + s, j, c);
    };
    const warmup = Math.min(total, 2 * (p - 1 - s) + (v - 1) * groupSize);
    for (let k = 0; k < warmup; k++) pushForward(k);
    for (let k = 0; k < total - warmup; k++) {
      pushForward(k + warmup);
      pushBackward(k);
    }
    for (let k = Math.max(0, total - warmup); k < total; k++) pushBackward(k);
  });
}

/**
 * Micro-batches per interleaving group. Megatron-Core accepts a group size N
 * (microbatch_group_size_per_vp_stage, default p) in [p, m] whose remainder m mod N is
 * 0 or at least p; this is the smallest such N. With m < p, where Megatron refuses, one
 * group of all m micro-batches.
 */
export function interleavedGroupSize(p: number, m: number): number {
  if (m <= p) return m;
  for (let n = p; n < m; n++) {
    const remainder = m % n;
    if (remainder === 0 || remainder >= p) return n;
  }
  return m;
}

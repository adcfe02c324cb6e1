// DualPipe (DeepSeek-V3 technical report, arXiv 2412.19437, section 3.2.1, figure 5),
// following the block order of the reference implementation
// (github.com/deepseek-ai/DualPipe, dualpipe/dualpipe.py, DualPipe.step, steps 1–8).
// Micro-batches enter from both ends: direction 0 runs device 0 → p−1 on chunk 0,
// direction 1 runs device p−1 → 0 on chunk 1. Device r holds model stage r of
// direction 0 and stage p−1−r of direction 1, so twice the layers of a 1F1B device.
//
// An overlapped "F&B" pair (the reference's _forward_backward_chunk) is a forward
// block then a backward block that start together: the forward also waits for the
// backward's input, since the reference receives both before computing. Its length is
// F plus the whole backward (the report's F&B with no compute overlap). So timed, the
// order gives exactly the report's bubble (PP/2−1)(F&B+B−3W) (table 2) when F = B−W = W.
// Approximation, towards a shorter step: sends are asynchronous (the reference batches
// them with the next receive and waits for both).

import { OP_B, OP_BFULL, OP_F, OP_W, Program } from './program.ts';
import type { ChunkTimes } from './program.ts';

export interface DualPipeShape {
  readonly stages: number;
  /** Micro-batches fed in direction 0 and direction 1. */
  readonly perDirection: readonly [number, number];
}

/** Emits one device's blocks; `phase` is the reference's phase (0 = this half's own direction). */
class DeviceProgram {
  private readonly forwardCount = [0, 0];
  private readonly backwardCount = [0, 0];
  private readonly pendingW: Int32Array;
  private head = 0;
  private tail = 0;
  private readonly prog: Program;
  private readonly shape: DualPipeShape;
  private readonly device: number;

  /** `capacity`: the most zero-bubble backwards this device can queue. */
  constructor(prog: Program, shape: DualPipeShape, device: number, capacity: number) {
    this.prog = prog;
    this.shape = shape;
    this.device = device;
    this.pendingW = new Int32Array(2 * capacity);
  }

  private direction(phase: number): number {
    return this.device >= this.shape.stages / 2 ? 1 - phase : phase;
  }

  private position(dir: number): number {
    return dir === 0 ? this.device : this.shape.stages - 1 - this.device;
  }

  private valid(dir: number, j: number): boolean {
    return j < (this.shape.perDirection[dir] ?? 0);
  }

  /** Returns whether a block was emitted (micro-batches beyond the count are dropped). */
  forward(phase: number): boolean {
    const dir = this.direction(phase);
    const j = this.forwardCount[dir] ?? 0;
    this.forwardCount[dir] = j + 1;
    if (!this.valid(dir, j)) return false;
    this.prog.push(OP_F, dir, this.position(dir), j, dir);
    return true;
  }

  /** The reference's _forward_backward_chunk: a forward and a whole backward that start together. */
  forwardBackward(forwardPhase: number, backwardPhase: number): void {
    const forwardAt = this.prog.length;
    const forwarded = this.forward(forwardPhase);
    const backwarded = this.backward(backwardPhase, false);
    if (forwarded && backwarded) this.prog.fusedWithNext[forwardAt] = 1;
  }

  /** With `zeroBubble`, only the input-gradient part runs now and W joins a first-in-first-out queue. */
  backward(phase: number, zeroBubble: boolean): boolean {
    const dir = this.direction(phase);
    const j = this.backwardCount[dir] ?? 0;
    this.backwardCount[dir] = j + 1;
    if (zeroBubble) {
      this.pendingW[this.tail++] = dir;
      this.pendingW[this.tail++] = j;
    }
    if (!this.valid(dir, j)) return false;
    this.prog.push(zeroBubble ? OP_B : OP_BFULL, dir, this.position(dir), j, dir);
    return true;
  }

  weight(): void {
    if (this.head >= this.tail) return;
    const dir = this.pendingW[this.head++] ?? 0;
    const j = this.pendingW[this.head++] ?? 0;
    if (this.valid(dir, j)) this.prog.push(OP_W, dir, this.position(dir), j, dir);
  }
}

/**
 * DualPipe.step's eight steps for device r with half-rank h = min(r, p−1−r), on
 * `half` micro-batches per direction. The reference needs half ≥ p; smaller or uneven
 * counts are handled by building the order for enough micro-batches and dropping the
 * blocks of those that do not exist (removing whole micro-batches from a valid order
 * keeps it valid).
 */
function emitDevice(dev: DeviceProgram, p: number, h: number, half: number): void {
  const halfRanks = p / 2;
  const outer = halfRanks - h - 1;
  for (let i = 0; i < 2 * outer; i++) dev.forward(0); // step 1: nF0
  for (let i = 0; i < h + 1; i++) {
    dev.forward(0);
    dev.forward(1);
  } // step 2: nF0F1
  for (let i = 0; i < outer; i++) {
    dev.backward(1, true);
    dev.weight();
    dev.forward(1);
  } // step 3: nB1W1F1
  for (let i = 0; i < half - p + h + 1; i++) {
    // step 4: nF0B1F1B0
    if (i === 0 && h === halfRanks - 1) {
      // The reference's middle ranks do not overlap this first pair, "to further reduce bubble size".
      dev.forward(0);
      dev.backward(1, false);
    } else {
      dev.forwardBackward(0, 1);
    }
    dev.forwardBackward(1, 0);
  }
  for (let i = 0; i < outer; i++) {
    dev.backward(1, false);
    dev.forwardBackward(1, 0);
  } // step 5: nB1F1B0
  let zeroBubble = false; // step 6: nB1B0, the second half with zero-bubble splitting
  for (let i = 0; i < h + 1; i++) {
    if (i === Math.floor((h + 1) / 2) && h % 2 === 1) zeroBubble = true;
    dev.backward(1, zeroBubble);
    if (i === Math.floor((h + 1) / 2) && h % 2 === 0) zeroBubble = true;
    dev.backward(0, zeroBubble);
  }
  for (let i = 0; i < outer; i++) {
    dev.weight();
    dev.backward(0, true);
  } // step 7: nWB0
  for (let i = 0; i < h + 1; i++) dev.weight(); // step 8: nW
}

/** Needs an even p ≥ 2 (the caller falls back otherwise). */
export function dualPipeProgram(shape: DualPipeShape, times: ChunkTimes): Program {
  const p = shape.stages;
  const [m0, m1] = shape.perDirection;
  const half = Math.max(m0, m1, p);
  const prog = new Program(3 * p * (m0 + m1), p, times);
  for (let r = 0; r < p; r++) {
    prog.startDevice(r);
    const h = Math.min(r, p - 1 - r);
    emitDevice(new DeviceProgram(prog, shape, r, 2 * half), p, h, half);
  }
  prog.finish();
  return prog;
}

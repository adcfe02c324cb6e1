// A pipeline schedule as data: for every device, the ordered list of blocks it runs.
// Kept in flat typed arrays (one slot per block) so that 10^6 blocks cost a few
// allocations, not 10^6 objects.

/** Forward of one micro-batch through one chunk. */
export const OP_F = 0;
/** Input-gradient half of backward (zero-bubble's B, Qi et al. 2023 section 2). */
export const OP_B = 1;
/** Weight-gradient half of backward (zero-bubble's W). */
export const OP_W = 2;
/** Whole backward (input and weight gradients) as one block. */
export const OP_BFULL = 3;
export type OpKind = typeof OP_F | typeof OP_B | typeof OP_W | typeof OP_BFULL;

/**
 * How micro-batches travel. A micro-batch of direction `dir` visits path positions
 * 0 … positions−1 going forward and the reverse going backward. Linear schedules have
 * one direction and positions = v·p; DualPipe has two directions of p positions each.
 */
export interface Topology {
  readonly directions: number;
  readonly positions: number;
  /** Largest micro-batch count of any direction (index range for lookups). */
  readonly microBatchesPerDirection: number;
  /** Added to a block's micro-batch index of each direction for output, so that indices are unique per step. */
  readonly microBatchOffset: readonly number[];
}

/** Per device and chunk (index device·chunks + chunk): seconds of forward and of whole backward. */
export interface ChunkTimes {
  readonly chunks: number;
  readonly forwardSeconds: Float64Array;
  readonly backwardSeconds: Float64Array;
  /** Share of backward that is weight-gradient work, in [0, 1]. */
  readonly weightGradFraction: number;
}

export class Program {
  readonly devices: number;
  readonly kind: Uint8Array;
  readonly dir: Uint8Array;
  readonly pos: Int32Array;
  readonly microBatch: Int32Array;
  readonly chunk: Int32Array;
  readonly device: Int32Array;
  readonly duration: Float64Array;
  /** 1 when this forward and the next block (a backward) run as one overlapped F&B unit that starts only when both have their inputs (DualPipe). */
  readonly fusedWithNext: Uint8Array;
  /** deviceEnd[d]: one past the last block of device d; device d's blocks are [deviceEnd[d−1], deviceEnd[d]). */
  readonly deviceEnd: Int32Array;
  length = 0;
  private currentDevice = 0;
  private readonly times: ChunkTimes;

  constructor(capacity: number, devices: number, times: ChunkTimes) {
    this.devices = devices;
    this.kind = new Uint8Array(capacity);
    this.dir = new Uint8Array(capacity);
    this.pos = new Int32Array(capacity);
    this.microBatch = new Int32Array(capacity);
    this.chunk = new Int32Array(capacity);
    this.device = new Int32Array(capacity);
    this.duration = new Float64Array(capacity);
    this.fusedWithNext = new Uint8Array(capacity);
    this.deviceEnd = new Int32Array(devices);
    this.times = times;
  }

  /** Starts the block list of device `d`; devices must be started in order 0, 1, 2, … */
  startDevice(d: number): void {
    for (let k = this.currentDevice; k < d; k++) this.deviceEnd[k] = this.length;
    this.currentDevice = d;
  }

  push(kind: OpKind, dir: number, pos: number, microBatch: number, chunk: number): void {
    const i = this.length;
    const d = this.currentDevice;
    const t = d * this.times.chunks + chunk;
    const backward = this.times.backwardSeconds[t] ?? 0;
    const f = this.times.weightGradFraction;
    this.kind[i] = kind;
    this.dir[i] = dir;
    this.pos[i] = pos;
    this.microBatch[i] = microBatch;
    this.chunk[i] = chunk;
    this.device[i] = d;
    this.duration[i] =
      kind === OP_F
        ? (this.times.forwardSeconds[t] ?? 0)
        : kind === OP_BFULL
          ? backward
          : kind === OP_B
            ? backward * (1 - f)
            : backward * f;
    this.length = i + 1;
    this.deviceEnd[d] = this.length;
  }

  /** Closes the last device: every device after the current one gets an empty list. */
  finish(): void {
    for (let k = this.currentDevice; k < this.devices; k++) this.deviceEnd[k] = this.length;
  }

  deviceStart(d: number): number {
    return d === 0 ? 0 : (this.deviceEnd[d - 1] ?? 0);
  }
}

/** Each block's predecessors (−1 = none): `cross` is the block on the previous path position, `local` the same device's earlier half of this micro-batch. */
export interface Dependencies {
  readonly cross: Int32Array;
  /** 1 when `cross` ran on another device, so its output pays the point-to-point time. */
  readonly crossIsRemote: Uint8Array;
  readonly local: Int32Array;
  /** successorDevice[i]: the other device whose block has i as `cross`, or −1. */
  readonly successorDevice: Int32Array;
}

const SLOT_F = 0;
const SLOT_B = 1;
const SLOT_W = 2;

function slotOf(kind: number): number {
  return kind === OP_F ? SLOT_F : kind === OP_W ? SLOT_W : SLOT_B;
}

/**
 * Forward of micro-batch j at path position k needs its forward at k−1; backward at k
 * needs backward at k+1 and this position's own forward; W needs its own B.
 */
export function linkDependencies(prog: Program, topo: Topology): Dependencies {
  const n = prog.length;
  const P = topo.positions;
  const M = topo.microBatchesPerDirection;
  // Block index by (slot, direction, position, micro-batch), flattened.
  const slotStride = topo.directions * P * M;
  const table = new Int32Array(3 * slotStride).fill(-1);
  const { kind, dir, pos, microBatch, device } = prog;
  for (let i = 0; i < n; i++) {
    const base = ((dir[i] ?? 0) * P + (pos[i] ?? 0)) * M + (microBatch[i] ?? 0);
    table[slotOf(kind[i] ?? 0) * slotStride + base] = i;
  }
  const cross = new Int32Array(n).fill(-1);
  const crossIsRemote = new Uint8Array(n);
  const local = new Int32Array(n).fill(-1);
  const successorDevice = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const k = kind[i] ?? 0;
    const position = pos[i] ?? 0;
    const base = ((dir[i] ?? 0) * P + position) * M + (microBatch[i] ?? 0);
    let c = -1;
    if (k === OP_F) {
      if (position > 0) c = table[base - M] ?? -1;
    } else if (k === OP_W) {
      local[i] = table[SLOT_B * slotStride + base] ?? -1;
    } else {
      if (position < P - 1) c = table[SLOT_B * slotStride + base + M] ?? -1;
      local[i] = table[base] ?? -1;
    }
    if (c < 0) continue;
    cross[i] = c;
    if (device[c] !== device[i]) {
      crossIsRemote[i] = 1;
      successorDevice[c] = device[i] ?? -1;
    }
  }
  return { cross, crossIsRemote, local, successorDevice };
}

/**
 * A block order that can never deadlock: every device runs all its forwards, then all
 * backward blocks, then all W, each micro-batch-major (GPipe-like). Each device's list
 * is then a sub-sequence of one global order that honours every dependency.
 */
export function gpipeLikeReorder(prog: Program, topo: Topology): Program {
  const out = new Program(prog.length, prog.devices, {
    chunks: 1,
    forwardSeconds: new Float64Array(0),
    backwardSeconds: new Float64Array(0),
    weightGradFraction: 0,
  });
  const rank = (i: number): number => {
    const kind = prog.kind[i] ?? 0;
    const slot = slotOf(kind);
    const pos = prog.pos[i] ?? 0;
    const along = slot === SLOT_F ? pos : topo.positions - 1 - pos;
    const mbKey = ((prog.dir[i] ?? 0) * topo.microBatchesPerDirection + (prog.microBatch[i] ?? 0)) * topo.positions + along;
    return slot * topo.directions * topo.microBatchesPerDirection * topo.positions + mbKey;
  };
  for (let d = 0; d < prog.devices; d++) {
    out.startDevice(d);
    const ids: number[] = [];
    for (let i = prog.deviceStart(d); i < (prog.deviceEnd[d] ?? 0); i++) ids.push(i);
    ids.sort((a, b) => rank(a) - rank(b));
    for (const i of ids) copyBlock(prog, i, out);
  }
  out.finish();
  return out;
}

function copyBlock(from: Program, i: number, to: Program): void {
  const j = to.length;
  to.push((from.kind[i] ?? 0) as OpKind, from.dir[i] ?? 0, from.pos[i] ?? 0, from.microBatch[i] ?? 0, from.chunk[i] ?? 0);
  to.duration[j] = from.duration[i] ?? 0;
}

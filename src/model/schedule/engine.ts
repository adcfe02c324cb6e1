// Runs a static block order: each device takes its blocks strictly in list order, one
// at a time, and a block starts when its device is free and its inputs have arrived
// (the predecessor's end, plus the point-to-point time when it ran on another device).
// Work-list driven, O(blocks): a device is revisited only when a block it may be
// waiting on has just been timed.

import type { Dependencies, Program } from './program.ts';

export interface BlockTimes {
  readonly startSeconds: Float64Array;
  readonly endSeconds: Float64Array;
}

/** Start and end of every block, or null when the order deadlocks (some device waits on a block that can never run). */
export function timeProgram(prog: Program, deps: Dependencies, p2pSeconds: number): BlockTimes | null {
  const n = prog.length;
  const devices = prog.devices;
  const startSeconds = new Float64Array(n);
  // −1 marks a block not timed yet (every time is ≥ 0).
  const endSeconds = new Float64Array(n).fill(-1);
  const next = new Int32Array(devices);
  const freeAt = new Float64Array(devices);
  const queued = new Uint8Array(devices);
  const stack = new Int32Array(devices);
  let top = 0;
  for (let d = devices - 1; d >= 0; d--) {
    next[d] = prog.deviceStart(d);
    queued[d] = 1;
    stack[top++] = d;
  }
  const { cross, crossIsRemote, local, successorDevice } = deps;
  const { duration, deviceEnd, fusedWithNext } = prog;
  let timed = 0;
  while (top > 0) {
    const d = stack[--top] ?? 0;
    queued[d] = 0;
    let k = next[d] ?? 0;
    const last = deviceEnd[d] ?? 0;
    let free = freeAt[d] ?? 0;
    while (k < last) {
      let t = free;
      const c = cross[k] ?? -1;
      if (c >= 0) {
        const end = endSeconds[c] ?? -1;
        if (end < 0) break;
        const arrival = crossIsRemote[k] === 1 ? end + p2pSeconds : end;
        if (arrival > t) t = arrival;
      }
      const l = local[k] ?? -1;
      if (l >= 0) {
        const ready = endSeconds[l] ?? -1;
        if (ready < 0) break;
        if (ready > t) t = ready;
      }
      if (fusedWithNext[k] === 1 && k + 1 < last) {
        // An overlapped F&B unit also waits for the backward's input.
        const c2 = cross[k + 1] ?? -1;
        if (c2 >= 0) {
          const end = endSeconds[c2] ?? -1;
          if (end < 0) break;
          const arrival = crossIsRemote[k + 1] === 1 ? end + p2pSeconds : end;
          if (arrival > t) t = arrival;
        }
      }
      startSeconds[k] = t;
      free = t + (duration[k] ?? 0);
      endSeconds[k] = free;
      timed++;
      const waiting = successorDevice[k] ?? -1;
      if (waiting >= 0 && queued[waiting] === 0) {
        queued[waiting] = 1;
        stack[top++] = waiting;
      }
      k++;
    }
    next[d] = k;
    freeAt[d] = free;
  }
  return timed === n ? { startSeconds, endSeconds } : null;
}

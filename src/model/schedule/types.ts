// What a pipeline schedule is asked (ScheduleInput, its ScheduleShape and times) and what its summary says
// (ScheduleSummary): shared by the simulation (schedule.ts) and the closed forms
// (closed-form.ts), which each import them from here.

import type { ScheduleKind } from '../input/index.ts';

/** A schedule's layout, without times: what sets its blocks and their order (blockCount counts them from these four). */
export interface ScheduleShape {
  readonly kind: ScheduleKind;
  /** p: pipeline stages (devices). */
  readonly stages: number;
  /** m: micro-batches per step per pipeline (DualPipe: both directions together). */
  readonly microBatches: number;
  /** v: chunks per device; used by interleaved-1f1b only. */
  readonly virtualStages: number;
}

/** A schedule to time: its shape and each stage's work. */
export interface ScheduleInput extends ScheduleShape {
  /**
   * Per stage: one micro-batch through all of that device's layers, all its chunks.
   * A block of one chunk takes 1/v of it (interleaved) or 1/2 (DualPipe, whose device
   * holds model stages r and p−1−r; per-device totals cannot tell the two apart, and
   * DualPipe's layout makes device r's total equal device p−1−r's anyway).
   */
  readonly forwardSeconds: readonly number[];
  /** Per stage: whole backward of one micro-batch (input gradients + weight gradients), over all chunks as forwardSeconds. */
  readonly backwardSeconds: readonly number[];
  /** Share of backward that is weight-gradient work (zero-bubble's W; about 0.5 for matmul-dominated layers). */
  readonly weightGradFraction: number;
  /** Time for an activation or gradient to cross one stage boundary. */
  readonly p2pSeconds: number;
}

export interface ScheduleSummary {
  readonly makespanSeconds: number;
  readonly busySeconds: number;
  readonly bubbleFraction: number;
  readonly adjustment: string | null;
}

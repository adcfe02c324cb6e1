// schedule/: "where are the bubbles?". The pipeline-schedule simulator (GPipe, 1F1B,
// interleaved, zero-bubble, DualPipe: orders.ts, dualpipe.ts, program.ts, engine.ts), its
// front door (schedule.ts) and the closed forms it falls back on (closed-form.ts).
// This file is the wing's one public entry: code outside the wing imports from here.

export { blockCount, DUALPIPE_CHUNK_SHARE, MAX_SIMULATED_BLOCKS, pipelineBoundarySeconds, pipelineTimeFactor } from './closed-form.ts';
export { simulateSchedule, simulateScheduleSummary } from './schedule.ts';
export type { ScheduleInput } from './types.ts';

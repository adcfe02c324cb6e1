// time/: "how fast will it go?". Matrix-multiply and attention time on a GPU
// (compute.ts), communication per parallelism (comm.ts, alpha-beta), the optimizer step
// (optimizer.ts) and the step time that the pipeline schedule lays out (step.ts).
// This file is the wing's one public entry: code outside the wing imports from here.

export * from './comm.ts';
export * from './compute.ts';
export * from './optimizer.ts';
export * from './step.ts';
export * from './stack-time.ts';
export * from './moe-time.ts';
export * from './adapter-time.ts';

// time/: "how fast will it go?". Matrix-multiply and attention time on a GPU
// (compute.ts), communication per parallelism (comm.ts, alpha-beta), the optimizer step
// (optimizer.ts) and the step time that the pipeline schedule lays out (step.ts).
// This file is the wing's one public entry: code outside the wing imports from here.

export { dataParallelSyncParts, groupLink, type Link, parallelGroups, stageComm } from './comm.ts';
export { peakFlopsPerSecond } from './compute.ts';
export { optimizerStepSeconds } from './optimizer.ts';
export { exposedDataParallelSeconds, stageTimes, stageWorkTimes, stepTime } from './step.ts';
export { expertParallelExposedFraction } from './moe-time.ts';
export { moeEagerOpsForward, moeLayerHostSeconds } from './moe-host.ts';
export { adapterHostSeconds, adapterHostSecondsPerStep, adapterStepFlops, EAGER_OP_HOST_SECONDS } from './adapter-time.ts';

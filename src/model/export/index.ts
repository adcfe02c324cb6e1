// export/: "how do I launch it?". Launch files for Megatron-LM, DeepSpeed (with Megatron-DeepSpeed) and
// torchtitan (megatron.ts, deepspeed.ts, torchtitan.ts over common.ts; launch-args.ts is
// the front door), checked against the golden files in __golden__/launch/.
// This file is the wing's one public entry: code outside the wing imports from here.

export { type LaunchExport, type LaunchTarget } from './common.ts';
export { LAUNCH_TARGETS, launchExportsForDocument, launchFileForDocument } from './launch-args.ts';
export { TORCHTITAN_FLAVORS, torchtitanFlavor } from './torchtitan-flavors.ts';
export { peftExport, torchtuneExport } from './finetune.ts';

// export/: "how do I launch it?". Launch files for Megatron-LM, DeepSpeed (with Megatron-DeepSpeed) and
// torchtitan (megatron.ts, deepspeed.ts, torchtitan.ts over common.ts; launch-args.ts is
// the front door), checked against the golden files in __golden__/launch/.
// This file is the wing's one public entry: code outside the wing imports from here.

export * from './common.ts';
export * from './deepspeed.ts';
export * from './launch-args.ts';
export * from './megatron.ts';
export * from './torchtitan.ts';
export * from './megatron-deepspeed.ts';
export * from './torchtitan-flavors.ts';
export * from './finetune.ts';

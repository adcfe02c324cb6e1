// structure/: what the model is made of. The weight-matrix inventory (matrices.ts), the
// parameter counts per layer, stage and GPU (params.ts) and the FLOPs of every matrix
// multiply (flops.ts): "how big is it, how much work is one step?".
// This file is the wing's one public entry: code outside the wing imports from here.

export * from './flops.ts';
export * from './matrices.ts';
export * from './params.ts';
export * from './zero-groups.ts';

// Base units and the byte widths of the number formats. The engine computes in
// bytes, seconds and FLOPs; conversions to GiB, days or PFLOP/s happen at the edges.

import type { GradDtype, Precision } from './types.ts';

export const GiB = 2 ** 30;
export const GB = 1e9;
export const TERA = 1e12;
export const SECONDS_PER_MINUTE = 60;
export const SECONDS_PER_HOUR = 3600;
export const SECONDS_PER_DAY = 86_400;

/**
 * Bytes of one stored weight for each training precision. fp8 and fp4 recipes
 * (Transformer Engine, MXFP8, NVFP4) still keep a bf16 copy of the weights for the
 * optimizer and cast per matrix multiply, so their stored weights are 2 bytes.
 */
export const WEIGHT_BYTES: Readonly<Record<Precision, number>> = { fp32: 4, fp16: 2, bf16: 2, fp8: 2, fp4: 2 };

/** Bytes of one activation element saved for backward: 16-bit for every mixed-precision recipe. */
export const ACTIVATION_BYTES: Readonly<Record<Precision, number>> = { fp32: 4, fp16: 2, bf16: 2, fp8: 2, fp4: 2 };

export const GRAD_BYTES: Readonly<Record<GradDtype, number>> = { fp32: 4, bf16: 2 };

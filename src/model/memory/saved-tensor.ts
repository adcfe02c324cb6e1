// One tensor a layer saves for backward, per token: the unit of the activation
// inventory (activations.ts, model-code.ts).

import type { RecomputeModule } from '../input/index.ts';

/** 'tensor': split over tp ranks; 'sequence': split over tp only with sequence parallelism (Korthikanti section 4.2.2). */
export type Shard = 'tensor' | 'sequence';
/** 'input' the layer input (kept by full recompute); 'scores' attention s² tensors; 'elementwise' outputs of cheap ops; 'kept' everything else. */
export type Role = 'input' | 'scores' | 'elementwise' | 'kept';

export interface SavedTensor {
  readonly name: string;
  readonly bytesPerToken: number;
  readonly shard: Shard;
  readonly role: Role;
  /** Megatron-Core recompute modules that drop this tensor (transformer_config.py recompute_modules). */
  readonly modules: readonly RecomputeModule[];
}

export const FP32_BYTES = 4;

export const saved = (
  name: string,
  bytesPerToken: number,
  shard: Shard,
  role: Role,
  modules: readonly RecomputeModule[] = [],
): SavedTensor => ({ name, bytesPerToken, shard, role, modules });

// Whether a ZeRO stage shards anything on a layout (issue 22 item 8): ZeRO splits the
// states of the GPUs that hold the same weights (Rajbhandari et al. 2020, arXiv 1910.02054,
// section 5), DP × CP of them for the dense weights (params.ts). With one copy there is
// nothing to split, and the stage changes nothing: the page says so, and what would help.

import type { ParallelConfig } from '../input/index.ts';
import { denseDataParallel, expertDataParallel } from './params.ts';

/** Why this ZeRO stage changes nothing (or only the experts' share) on this layout, with what would help; null when it shards. */
export function zeroWithoutEffect(p: Pick<ParallelConfig, 'zero' | 'tp' | 'dp' | 'cp' | 'ep'>, hasExperts: boolean): string | null {
  if (p.zero === 0 || denseDataParallel(p) > 1) return null;
  const help =
    'What would help: more data-parallel replicas (more GPUs, or a smaller TP or PP on these), ' +
    'or savers that need no replicas: recomputation, offload, a larger TP or PP.';
  if (hasExperts && expertDataParallel(p) > 1) {
    return (
      `ZeRO stage ${p.zero} at DP × CP = 1 shards only the ` +
      `experts' states (over their ${expertDataParallel(p)} ` +
      `replicas); the dense weights have one copy, so for them it changes nothing. ${help}`
    );
  }
  return `ZeRO stage ${p.zero} at DP × CP = 1 changes nothing: it splits states among GPUs that hold the same weights, and here there is one copy. ${help}`;
}

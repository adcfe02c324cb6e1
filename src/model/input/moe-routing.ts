// training.moeLoadImbalance and training.moeRouter (issue 32 item 4), read once here. Both keys stay
// out of the config when the document leaves them out, so every older document reads as before.
// The engine's rule for them is structure/moe-routing.ts.

import { describe, own, type FieldReader, type JsonObject } from './fields.ts';
import { MOE_ROUTERS, type MoeRouter, type RunConfig } from './types.ts';

/** Far above any run (the busiest rank can never take more than EP × the mean); a larger number is a typing slip. */
export const MAX_MOE_LOAD_IMBALANCE = 1e6;

const IMBALANCE_MEANING = "the busiest expert-parallel rank's routed tokens over the mean, 1 when perfectly balanced";

/** training.moeLoadImbalance: a number ≥ 1; absent or null leaves the key out (balanced). */
function readImbalance(r: FieldReader, t: JsonObject): { moeLoadImbalance?: number } {
  const value = own(t, 'moeLoadImbalance');
  if (value === undefined || value === null) return {};
  const at = 'training.moeLoadImbalance';
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    r.error(at, `must be a number ≥ 1 (${IMBALANCE_MEANING}), got ${describe(value)}`);
    return {};
  }
  if (value < 1) {
    r.error(at, `must be at least 1 (${IMBALANCE_MEANING}): no rank can be busier than the mean by less than nothing, got ${value}`);
    return {};
  }
  if (value > MAX_MOE_LOAD_IMBALANCE) {
    r.error(at, `must be at most ${MAX_MOE_LOAD_IMBALANCE.toLocaleString('en-US')} (${IMBALANCE_MEANING}), got ${value}`);
    return {};
  }
  return { moeLoadImbalance: value };
}

/**
 * The two routing fields of `training`. AutoModel's FakeBalancedGate gives every expert the same
 * tokens, so an imbalance above 1 beside "fakeBalanced" contradicts it: an error naming both.
 */
export function readMoeRouting(r: FieldReader, t: JsonObject): { moeLoadImbalance?: number; moeRouter?: MoeRouter } {
  const routerStated = own(t, 'moeRouter') != null;
  const router = routerStated ? r.choice<MoeRouter>(t, 'moeRouter', 'training', MOE_ROUTERS, 'learned') : undefined;
  const imbalance = readImbalance(r, t);
  if (router === 'fakeBalanced' && (imbalance.moeLoadImbalance ?? 1) !== 1) {
    r.error(
      'training.moeLoadImbalance',
      `must be 1 with training.moeRouter "fakeBalanced": AutoModel's fake balanced gate gives every expert the same ` +
        `number of tokens (got ${imbalance.moeLoadImbalance}); for skewed routing state "learned" with the imbalance`,
    );
  }
  return { ...imbalance, ...(router === undefined ? {} : { moeRouter: router }) };
}

/**
 * A stated imbalance above EP cannot happen: the busiest of ep ranks takes at most every routed
 * token, ep × the mean (at EP 1 the one rank is the mean). Estimated as stated, with this warning.
 */
export function moeLoadAboveEpProblem(c: RunConfig): string | null {
  const load = c.training.moeLoadImbalance;
  const ep = c.parallel.ep;
  if (load === undefined || !c.model.moe || load <= ep) return null;
  return (
    `${load} is more than parallel.ep = ${ep} allows: the busiest of ${ep} expert-parallel ` +
    `rank${ep === 1 ? '' : 's'} takes at most every routed token, ${ep} × the mean; estimated as stated`
  );
}

import { describe, expect, it } from 'vitest';
import { zeroWithoutEffect } from './zero-groups.ts';

describe('ZeRO without replicas', () => {
  it('says ZeRO-3 at DP 1, CP 1 changes nothing', () => {
    expect(zeroWithoutEffect({ zero: 3, tp: 8, dp: 1, cp: 1, ep: 1 }, false)).toMatch(/^ZeRO stage 3 at DP × CP = 1 changes nothing/);
  });
  it('is silent where it shards: DP 2, or CP 2 (DP × CP = 2), or stage 0', () => {
    expect(zeroWithoutEffect({ zero: 3, tp: 8, dp: 2, cp: 1, ep: 1 }, false)).toBeNull();
    expect(zeroWithoutEffect({ zero: 1, tp: 8, dp: 1, cp: 2, ep: 1 }, false)).toBeNull();
    expect(zeroWithoutEffect({ zero: 0, tp: 8, dp: 1, cp: 1, ep: 1 }, false)).toBeNull();
  });
  it("with experts at EP 2 and TP 8, the experts' states still shard over 4 expert replicas", () => {
    // EP 2 does not divide DP × CP = 1, so expert TP = 1 and expert DP = TP × DP × CP ÷ (EP × expert TP) = 8 ÷ 2 = 4 (params.ts).
    expect(zeroWithoutEffect({ zero: 1, tp: 8, dp: 1, cp: 1, ep: 2 }, true)).toMatch(
      /shards only the experts' states \(over their 4 replicas\)/,
    );
    // EP 1: expert TP = TP, so expert DP = 8 ÷ 8 = 1, and nothing shards.
    expect(zeroWithoutEffect({ zero: 1, tp: 8, dp: 1, cp: 1, ep: 1 }, true)).toMatch(/changes nothing/);
  });
});

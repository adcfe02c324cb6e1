import { describe, expect, it } from 'vitest';
import { OPTIMIZER_STEP } from '../calibration.ts';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { optimizerStepSeconds } from './optimizer.ts';
import { QWEN3_30B_A3B_MODEL } from '../../testing/documents.ts';

function run(parallel: Record<string, unknown>): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: QWEN3_30B_A3B_MODEL,
    training: { seqLen: 4096, globalBatch: 64, microBatch: 1, precision: 'bf16', framework: 'megatron' },
    parallel: { tp: 1, pp: 1, zero: 1, ...parallel },
    cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 8 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('the optimizer step shards expert states over the expert data-parallel group only', () => {
  // Adam, fp32 master, m and v (12 bytes read and written), fp32 gradient read, bf16 weight written: 30 bytes per parameter over 0.7 × 3,350 GB/s.
  const perParameter = 30 / (0.7 * 3350e9);
  it('EP 8 over DP 8: the expert data-parallel group is 1, so one GPU updates all its 1e9 expert parameters; dense ones 1/8', () => {
    const c = run({ dp: 8, ep: 8 });
    expect(OPTIMIZER_STEP.hbmEfficiency).toBe(0.7);
    expect(optimizerStepSeconds(c, { dense: 0, expert: 1e9 })).toBeCloseTo(1e9 * perParameter, 9);
    expect(optimizerStepSeconds(c, { dense: 8e8, expert: 0 })).toBeCloseTo(1e8 * perParameter, 9);
  });
  it('EP 2 over DP 8: experts shard over 4 replicas', () => {
    expect(optimizerStepSeconds(run({ dp: 8, ep: 2 }), { dense: 0, expert: 4e8 })).toBeCloseTo(1e8 * perParameter, 9);
  });
  it('without the distributed optimizer (ZeRO 0) nothing is sharded', () => {
    expect(optimizerStepSeconds(run({ dp: 8, ep: 8, zero: 0 }), { dense: 1e8, expert: 1e8 })).toBeCloseTo(2e8 * perParameter, 9);
  });
});

import { describe, expect, it } from 'vitest';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { moeDispatchBytesPerToken } from './moe-traffic.ts';
import { QWEN3_30B_A3B_MODEL } from '../../testing/documents.ts';

function run(training: Record<string, unknown>, ep: number): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: { ...QWEN3_30B_A3B_MODEL, layers: 4, vocab: 32000 },
    training: { seqLen: 4096, globalBatch: 8, microBatch: 1, precision: 'bf16', framework: 'megatron', ...training },
    parallel: { tp: 1, pp: 1, dp: 8, ep },
    cluster: { gpu: 'h100-sxm', gpusPerNode: 8 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('MoE routing and permutation as HBM bytes (moe-traffic.ts)', () => {
  it("HybridEP: permute + unpermute, 4 two-byte passes over 8 copies of h, plus the router's 5 fp32 passes over 128 experts", () => {
    // 2 × 4 × 8 × 2048 = 131,072 bytes; 5 × 4 × 128 = 2,560 bytes.
    expect(moeDispatchBytesPerToken(run({ moeDispatcher: 'hybridep' }, 8), 1)).toBe(131_072 + 2_560);
  });
  it("all-to-all with 16 local experts adds the chunk sort's 4 passes per copy; torchtitan does not", () => {
    expect(moeDispatchBytesPerToken(run({ moeDispatcher: 'alltoall' }, 8), 1)).toBe(2 * 8 * 8 * 2048 + 2_560);
    expect(moeDispatchBytesPerToken(run({ moeDispatcher: 'alltoall', framework: 'torchtitan' }, 8), 1)).toBe(131_072 + 2_560);
  });
  it("sequence parallelism splits the hidden-sized rows and the router's", () => {
    expect(moeDispatchBytesPerToken(run({ moeDispatcher: 'hybridep' }, 8), 2)).toBe((131_072 + 2_560) / 2);
  });
});

import { describe, expect, it } from 'vitest';
import { runScript } from './run-script.ts';

// Issue 35: `npm run --silent estimate` prints `uncertainty` (interchange "Output") for every
// valid document, and says when a run lies beyond what published runs cover.

const dense = {
  version: 1,
  model: { name: 'Llama 3 8B', layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 },
  training: { seqLen: 4096, globalBatch: 64, microBatch: 1, framework: 'megatron' },
  parallel: { tp: 2, pp: 1, dp: 4 },
  cluster: { gpu: 'h100-sxm', gpus: 8 },
};
/** DeepSeek-V3's shape (arXiv 2412.19437, table "architecture") on 4,096 GB200s: four times the largest published MoE run (1,024 GPUs). */
const moe4096 = {
  version: 1,
  model: {
    name: 'DeepSeek-V3-like',
    layers: 61,
    hidden: 7168,
    heads: 128,
    ffnHidden: 18432,
    vocab: 129280,
    moe: { experts: 256, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 3 },
  },
  training: { seqLen: 4096, globalBatch: 8192, microBatch: 1, framework: 'megatron' },
  parallel: { tp: 1, pp: 16, dp: 256, ep: 64 },
  cluster: { gpu: 'gb200', gpus: 4096 },
};

interface Range {
  low: number;
  high: number;
  basis: string;
}
interface Out {
  errors: string[];
  uncertainty: { tokensPerSecond: Range; memory: Range } | null;
  throughput: { tokensPerSecond: number } | null;
  memory: { deviceUsed: number };
}

describe('estimate prints uncertainty', () => {
  const result = runScript('scripts/estimate.ts', ['-'], JSON.stringify([dense, moe4096, { version: 1 }]));
  const outputs = JSON.parse(result.stdout) as Out[];

  it('for every valid document, a range around tokens/s and around the memory fits judges, with its basis', () => {
    expect(result.status).toBe(0);
    for (const out of outputs.slice(0, 2)) {
      expect(out.errors).toEqual([]);
      const u = out.uncertainty;
      expect(u).not.toBeNull();
      expect(u?.tokensPerSecond.low).toBeLessThanOrEqual(out.throughput?.tokensPerSecond ?? NaN);
      expect(u?.tokensPerSecond.high).toBeGreaterThanOrEqual(out.throughput?.tokensPerSecond ?? NaN);
      expect(u?.memory.low).toBeLessThanOrEqual(out.memory.deviceUsed);
      expect(u?.memory.high).toBeGreaterThanOrEqual(out.memory.deviceUsed);
      expect(u?.tokensPerSecond.basis).toMatch(/published runs/);
    }
    expect(outputs[0]?.uncertainty?.tokensPerSecond.basis).toMatch(/^dense on Hopper with Megatron: \d+ published runs$/);
  });

  it('says a 4,096-GPU MoE run lies beyond the validated range', () => {
    const u = outputs[1]?.uncertainty;
    expect(u?.tokensPerSecond.basis).toMatch(
      /^fine-grained MoE on Blackwell with Megatron: \d+ published runs; beyond the validated range: largest published MoE run 1,024 GPUs \(this run 4,096\)/,
    );
    expect(u?.memory.basis).toContain('beyond the validated range: largest published MoE run 1,024 GPUs');
  });

  it('has none for an invalid document', () => {
    expect(outputs[2]?.errors.length).toBeGreaterThan(0);
    expect(outputs[2]?.uncertainty).toBeNull();
  });
}, 60_000);

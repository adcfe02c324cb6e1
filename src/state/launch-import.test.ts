import { describe, expect, it } from 'vitest';
import { mergeLaunchImport } from './launch-import.ts';

describe('a launch file laid over the page', () => {
  const current = {
    version: 1, model: { name: 'Llama 3 70B', layers: 80 }, training: { seqLen: 8192, globalBatch: 256, tokens: 1e12, loss: 'fused' },
    parallel: { tp: 8, pp: 4, dp: 2 }, cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 64 }, cost: { usdPerGpuHour: 2 },
  };

  it('the file\'s fields win; its layout replaces the old one; the GPU, the cost and an absent budget stay', () => {
    const merged = mergeLaunchImport(current, {
      version: 1, model: { name: 'Imported', layers: 32, hidden: 4096 }, training: { seqLen: 4096, framework: 'megatron' },
      parallel: { tp: 2, pp: 1 }, cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 16 },
    });
    expect(merged).toEqual({
      version: 1, model: { name: 'Imported', layers: 32, hidden: 4096 }, training: { seqLen: 4096, globalBatch: 256, tokens: 1e12, framework: 'megatron' },
      parallel: { tp: 2, pp: 1 }, cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 16 }, cost: { usdPerGpuHour: 2 },
    });
  });

  it('a file without the model (a bare DeepSpeed config) keeps the page\'s model and GPU', () => {
    const merged = mergeLaunchImport(current, { version: 1, model: { name: 'Imported' }, training: { microBatch: 2 }, parallel: { zero: 3 }, cluster: { gpu: 'a100-80gb' } });
    expect(merged['model']).toEqual(current.model);
    expect(merged['cluster']).toEqual(current.cluster);
  });
});

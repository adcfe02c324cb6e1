import { describe, expect, it } from 'vitest';
import { estimate } from '../estimate.ts';
import { GPU_PRESETS, parseDocument } from '../input/index.ts';
import type { RunConfig } from '../input/index.ts';
import { hostBytesPerParameter, hostMemory } from './host.ts';

// What offload keeps in one node's CPU memory (host.ts), against hand-derived figures.
//
// Parameter counts (untied embeddings, SwiGLU, GQA with 8 KV heads of 128, two norms per layer):
// Llama 3 405B: layer = q 16384² + k,v 2 × 16384·1024 + o 16384² + MLP 3 × 16384·53248 + norms 2 × 16384
//   = 268,435,456 + 33,554,432 + 268,435,456 + 2,617,245,696 + 32,768 = 3,187,703,808;
//   × 126 = 401,650,679,808; + embedding and output 2 × 128256·16384 = 4,202,692,608; + final norm 16,384
//   = 405,853,388,800.
// Llama 3 70B: layer = 2 × 8192² + 2 × 8192·1024 + 3 × 8192·28672 + 2 × 8192 = 855,654,400; × 80
//   = 68,452,352,000; + 2 × 128256·8192 = 2,101,346,304; + 8,192 = 70,553,706,496.
const P405 = 405_853_388_800;
const P70 = 70_553_706_496;
const TiB = 2 ** 40;

const LLAMA3_405B = {
  name: 'Llama 3 405B',
  layers: 126,
  hidden: 16384,
  heads: 128,
  kvHeads: 8,
  ffnHidden: 53248,
  ffnType: 'swiglu',
  vocab: 128256,
};
const LLAMA3_70B = {
  name: 'Llama 3 70B',
  layers: 80,
  hidden: 8192,
  heads: 64,
  kvHeads: 8,
  ffnHidden: 28672,
  ffnType: 'swiglu',
  vocab: 128256,
};

function document(
  model: object,
  offload: object,
  extra: { framework?: string; gradDtype?: string; cluster?: object; zero?: number; dp?: number } = {},
) {
  return {
    version: 1,
    model,
    training: {
      seqLen: 8192,
      globalBatch: 64,
      microBatch: 1,
      recompute: 'full',
      offload,
      framework: extra.framework ?? 'deepspeed',
      gradDtype: extra.gradDtype ?? 'fp32',
    },
    parallel: { tp: 1, pp: 1, dp: extra.dp ?? 8, zero: extra.zero ?? 3 },
    cluster: { gpu: 'h100-sxm', gpus: extra.dp ?? 8, ...extra.cluster },
  };
}

function config(raw: object): RunConfig {
  const parsed = parseDocument(raw);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('405B, ZeRO-3 with optimizer and parameter offload on one 8-GPU DGX H100 (DeepSpeed ZeRO-Infinity, offload to CPU)', () => {
  // Per parameter of a GPU's shard: bf16 parameters 2 (offload_param) + fp32 master 4 + Adam moments 8
  // + the fp32 gradient the CPU optimizer reads 4 + ZeRO-3's gradient partitions in the fp32 accumulation
  // dtype 4 = 22 bytes. The 8 GPUs of the node hold the whole model: 22 × 405,853,388,800 = 8,928,774,553,600
  // bytes (8.93 TB, 8.12 TiB); a DGX H100 has 2 TiB = 2,199,023,255,552 bytes.
  const output = estimate(document(LLAMA3_405B, { optimizer: true, parameters: true }));

  it('needs 22 bytes per parameter: 8.93e12 bytes per node, against 2 TiB', () => {
    expect(output.errors).toEqual([]);
    expect(output.memory.host.perNode).toBe(22 * P405);
    expect(output.memory.host.perGpu).toBe((22 * P405) / 8);
    expect(output.memory.host.capacity).toBe(2 * TiB);
  });

  it('does not fit: the host cannot hold it, though the GPUs can', () => {
    expect(output.memory.deviceUsed).toBeLessThan(output.memory.capacity);
    expect(output.memory.fits).toBe(false);
    expect(
      output.warnings.some((w) => w.startsWith('memory.host: offload needs 8316 GiB of CPU memory per node, the node has 2048 GiB')),
    ).toBe(true);
  });

  it('with bf16 gradient accumulation the ZeRO-3 partitions take 2 bytes: 20 × 405.85e9 = 8.12e12', () => {
    const bf16 = estimate(document(LLAMA3_405B, { optimizer: true, parameters: true }, { gradDtype: 'bf16' }));
    expect(bf16.memory.host.perNode).toBe(20 * P405);
  });

  it('on 8 nodes (64 GPUs, DP 64) each node holds an eighth: 22 × 405.85e9 / 8 = 1.12e12 bytes, which fits 2 TiB', () => {
    const wide = estimate(document(LLAMA3_405B, { optimizer: true, parameters: true }, { dp: 64 }));
    expect(wide.memory.host.perNode).toBeCloseTo((22 * P405) / 8, -2);
    expect(wide.memory.host.perNode).toBeLessThan(wide.memory.host.capacity);
  });
});

describe('70B, ZeRO-3 with optimizer offload on 8 H100 (DeepSpeed ZeRO-Offload)', () => {
  // 4 (master) + 8 (moments) + 4 (fp32 gradient) + 4 (ZeRO-3 gradient partitions, fp32) = 20 bytes per
  // parameter; the weights stay on the GPUs: 20 × 70,553,706,496 = 1,411,074,129,920 bytes (1.28 TiB) per node.
  const output = estimate(document(LLAMA3_70B, { optimizer: true, parameters: false }));

  it('keeps 1.41e12 bytes on the host, within 2 TiB, and fits the GPUs too', () => {
    expect(output.errors).toEqual([]);
    expect(output.memory.host.perNode).toBe(20 * P70);
    expect(output.memory.host.perNode).toBeLessThan(output.memory.host.capacity);
    expect(output.memory.deviceUsed).toBeLessThan(output.memory.capacity);
    expect(output.memory.fits).toBe(true);
  });

  it('does not fit a node with 1 TiB of CPU memory (cluster.hostMemoryGiB 1024)', () => {
    const small = estimate(document(LLAMA3_70B, { optimizer: true }, { cluster: { hostMemoryGiB: 1024 } }));
    expect(small.memory.host.capacity).toBe(TiB);
    expect(small.memory.fits).toBe(false);
  });

  it('holds nothing on the host without offload', () => {
    const none = estimate(document(LLAMA3_70B, { optimizer: false, parameters: false }));
    expect(none.memory.host).toEqual({ perNode: 0, capacity: 2 * TiB, perGpu: 0 });
  });
});

describe('bytes per parameter of the shard, framework by framework', () => {
  const perParameter = (framework: string, offload: object, zero = 3, gradDtype = 'fp32') =>
    hostBytesPerParameter(config(document(LLAMA3_70B, offload, { framework, zero, gradDtype })));

  it("Megatron-Core's HybridDeviceOptimizer: a pinned fp32 clone 4 + moments 8 + a pinned fp32 gradient 4, for the share f", () => {
    expect(perParameter('megatron', { optimizer: true }, 1)).toEqual({ optimizerShard: 16, weightShard: 0 });
    expect(perParameter('megatron', { optimizer: true, optimizerFraction: 0.5 }, 1)).toEqual({ optimizerShard: 8, weightShard: 0 });
  });

  it('DeepSpeed ZeRO-1/2 Offload: 16 bytes (no ZeRO-3 gradient partitions)', () => {
    expect(perParameter('deepspeed', { optimizer: true }, 2)).toEqual({ optimizerShard: 16, weightShard: 0 });
  });

  it('DeepSpeed ZeRO-3: the gradient partitions stay whole on the CPU whatever the ratio: 0.5 × 16 + 2 (bf16) = 10', () => {
    expect(perParameter('deepspeed', { optimizer: true, optimizerFraction: 0.5 }, 3, 'bf16')).toEqual({
      optimizerShard: 10,
      weightShard: 0,
    });
  });

  it('FSDP CPUOffload (torchtitan FSDP2, parameters offloaded): fp32 shard 4 + its gradient 4 + moments 8 = 16', () => {
    expect(perParameter('torchtitan', { parameters: true })).toEqual({ optimizerShard: 0, weightShard: 16 });
    expect(perParameter('fsdp', { optimizer: true, parameters: true })).toEqual({ optimizerShard: 0, weightShard: 16 });
  });

  it('a node smaller than the cluster size: one GPU of an 8-GPU preset holds the run alone', () => {
    const one = config(document(LLAMA3_70B, { optimizer: true }, { dp: 1, zero: 1 }));
    expect(hostMemory(one).perNode).toBe(16 * P70);
  });
});

describe('cluster.hostMemoryGiB', () => {
  const read = (cluster: object) =>
    parseDocument({ version: 1, model: LLAMA3_70B, training: { seqLen: 2048, globalBatch: 8 }, cluster: { gpu: 'h100-sxm', ...cluster } });

  it("defaults to the GPU preset's usual server", () => {
    const defaultOf = (gpu: string) => {
      const parsed = read({ gpu });
      return parsed.ok ? parsed.config.cluster.hostMemoryGiB : NaN;
    };
    expect(defaultOf('h100-sxm')).toBe(2048); // DGX H100: 2 TB
    expect(defaultOf('a100-40gb')).toBe(1024); // DGX A100 320GB: 1 TB
    expect(defaultOf('a100-80gb')).toBe(2048); // DGX A100 640GB: 2 TB
    expect(defaultOf('b200')).toBe(2048); // DGX B200: 2 TB (upgradable to 4 TB)
    expect(defaultOf('rtx-4090')).toBe(64); // a desktop
    expect(defaultOf('gb200')).toBe(894); // one compute tray (one OS node, 4 GPUs): 2 Grace × 480 GB = 960e9 bytes = 894 GiB
  });

  it('every preset states its host memory with a source', () => {
    for (const g of GPU_PRESETS) {
      expect(g.hostMemoryGiB, g.id).toBeGreaterThan(0);
      expect(g.hostSource.length, g.id).toBeGreaterThan(20);
    }
  });

  it("a custom GPU takes the DGX H100's 2 TiB; a given value wins", () => {
    const custom = read({ gpu: { name: 'X', memoryGiB: 48, bf16Tflops: 300, hbmGBps: 1000, intraNodeGBps: 50, interNodeGBps: 25 } });
    expect(custom.ok && custom.config.cluster.hostMemoryGiB).toBe(2048);
    const given = read({ hostMemoryGiB: 512 });
    expect(given.ok && given.config.cluster.hostMemoryGiB).toBe(512);
    expect(given.warnings).toEqual([]);
  });

  it('refuses 0, negatives and text with an error naming the field', () => {
    for (const bad of [0, -1, 'lots', 1e12]) {
      const parsed = read({ hostMemoryGiB: bad });
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.errors.some((e) => e.startsWith('cluster.hostMemoryGiB'))).toBe(true);
    }
  });
});

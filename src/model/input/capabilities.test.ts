import { describe, expect, it } from 'vitest';
import { estimate } from '../estimate.ts';
import { DEFAULT_DOCUMENT } from '../../state/defaults.ts';
import { FRAMEWORK_PROFILES } from './frameworks.ts';
import { FRAMEWORKS, SCHEDULES } from './types.ts';
import { epOverlapProblem, frameworkScheduleProblem, microBatchMinimumProblem, precisionProblem } from './capabilities.ts';
import { findGpuPreset, GPU_PRESETS, osNodeGpus } from './gpus.ts';

const base = DEFAULT_DOCUMENT as { training: Record<string, unknown>; parallel: Record<string, unknown>; cluster: Record<string, unknown> };
const run = (training: object, parallel: object = {}, cluster: object = {}) =>
  estimate({
    ...DEFAULT_DOCUMENT,
    training: { ...base.training, ...training },
    parallel: { ...base.parallel, ...parallel },
    cluster: { ...base.cluster, ...cluster },
  });

describe('every framework states its capabilities with a source', () => {
  for (const f of FRAMEWORKS) {
    it(f, () => {
      const p = FRAMEWORK_PROFILES[f];
      for (const [key, source] of Object.entries(p.capabilitySources)) expect(source.length, `${f}.${key}`).toBeGreaterThan(20);
      expect(Object.keys(p.capabilities.schedules).every((s) => (SCHEDULES as readonly string[]).includes(s))).toBe(true);
    });
  }
  it('Megatron-LM runs 1F1B and interleaved 1F1B only; torchtitan runs DualPipeV', () => {
    expect(Object.keys(FRAMEWORK_PROFILES.megatron.capabilities.schedules).sort()).toEqual(['1f1b', 'interleaved-1f1b']);
    expect(FRAMEWORK_PROFILES.torchtitan.capabilities.schedules.dualpipe).toBe('DualPipeV');
    expect(frameworkScheduleProblem('megatron', { pp: 4, schedule: 'dualpipe' })).toMatch(
      /Megatron-LM does not run the dualpipe schedule.*torchtitan runs it as DualPipeV/,
    );
    // Without a pipeline there is no schedule to run.
    expect(frameworkScheduleProblem('megatron', { pp: 1, schedule: 'dualpipe' })).toBeNull();
  });
  it('DualPipe needs 2 × pp micro-batches (deepseek-ai/DualPipe: num_chunks >= num_ranks * 2)', () => {
    expect(microBatchMinimumProblem('torchtitan', { pp: 8, schedule: 'dualpipe' }, 15)).toMatch(/at least 2 × pp = 16/);
    expect(microBatchMinimumProblem('torchtitan', { pp: 8, schedule: 'dualpipe' }, 16)).toBeNull();
    // Megatron-LM's interleaving: microbatch_group_size_per_vp_stage (default pp) must be at most M.
    expect(microBatchMinimumProblem('megatron', { pp: 8, schedule: 'interleaved-1f1b' }, 7)).not.toBeNull();
  });
  it("EP overlap follows Megatron-Core's rules (transformer_config.py overlap_moe_expert_parallel_comm)", () => {
    const moe = { experts: 8, topK: 2, expertFfnHidden: 1024, sharedExperts: 0, denseLayers: 0 };
    const model = {
      name: 'm',
      layers: 8,
      hidden: 1024,
      heads: 8,
      kvHeads: 8,
      headDim: 128,
      ffnHidden: 4096,
      ffnType: 'swiglu' as const,
      vocab: 1000,
      tiedEmbeddings: false,
      moe,
      mla: null,
      mtpLayers: 0,
    };
    const x = {
      framework: 'megatron' as const,
      model,
      ep: 8,
      pp: 4,
      vpp: 2,
      schedule: 'interleaved-1f1b' as const,
      recompute: 'selective' as const,
      dispatcher: 'alltoall' as const,
      precision: 'bf16' as const,
    };
    expect(epOverlapProblem(x)).toBeNull();
    expect(epOverlapProblem({ ...x, vpp: 1, schedule: '1f1b' })).toMatch(/virtual pipeline/);
    expect(epOverlapProblem({ ...x, recompute: 'full' })).toMatch(/full recomputation/);
    expect(epOverlapProblem({ ...x, ep: 1 })).toMatch(/ep > 1/);
    expect(epOverlapProblem({ ...x, framework: 'torchtitan' })).toMatch(/torchtitan has no expert-parallel overlap/);
  });
});

describe('hardware: a precision needs its tensor cores', () => {
  const h100 = findGpuPreset('h100-sxm');
  const b200 = findGpuPreset('b200');
  const a100 = findGpuPreset('a100-80gb');
  it('FP4 only on Blackwell, FP8 on Hopper, Ada and Blackwell', () => {
    expect(h100 && precisionProblem(h100, 'fp4')).toMatch(/FP4 tensor cores/);
    expect(b200 && precisionProblem(b200, 'fp4')).toBeNull();
    expect(h100 && precisionProblem(h100, 'fp8')).toBeNull();
    expect(a100 && precisionProblem(a100, 'fp8')).toMatch(/FP8 tensor cores/);
    for (const g of GPU_PRESETS) {
      if (g.fp4Tflops > 0) expect(g.architecture, g.id).toBe('blackwell');
    }
  });

  it("an H100 FP4 run is refused, in the field's words; FP8 runs", () => {
    const fp4 = run({ precision: 'fp4' });
    expect(fp4.throughput).toBeNull();
    expect(fp4.errors.some((e) => e.startsWith('training.precision: fp4 needs FP4 tensor cores'))).toBe(true);
    expect(run({ precision: 'fp8' }).errors).toEqual([]);
  });

  it('MFU names its peak; against the BF16 peak an H100 FP8 run reads twice its FP8 MFU (1,979 ÷ 989 TFLOP/s)', () => {
    const out = run({ precision: 'fp8' });
    const t = out.throughput;
    expect(t?.mfuPeak).toEqual({ precision: 'fp8', tflopsPerGpu: 1979 });
    expect((t?.mfuBf16 ?? 0) / (t?.mfu ?? 1)).toBeCloseTo(1979 / 989, 6);
    const bf16 = run({ precision: 'bf16' }).throughput;
    expect(bf16?.mfuPeak?.precision).toBe('bf16');
    expect(bf16?.mfuBf16).toBeCloseTo(bf16?.mfu ?? 0, 12);
  });
});

describe('GPU presets: the OS node apart from the NVLink domain', () => {
  it('GB200/GB300 NVL72: 4 GPUs per compute tray, 72 per NVLink domain; HGX servers 8 and 8', () => {
    for (const id of ['gb200', 'gb300']) {
      expect(findGpuPreset(id)?.nodeGpus).toBe(4);
      expect(findGpuPreset(id)?.nvlinkDomainGpus).toBe(72);
    }
    expect(findGpuPreset('h100-sxm')?.nodeGpus).toBe(8);
    for (const g of GPU_PRESETS) expect(g.nodeGpus, g.id).toBeLessThanOrEqual(g.nvlinkDomainGpus);
  });
  it("osNodeGpus: the preset's tray, never more than cluster.gpusPerNode; a custom GPU's node is cluster.gpusPerNode", () => {
    expect(osNodeGpus({ gpuId: 'gb200', gpusPerNode: 72 })).toBe(4);
    expect(osNodeGpus({ gpuId: 'h100-sxm', gpusPerNode: 4 })).toBe(4);
    expect(osNodeGpus({ gpuId: null, gpusPerNode: 16 })).toBe(16);
  });
});

import { describe, expect, it } from 'vitest';
import { parseDocument } from '../input/index.ts';
import { estimate } from '../estimate.ts';
import { gatheredBeyondShardBytes, stageMemoryForMetric, modelStateBytes, optimizerBytesPerParameter } from './memory.ts';
import { stageMemoryBreakdowns, stageMemoryDetails } from './stages.ts';
import type { RunConfig } from '../input/index.ts';

const GB = 1e9;

function doc(training: Record<string, unknown>, parallel: Record<string, unknown>, modelOverrides: Record<string, unknown> = {}) {
  return {
    version: 1,
    model: { layers: 8, hidden: 1024, heads: 16, vocab: 32000, ...modelOverrides },
    training: { seqLen: 2048, globalBatch: 64, microBatch: 1, ...training },
    parallel,
    cluster: { gpu: 'a100-80gb' },
  };
}

function config(
  training: Record<string, unknown>,
  parallel: Record<string, unknown>,
  modelOverrides: Record<string, unknown> = {},
): RunConfig {
  const parsed = parseDocument(doc(training, parallel, modelOverrides));
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

const modelStates = (c: RunConfig, psi: number) => {
  const s = modelStateBytes(c, { dense: psi, expert: 0 });
  return s.parameters + s.gradients + s.optimizer;
};

describe('ZeRO (Rajbhandari et al. 2020, arXiv 1910.02054), Figure 1 worked example: Ψ = 7.5B, d = 64, K = 12', () => {
  const psi = 7.5e9;
  const mixedAdam = { precision: 'fp16', gradDtype: 'bf16', optimizer: 'adam', masterWeights: true };
  const at = (zero: number) => modelStates(config(mixedAdam, { dp: 64, zero }), psi);

  it('baseline: (2 + 2 + 12)Ψ = 120 GB', () => {
    expect(at(0)).toBe(120 * GB);
  });

  it('stage 1, P_os: 4Ψ + 12Ψ/d = 31.4 GB', () => {
    // 30 GB + 90/64 GB = 31.406 GB.
    expect(at(1)).toBeCloseTo(31.40625 * GB, -3);
    expect(Math.abs(at(1) / (31.4 * GB) - 1)).toBeLessThan(0.01);
  });

  it('stage 2, P_os+g: 2Ψ + 14Ψ/d = 16.6 GB', () => {
    // 15 GB + 105/64 GB = 16.641 GB.
    expect(at(2)).toBeCloseTo(16.640625 * GB, -3);
    expect(Math.abs(at(2) / (16.6 * GB) - 1)).toBeLessThan(0.01);
  });

  it('stage 3, P_os+g+p: 16Ψ/d = 1.9 GB (the paper rounds 1.875 to two digits)', () => {
    expect(at(3)).toBeCloseTo(1.875 * GB, -3);
    expect(Math.abs(at(3) - 1.9 * GB)).toBeLessThanOrEqual(0.05 * GB);
  });
});

describe('bytes per parameter', () => {
  it('Megatron-LM theoretical_memory_usage.py: 18 without, 6 + 12/d with the distributed optimizer (fp32 gradients)', () => {
    // bf16 weights 2 + fp32 main gradients 4 + (fp32 master 4 + two fp32 moments 8) sharded over d.
    const megatron = { precision: 'bf16', gradDtype: 'fp32', optimizer: 'adam', masterWeights: true };
    expect(modelStates(config(megatron, { dp: 8, zero: 0 }), 1)).toBe(18);
    expect(modelStates(config(megatron, { dp: 8, zero: 1 }), 1)).toBe(6 + 12 / 8);
    expect(modelStates(config(megatron, { dp: 64, zero: 1 }), 1)).toBe(6 + 12 / 64);
  });

  it('optimizer states: adam 12 with master weights, 8 without or in fp32; adam8bit 2 + statistics + 4; sgd 4 + 4', () => {
    expect(optimizerBytesPerParameter({ optimizer: 'adam', masterWeights: true, precision: 'bf16' })).toBe(12);
    expect(optimizerBytesPerParameter({ optimizer: 'adam', masterWeights: false, precision: 'bf16' })).toBe(8);
    expect(optimizerBytesPerParameter({ optimizer: 'adam', masterWeights: true, precision: 'fp32' })).toBe(8);
    // Dettmers et al. 2021: two 8-bit moments, one fp32 absmax per 2048-value block per moment: 2 + 8/2048.
    expect(optimizerBytesPerParameter({ optimizer: 'adam8bit', masterWeights: true, precision: 'bf16' })).toBe(2 + 8 / 2048 + 4);
    expect(optimizerBytesPerParameter({ optimizer: 'sgd', masterWeights: true, precision: 'bf16' })).toBe(8);
  });

  it('expert weights shard over the expert data-parallel group, not over dp', () => {
    // tp 1, dp 8, ep 8: each GPU holds its experts alone (expert-dp 1), so ZeRO-1 cannot shard their optimizer states.
    const moe = { moe: { experts: 8, topK: 2, expertFfnHidden: 1024 } };
    const c = config({ gradDtype: 'fp32' }, { dp: 8, ep: 8, zero: 1 }, moe);
    const s = modelStateBytes(c, { dense: 0, expert: 1 });
    expect(s.parameters + s.gradients + s.optimizer).toBe(18);
  });

  it('offload moves the optimizer states (and with ZeRO-2/3 the gradient shards); parameter offload the weight shards', () => {
    const s = modelStateBytes(config({ offload: { optimizer: true, parameters: true } }, { dp: 8, zero: 3 }), { dense: 8, expert: 0 });
    expect(s).toEqual({ parameters: 0, gradients: 0, optimizer: 0 });
    const z1 = modelStateBytes(config({ gradDtype: 'fp32', offload: { optimizer: true } }, { dp: 8, zero: 1 }), { dense: 1, expert: 0 });
    expect(z1).toEqual({ parameters: 2, gradients: 4, optimizer: 0 });
  });
});

describe('per-GPU memory', () => {
  it('falls as tensor parallelism grows (Megatron-LM theoretical memory test)', () => {
    const totals = [1, 2, 4, 8].map((tp) => {
      const out = estimate(doc({ recompute: 'selective' }, { tp, dp: 8, zero: 1 }));
      expect(out.errors).toEqual([]);
      return out.memory.perGpu.total;
    });
    for (let k = 1; k < totals.length; k++) expect(totals[k]).toBeLessThan(totals[k - 1] ?? 0);
  });

  it('one breakdown per stage whose parts add up to the total', () => {
    const stages = stageMemoryBreakdowns(config({}, { pp: 4, dp: 2 }));
    expect(stages).toHaveLength(4);
    for (const s of stages) {
      expect(s.parameters + s.gradients + s.optimizer + s.activations + s.other).toBeCloseTo(s.total, 0);
    }
  });

  it('ZeRO-3 counts the gathered full weights of the working layers in "other"', () => {
    const z2 = stageMemoryDetails(config({}, { dp: 8, zero: 2 }))[0];
    const z3 = stageMemoryDetails(config({}, { dp: 8, zero: 3 }))[0];
    // Layer: 4·1024² + 2·1024·4096 = 12,582,912 weights + 2048 norm. The output matrix,
    // 32000·1024 = 32,768,000, is a unit of its own and larger than a layer, so the gather at
    // the loss (output + last layer) is the largest; 7/8 of it not local, 2 bytes.
    expect(z3?.other.gatheredWeights).toBeCloseTo((32_768_000 + 12_584_960) * (7 / 8) * 2, 0);
    expect(z2?.other.gatheredWeights).toBe(0);
    expect(z3?.breakdown.total).toBeLessThan(z2?.breakdown.total ?? 0);
  });

  it('compares each published metric with the part it measured', () => {
    const [s] = stageMemoryDetails(config({}, { dp: 8, zero: 1 }));
    if (!s) throw new Error('no stage');
    const b = s.breakdown;
    expect(stageMemoryForMetric(s, 'analytical model states')).toBe(b.parameters + b.gradients + b.optimizer);
    // total is the allocated peak; reserved adds the allocator's reserve; device used the terms outside the allocator.
    expect(stageMemoryForMetric(s, 'peak allocated')).toBe(b.total);
    expect(stageMemoryForMetric(s, 'peak reserved')).toBeCloseTo(b.total + s.other.allocatorReserve, 0);
    expect(stageMemoryForMetric(s, 'peak reserved (max across ranks)')).toBe(s.reserved);
    expect(stageMemoryForMetric(s, 'device used')).toBeCloseTo(s.reserved + s.other.runtime, 0);
    expect(stageMemoryForMetric(s, null)).toBe(s.deviceUsed);
    expect(s.reserved).toBeGreaterThanOrEqual(b.total);
  });
});

describe('ZeRO-3 gathers the output matrix as a unit of its own (memory.ts gatheredBeyondShardBytes)', () => {
  // Qwen-72B (config.json): hidden 8192, 64 heads (MHA), ffn 24576, vocab 152064, untied.
  // One layer: 4 · 8192² (attention) + 3 · 8192 · 24576 (SwiGLU) = 268,435,456 + 603,979,776 = 872,415,232.
  // Output matrix: 152064 · 8192 = 1,245,708,288 (one GPU, tp 1).
  const layer = 872_415_232;
  const output = 1_245_708_288;
  const stage = 80 * layer + 2 * output;
  it('takes the output unit plus the last layer when that is larger than two layers (ZeRO-3 over 4 GPUs, bf16)', () => {
    // (1,245,708,288 + 872,415,232) · 2 bytes · (1 − 1/4) = 3,177,185,280 bytes.
    expect(gatheredBeyondShardBytes(2, layer, 0, stage, 0, 4, 1, 2, true, output)).toBe(3_177_185_280);
    // Without the edge unit: 2 · 872,415,232 · 2 · 0.75 = 2,617,245,696.
    expect(gatheredBeyondShardBytes(2, layer, 0, stage, 0, 4, 1, 2, true)).toBe(2_617_245_696);
  });
  it('keeps two layers when the edge unit is smaller than a layer', () => {
    expect(gatheredBeyondShardBytes(2, layer, 0, stage, 0, 4, 1, 2, true, layer / 2)).toBe(2_617_245_696);
  });
});

import { describe, expect, it } from 'vitest';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { LLAMA3_8B_MODEL } from '../../testing/documents.ts';
import { fp8GatheredLayerWeightBytes, fsdpQuantizedLayerWeightBytes, stageLayerWeights } from '../memory/index.ts';
import { pipelineLayout, stageGpuParameters } from '../structure/index.ts';
import { calibration } from '../calibration.ts';
import { stageComm } from './comm.ts';
import { zero3GatherExposedFraction } from './stack-time.ts';
import { stageTimes } from './step.ts';

// Weights gathered in fp8 move 1 byte per layer weight in the data-parallel all-gather, as they take 1 byte in
// memory: one rule, memory/fp8-weight-cache.ts fp8GatheredLayerWeightBytes, read by the memory and by time/comm.ts.
//
// Hand derivation, Llama 3 8B (hidden 4096, 32 layers, 32 heads of 128, 8 KV heads, SwiGLU FFN 14336, vocab 128256,
// untied) on 32 B200, TP 1, PP 1, DP 32, micro-batch 1, global batch 64: 64 ÷ 32 = 2 micro-batches per step.
//   one layer: Q 4096² = 16,777,216; K and V 2 · 4096 · 1024 = 8,388,608; out 16,777,216; FFN 3 · 4096 · 14336 =
//   176,160,768; 2 RMSNorm weights 8,192: 218,112,000. 32 layers: 6,979,584,000 layer weights.
//   embedding and output 2 · 128,256 · 4096 = 1,050,673,152, final norm 4,096: 1,050,677,248 edge weights, 16-bit.
//   all: 8,030,261,248 weights on the GPU before ZeRO sharding.
// One ZeRO-3 gather of the whole model, bytes S: 16-bit 2 · 8,030,261,248 = 16,060,522,496;
//   fp8 layers 1 · 6,979,584,000 + 2 · 1,050,677,248 = 9,080,938,496.
// Sent per GPU per micro-batch: a forward and a backward all-gather, each (n − 1)/n · S (comm.ts allGather):
//   16-bit 2 · 31/32 · 16,060,522,496 = 31,117,262,336; fp8 2 · 31/32 · 9,080,938,496 = 17,594,318,336.
// Per step (2 micro-batches): 16-bit 62,234,524,672 bytes, fp8 35,188,636,672 bytes.
// ZeRO-1 (the distributed optimizer): one all-gather of the updated weights per step, 31/32 · S; the gradient
// reduce-scatter is the same either way, so fp8 sends 31/32 · 6,979,584,000 · (2 − 1) = 6,761,472,000 bytes fewer.
const LAYER_WEIGHTS = 6_979_584_000;
const ALL_WEIGHTS = 8_030_261_248;

function config(training: Record<string, unknown>, zero: number): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: LLAMA3_8B_MODEL,
    training: { seqLen: 8192, globalBatch: 64, microBatch: 1, precision: 'fp8', framework: 'megatron', ...training },
    parallel: { tp: 1, pp: 1, dp: 32, zero },
    cluster: { gpu: 'b200', gpusPerNode: 8, gpus: 32 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

/** Bytes one GPU sends per step in the weight gathers and data-parallel sync, as step.ts asks comm.ts for them. */
function sent(c: RunConfig) {
  const stage = pipelineLayout(c.model, c.parallel)[0];
  const params = stageGpuParameters(c.model, c.parallel)[0];
  if (!stage || !params) throw new Error('no stage');
  expect(params.dense + params.expert).toBe(ALL_WEIGHTS);
  const layers = stageLayerWeights(c, stage);
  expect(layers.dense + layers.expert).toBe(LAYER_WEIGHTS);
  return stageComm(c, stage.layers.length, params, 0, layers).sentBytes;
}

describe('weights gathered in fp8 move 1 byte per layer weight (Llama 3 8B, 32 B200)', () => {
  it("Megatron-FSDP ZeRO-3, tensorwise with fp8ParamGather: the gathers' bytes per step", () => {
    const fp8 = config({ fp8Recipe: 'tensorwise', fp8ParamGather: true }, 3);
    const bf16Weights = config({ fp8Recipe: 'tensorwise', fp8ParamGather: false }, 3);
    expect(sent(fp8).zero3Gather).toBe(17_594_318_336);
    expect(2 * sent(fp8).zero3Gather).toBe(35_188_636_672);
    expect(2 * sent(bf16Weights).zero3Gather).toBe(62_234_524_672);
  });

  it("the step time's exposed ZeRO-3 gather is the fp8 gather's", () => {
    const c = config({ fp8Recipe: 'tensorwise', fp8ParamGather: true }, 3);
    const stage = pipelineLayout(c.model, c.parallel)[0];
    const params = stageGpuParameters(c.model, c.parallel)[0];
    if (!stage || !params) throw new Error('no stage');
    const gather = stageComm(c, stage.layers.length, params, 0, stageLayerWeights(c, stage)).seconds.zero3Gather;
    const sixteenBit = stageComm(c, stage.layers.length, params, 0).seconds.zero3Gather;
    expect(gather).toBeLessThan(sixteenBit);
    const fraction = zero3GatherExposedFraction(c, calibration().exposed.zero3Gather);
    expect(stageTimes(c, stage, params).exposed.zero3).toBeCloseTo(gather * fraction, 12);
  });

  it('memory and time read the same bytes per gathered layer weight', () => {
    const c = config({ fp8Recipe: 'tensorwise', fp8ParamGather: true }, 3);
    expect(fp8GatheredLayerWeightBytes(c)).toBe(1);
    // The shard holds what the gather moves; on Blackwell no transpose is kept beside it (fp8-weight-cache.ts).
    expect(fsdpQuantizedLayerWeightBytes(c)).toEqual({ shard: 1, gathered: 1 });
  });

  it("the distributed optimizer's (ZeRO-1) weight all-gather moves fp8 layer weights; MXFP8's moves 16-bit", () => {
    const fp8 = sent(config({ fp8Recipe: 'tensorwise', fp8ParamGather: true }, 1)).dp;
    const bf16Weights = sent(config({ fp8Recipe: 'tensorwise', fp8ParamGather: false }, 1)).dp;
    expect(bf16Weights - fp8).toBe(6_761_472_000);
    // Megatron-Core gathers MXFP8 weights in bf16 through the grad buffer (param_and_grad_buffer.py is_mxfp8tensor).
    const mx = config({ fp8Recipe: 'mxfp8', fp8ParamGather: true }, 1);
    expect(fp8GatheredLayerWeightBytes(mx)).toBeNull();
    expect(sent(mx).dp).toBe(bf16Weights);
  });

  it("torchtitan's float8 FSDP all-gather (tensorwise only): fp8 on the wire and in the gathered unit, the shard unchanged", () => {
    const titan = config({ framework: 'torchtitan', fp8Recipe: 'tensorwise', fp8ParamGather: true }, 3);
    expect(sent(titan).zero3Gather).toBe(17_594_318_336);
    expect(fsdpQuantizedLayerWeightBytes(titan)).toEqual({ shard: 2, gathered: 1 });
    // torchao/float8/config.py: enable_fsdp_float8_all_gather only supports tensorwise scaling.
    const rowwise = config({ framework: 'torchtitan', fp8Recipe: 'rowwise', fp8ParamGather: true }, 3);
    expect(fp8GatheredLayerWeightBytes(rowwise)).toBeNull();
    expect(2 * sent(rowwise).zero3Gather).toBe(62_234_524_672);
  });

  it('nothing moves in fp8 without fp8ParamGather, at ZeRO 0 or in 16-bit training', () => {
    expect(fp8GatheredLayerWeightBytes(config({ fp8Recipe: 'tensorwise', fp8ParamGather: false }, 3))).toBeNull();
    expect(fp8GatheredLayerWeightBytes(config({ fp8Recipe: 'tensorwise', fp8ParamGather: true }, 0))).toBeNull();
    expect(fp8GatheredLayerWeightBytes(config({ precision: 'bf16' }, 3))).toBeNull();
  });
});

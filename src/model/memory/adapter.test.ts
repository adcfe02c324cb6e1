import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimate } from '../estimate.ts';
import { parseDocument, ADAPTER_MODULES, type RunConfig } from '../input/index.ts';
import { MODEL_PRESETS, findModelPreset } from '../catalog/all.ts';
import { pipelineLayout, stepFlops } from '../structure/index.ts';
import { adapterStepFlops } from '../time/index.ts';
import { adapterLayerParameters, NF4_DQ_BYTES_PER_PARAMETER, stageAdapterParameters } from './adapter.ts';
import { stageMemoryDetails } from './stages.ts';

// Fine-tuning with frozen base weights (issue 24): hand-derived figures, each with its
// derivation, and the properties every adapter document keeps.

const llama3_8b = findModelPreset('llama3-8b')?.model;

function doc(adapter: unknown, patch: { training?: object; parallel?: object; cluster?: object } = {}) {
  return {
    version: 1,
    model: llama3_8b,
    training: { seqLen: 2048, globalBatch: 8, microBatch: 1, precision: 'bf16', recompute: 'full', adapter, ...patch.training },
    parallel: { tp: 1, pp: 1, dp: 8, zero: 0, ...patch.parallel },
    cluster: { gpu: 'a100-80gb', gpus: 8, ...patch.cluster },
  };
}

function config(raw: unknown): RunConfig {
  const parsed = parseDocument(raw);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

const EVERY_LINEAR = { method: 'lora', rank: 16, modules: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] };

describe('adapter parameters', () => {
  it('rank 16 on every linear of one Llama 3 8B layer: 1,310,720 (×32 layers = 41,943,040, what PEFT prints for Llama 3 8B, r 16, all linear)', () => {
    // h 4096, GQA K/V 8 heads × 128 = 1024, FFN 14336 (meta-llama/Meta-Llama-3-8B config.json).
    // r·(in + out): q 16·(4096 + 4096) = 131,072; k 16·(4096 + 1024) = 81,920; v 81,920;
    // o 131,072; gate 16·(4096 + 14336) = 294,912; up 294,912; down 294,912.
    // Sum: 2·131,072 + 2·81,920 + 3·294,912 = 1,310,720. peft print_trainable_parameters()
    // on Llama 3 8B with LoraConfig(r=16, target_modules="all-linear"): "trainable params:
    // 41,943,040 || all params: 8,072,204,288" (8,030,261,248 base + 41,943,040).
    const c = config(doc(EVERY_LINEAR));
    const layer = adapterLayerParameters(c.model, 0, c.parallel, c.training.adapter!);
    expect(layer.adapter.dense).toBe(1_310_720);
    expect(layer.adapter.expert).toBe(0);
    const stage = stageAdapterParameters(c, pipelineLayout(c.model, c.parallel)[0]!, c.training.adapter!);
    expect(stage.adapter.dense).toBe(41_943_040);
    // The adapted base: every matrix of the layer, 4096·(4096 + 1024 + 1024 + 4096) + 3·4096·14336 = 218,103,808.
    expect(layer.adaptedBase.dense).toBe(218_103_808);
  });

  it('rank 8 on q and v only (torchtune 8B_lora_single_device): 8·(8192 + 5120) = 106,496 per layer', () => {
    const c = config(doc({ method: 'lora', rank: 8, modules: ['q', 'v'] }));
    expect(adapterLayerParameters(c.model, 0, c.parallel, c.training.adapter!).adapter.dense).toBe(106_496);
  });
});

describe('QLoRA storage', () => {
  it('NF4 with double quantisation: 4 + 8/64 + 32/(64·256) bits = 0.515869140625 bytes per parameter', () => {
    // Dettmers et al. 2023 (arXiv 2305.14314), section 3: blocks of 64 weights share one
    // absmax, quantised to 8 bits (8/64 = 0.125 bits per weight); blocks of 256 absmax
    // values share one fp32 constant (32/(64·256) = 0.001953125 bits per weight):
    // 4.126953125 bits = 0.515869140625 bytes.
    expect(NF4_DQ_BYTES_PER_PARAMETER).toBe(0.515869140625);
  });

  it('Llama 3 8B in QLoRA on every linear: the 32 layers in NF4, embedding, head and norms in bf16', () => {
    // Layers: 32 × 218,103,808 = 6,979,321,856 NF4 weights × 0.515869140625 = 3,600,416,768 bytes.
    // Embedding and head: 2 × 128,256 × 4096 = 1,050,673,152 weights; norms 32·2·4096 + 4096 = 266,240: bf16,
    // 2 × 1,050,939,392 = 2,101,878,784 bytes. One GPU (DDP keeps the base whole): 5,702,295,552 bytes.
    const c = config(doc({ ...EVERY_LINEAR, method: 'qlora' }));
    expect(stageMemoryDetails(c)[0]?.breakdown.frozen).toBe(5_702_295_552);
  });
});

describe('frozen base under data parallelism', () => {
  it('ZeRO-3 shards the frozen base over the data-parallel group; DDP keeps it whole', () => {
    // Llama 3 8B: 8,030,261,248 weights × 2 bytes = 16,060,522,496 bytes; over 8 ZeRO-3 ranks 2,007,565,312.
    const whole = config(doc(EVERY_LINEAR));
    const sharded = config(doc(EVERY_LINEAR, { parallel: { zero: 3 } }));
    expect(stageMemoryDetails(whole)[0]?.breakdown.frozen).toBe(16_060_522_496);
    expect(stageMemoryDetails(sharded)[0]?.breakdown.frozen).toBe(2_007_565_312);
    // ZeRO-1/2 shard the adapters' states, not the frozen base.
    expect(stageMemoryDetails(config(doc(EVERY_LINEAR, { parallel: { zero: 2 } })))[0]?.breakdown.frozen).toBe(16_060_522_496);
  });

  it('the adapters hold gradients and optimizer state; the frozen base holds neither', () => {
    // 41,943,040 adapter parameters, bf16 weights (2) + fp32 master (4) + fp32 gradients (4) + Adam moments (8), ZeRO 0.
    const b = stageMemoryDetails(config(doc(EVERY_LINEAR)))[0]!.breakdown;
    expect(b.parameters).toBe(41_943_040 * 2);
    expect(b.gradients).toBe(41_943_040 * 4);
    expect(b.optimizer).toBe(41_943_040 * 12);
  });
});

describe('frozen-weight FLOPs', () => {
  it('backward of a frozen base is its input gradients only: 4·N per token instead of 6·N, plus 6 × the adapters', () => {
    // Per token through one Llama 3 8B layer's matrices (N = 218,103,808 weights): full training
    // 2N forward + 4N backward (input and weight gradients, Narayanan et al. 2021, section 5.1).
    // Frozen: 2N + 2N; adapters (A = 1,310,720 at rank 16): 2A forward + 4A backward.
    // The output layer (V·h = 525,336,576) is frozen too: 6·V·h → 4·V·h. Attention scores unchanged.
    // Difference per token: 32·(2N − 6A) + 2·V·h = 32·(436,207,616 − 7,864,320) + 1,050,673,152 = 14,757,658,624.
    const c = config(doc(EVERY_LINEAR, { training: { recompute: 'none' } }));
    const tokens = 8 * 2048;
    const full = stepFlops(c).modelPerStep;
    const tuned = adapterStepFlops(c, c.training.adapter!).modelPerStep;
    expect(full - tuned).toBe(tokens * 14_757_658_624);
  });

  it("the estimate reports the fine-tune's FLOPs and a shorter step than full training", () => {
    const full = estimate(doc(null));
    const lora = estimate(doc(EVERY_LINEAR));
    expect(lora.errors).toEqual([]);
    expect(lora.flops.modelPerStep).toBeLessThan(full.flops.modelPerStep);
    expect(lora.throughput!.stepSeconds).toBeLessThan(full.throughput!.stepSeconds);
  });
});

describe('bad adapters get field-named errors', () => {
  const errors = (adapter: unknown, training: object = {}) => estimate(doc(adapter, { training })).errors;
  it('rank 0', () => expect(errors({ method: 'lora', rank: 0 })).toEqual(['training.adapter.rank: must be between 1 and 65536, got 0']));
  it('an unknown module', () =>
    expect(errors({ method: 'lora', rank: 8, modules: ['q', 'lm_head'] })[0]).toMatch(
      /^training\.adapter\.modules: "lm_head" is not a matrix/,
    ));
  it('no module', () =>
    expect(errors({ method: 'lora', rank: 8, modules: [] })[0]).toMatch(/^training\.adapter\.modules: must name at least one/));
  it('QLoRA with fp8 precision', () =>
    expect(errors({ method: 'qlora', rank: 8 }, { precision: 'fp8' })[0]).toMatch(
      /^training\.adapter\.method: "qlora" .*training\.precision "fp8"/,
    ));
  it('an unknown method', () => expect(errors({ method: 'dora', rank: 8 })[0]).toMatch(/^training\.adapter\.method: /));
  it('null and absent are full training', () => {
    expect(estimate(doc(null)).memory.perGpu).toStrictEqual(
      estimate({ ...doc(null), training: { ...doc(null).training, adapter: undefined } }).memory.perGpu,
    );
    expect(estimate(doc(null)).memory.perGpu.frozen).toBeUndefined();
  });
  it('modules default to every linear', () => {
    expect(config(doc({ method: 'lora', rank: 8 })).training.adapter?.modules).toEqual(ADAPTER_MODULES);
  });
});

describe('properties', () => {
  const dense = MODEL_PRESETS.filter((p) => p.model.moe === null || p.model.moe === undefined);
  const arbitrary = fc.record({
    preset: fc.constantFrom(...MODEL_PRESETS),
    rank: fc.integer({ min: 1, max: 256 }),
    modules: fc.subarray([...ADAPTER_MODULES], { minLength: 1 }),
    zero: fc.constantFrom(0, 1, 2, 3),
    dp: fc.constantFrom(1, 2, 8),
    recompute: fc.constantFrom('none', 'selective', 'full'),
    precision: fc.constantFrom('bf16', 'fp16', 'fp32'),
    optimizer: fc.constantFrom('adam', 'adam8bit', 'sgd'),
    seqLen: fc.constantFrom(512, 4096),
  });
  type Drawn = typeof arbitrary extends fc.Arbitrary<infer T> ? T : never;
  const build = (a: Drawn, adapter: unknown) => ({
    version: 1,
    model: a.preset.model,
    training: {
      seqLen: a.seqLen,
      globalBatch: 2 * a.dp,
      microBatch: 1,
      precision: a.precision,
      optimizer: a.optimizer,
      recompute: a.recompute,
      adapter,
    },
    parallel: { tp: 1, pp: 1, dp: a.dp, zero: a.zero },
    cluster: { gpu: 'h100-sxm', gpus: a.dp },
  });

  it('an adapter never needs more memory than full training of the same document, and QLoRA never more than LoRA', () => {
    expect(dense.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(arbitrary, (a) => {
        const full = estimate(build(a, null));
        const lora = estimate(build(a, { method: 'lora', rank: a.rank, modules: a.modules }));
        const qlora = estimate(build(a, { method: 'qlora', rank: a.rank, modules: a.modules }));
        expect([full.errors, lora.errors, qlora.errors]).toEqual([[], [], []]);
        expect(lora.memory.perGpu.total).toBeLessThanOrEqual(full.memory.perGpu.total);
        expect(lora.memory.reserved).toBeLessThanOrEqual(full.memory.reserved);
        expect(qlora.memory.perGpu.total).toBeLessThanOrEqual(lora.memory.perGpu.total);
        expect(qlora.memory.reserved).toBeLessThanOrEqual(lora.memory.reserved);
      }),
      { numRuns: 60 },
    );
  });

  it('the breakdown adds up: frozen + trainable states + activations + other = total', () => {
    fc.assert(
      fc.property(arbitrary, (a) => {
        const b = estimate(build(a, { method: 'qlora', rank: a.rank, modules: a.modules })).memory.perGpu;
        const sum = (b.frozen ?? 0) + b.parameters + b.gradients + b.optimizer + b.activations + b.other;
        expect(Math.abs(sum - b.total)).toBeLessThanOrEqual(1e-6 * b.total);
      }),
      { numRuns: 30 },
    );
  });
});

describe('fix-it', () => {
  it('a LoRA fine-tune that does not fit is offered QLoRA, and the suggestion fits', async () => {
    const { fitSuggestions } = await import('../search/index.ts');
    // Llama 3 8B LoRA on one 24 GB GPU: the bf16 base alone is 16.1 GB (15.0 GiB).
    const c = config({
      version: 1,
      model: llama3_8b,
      training: { seqLen: 2048, globalBatch: 1, microBatch: 1, recompute: 'none', adapter: { method: 'lora', rank: 16 } },
      parallel: { tp: 1, pp: 1, dp: 1, zero: 0 },
      cluster: {
        gpu: {
          name: 'RTX 4090',
          memoryGiB: 24,
          bf16Tflops: 165.2,
          fp8Tflops: 330.3,
          fp32Tflops: 82.6,
          hbmGBps: 1008,
          intraNodeGBps: 32,
          interNodeGBps: 12.5,
          tdpWatts: 450,
          usdPerHour: 0.5,
        },
        gpus: 1,
      },
    });
    const fixes = fitSuggestions(c);
    expect(fixes.fits).toBe(false);
    const qlora = fixes.suggestions.find((s) =>
      s.changes.some((ch) => ch.path.join('.') === 'training.adapter.method' && ch.value === 'qlora'),
    );
    expect(qlora?.label).toBe('QLoRA (frozen base in 4-bit NF4)');
    expect(qlora?.memoryBytes).toBeLessThan(fixes.capacityBytes);
  });
});

describe('eager adapter dispatch (the one constant fitted on finetune-runs.json)', () => {
  it('7 adapted matrices × (5 forward + 10 backward operators) × 10 µs per layer in eager PyTorch; nothing under torch.compile', async () => {
    const { adapterHostSeconds, EAGER_OP_HOST_SECONDS } = await import('../time/index.ts');
    expect(EAGER_OP_HOST_SECONDS).toBe(10e-6);
    const eager = config(doc(EVERY_LINEAR));
    const host = adapterHostSeconds(eager, 0, eager.training.adapter!);
    expect(host.forward).toBeCloseTo(7 * 5 * 10e-6, 12);
    expect(host.backward).toBeCloseTo(7 * 10 * 10e-6, 12);
    const compiled = config(doc(EVERY_LINEAR, { training: { compile: true } }));
    expect(adapterHostSeconds(compiled, 0, compiled.training.adapter!)).toEqual({ forward: 0, backward: 0 });
  });
});

describe('the fine-tune examples (examples/)', () => {
  it('Llama 3.1 8B QLoRA on one RTX 4090 and 70B LoRA with FSDP on 8 A100 are valid runs that fit', async () => {
    const { readFileSync } = await import('node:fs');
    for (const name of ['llama3.1-8b-qlora-rtx4090.json', 'llama3.1-70b-lora-8-a100-fsdp.json']) {
      const output = estimate(JSON.parse(readFileSync(new URL(`../../../examples/${name}`, import.meta.url), 'utf8')));
      expect(output.errors, name).toEqual([]);
      expect(output.memory.fits, name).toBe(true);
      expect(output.memory.perGpu.frozen, name).toBeGreaterThan(0);
    }
  });
});

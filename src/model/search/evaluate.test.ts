import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkConsistency } from '../input/index.ts';
import { estimateConfig } from '../estimate.ts';
import { stageMemoryDetails } from '../memory/index.ts';
import { searchBase, type SearchRunSpec } from '../../testing/search-fixtures.ts';
import { explicitEtp, layoutConfig } from './pieces.ts';
import { fastEvaluate } from './run.ts';
import { searchLayouts } from './search.ts';
import { layoutGroups, type LayoutGroup } from './space.ts';
import { layoutKeptFor } from '../input/index.ts';
import type { LayoutChoice } from './types.ts';
import { stepTime } from '../time/index.ts';
import type { RunConfig } from '../input/index.ts';
import type { ModelJson } from '../input/index.ts';
import { findCatalogEntry } from '../catalog/all.ts';

const GPT_OSS_120B = findCatalogEntry('gpt-oss-120b')?.model as ModelJson;
const GEMMA3_12B = findCatalogEntry('gemma3-12b')?.model as ModelJson;
const MISTRAL_7B_V01 = findCatalogEntry('mistral-7b-v0.1')?.model as ModelJson;

// The search ranks layouts with its own evaluator (search-eval.ts), built from pieces the
// engine computes. These tests hold it to the engine: for layouts drawn at random from
// the search's own space, its memory must equal the most loaded stage of
// stageMemoryDetails' device-used bytes and its step time stepTime(c, 0) (the closed-form pipeline
// bubble), both to 1e-9 relative: the same formulas in a different order of
// floating-point operations. Any change to the engine that the evaluator does not
// follow fails here.
const RELATIVE_TOLERANCE = 1e-9;

const relative = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

/**
 * Draws layouts from the search's space for `base` (offload searched too, so every ZeRO/offload combo can come up), or from
 * the groups `keep` keeps; each with the document's stated pipeline layout where the search keeps it (run.ts scoredLayout).
 */
function layoutSampler(base: RunConfig, keep: (g: LayoutGroup) => boolean = () => true) {
  const groups = layoutGroups(base, { searchOffload: true }).filter(keep);
  return (a: number, b: number, c: number): LayoutChoice | null => {
    const g = groups[a % Math.max(1, groups.length)];
    if (!g) return null;
    const shape = g.shapes[b % g.shapes.length];
    const combo = g.combos[c % g.combos.length];
    if (!shape || !combo) return null;
    return {
      gpus: g.gpus,
      parallel: {
        tp: g.tp,
        pp: g.pp,
        dp: g.dp,
        cp: g.cp,
        ep: g.ep,
        ...explicitEtp(base),
        vpp: shape.vpp,
        sequenceParallel: g.sequenceParallel,
        zero: combo.zero,
        schedule: shape.schedule,
        ...layoutKeptFor(base.parallel, shape),
      },
      microBatch: g.microBatch,
      recompute: g.recompute,
      offload: combo.offload,
    };
  };
}

function expectAgreement(base: RunConfig, choice: LayoutChoice): void {
  const c = layoutConfig(base, choice);
  expect(checkConsistency(c).errors).toEqual([]);
  const fast = fastEvaluate(base, choice);
  // The search judges fit on what the device holds, as estimate's memory.fits does (memory.deviceUsed).
  const memory = Math.max(...stageMemoryDetails(c).map((s) => s.deviceUsed));
  const step = stepTime(c, 0).stepSeconds;
  const where = JSON.stringify(choice);
  expect(relative(fast.memoryBytes, memory), `memory of ${where}`).toBeLessThan(RELATIVE_TOLERANCE);
  expect(relative(fast.stepSeconds, step), `step time of ${where}`).toBeLessThan(RELATIVE_TOLERANCE);
}

const PRESET_RUNS: readonly SearchRunSpec[] = [
  { model: 'gpt3-175b', gpu: 'a100-80gb', gpus: 1024, globalBatch: 1536, seqLen: 2048 },
  { model: 'llama3-70b', gpu: 'h100-sxm', gpus: 512, globalBatch: 1024, seqLen: 8192, training: { precision: 'fp8' } },
  { model: 'mixtral-8x7b', gpu: 'h100-sxm', gpus: 64, globalBatch: 256, seqLen: 4096 },
  // Megatron fp8 with 16-bit weights: Transformer Engine's weight cache over the layers' dense and expert weights (memory/fp8-weight-cache.ts).
  {
    model: 'mixtral-8x7b',
    gpu: 'h100-sxm',
    gpus: 64,
    globalBatch: 256,
    seqLen: 4096,
    training: { precision: 'fp8', framework: 'megatron' },
  },
  // Megatron tensorwise fp8 with fp8 weights: at ZeRO-3 Megatron-FSDP's one-byte layer weights (memory/fp8-weight-cache.ts), on Blackwell and Hopper.
  {
    model: 'llama3-8b',
    gpu: 'b200',
    gpus: 32,
    globalBatch: 64,
    seqLen: 8192,
    training: { precision: 'fp8', framework: 'megatron', fp8Recipe: 'tensorwise' },
  },
  {
    model: 'mixtral-8x7b',
    gpu: 'h100-sxm',
    gpus: 64,
    globalBatch: 256,
    seqLen: 4096,
    training: { precision: 'fp8', framework: 'megatron', fp8Recipe: 'delayed', fp8ParamGather: true },
  },
  // A stated Megatron-LM release: core_v0.6.0's cross-entropy copies at the loss (memory/cross-entropy-copies.ts).
  {
    model: 'llama3-8b',
    gpu: 'a100-80gb',
    gpus: 16,
    globalBatch: 64,
    seqLen: 8192,
    training: { framework: 'megatron', frameworkRelease: 'core_v0.6.0' },
  },
  // Activation offload (Megatron --cpu-offloading-num-layers): the offloaded layers' saved tensors leave the GPU (memory/activations.ts).
  {
    model: 'llama3-70b',
    gpu: 'gb200',
    gpus: 64,
    globalBatch: 128,
    seqLen: 8192,
    training: { precision: 'fp8', framework: 'megatron', activationOffloadLayers: 20 },
  },
  // Sliding-window attention (model.slidingWindow) moves the attention time the search prices.
  { model: GPT_OSS_120B, gpu: 'h100-sxm', gpus: 64, globalBatch: 512, seqLen: 8192 },
  // Sliding windows with context parallelism: a long sequence split over CP ranks.
  { model: GPT_OSS_120B, gpu: 'h100-sxm', gpus: 128, globalBatch: 128, seqLen: 32768 },
  // Five sliding layers to one full one (Gemma 3): stages hold different mixes of the two kinds.
  { model: GEMMA3_12B, gpu: 'h100-sxm', gpus: 32, globalBatch: 128, seqLen: 8192 },
  // Every layer slides (Mistral 7B v0.1, no layer types), with activation offload under full recomputation of 2 layers a stage.
  {
    model: MISTRAL_7B_V01,
    gpu: 'a100-80gb',
    gpus: 16,
    globalBatch: 64,
    seqLen: 16384,
    training: { framework: 'megatron', activationOffloadLayers: 1, recomputeLayers: 2 },
  },
  // torchtitan's layer policy: every 2nd layer of a stage fully recomputed (activation_checkpoint.py).
  {
    model: 'llama3-8b',
    gpu: 'h100-sxm',
    gpus: 16,
    globalBatch: 64,
    seqLen: 8192,
    training: { framework: 'torchtitan', selectivePolicy: 'layer', recomputeLayerFrequency: 2 },
  },
  // DeepSpeed ZeRO-3 without a forward host sync: the gather cache of memory/zero3-gather-cache.ts.
  {
    model: 'llama3-8b',
    gpu: 'h100-sxm',
    gpus: 16,
    globalBatch: 64,
    seqLen: 4096,
    training: { framework: 'deepspeed', forwardHostSync: 'none' },
  },
  // MoE routing (issue 32 item 4): a busiest expert-parallel rank at 1.3 × the mean, and AutoModel's fake balanced gate under DeepEP.
  {
    model: 'mixtral-8x7b',
    gpu: 'h100-sxm',
    gpus: 64,
    globalBatch: 256,
    seqLen: 4096,
    training: { framework: 'megatron', moeDispatcher: 'alltoall', moeLoadImbalance: 1.3 },
  },
  {
    model: 'deepseek-v3',
    gpu: 'h800',
    gpus: 256,
    globalBatch: 1024,
    seqLen: 4096,
    training: { moeDispatcher: 'deepep', moeRouter: 'fakeBalanced' },
  },
  // MoE stack knobs: DeepEP dispatch and partial CUDA graphs under Megatron.
  {
    model: 'mixtral-8x7b',
    gpu: 'h100-sxm',
    gpus: 64,
    globalBatch: 256,
    seqLen: 4096,
    training: { framework: 'megatron', moeDispatcher: 'deepep', cudaGraph: 'partial' },
  },
  // Transformers model code, eager loss, dropout and an 8-bit optimizer state.
  {
    model: 'llama3-8b',
    gpu: 'a100-80gb',
    gpus: 16,
    globalBatch: 64,
    seqLen: 4096,
    training: { modelCode: 'transformers', loss: 'eager', dropout: true, optimizerStateDtype: 'bf16' },
  },
  // fp4 on Blackwell.
  { model: 'llama3-70b', gpu: 'b200', gpus: 64, globalBatch: 256, seqLen: 8192, training: { precision: 'fp4' } },
  // MoE with dense leading layers, a shared expert, latent attention and a multi-token-prediction module.
  { model: 'deepseek-v3', gpu: 'h800', gpus: 256, globalBatch: 1024, seqLen: 4096, training: { gradDtype: 'bf16' } },
  { model: 'megatron-1t', gpu: 'a100-80gb', gpus: 768, globalBatch: 1536, seqLen: 2048 },
  // torchtitan frees the gradients before forward: with one micro-batch per step they count only beyond the activations (memory.ts gradientBytesAtPeak).
  { model: 'llama3-8b', gpu: 'h100-sxm', gpus: 16, globalBatch: 16, seqLen: 8192, training: { framework: 'torchtitan', compile: true } },
];

const ALL_MODULES = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];
const lora = (rank: number, modules: readonly string[] = ALL_MODULES) => ({ adapter: { method: 'lora', rank, modules } });
const qlora = (rank: number, modules: readonly string[] = ALL_MODULES) => ({ adapter: { method: 'qlora', rank, modules } });

/**
 * Fine-tunes (training.adapter, memory/adapter.ts, time/adapter-time.ts): a frozen 16-bit or NF4 base beside the adapters'
 * states, the adapters' gradient sync and optimizer step only, ZeRO-3 still gathering the frozen base. Random layouts draw
 * every ZeRO stage, offload, recomputation, TP, PP and EP the space holds.
 */
const FINETUNE_RUNS: readonly SearchRunSpec[] = [
  { model: 'llama3-8b', gpu: 'h100-sxm', gpus: 16, globalBatch: 64, seqLen: 4096, training: lora(16) },
  { model: 'llama3-8b', gpu: 'a100-80gb', gpus: 16, globalBatch: 64, seqLen: 4096, training: qlora(64, ['q', 'v']) },
  // torchtitan frees full training's gradients before forward; a fine-tune's stage memory keeps its adapters' (memory/stages.ts).
  { model: 'llama3-8b', gpu: 'h100-sxm', gpus: 16, globalBatch: 16, seqLen: 8192, training: { framework: 'torchtitan', ...lora(8) } },
  // PEFT's fp32 adapters on transformers' model code (memory/adapter-matrices.ts peftFp32Adapters), eager: the adapters' host time.
  { model: 'llama3-70b', gpu: 'h100-sxm', gpus: 32, globalBatch: 64, seqLen: 4096, training: { modelCode: 'transformers', ...qlora(16) } },
  // MoE: the routed experts' adapters split by ep × etp; QLoRA's buffer is an expert's or an attention matrix, by stage.
  { model: 'mixtral-8x7b', gpu: 'h100-sxm', gpus: 64, globalBatch: 256, seqLen: 4096, training: lora(16) },
  { model: 'mixtral-8x7b', gpu: 'h100-sxm', gpus: 64, globalBatch: 256, seqLen: 4096, training: qlora(32, ['q', 'k', 'v', 'o']) },
  // Dense leading layers, a shared expert, latent attention and an MTP module (which carries no adapter).
  { model: 'deepseek-v3', gpu: 'h800', gpus: 256, globalBatch: 1024, seqLen: 4096, training: { gradDtype: 'bf16', ...qlora(16) } },
  // DeepSpeed ZeRO-3 without a forward host sync: the gather-stream cache leaves fine-tunes out (memory/zero3-gather-cache.ts).
  {
    model: 'llama3-8b',
    gpu: 'h100-sxm',
    gpus: 16,
    globalBatch: 64,
    seqLen: 4096,
    training: { framework: 'deepspeed', forwardHostSync: 'none', ...lora(16) },
  },
  // fp8 LoRA under Megatron: no Transformer Engine weight cache nor fp8 gathers for a frozen base (memory/fp8-weight-cache.ts).
  {
    model: 'llama3-70b',
    gpu: 'h100-sxm',
    gpus: 64,
    globalBatch: 128,
    seqLen: 8192,
    training: { precision: 'fp8', framework: 'megatron', fp8ParamGather: true, ...lora(16) },
  },
];

describe('the search evaluator agrees with the engine', () => {
  for (const spec of [...PRESET_RUNS, ...FINETUNE_RUNS]) {
    const method = (spec.training?.['adapter'] as { method?: string } | undefined)?.method;
    const name = `${typeof spec.model === 'string' ? spec.model : String(spec.model.name)}${method ? ` (${method})` : ''}`;
    it(`on random layouts of ${name} on ${spec.gpus} × ${spec.gpu}`, () => {
      const base = searchBase(spec);
      const sample = layoutSampler(base);
      fc.assert(
        fc.property(fc.nat(), fc.nat(), fc.nat(), (a, b, c) => {
          const choice = sample(a, b, c);
          if (choice) expectAgreement(base, choice);
        }),
        { numRuns: 30 },
      );
    });
  }

  it("on random layouts of mixtral-8x7b with the document's explicit expert TP 1 (the search keeps it in every layout)", () => {
    const plain = searchBase({ model: 'mixtral-8x7b', gpu: 'h100-sxm', gpus: 64, globalBatch: 256, seqLen: 4096 });
    const base = { ...plain, parallel: { ...plain.parallel, etp: 1 } };
    const sample = layoutSampler(base);
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.nat(), (a, b, c) => {
        const choice = sample(a, b, c);
        if (choice) expectAgreement(base, choice);
      }),
      { numRuns: 30 },
    );
  });

  it('on random layouts of llama2-13b on the PP 2 × VPP 20 of its stated pipeline layout (19 and 21 layers a rank)', () => {
    // pipeline-layout.test.ts: "E|(t|)*38ttL" puts the embedding alone in chunk 0 and two layers in the last.
    const plain = searchBase({ model: 'llama2-13b', gpu: 'a100-80gb', gpus: 12, globalBatch: 96, seqLen: 4096 });
    const parallel = { ...plain.parallel, tp: 2, pp: 2, dp: 3, vpp: 20, schedule: 'interleaved-1f1b' as const };
    const base = { ...plain, parallel: { ...parallel, pipelineLayout: 'E|(t|)*38ttL' } };
    const sample = layoutSampler(base, (g) => g.pp === 2);
    let stated = 0;
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.nat(), (a, b, c) => {
        const choice = sample(a, b, c);
        if (!choice) return;
        if (choice.parallel.pipelineLayout) stated++;
        expectAgreement(base, choice);
      }),
      { numRuns: 60 },
    );
    expect(stated).toBeGreaterThan(0);
  });

  it('on random layouts of random small models and clusters', () => {
    const model = fc.record({
      layers: fc.integer({ min: 1, max: 12 }),
      headsLog: fc.integer({ min: 0, max: 4 }),
      kvDivisorLog: fc.integer({ min: 0, max: 4 }),
      headDim: fc.constantFrom(16, 32, 64),
      ffnMultiple: fc.integer({ min: 1, max: 6 }),
      swiglu: fc.boolean(),
      vocab: fc.integer({ min: 8, max: 5000 }),
      tied: fc.boolean(),
      moe: fc.option(
        fc.record({
          expertsLog: fc.integer({ min: 1, max: 4 }),
          topK: fc.integer({ min: 1, max: 2 }),
          shared: fc.integer({ min: 0, max: 1 }),
          dense: fc.integer({ min: 0, max: 2 }),
        }),
      ),
      mtpLayers: fc.integer({ min: 0, max: 1 }),
    });
    const run = fc.record({
      model,
      gpus: fc.integer({ min: 1, max: 48 }),
      gpu: fc.constantFrom('a100-40gb', 'h100-sxm', 'b200', 'mi300x'),
      batchLog: fc.integer({ min: 0, max: 6 }),
      seqLog: fc.integer({ min: 5, max: 11 }),
      precision: fc.constantFrom('bf16', 'fp8', 'fp32'),
      optimizer: fc.constantFrom('adam', 'adam8bit', 'sgd'),
      flashAttention: fc.boolean(),
      adapter: fc.option(
        fc.record({
          method: fc.constantFrom('lora', 'qlora'),
          rank: fc.integer({ min: 1, max: 64 }),
          modules: fc.subarray(ALL_MODULES, { minLength: 1 }),
        }),
        { freq: 2 },
      ),
    });
    fc.assert(
      fc.property(run, fc.nat(), fc.nat(), fc.nat(), (r, a, b, c) => {
        const heads = 2 ** r.model.headsLog;
        const hidden = heads * r.model.headDim;
        const m: ModelJson = {
          name: 'random',
          layers: r.model.layers,
          hidden,
          heads,
          kvHeads: Math.max(1, heads / 2 ** Math.min(r.model.kvDivisorLog, r.model.headsLog)),
          ffnHidden: hidden * r.model.ffnMultiple,
          ffnType: r.model.swiglu ? 'swiglu' : 'gelu',
          vocab: r.model.vocab,
          tiedEmbeddings: r.model.tied,
          moe: r.model.moe
            ? {
                experts: 2 ** r.model.moe.expertsLog,
                topK: r.model.moe.topK,
                expertFfnHidden: hidden,
                sharedExperts: r.model.moe.shared,
                denseLayers: Math.min(r.model.moe.dense, r.model.layers),
              }
            : null,
          mla: null,
          mtpLayers: r.model.mtpLayers,
        };
        // A100 has no FP8 tensor cores: the engine refuses fp8 there (input/capabilities.ts precisionProblem).
        const precision = r.gpu === 'a100-40gb' && r.precision === 'fp8' ? 'bf16' : r.precision;
        // QLoRA computes in the 16-bit dtype its NF4 base is dequantised to (input/document.ts readAdapter).
        const adapter = r.adapter && precision === 'fp8' ? { ...r.adapter, method: 'lora' } : r.adapter;
        const base = searchBase({
          model: m,
          gpu: r.gpu,
          gpus: r.gpus,
          globalBatch: 2 ** r.batchLog * 3,
          seqLen: 2 ** r.seqLog,
          training: { precision, optimizer: r.optimizer, flashAttention: r.flashAttention, ...(adapter ? { adapter } : {}) },
        });
        const choice = layoutSampler(base)(a, b, c);
        if (choice) expectAgreement(base, choice);
      }),
      { numRuns: 80 },
    );
  });
});

describe("the search's ranked layouts carry the engine's figures", () => {
  // The search proper shares pieces between groups through its cache slots (run.ts PieceCache), unlike fastEvaluate; the
  // layout fix-it offers (fit-fallback.ts bestLayoutOn) is its first. Exhaustive, so layouts that do not fit are ranked too.
  const runs: readonly SearchRunSpec[] = [
    {
      model: 'llama3-70b',
      gpu: 'gb200',
      gpus: 64,
      globalBatch: 128,
      seqLen: 8192,
      training: { precision: 'fp8', framework: 'megatron', activationOffloadLayers: 4 },
    },
    { model: GEMMA3_12B, gpu: 'h100-sxm', gpus: 32, globalBatch: 128, seqLen: 8192 },
    {
      model: 'llama3-8b',
      gpu: 'h100-sxm',
      gpus: 16,
      globalBatch: 64,
      seqLen: 4096,
      training: { framework: 'deepspeed', forwardHostSync: 'none' },
    },
    { model: 'mixtral-8x7b', gpu: 'h100-sxm', gpus: 16, globalBatch: 64, seqLen: 4096, training: qlora(16) },
  ];
  for (const spec of runs) {
    it(`for ${typeof spec.model === 'string' ? spec.model : String(spec.model.name)} on ${spec.gpus} × ${spec.gpu}`, () => {
      const base = searchBase(spec);
      const result = searchLayouts(base, { topK: 8, pareto: false, searchOffload: true, exhaustive: true, groupByLayout: false });
      expect(result.top.length).toBeGreaterThan(0);
      for (const layout of result.top) {
        const c = layoutConfig(base, layout);
        expect(checkConsistency(c).errors).toEqual([]);
        const memory = Math.max(...stageMemoryDetails(c).map((s) => s.deviceUsed));
        expect(relative(layout.memoryBytes, memory)).toBeLessThan(RELATIVE_TOLERANCE);
        expect(relative(layout.stepSeconds, stepTime(c, 0).stepSeconds)).toBeLessThan(RELATIVE_TOLERANCE);
      }
    });
  }
});

describe('ZeRO with nothing to shard over', () => {
  // search-space.ts enumerates one ZeRO stage when every group ZeRO shards over has one
  // GPU: the engine must then give the same figures for every stage (offload aside).
  it('gives the same memory and step time for ZeRO 0 to 3 when dp × cp = 1 (dense model)', () => {
    const base = searchBase({ model: 'llama2-7b', gpu: 'h100-sxm', gpus: 8, globalBatch: 64, seqLen: 4096 });
    const outputs = ([0, 1, 2, 3] as const).map((zero) =>
      estimateConfig(
        layoutConfig(base, {
          gpus: 8,
          parallel: { tp: 4, pp: 2, dp: 1, cp: 1, ep: 1, vpp: 1, sequenceParallel: true, zero, schedule: '1f1b' },
          microBatch: 1,
          recompute: 'selective',
          offload: { optimizer: false, parameters: false },
        }),
      ),
    );
    for (const out of outputs.slice(1)) {
      expect(out.memory.perGpu.total).toBe(outputs[0]?.memory.perGpu.total);
      expect(out.throughput?.stepSeconds).toBe(outputs[0]?.throughput?.stepSeconds);
    }
  });

  it('and for a MoE model whose expert groups are one GPU too (tp = ep = 8, dp = 1)', () => {
    const base = searchBase({ model: 'mixtral-8x7b', gpu: 'h100-sxm', gpus: 16, globalBatch: 32, seqLen: 4096 });
    const outputs = ([0, 1, 2, 3] as const).map((zero) =>
      estimateConfig(
        layoutConfig(base, {
          gpus: 16,
          parallel: { tp: 8, pp: 2, dp: 1, cp: 1, ep: 8, vpp: 1, sequenceParallel: true, zero, schedule: '1f1b' },
          microBatch: 1,
          recompute: 'full',
          offload: { optimizer: false, parameters: false },
        }),
      ),
    );
    expect(outputs[0]?.errors).toEqual([]);
    for (const out of outputs.slice(1)) {
      expect(out.memory.perGpu.total).toBe(outputs[0]?.memory.perGpu.total);
      expect(out.throughput?.stepSeconds).toBe(outputs[0]?.throughput?.stepSeconds);
    }
  });
});

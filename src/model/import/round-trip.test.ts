import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT } from '../../state/defaults.ts';
import { launchFileForDocument, type LaunchTarget } from '../export/index.ts';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { importLaunchFile } from './index.ts';

// Issue 15, "done when": import(launch(doc, framework)) gives back the model, training and
// parallel fields the framework can express. What each cannot express (docs/launch-args.md):
// torchtitan names a model only by flavor (Llama 3 70B is one; GPT and Mixtral are not), has
// no ZeRO-1 (FSDP2 without resharding is ZeRO-2) and shards the sequence whenever TP > 1;
// Megatron-DeepSpeed has no interleaving and no fp8; torchtitan and DeepSpeed offload
// together what they offload; the token budget comes back rounded up to whole samples or steps.

const gpt = {
  version: 1,
  model: { name: 'GPT-3 1.3B', layers: 24, hidden: 2048, heads: 16, vocab: 50257, ffnType: 'gelu', tiedEmbeddings: true },
  training: { seqLen: 2048, globalBatch: 512, microBatch: 4, tokens: 3e11, precision: 'fp16', recompute: 'selective' },
  parallel: { tp: 2, pp: 1, dp: 8, zero: 2, sequenceParallel: true },
  cluster: { gpu: 'a100-80gb', gpusPerNode: 8, gpus: 16 },
};
const mixtral = {
  version: 1,
  model: {
    name: 'Mixtral 8x7B',
    layers: 32,
    hidden: 4096,
    heads: 32,
    kvHeads: 8,
    ffnHidden: 14336,
    ffnType: 'swiglu',
    vocab: 32000,
    tiedEmbeddings: false,
    moe: { experts: 8, topK: 2, expertFfnHidden: 14336 },
  },
  training: { seqLen: 4096, globalBatch: 512, microBatch: 1, tokens: 1e12, precision: 'bf16', recompute: 'full' },
  parallel: { tp: 2, pp: 4, dp: 8, ep: 8, vpp: 2, sequenceParallel: true, zero: 1, schedule: 'interleaved-1f1b' },
  cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 64 },
};
const documents = [
  ['Llama 3 70B (Llama-style)', DEFAULT_DOCUMENT],
  ['GPT-3 1.3B (GPT-style)', gpt],
  ['Mixtral 8x7B (Mixtral-style)', mixtral],
] as const;

function config(raw: unknown): RunConfig {
  const parsed = parseDocument(raw);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

/** fp8 needs Transformer Engine in Megatron-DeepSpeed's model code, and a flavor's float8 converter in torchtitan, which mixes only bf16 or fp32. */
function precisionBack(c: RunConfig, framework: LaunchTarget): string {
  const p = c.training.precision;
  if (framework === 'deepspeed') return p === 'fp8' || p === 'fp4' ? 'bf16' : p;
  if (framework === 'torchtitan')
    return p === 'fp32' ? 'fp32' : p === 'fp8' && c.model.ffnType === 'swiglu' && !c.model.moe ? 'fp8' : 'bf16';
  return p;
}

/** The fields `framework` can say, as they should come back. */
function expressible(c: RunConfig, framework: LaunchTarget): Record<string, unknown> {
  const { model: m, training: t, parallel: p } = c;
  const torchtitan = framework === 'torchtitan';
  const deepspeed = framework === 'deepspeed';
  const model =
    torchtitan && (m.moe || m.ffnType !== 'swiglu')
      ? {}
      : {
          layers: m.layers,
          hidden: m.hidden,
          heads: m.heads,
          kvHeads: m.kvHeads,
          ffnHidden: m.ffnHidden,
          ffnType: m.ffnType,
          vocab: m.vocab,
          tiedEmbeddings: m.tiedEmbeddings,
          moe: m.moe && { experts: m.moe.experts, topK: m.moe.topK, expertFfnHidden: m.moe.expertFfnHidden },
        };
  const sharedOffload = t.offload.optimizer || t.offload.parameters;
  return {
    model,
    training: {
      seqLen: t.seqLen,
      globalBatch: t.globalBatch,
      microBatch: t.microBatch,
      recompute: t.recompute,
      precision: precisionBack(c, framework),
      ...(torchtitan ? {} : { optimizer: t.optimizer, flashAttention: t.flashAttention, gradDtype: t.gradDtype }),
      offload: torchtitan
        ? { optimizer: sharedOffload, parameters: sharedOffload }
        : { optimizer: t.offload.optimizer, parameters: deepspeed && t.offload.parameters },
    },
    parallel: {
      tp: p.tp,
      pp: p.pp,
      dp: p.dp,
      cp: p.cp,
      ep: p.ep,
      sequenceParallel: p.sequenceParallel && p.tp > 1,
      zero: torchtitan && p.zero === 1 ? 2 : p.zero,
      // torchtitan gives layers per virtual stage: without a flavor, the layer count is not in the file.
      ...(deepspeed || (torchtitan && Object.keys(model).length === 0) ? {} : { vpp: p.vpp, schedule: p.schedule }),
    },
    cluster: { gpus: c.cluster.gpus, ...(torchtitan ? {} : { gpusPerNode: c.cluster.gpusPerNode }) },
  };
}

/** The same projection of what came back (model fields only where the original's are expected). */
function returned(c: RunConfig, expected: Record<string, unknown>, framework: LaunchTarget): Record<string, unknown> {
  const back = expressible(c, framework === 'torchtitan' ? 'megatron' : framework);
  const training = { ...(back['training'] as Record<string, unknown>) };
  const keys = Object.keys(expected['training'] as object);
  return {
    ...back,
    model: Object.keys(expected['model'] as object).length === 0 ? {} : back['model'],
    training: Object.fromEntries(keys.map((k) => [k, training[k]])),
    parallel: Object.fromEntries(
      Object.keys(expected['parallel'] as object).map((k) => [k, (back['parallel'] as Record<string, unknown>)[k]]),
    ),
    cluster: Object.fromEntries(
      Object.keys(expected['cluster'] as object).map((k) => [k, (back['cluster'] as Record<string, unknown>)[k]]),
    ),
  };
}

describe('import(launch(document, framework)) gives back what the framework can express', () => {
  for (const [name, document] of documents) {
    for (const framework of ['megatron', 'torchtitan', 'deepspeed'] as const) {
      it(`${name} through ${framework}`, () => {
        const original = config(document);
        const launch = launchFileForDocument(document, framework);
        if (!launch.ok) throw new Error(launch.errors.join('; '));
        const imported = importLaunchFile(launch.launch.text, { gpu: original.cluster.gpuId ?? 'h100-sxm' });
        if (!imported.ok) throw new Error(imported.errors.join('; '));
        expect(imported.kind).toBe(framework);
        expect((imported.document['training'] as Record<string, unknown>)['framework']).toBe(framework);
        const expected = expressible(original, framework);
        // A model the framework cannot name comes from elsewhere (a config.json); here, the original's.
        const model =
          Object.keys(expected['model'] as object).length === 0 ? (document as { model: unknown }).model : imported.document['model'];
        const back = config({ ...imported.document, model });
        expect(returned(back, expected, framework)).toEqual(expected);
        // The budget comes back rounded up to whole samples (Megatron) or steps (torchtitan).
        const step = framework === 'torchtitan' ? original.training.seqLen * original.training.globalBatch : original.training.seqLen;
        expect(back.training.tokens).toBeGreaterThanOrEqual(original.training.tokens);
        expect(back.training.tokens - original.training.tokens).toBeLessThan(step);
        // Nothing the launch file wrote goes unread.
        expect(
          imported.warnings.filter(
            (w) =>
              !/^(cluster\.gpu|the imported document|\[model\]: missing)/.test(w) &&
              !/^\[parallelism\] pipeline_parallel_layers_per_stage = \d+: the virtual stages need/.test(w),
          ),
        ).toEqual([]);
      });
    }
  }
});

describe('Megatron-LM round trip of the rarer flags', () => {
  it('DeepSeek-V3 shapes (MLA, shared experts, leading dense layers, MTP), Megatron-FSDP ZeRO-3, recompute modules, the fp8 recipe, bf16 moments', () => {
    const deepseek = {
      version: 1,
      model: {
        name: 'DeepSeek-V3 671B',
        layers: 61,
        hidden: 7168,
        heads: 128,
        kvHeads: 128,
        ffnHidden: 18432,
        ffnType: 'swiglu',
        vocab: 129280,
        moe: { experts: 256, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 3 },
        mla: { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 },
        mtpLayers: 1,
      },
      training: {
        seqLen: 4096,
        globalBatch: 8192,
        microBatch: 1,
        precision: 'fp8',
        framework: 'megatron',
        recompute: 'selective',
        recomputeModules: ['mla_up_proj', 'moe_act'],
        optimizerStateDtype: 'bf16',
        fp8Recipe: 'blockwise',
        loss: 'fused',
      },
      parallel: { tp: 1, pp: 16, dp: 128, ep: 64, zero: 3, schedule: '1f1b' },
      cluster: { gpu: 'h800', gpus: 2048 },
    };
    const original = config(deepseek);
    const launch = launchFileForDocument(deepseek, 'megatron');
    if (!launch.ok) throw new Error(launch.errors.join('; '));
    const imported = importLaunchFile(launch.launch.text, { gpu: 'h800' });
    if (!imported.ok) throw new Error(imported.errors.join('; '));
    const back = config(imported.document);
    expect(back.model).toEqual({ ...original.model, name: back.model.name });
    // The file states the expert TP the planner resolved (Megatron-Core would otherwise take tp: model_parallel_config.py),
    // so it comes back explicit: tp 1 → etp 1.
    expect(back.parallel).toEqual({ ...original.parallel, etp: 1 });
    expect(back.stack).toMatchObject({
      recomputeModules: ['mla_up_proj', 'moe_act'],
      optimizerStateDtype: 'bf16',
      fp8Recipe: 'blockwise',
      loss: 'fused',
    });
    expect(imported.warnings.filter((w) => !w.startsWith('cluster.gpu'))).toEqual([]);
  });
});

describe('Megatron-LM round trip of a stated pipeline layout', () => {
  it('"Et|(tt|)*30mL" at PP 8 × VPP 4 is written as --pipeline-model-parallel-layout and read back as written', () => {
    const deepseek = {
      version: 1,
      model: {
        name: 'DeepSeek-V3 671B',
        layers: 61,
        hidden: 7168,
        heads: 128,
        kvHeads: 128,
        ffnHidden: 18432,
        ffnType: 'swiglu',
        vocab: 129280,
        moe: { experts: 256, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 3 },
        mla: { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 },
        mtpLayers: 1,
      },
      training: { seqLen: 4096, globalBatch: 8192, microBatch: 1, precision: 'fp8', framework: 'megatron' },
      parallel: { tp: 2, pp: 8, dp: 64, ep: 64, vpp: 4, etp: 1, pipelineLayout: 'Et|(tt|)*30mL' },
      cluster: { gpu: 'h100-sxm', gpus: 1024 },
    };
    const original = config(deepseek);
    const launch = launchFileForDocument(deepseek, 'megatron');
    if (!launch.ok) throw new Error(launch.errors.join('; '));
    expect(launch.launch.text).toContain('--pipeline-model-parallel-layout "Et|(tt|)*30mL" \\');
    expect(launch.launch.text).not.toContain('--num-layers-per-virtual-pipeline-stage');
    const imported = importLaunchFile(launch.launch.text, { gpu: 'h100-sxm' });
    if (!imported.ok) throw new Error(imported.errors.join('; '));
    // Megatron-LM sets vpp = 32 chunks ÷ pp 8 = 4 (arguments.py); the text comes back as written.
    expect(config(imported.document).parallel).toEqual(original.parallel);
  });
});

describe('a launch file the planner wrote names its model and GPU in its first comment', () => {
  for (const framework of ['megatron', 'torchtitan', 'deepspeed'] as const) {
    it(`${framework}: "Llama 3 70B on 64 × NVIDIA H100 SXM5 80GB" comes back as the name and h100-sxm, with no GPU warning`, () => {
      const launch = launchFileForDocument(DEFAULT_DOCUMENT, framework);
      if (!launch.ok) throw new Error(launch.errors.join('; '));
      const imported = importLaunchFile(launch.launch.text);
      if (!imported.ok) throw new Error(imported.errors.join('; '));
      expect((imported.document['model'] as { name: string }).name).toBe('Llama 3 70B');
      expect((imported.document['cluster'] as { gpu: string }).gpu).toBe('h100-sxm');
      expect(imported.warnings.some((w) => w.startsWith('cluster.gpu'))).toBe(false);
    });
  }
});

describe('what `npm run import` prints', () => {
  it("the header's name wins over the command line's default name, and the printed warnings are no unknown field to estimate", () => {
    const launch = launchFileForDocument(DEFAULT_DOCUMENT, 'megatron');
    if (!launch.ok) throw new Error(launch.errors.join('; '));
    const imported = importLaunchFile(launch.launch.text, { defaultName: 'Imported from run.sh' });
    if (!imported.ok) throw new Error(imported.errors.join('; '));
    expect((imported.document['model'] as { name: string }).name).toBe('Llama 3 70B');
    const parsed = parseDocument({ ...imported.document, warnings: ['a flag it could not map'] });
    expect(parsed.warnings.filter((w) => w.includes('unknown field'))).toEqual([]);
  });
});

describe('Megatron-LM round trip of the mixture-of-experts stack (issue 20)', () => {
  // Every new field away from its default: the flags of export/moe-flags.ts (Megatron-LM
  // arguments.py) must bring each back, and the resolved run must be the same run.
  const moeStack = {
    ...mixtral,
    model: { ...mixtral.model, moe: { ...mixtral.model.moe, capacityFactor: 1.25 } },
    training: { ...mixtral.training, framework: 'megatron', moeDispatcher: 'hybridep', cudaGraph: 'full', overlap: { epComm: true } },
    parallel: { ...mixtral.parallel, etp: 1 },
  };

  it('hybridep, EP overlap, whole-iteration graphs, etp 1 and capacity factor 1.25 come back identical', () => {
    const original = config(moeStack);
    const launch = launchFileForDocument(moeStack, 'megatron');
    if (!launch.ok) throw new Error(launch.errors.join('; '));
    const text = launch.launch.text;
    for (const line of [
      '--moe-token-dispatcher-type flex',
      '--moe-flex-dispatcher-backend hybridep',
      '--overlap-moe-expert-parallel-comm',
      '--cuda-graph-impl local',
      '--cuda-graph-scope full_iteration',
      '--expert-tensor-parallel-size 1',
      '--moe-expert-capacity-factor 1.25',
      '--moe-pad-expert-input-to-capacity',
    ]) {
      expect(text).toContain(`  ${line} \\`);
    }
    const imported = importLaunchFile(text, { gpu: 'h100-sxm' });
    if (!imported.ok) throw new Error(imported.errors.join('; '));
    const back = config(imported.document);
    expect(back.model).toEqual(original.model);
    expect(back.parallel).toEqual(original.parallel);
    expect(back.stack).toEqual(original.stack);
    expect(imported.warnings).toEqual([]);
  });

  it('each dispatcher and CUDA-graph scope survives on its own', () => {
    for (const moeDispatcher of ['alltoall', 'allgather', 'deepep', 'hybridep']) {
      for (const cudaGraph of ['none', 'partial', 'full']) {
        const document = { ...moeStack, training: { ...moeStack.training, moeDispatcher, cudaGraph } };
        const launch = launchFileForDocument(document, 'megatron');
        if (!launch.ok) throw new Error(launch.errors.join('; '));
        const imported = importLaunchFile(launch.launch.text, { gpu: 'h100-sxm' });
        if (!imported.ok) throw new Error(imported.errors.join('; '));
        expect(config(imported.document).stack, `${moeDispatcher} / ${cudaGraph}`).toMatchObject({ moeDispatcher, cudaGraph });
      }
    }
  });
});

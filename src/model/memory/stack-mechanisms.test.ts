import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  activationBytesPerLayer,
  engineActivationSettings,
  NVFP4_SAVED_BYTES,
  stageActivationBytes,
  type ActivationSettings,
} from './activations.ts';
import { chunkLossKind, lossBackwardFp32LogitCopies, lossChunks } from './loss.ts';
import { modelStateBytes, optimizerBytesPerParameter } from './memory.ts';
import { stageMemoryDetails } from './stages.ts';
import { parseDocument, type ModelConfig, type RunConfig } from '../input/index.ts';
import { estimate } from '../estimate.ts';
import { pipelineLayout } from '../structure/index.ts';
import { FRAMEWORK_PROFILES } from '../input/index.ts';

// The software-stack mechanisms (issue 14), each with its expected value worked out by hand.

const llama8bLayer: ModelConfig = {
  name: 'Llama 3 8B',
  layers: 32,
  hidden: 4096,
  heads: 32,
  kvHeads: 8,
  headDim: 128,
  ffnHidden: 14336,
  ffnType: 'swiglu',
  vocab: 128256,
  tiedEmbeddings: false,
  moe: null,
  mla: null,
  mtpLayers: 0,
};
const oneToken: ActivationSettings = {
  seqLen: 1,
  microBatch: 1,
  tp: 1,
  sequenceParallel: false,
  cp: 1,
  recompute: 'selective',
  selectiveScope: 'modules',
  flashAttention: true,
  dropout: false,
  elementBytes: 2,
};

function doc(training: Record<string, unknown>, parallel: Record<string, unknown> = {}, layers = 4): Record<string, unknown> {
  return {
    version: 1,
    model: { layers, hidden: 256, heads: 4, vocab: 1024 },
    training: { seqLen: 256, globalBatch: 16, microBatch: 1, ...training },
    parallel: { tp: 1, pp: 1, dp: 2, ...parallel },
    cluster: { gpu: 'h100-sxm' },
  };
}
function config(d: Record<string, unknown>): RunConfig {
  const parsed = parseDocument(d);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('loss buffers: 128k vocabulary at 8k tokens', () => {
  // One fp32 logits copy: 8,192 tokens × 131,072 × 4 bytes = 4 GiB. Each loss keeps the saved fp32 logits (1 copy) plus its backward copies.
  const copyBytes = 8192 * 131072 * 4;
  it('eager: 1 + 2 = 3 copies = 12 GiB (log_softmax output gradient and logits gradient, PyTorch eager)', () => {
    expect((1 + lossBackwardFp32LogitCopies('eager', 1)) * copyBytes).toBe(12 * 2 ** 30);
  });
  it('fused: 1 copy = 4 GiB (Megatron cross_entropy.py writes the gradient into the saved softmax)', () => {
    expect((1 + lossBackwardFp32LogitCopies('fused', 1)) * copyBytes).toBe(4 * 2 ** 30);
  });
  it('compiled: 1 + 1 = 2 copies = 8 GiB (one fused backward kernel writes one fp32 gradient)', () => {
    expect((1 + lossBackwardFp32LogitCopies('compiled', 1)) * copyBytes).toBe(8 * 2 ** 30);
  });
  it('torchtitan fused = ChunkedLossWrapper, 8 pieces of eager cross-entropy: (1 + 2) / 8 copies = 1.5 GiB', () => {
    const chunks = lossChunks(FRAMEWORK_PROFILES.torchtitan.mechanisms.fusedLossChunks, 'fused');
    expect(chunks).toBe(8);
    expect(lossChunks(FRAMEWORK_PROFILES.megatron.mechanisms.fusedLossChunks, 'fused')).toBe(1);
    expect(lossChunks(FRAMEWORK_PROFILES.torchtitan.mechanisms.fusedLossChunks, 'eager')).toBe(1);
    expect(((1 + lossBackwardFp32LogitCopies(chunkLossKind('fused', chunks), 1)) * copyBytes) / chunks).toBe(1.5 * 2 ** 30);
  });
  it('on a stage: torchtitan eager holds 3 fp32 logits copies, fused 3/8 of one plus the fp32 [T, D] gradient of the hidden states', () => {
    // 256 tokens × vocab 1,024 × 4 B = 1 MiB per copy; the accumulator 256 × hidden 256 × 4 B = 0.25 MiB: 3 − 3/8 − 1/4 = 2.375 MiB less.
    const eager = config(doc({ framework: 'torchtitan', recompute: 'none', loss: 'eager' }, { dp: 2 }, 1));
    const fused = config(doc({ framework: 'torchtitan', recompute: 'none', loss: 'fused' }, { dp: 2 }, 1));
    const [stage] = pipelineLayout(eager.model, eager.parallel);
    expect(stageActivationBytes(eager, stage!) - stageActivationBytes(fused, stage!)).toBe(2.375 * 2 ** 20);
  });
});

describe('selective recompute policies on one Llama 3 8B layer, bytes per token', () => {
  // Everything: norm inputs 2×8192, attention input 8192, Q+K 2·(32+8)·128 = 10,240, LSE 4·32 = 128, V 2·8·128 = 2,048,
  // proj input 8192, MLP input 8192, up/gate/product 3 × 28,672 = 86,016: 139,392.
  it('Megatron core_attn drops only the fp32 log-sum-exp with flash attention: 139,264', () => {
    expect(activationBytesPerLayer(llama8bLayer, 0, { ...oneToken, recomputeModules: ['core_attn'] })).toBe(139_264);
  });
  it('torchtitan op-level SAC keeps input, wq, wv, w1, w2 outputs (every second mm recomputed) and the SDPA output + LSE: 63,616', () => {
    // 8192 (input) + 8192 (wq) + 2048 (wv) + 28,672 (w1) + 8192 (w2) + 8192 (sdpa out) + 128 (LSE) = 63,616.
    expect(activationBytesPerLayer(llama8bLayer, 0, { ...oneToken, selectiveScope: 'op' })).toBe(63_616);
  });
  it('torchtitan op-level SAC with NVFP4 linears keeps each linear input as NVFP4 codes + scales and no matmul output: 38,400', () => {
    // torchao nvfp4_mm_triton saves the input's 4-bit codes and an E4M3 scale per 16 elements: 0.5 + 1/16 = 0.5625 B.
    // Linear inputs: wq, wk, wv 3 × 4096, wo 4096, w1, w3 2 × 4096, w2 14,336 = 38,912 elements × 0.5625 = 21,888.
    // 8192 (input) + 21,888 + 8192 (sdpa out) + 128 (LSE) = 38,400: 25,216 less than bf16, 1.54 GiB per layer at
    // 65,536 tokens (local batch 32 × 2048), 7.7 GiB for the five bf16 tail layers (nvfp4.md: "about … 8 GiB").
    expect(NVFP4_SAVED_BYTES).toBe(0.5625);
    expect(activationBytesPerLayer(llama8bLayer, 0, { ...oneToken, selectiveScope: 'op', nvfp4Linears: true })).toBe(38_400);
    expect((5 * (63_616 - 38_400) * 65_536) / 2 ** 30).toBeCloseTo(7.7, 1);
  });
  it('NVFP4 with MLA and uncompressed queries (q_lora_rank 0): q_up reads the hidden state: 20,460', () => {
    // DeepSeek-V2-Lite-like: hidden 2048, 16 heads, kv_lora 512, nope 128, rope 64, v 128, dense SwiGLU FFN 10,944.
    // Linear inputs: q_up 2048, kv_down 2048, kv_up 512, wo 16·128 = 2048, w1 2048, w3 2048, w2 10,944 = 21,696 × 0.5625
    // = 12,204; + 4096 (input) + 4096 (sdpa out 2·16·128) + 64 (LSE) = 20,460.
    const mlaLayer: ModelConfig = {
      ...llama8bLayer,
      hidden: 2048,
      heads: 16,
      kvHeads: 16,
      ffnHidden: 10944,
      mla: { qLoraRank: 0, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 },
    };
    expect(activationBytesPerLayer(mlaLayer, 0, { ...oneToken, selectiveScope: 'op', nvfp4Linears: true })).toBe(20_460);
  });
  it("torchtitan op-level SAC on a Qwen3-30B-A3B MoE layer keeps only the attention's saves: 21,632", () => {
    // The router gate is force-recomputed (per_op_sac_force_recompute_mm_shapes_by_fqns = ["moe.router.gate"])
    // and the routed experts run as torch._grouped_mm, not on torchtitan's save list: of the aten.mm
    // outputs wq (1st, saved) wk (2nd) wv (3rd, saved) wo (4th) remain. Bytes per token:
    // input 2·2048 + wq 2·32·128 + wv 2·4·128 + SDPA output 2·32·128 + LSE 4·32 = 4,096 + 8,192 + 1,024 + 8,192 + 128 = 21,632.
    const qwen3MoeLayer: ModelConfig = {
      name: 'Qwen3-30B-A3B',
      layers: 48,
      hidden: 2048,
      heads: 32,
      kvHeads: 4,
      headDim: 128,
      ffnHidden: 6144,
      ffnType: 'swiglu',
      vocab: 151_936,
      tiedEmbeddings: false,
      moe: { experts: 128, topK: 8, expertFfnHidden: 768, sharedExperts: 0, denseLayers: 0 },
      mla: null,
      mtpLayers: 0,
    };
    expect(activationBytesPerLayer(qwen3MoeLayer, 0, { ...oneToken, selectiveScope: 'op' })).toBe(21_632);
  });
  it('Megatron layernorm + mlp drops both norm outputs and the dense MLP (LSE kept): 139,392 − 2·8192 − 86,016 = 36,992', () => {
    expect(activationBytesPerLayer(llama8bLayer, 0, { ...oneToken, recomputeModules: ['layernorm', 'mlp'] })).toBe(
      139_392 - 2 * 8192 - 86_016,
    );
  });
});

describe('dropout from the document: Korthikanti et al. 2022 section 4, GPT-3 175B, exactly', () => {
  it('dropout true, no flash attention: sbh(34 + 5as/h) = 2,868,903,936 bytes per layer', () => {
    const gpt3 = config({
      version: 1,
      model: { layers: 96, hidden: 12288, heads: 96, vocab: 51200 },
      training: { seqLen: 2048, globalBatch: 8, microBatch: 1, flashAttention: false, dropout: true, framework: 'megatron' },
      parallel: { tp: 1, pp: 1, dp: 8 },
      cluster: { gpu: 'a100-80gb' },
    });
    // sbh = 25,165,824; 34·sbh + 5as²b = 855,638,016 + 2,013,265,920.
    expect(activationBytesPerLayer(gpt3.model, 0, engineActivationSettings(gpt3))).toBe(2_868_903_936);
  });
});

describe('optimizer state, gradients', () => {
  it('bf16 moments shrink Adam with fp32 master weights from 12 to 8 bytes per parameter', () => {
    const t = { optimizer: 'adam', masterWeights: true, precision: 'bf16' } as const;
    expect(optimizerBytesPerParameter(t, 'fp32')).toBe(12);
    expect(optimizerBytesPerParameter(t, 'bf16')).toBe(8);
  });

  it("FSDP2 under pipeline parallelism holds the stage's unsharded gradients (torchtitan), sharded otherwise", () => {
    const training = { framework: 'torchtitan', gradDtype: 'fp32' };
    const pp = config(doc(training, { pp: 2, dp: 4, zero: 3 }));
    const noPp = config(doc(training, { pp: 1, dp: 4, zero: 3 }));
    const generic = config(doc({ gradDtype: 'fp32' }, { pp: 2, dp: 4, zero: 3 }));
    const params = { dense: 1000, expert: 0 };
    expect(modelStateBytes(pp, params).gradients).toBe(4 * 1000);
    expect(modelStateBytes(noPp, params).gradients).toBe((4 * 1000) / 4);
    expect(modelStateBytes(generic, params).gradients).toBe((4 * 1000) / 4);
  });

  it('FSDP keeps fp32 parameter shards as the master copy: 4 + 4 + 8 = 16 bytes per parameter with Adam under ZeRO-3, not 2 + 4 + 12 = 18', () => {
    const params = { dense: 1000, expert: 0 };
    const fsdp = modelStateBytes(config(doc({ framework: 'fsdp', gradDtype: 'fp32' }, { dp: 2, zero: 3 })), params);
    const generic = modelStateBytes(config(doc({ gradDtype: 'fp32' }, { dp: 2, zero: 3 })), params);
    expect(fsdp.parameters + fsdp.gradients + fsdp.optimizer).toBe((16 * 1000) / 2);
    expect(generic.parameters + generic.gradients + generic.optimizer).toBe((18 * 1000) / 2);
  });

  it('DeepSpeed BF16 optimizer with ZeRO-1 adds a flat fp32 buffer of every parameter to the bf16 gradients: 2 + 4 bytes', () => {
    const c = config(doc({ framework: 'deepspeed', precision: 'bf16', gradDtype: 'bf16' }, { zero: 1 }));
    expect(modelStateBytes(c, { dense: 1000, expert: 0 }).gradients).toBe(6 * 1000);
  });
});

describe('activation offload and full recompute of some layers', () => {
  it('offloading N of L layers removes N/L of their saved activations', () => {
    const base = config(doc({ recompute: 'none' }));
    const off = config(doc({ recompute: 'none', activationOffloadLayers: 1 }));
    const [stage] = pipelineLayout(base.model, base.parallel);
    if (!stage) throw new Error('no stage');
    const perLayer = activationBytesPerLayer(base.model, 0, engineActivationSettings(base));
    // 1F1B on one stage: one micro-batch in flight; the edges (output, loss) are unchanged.
    expect(stageActivationBytes(base, stage) - stageActivationBytes(off, stage)).toBeCloseTo(perLayer, 6);
  });
  it('an explicit field wins over the profile', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(FRAMEWORK_PROFILES)),
        fc.constantFrom('eager', 'fused', 'compiled'),
        fc.boolean(),
        fc.constantFrom('fp32', 'bf16'),
        fc.constantFrom('fused', 'transformers'),
        (framework, loss, dropout, optimizerStateDtype, modelCode) => {
          const c = config(doc({ framework, loss, dropout, optimizerStateDtype, modelCode }));
          expect(c.stack).toMatchObject({ framework, loss, dropout, optimizerStateDtype, modelCode });
        },
      ),
    );
  });
  it("a missing field takes the profile's default", () => {
    for (const profile of Object.values(FRAMEWORK_PROFILES)) {
      const c = config(doc({ framework: profile.id }));
      expect(c.stack.loss).toBe(profile.defaults.loss);
      expect(c.stack.selectivePolicy).toBe(profile.defaults.selectivePolicy);
      expect(c.stack.attentionKernel).toBe(profile.defaults.attentionKernel);
      expect(c.stack.modelCode).toBe(profile.defaults.modelCode);
    }
  });
});

describe('reserved memory', () => {
  it('reserved ≥ allocated on every stage, whatever the stack', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(FRAMEWORK_PROFILES)),
        fc.constantFrom(0, 1, 2, 3),
        fc.constantFrom(1, 2),
        (framework, zero, pp) => {
          for (const s of stageMemoryDetails(config(doc({ framework }, { zero, pp }))))
            expect(s.reserved).toBeGreaterThanOrEqual(s.breakdown.total);
        },
      ),
    );
  });
  it('fits is judged on reserved', () => {
    const out = estimate(doc({}));
    expect(out.memory.reserved).toBeGreaterThan(out.memory.perGpu.total);
    expect(out.memory.fits).toBe(out.memory.reserved <= out.memory.capacity);
  });
});

describe('bad stack values get field-named errors', () => {
  const errorsOf = (training: Record<string, unknown>) => {
    const parsed = parseDocument(doc(training));
    return parsed.ok ? [] : parsed.errors;
  };
  it.each([
    [{ framework: 'jax' }, 'training.framework'],
    [{ fp8Recipe: 'fancy' }, 'training.fp8Recipe'],
    [{ modelCode: 'keras' }, 'training.modelCode'],
    [{ recomputeModules: ['attention'] }, 'training.recomputeModules'],
    [{ recomputeModules: 'core_attn' }, 'training.recomputeModules'],
    [{ activationOffloadLayers: 5 }, 'training.activationOffloadLayers'],
    [{ recomputeLayerFrequency: -1 }, 'training.recomputeLayerFrequency'],
    [{ selectivePolicy: 'elementwise' }, 'training.selectivePolicy'],
    [{ overlap: { tpComm: 'yes' } }, 'training.overlap.tpComm'],
  ])('%j → %s', (training, field) => {
    const errors = errorsOf(training);
    expect(errors.some((e) => e.startsWith(`${field}:`))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { launchExports, megatronExport, torchtitanExport } from './launch-args.ts';

// Launch arguments follow the document's software stack (issue 14).
function config(training: Record<string, unknown>): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: { layers: 8, hidden: 512, heads: 8, vocab: 1024 },
    training: { seqLen: 1024, globalBatch: 16, microBatch: 1, precision: 'fp8', ...training },
    parallel: { tp: 2, pp: 1, dp: 4 },
    cluster: { gpu: 'h100-sxm' },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('launch arguments follow the framework', () => {
  it('Megatron: the recompute modules, fused loss, bf16 moments, activation offload and fp8 recipe become its flags', () => {
    const text = megatronExport(
      config({
        framework: 'megatron',
        recompute: 'selective',
        recomputeModules: ['layernorm', 'moe_act'],
        optimizerStateDtype: 'bf16',
        activationOffloadLayers: 2,
      }),
    ).text;
    expect(text).toContain('--recompute-modules layernorm moe_act');
    expect(text).toContain('--cross-entropy-loss-fusion');
    expect(text).toContain('--exp-avg-dtype bf16');
    expect(text).toContain('--cpu-offloading-num-layers 2');
    expect(text).toContain('--fp8-recipe delayed');
  });

  it('torchtitan: the layer policy writes selective_ac_option = "N", compile and the float8 recipe', () => {
    const text = torchtitanExport(
      config({
        framework: 'torchtitan',
        recompute: 'selective',
        selectivePolicy: 'layer',
        recomputeLayerFrequency: 3,
        compile: true,
        fp8Recipe: 'rowwise',
      }),
    ).text;
    expect(text).toMatch(/selective_ac_option = "3"/);
    expect(text).toMatch(/recipe_name = "rowwise"/);
    expect(text).toMatch(/\[compile\][^[]*enable = true/);
  });

  it('the chosen framework comes first; generic keeps the old order', () => {
    expect(launchExports(config({ framework: 'torchtitan' }))[0]?.target).toBe('torchtitan');
    expect(launchExports(config({ framework: 'deepspeed' }))[0]?.target).toBe('deepspeed');
    expect(launchExports(config({})).map((e) => e.target)).toEqual(['megatron', 'deepspeed', 'torchtitan']);
  });
});

describe('the mixture-of-experts stack in launch files (issue 20)', () => {
  // Megatron-LM megatron/training/arguments.py: per-module scopes only with
  // --cuda-graph-impl transformer_engine, full_iteration only with local; Megatron-Core's
  // dispatcher default is allgather, so the dispatcher is always written for a MoE run.
  function moeConfig(
    training: Record<string, unknown>,
    moe: Record<string, unknown> = {},
    parallel: Record<string, unknown> = {},
  ): RunConfig {
    const parsed = parseDocument({
      version: 1,
      model: {
        layers: 8,
        hidden: 512,
        heads: 8,
        vocab: 1024,
        ffnType: 'swiglu',
        ffnHidden: 1024,
        moe: { experts: 8, topK: 2, expertFfnHidden: 512, ...moe },
      },
      training: { seqLen: 1024, globalBatch: 16, microBatch: 1, framework: 'megatron', ...training },
      parallel: { tp: 2, pp: 1, dp: 4, ep: 4, ...parallel },
      cluster: { gpu: 'h100-sxm' },
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    return parsed.config;
  }

  it("Megatron: per-module graphs are Transformer Engine's with the attn, router and preprocess scope; deepep is flex with its backend", () => {
    const text = megatronExport(moeConfig({ cudaGraph: 'partial', moeDispatcher: 'deepep' })).text;
    expect(text).toContain('  --cuda-graph-impl transformer_engine \\\n  --cuda-graph-scope attn moe_router moe_preprocess \\');
    expect(text).toContain('  --moe-token-dispatcher-type flex \\\n  --moe-flex-dispatcher-backend deepep \\');
    expect(text).not.toContain('--overlap-moe-expert-parallel-comm');
    expect(text).not.toContain('--moe-expert-capacity-factor');
  });

  it('Megatron: the profile defaults write the all-to-all dispatcher and nothing else; a dense run writes no MoE flag', () => {
    const text = megatronExport(moeConfig({})).text;
    expect(text).toContain('  --moe-token-dispatcher-type alltoall \\');
    for (const flag of ['--cuda-graph', '--moe-flex', '--overlap-moe', '--moe-expert-capacity']) expect(text).not.toContain(flag);
    const dense = megatronExport(
      config({ framework: 'megatron', moeDispatcher: 'hybridep', cudaGraph: 'full', overlap: { epComm: true } }),
    ).text;
    for (const flag of ['--moe-', '--cuda-graph', '--overlap-moe', '--expert-tensor']) expect(dense).not.toContain(flag);
  });

  it('torchtitan: expert TP is written (tp 2 fits 4 × 1 ranks per expert group: etp 2), the rest become notes', () => {
    const titan = torchtitanExport(
      moeConfig({ moeDispatcher: 'deepep', cudaGraph: 'full', overlap: { epComm: true } }, { capacityFactor: 1.5 }),
    );
    expect(titan.text).toContain('expert_tensor_parallel_degree = 2\n');
    expect(titan.notes.filter((n) => /dispatcher|overlap|CUDA graphs|capacity factor/.test(n))).toHaveLength(4);
    expect(torchtitanExport(moeConfig({}, {}, { etp: 1 })).text).toContain('expert_tensor_parallel_degree = 1\n');
  });
});

describe('the Megatron-LM launch carries what the estimate assumed (issue 36)', () => {
  // megatron/training/arguments.py at core_v0.15.0: --overlap-grad-reduce and --overlap-param-gather
  // default off; "--overlap-param-gather only supported with distributed optimizer or megatron fsdp";
  // "Must use --overlap-param-gather with --overlap-grad-reduce"; --moe-aux-loss-coeff defaults to 0.0.
  function doc(
    training: Record<string, unknown>,
    parallel: Record<string, unknown>,
    moe: Record<string, unknown> | null = null,
  ): RunConfig {
    const parsed = parseDocument({
      version: 1,
      model: {
        layers: 8,
        hidden: 512,
        heads: 8,
        vocab: 1024,
        ffnType: 'swiglu',
        ffnHidden: 1024,
        moe: moe && { experts: 8, topK: 2, expertFfnHidden: 512, ...moe },
      },
      training: { seqLen: 1024, globalBatch: 16, microBatch: 1, framework: 'megatron', ...training },
      parallel: { tp: 2, pp: 1, dp: 4, ...parallel },
      cluster: { gpu: 'h100-sxm' },
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    return parsed.config;
  }
  const flagLines = (c: RunConfig) =>
    megatronExport(c)
      .text.split('\n')
      .filter((l) => l.startsWith('  --'))
      .map((l) => l.replace(/ \\$/, '').trim());

  it('data-parallel overlap: the reduce whenever dpGrad, the all-gather only under the distributed optimizer and with the reduce', () => {
    expect(flagLines(doc({}, { zero: 1 }))).toEqual(
      expect.arrayContaining(['--use-distributed-optimizer', '--overlap-grad-reduce', '--overlap-param-gather']),
    );
    // Plain DDP all-reduces: there is no parameter all-gather to overlap.
    const ddp = flagLines(doc({}, { zero: 0 }));
    expect(ddp).toContain('--overlap-grad-reduce');
    expect(ddp).not.toContain('--overlap-param-gather');
    // The estimate assumed no overlap: the launch says none.
    const none = flagLines(doc({ overlap: { dpGrad: false, dpParam: false } }, { zero: 1 }));
    expect(none.filter((l) => l.startsWith('--overlap'))).toEqual([]);
    // dpParam without dpGrad: Megatron-LM refuses the pair, so neither is written and the file says why.
    const c = doc({ overlap: { dpGrad: false, dpParam: true } }, { zero: 1 });
    expect(flagLines(c).filter((l) => l.startsWith('--overlap'))).toEqual([]);
    expect(megatronExport(c).notes.some((n) => n.includes('Must use --overlap-param-gather with --overlap-grad-reduce'))).toBe(true);
  });

  it('MoE: grouped GEMM, the aux-loss router at 1e-2 and top-k for every MoE plan; none of them for a dense one', () => {
    const moe = flagLines(doc({}, { ep: 4 }, {}));
    expect(moe).toEqual(
      expect.arrayContaining([
        '--moe-grouped-gemm',
        '--moe-router-load-balancing-type aux_loss',
        '--moe-aux-loss-coeff 0.01',
        '--moe-router-topk 2',
      ]),
    );
    const dense = flagLines(doc({}, {}));
    expect(dense.filter((l) => l.startsWith('--moe'))).toEqual([]);
  });

  it('EP overlap only when the estimate assumed it and experts are spread (Megatron-Core asserts expert_model_parallel_size > 1)', () => {
    expect(flagLines(doc({ overlap: { epComm: true } }, { ep: 4 }, {}))).toContain('--overlap-moe-expert-parallel-comm');
    expect(flagLines(doc({ overlap: { epComm: true } }, { ep: 1 }, {}))).not.toContain('--overlap-moe-expert-parallel-comm');
    expect(flagLines(doc({ overlap: { epComm: false } }, { ep: 4 }, {}))).not.toContain('--overlap-moe-expert-parallel-comm');
  });
});

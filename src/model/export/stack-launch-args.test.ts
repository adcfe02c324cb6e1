import { describe, expect, it } from 'vitest';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { launchExports, megatronExport, torchtitanExport } from './launch-args.ts';

// Launch arguments follow the document's software stack (issue 14).
function config(training: Record<string, unknown>): RunConfig {
  const parsed = parseDocument({
    version: 1, model: { layers: 8, hidden: 512, heads: 8, vocab: 1024 },
    training: { seqLen: 1024, globalBatch: 16, microBatch: 1, precision: 'fp8', ...training },
    parallel: { tp: 2, pp: 1, dp: 4 }, cluster: { gpu: 'h100-sxm' },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('launch arguments follow the framework', () => {
  it('Megatron: the recompute modules, fused loss, bf16 moments, activation offload and fp8 recipe become its flags', () => {
    const text = megatronExport(config({
      framework: 'megatron', recompute: 'selective', recomputeModules: ['layernorm', 'moe_act'], optimizerStateDtype: 'bf16', activationOffloadLayers: 2,
    })).text;
    expect(text).toContain('--recompute-modules layernorm moe_act');
    expect(text).toContain('--cross-entropy-loss-fusion');
    expect(text).toContain('--exp-avg-dtype bf16');
    expect(text).toContain('--cpu-offloading-num-layers 2');
    expect(text).toContain('--fp8-recipe delayed');
  });

  it('torchtitan: the layer policy writes selective_ac_option = "N", compile and the float8 recipe', () => {
    const text = torchtitanExport(config({ framework: 'torchtitan', recompute: 'selective', selectivePolicy: 'layer', recomputeLayerFrequency: 3, compile: true, fp8Recipe: 'rowwise' })).text;
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
  function moeConfig(training: Record<string, unknown>, moe: Record<string, unknown> = {}, parallel: Record<string, unknown> = {}): RunConfig {
    const parsed = parseDocument({
      version: 1, model: { layers: 8, hidden: 512, heads: 8, vocab: 1024, ffnType: 'swiglu', ffnHidden: 1024, moe: { experts: 8, topK: 2, expertFfnHidden: 512, ...moe } },
      training: { seqLen: 1024, globalBatch: 16, microBatch: 1, framework: 'megatron', ...training },
      parallel: { tp: 2, pp: 1, dp: 4, ep: 4, ...parallel }, cluster: { gpu: 'h100-sxm' },
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    return parsed.config;
  }

  it('Megatron: per-module graphs are Transformer Engine\'s with the attn, router and preprocess scope; deepep is flex with its backend', () => {
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
    const dense = megatronExport(config({ framework: 'megatron', moeDispatcher: 'hybridep', cudaGraph: 'full', overlap: { epComm: true } })).text;
    for (const flag of ['--moe-', '--cuda-graph', '--overlap-moe', '--expert-tensor']) expect(dense).not.toContain(flag);
  });

  it('torchtitan: expert TP is written (tp 2 fits 4 × 1 ranks per expert group: etp 2), the rest become notes', () => {
    const titan = torchtitanExport(moeConfig({ moeDispatcher: 'deepep', cudaGraph: 'full', overlap: { epComm: true } }, { capacityFactor: 1.5 }));
    expect(titan.text).toContain('expert_tensor_parallel_degree = 2\n');
    expect(titan.notes.filter((n) => /dispatcher|overlap|CUDA graphs|capacity factor/.test(n))).toHaveLength(4);
    expect(torchtitanExport(moeConfig({}, {}, { etp: 1 })).text).toContain('expert_tensor_parallel_degree = 1\n');
  });
});

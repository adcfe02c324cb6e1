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

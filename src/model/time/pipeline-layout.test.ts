import { describe, expect, it } from 'vitest';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { stageMemoryDetails } from '../memory/index.ts';
import { layerGpuParameters, pipelineLayout, stageGpuParameters } from '../structure/index.ts';
import { stageTimes, stepTime } from './step.ts';

/** Eight identical dense layers on two pipeline stages, one GPU each; `pipelineLayout` as given. */
function run(pipelineLayout?: string): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: { layers: 8, hidden: 1024, heads: 8, ffnHidden: 4096, ffnType: 'swiglu', vocab: 32000 },
    training: { seqLen: 2048, globalBatch: 8, microBatch: 1, precision: 'bf16', framework: 'megatron' },
    parallel: { tp: 1, pp: 2, dp: 1, zero: 0, ...(pipelineLayout === undefined ? {} : { pipelineLayout }) },
    cluster: { gpu: 'h100-sxm', gpus: 2 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

describe('a stated layout moves step time and memory with the layers', () => {
  const even = run();
  const stated = run('Etttttt|ttL');

  it('the first stage holds 6 layers and becomes the critical one: compute = micro-batches × 6 × one layer', () => {
    expect(pipelineLayout(stated.model, stated.parallel).map((s) => s.layers.length)).toEqual([6, 2]);
    // One layer's forward and backward (step.ts stageTimes on a one-layer stage without edges; the layers are identical).
    const one = stageTimes(stated, { index: 0, layers: [0], chunks: 1, embedding: false, output: false }, { dense: 0, expert: 0 });
    const layer = one.forwardComputeSeconds + one.backwardComputeSeconds;
    // 8 micro-batches a step (global batch 8, micro-batch 1, DP 1). Stage 1 holds 2 layers and the head, less than 6 layers.
    expect(stated.training.globalBatch / stated.training.microBatch).toBe(8);
    expect(stepTime(stated).breakdown.compute).toBeCloseTo(8 * 6 * layer, 12);
    // The even split (4 + 4): the last stage, 4 layers and the output head with its loss, is the critical one.
    const edge = stageTimes(even, { index: 1, layers: [], chunks: 1, embedding: false, output: true }, { dense: 0, expert: 0 });
    const head = edge.forwardComputeSeconds + edge.backwardComputeSeconds;
    expect(stepTime(even).breakdown.compute).toBeCloseTo(8 * (4 * layer + head), 12);
    // A 32,000-word head on h = 1,024 costs more than two such layers, so moving two layers off the last stage helps here.
    expect(head).toBeGreaterThan(2 * layer);
    expect(stepTime(stated).breakdown.compute).toBeLessThan(stepTime(even).breakdown.compute);
  });

  it("each stage's weights follow its layer count: (6 layers + embedding) against (4 + embedding) on the first stage", () => {
    const layer = layerGpuParameters(stated.model, 0, stated.parallel).dense;
    const embedding = 32000 * 1024;
    const [statedFirst] = stageGpuParameters(stated.model, stated.parallel);
    expect(statedFirst?.dense).toBe(6 * layer + embedding);
    const bytes = (c: RunConfig) => stageMemoryDetails(c)[0]?.breakdown.parameters ?? 0;
    // Weight bytes are parameters × bytes per parameter, the same on both runs.
    expect(bytes(stated) / (6 * layer + embedding)).toBeCloseTo(bytes(even) / (4 * layer + embedding), 9);
    expect(bytes(stated)).toBeGreaterThan(bytes(even));
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument, stackFieldDefault, type RunConfig } from '../input/index.ts';
import { launchFileForDocument } from '../export/index.ts';
import { importLaunchFile } from '../import/index.ts';
import { fp8WeightCacheBytesPerWeight } from './fp8-weight-cache.ts';
import { stageMemoryDetails } from './stages.ts';

// Hand derivation, one layer of the model below on one GPU of TP 2 (hidden 1024, 8 heads of
// 128, 8 KV heads, SwiGLU FFN 4096, no biases):
//   QKV 1024 × (1024 + 2 · 1024) = 3,145,728; out-projection 1024 × 1024 = 1,048,576;
//   fc1 1024 × 2 · 4096 = 8,388,608; fc2 4096 × 1024 = 4,194,304; sum 16,777,216, ÷ TP 2 =
//   8,388,608, plus the two RMSNorm weights 2 · 1024 = 2,048 (not split): 8,390,656.
// Two layers: 16,781,312 weights. The embedding and the output layer are not TE modules.
const LAYER_WEIGHTS_ON_GPU = 2 * (16_777_216 / 2 + 2 * 1024);

function doc(training: Record<string, unknown>, gpu = 'h100-sxm', zero = 1) {
  return {
    version: 1,
    model: {
      name: 'two-layer test',
      layers: 2,
      hidden: 1024,
      heads: 8,
      kvHeads: 8,
      headDim: 128,
      ffnHidden: 4096,
      ffnType: 'swiglu',
      vocab: 32000,
      tiedEmbeddings: false,
    },
    training: { seqLen: 2048, globalBatch: 8, microBatch: 1, precision: 'fp8', framework: 'megatron', ...training },
    parallel: { tp: 2, pp: 1, dp: 4, zero, sequenceParallel: true },
    cluster: { gpu, gpusPerNode: 8, gpus: 8 },
  };
}

function config(raw: unknown): RunConfig {
  const parsed = parseDocument(raw);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

function cacheOf(raw: unknown): number {
  return stageMemoryDetails(config(raw))[0]?.other.fp8WeightCache ?? NaN;
}

describe('Transformer Engine fp8 weight cache (Megatron, 16-bit primary weights)', () => {
  it('holds the fp8 weight and its transpose on Hopper: 2 bytes per layer weight', () => {
    expect(cacheOf(doc({ fp8Recipe: 'delayed' }))).toBe(2 * LAYER_WEIGHTS_ON_GPU);
    expect(cacheOf(doc({ fp8Recipe: 'delayed' }))).toBe(33_562_624);
  });

  it('keeps no transpose where fp8 GEMMs take any layout (datacenter Blackwell): 1 byte', () => {
    expect(cacheOf(doc({ fp8Recipe: 'delayed' }, 'b200'))).toBe(LAYER_WEIGHTS_ON_GPU);
  });

  it('block-scaled recipes keep a column-wise copy with its scales on every GPU', () => {
    // MXFP8: (1 + 1/32) bytes each way; NVFP4: (1/2 + 1/16) each way.
    expect(fp8WeightCacheBytesPerWeight('mxfp8', 'blackwell')).toBe(2.0625);
    expect(fp8WeightCacheBytesPerWeight('nvfp4', 'blackwell')).toBe(1.125);
    expect(cacheOf(doc({ fp8Recipe: 'mxfp8', fp8ParamGather: false }, 'b200'))).toBe(2.0625 * LAYER_WEIGHTS_ON_GPU);
  });

  it('adds nothing when the weights are gathered in fp8, in 16-bit training, or outside Megatron', () => {
    expect(cacheOf(doc({ fp8Recipe: 'delayed', fp8ParamGather: true }))).toBe(0);
    expect(cacheOf(doc({ precision: 'bf16' }))).toBe(0);
    expect(cacheOf(doc({ framework: 'torchtitan', fp8Recipe: 'tensorwise' }))).toBe(0);
    // Megatron-FSDP (ZeRO 3) gathers and frees each unit's weights.
    expect(cacheOf(doc({ fp8Recipe: 'delayed' }, 'h100-sxm', 3))).toBe(0);
  });

  it('is allocated memory: the total grows by the cache, the reserve by its share', () => {
    const off = stageMemoryDetails(config(doc({ fp8Recipe: 'delayed', fp8ParamGather: true })))[0];
    const on = stageMemoryDetails(config(doc({ fp8Recipe: 'delayed' })))[0];
    if (!off || !on) throw new Error('no stage');
    expect(on.breakdown.total - off.breakdown.total).toBe(33_562_624);
    expect(on.breakdown.other - off.breakdown.other).toBe(33_562_624);
    expect(on.deviceUsed - off.deviceUsed).toBeGreaterThan(33_562_624);
  });
});

describe('training.fp8ParamGather: default by recipe, launch flag both ways', () => {
  it("Megatron's default follows the recipe (delayed: Megatron-LM off; Bridge's tensorwise, MXFP8, NVFP4 recipes on)", () => {
    expect(config(doc({ fp8Recipe: 'delayed' })).stack.fp8ParamGather).toBe(false);
    expect(config(doc({})).stack.fp8ParamGather).toBe(false);
    expect(config(doc({ fp8Recipe: 'tensorwise' })).stack.fp8ParamGather).toBe(true);
    expect(config(doc({ fp8Recipe: 'mxfp8' })).stack.fp8ParamGather).toBe(true);
    expect(config(doc({ fp8Recipe: 'blockwise' })).stack.fp8ParamGather).toBe(false);
    expect(config(doc({ fp8Recipe: 'tensorwise', fp8ParamGather: false })).stack.fp8ParamGather).toBe(false);
  });

  it("the page's profile default reads the document's recipe (absent or unknown: the profile's own, delayed)", () => {
    expect(stackFieldDefault('megatron', 'fp8ParamGather', 'tensorwise')).toBe(true);
    expect(stackFieldDefault('megatron', 'fp8ParamGather', undefined)).toBe(false);
    expect(stackFieldDefault('megatron', 'fp8ParamGather', 'no-such-recipe')).toBe(false);
    expect(stackFieldDefault('torchtitan', 'fp8ParamGather', 'tensorwise')).toBe(false);
    expect(stackFieldDefault('megatron', 'loss', 'tensorwise')).toBe('fused');
  });

  it('refuses a value that is not a boolean, naming the field', () => {
    const parsed = parseDocument(doc({ fp8ParamGather: 'yes' }));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors.join(' ')).toContain('training.fp8ParamGather');
  });

  it('the Megatron-LM launch writes --fp8-param-gather when on, and the import reads it back', () => {
    const text = (training: Record<string, unknown>) => {
      const launch = launchFileForDocument(doc(training), 'megatron');
      if (!launch.ok) throw new Error(launch.errors.join('; '));
      return launch.launch.text;
    };
    const on = text({ fp8Recipe: 'tensorwise' });
    const off = text({ fp8Recipe: 'delayed' });
    expect(on).toContain('--fp8-param-gather');
    expect(off).not.toContain('--fp8-param-gather');
    expect(off).toContain('--fp8-recipe delayed');
    const back = (content: string) => {
      const imported = importLaunchFile(content, { gpu: 'h100-sxm' });
      if (!imported.ok) throw new Error(imported.errors.join('; '));
      return config({ ...imported.document, model: doc({}).model }).stack.fp8ParamGather;
    };
    expect(back(on)).toBe(true);
    // Megatron-LM's own default is off: a tensorwise command line without the flag imports as off.
    expect(back(off.replace('--fp8-recipe delayed', '--fp8-recipe tensorwise'))).toBe(false);
  });

  it("a NeMo launcher YAML's fp8_params (NeMo 1) reads as on; without it, off", () => {
    const yaml = readFileSync(new URL('../../../scripts/fixtures/import/yaml/nemo_launcher_llama2_7b.yaml', import.meta.url), 'utf8');
    const fp8 = yaml.replace('  fp8: False #', '  fp8: True #');
    const gather = (text: string) => {
      const imported = importLaunchFile(text, { gpu: 'h100-sxm' });
      if (!imported.ok) throw new Error(imported.errors.join('; '));
      return (imported.document['training'] as Record<string, unknown>)['fp8ParamGather'];
    };
    expect(gather(fp8.replace('  fp8_margin: 0', '  fp8_params: True\n  fp8_margin: 0'))).toBe(true);
    expect(gather(fp8)).toBe(false);
  });
});

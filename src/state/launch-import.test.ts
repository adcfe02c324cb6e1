import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { estimate } from '../model/estimate.ts';
import { importLaunchFile } from '../model/import/index.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { setAt, type Doc } from './doc.ts';
import { importOntoPage, mergeLaunchImport } from './launch-import.ts';

describe('a launch file laid over the page', () => {
  const current = {
    version: 1,
    model: { name: 'Llama 3 70B', layers: 80 },
    training: { seqLen: 8192, globalBatch: 256, tokens: 1e12, loss: 'fused' },
    parallel: { tp: 8, pp: 4, dp: 2 },
    cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 64 },
    cost: { usdPerGpuHour: 2 },
  };

  it("the file's fields win; its layout replaces the old one; the GPU, the cost and an absent budget stay", () => {
    const merged = mergeLaunchImport(current, {
      version: 1,
      model: { name: 'Imported', layers: 32, hidden: 4096 },
      training: { seqLen: 4096, framework: 'megatron' },
      parallel: { tp: 2, pp: 1 },
      cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 16 },
    });
    expect(merged).toEqual({
      version: 1,
      model: { name: 'Imported', layers: 32, hidden: 4096 },
      training: { seqLen: 4096, globalBatch: 256, tokens: 1e12, framework: 'megatron' },
      parallel: { tp: 2, pp: 1 },
      cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 16 },
      cost: { usdPerGpuHour: 2 },
    });
  });

  it("a file without the model (a bare DeepSpeed config) keeps the page's model and GPU", () => {
    const merged = mergeLaunchImport(current, {
      version: 1,
      model: { name: 'Imported' },
      training: { microBatch: 2 },
      parallel: { zero: 3 },
      cluster: { gpu: 'a100-80gb' },
    });
    expect(merged['model']).toEqual(current.model);
    expect(merged['cluster']).toEqual(current.cluster);
  });
});

// Issue 38: what people bring lands runnable. Fixtures copied verbatim from their repositories
// (scripts/fixtures/import/README.md: source and commit).
describe('a published recipe imported onto the page estimates without errors', () => {
  const fixture = (name: string) => readFileSync(new URL(`../../scripts/fixtures/import/yaml/${name}`, import.meta.url), 'utf8');
  const onto = (name: string, page: Doc = DEFAULT_DOCUMENT) => {
    const result = importOntoPage(importLaunchFile, fixture(name), page);
    if (!result.ok) throw new Error(result.errors.join('; '));
    return result;
  };

  it("axolotl examples/llama-3/qlora.yml on the page's 64 GPUs: DP 64 derived and said, global batch 2 × 4 × 64", () => {
    const page = setAt(DEFAULT_DOCUMENT, ['cluster', 'gpus'], 64);
    const r = onto('axolotl_llama3_qlora.yml', page);
    // The file gives no GPU count: the page's 64 are used; TP, PP and CP are 1 (Hugging Face Trainer data parallelism).
    expect(r.document['parallel']).toMatchObject({ tp: 1, pp: 1, cp: 1, dp: 64 });
    expect(r.gpuLine).toBe("The file does not state the GPU count: this page's 64 GPUs are used, so DP is 64 (64 ÷ TP 1 × PP 1 × CP 1).");
    // micro_batch_size 2 × gradient_accumulation_steps 4 × DP 64; sequence_len 4096; lora_r 32 with load_in_4bit.
    expect(r.document['training']).toMatchObject({ globalBatch: 512, microBatch: 2, seqLen: 4096, adapter: { method: 'qlora', rank: 32 } });
    // base_model NousResearch/Meta-Llama-3-8B resolves to the Llama 3 8B preset (32 layers); the token budget is the page's.
    expect(r.document['model']).toMatchObject({ name: 'NousResearch/Meta-Llama-3-8B', layers: 32, hidden: 4096 });
    expect(r.unstated.map((u) => u.path.join('.'))).toEqual(['training.tokens']);
    expect(estimate(r.document).errors).toEqual([]);
  });

  it('AutoModel llm_pretrain llama3_1_70b …8nodes_tp1cp2pp1.yaml: 8 nodes × 8 GPUs, CP 2, DP 32, seq 8192, recompute, compile', () => {
    const r = onto('automodel_llama3_1_70b_pretrain_benchmark_8nodes_tp1cp2pp1.yaml');
    // benchmark.num_nodes 8 × 8 GPUs per node; distributed tp_size 1, cp_size 2, pp_size 1, dp_size null → 64 ÷ 2 = 32.
    expect(r.document['cluster']).toMatchObject({ gpus: 64, gpusPerNode: 8 });
    expect(r.document['parallel']).toMatchObject({ tp: 1, cp: 2, pp: 1, dp: 32, zero: 3 });
    expect(r.gpuLine).toBeNull();
    // dataset.seq_len 8192; activation_checkpointing True; enable_compile True; step_scheduler 12 steps × 128 × 8192 tokens.
    expect(r.document['training']).toMatchObject({
      seqLen: 8192,
      globalBatch: 128,
      microBatch: 1,
      recompute: 'full',
      compile: true,
      tokens: 12 * 128 * 8192,
    });
    // pretrained_model_name_or_path meta-llama/Llama-3.1-70B resolves to the Llama 3.1 70B preset.
    expect(r.document['model']).toMatchObject({ name: 'meta-llama/Llama-3.1-70B', layers: 80, hidden: 8192 });
    expect(r.unstated).toEqual([]);
    expect(estimate(r.document).errors).toEqual([]);
  });

  it("a file that states little lists each field it left open, in the page's words", () => {
    const r = onto('automodel_llama3_2_1b_squad.yaml');
    // The model is named by its Hub id (meta-llama/Llama-3.2-1B), which the catalog resolves (issue 38 item 2).
    expect(r.unstated.map((u) => u.words)).toEqual(['sequence length', 'token budget']);
  });
});

import { runScript } from './run-script.ts';
import { describe, expect, it } from 'vitest';

// `npm run import`: the document and its warnings on stdout; errors that name the line or the flag, exit 1.
const run = (args: string[], input?: string) => runScript('scripts/import.ts', args, input);

describe('npm run import', () => {
  it('--help: usage on stdout, exit 0', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run --silent import -- FILE/);
  });

  it('a DeepSpeed config with --hf config.json: the document, framework deepspeed, warnings', () => {
    const out = run([
      'scripts/fixtures/import/deepspeed/finetune_hf_llama_ds_config.json',
      '--hf',
      'e2e/data/llama3-8b-config.json',
      '--gpu',
      'a100-80gb',
      '--gpus',
      '16',
    ]);
    expect(out.status).toBe(0);
    const doc = JSON.parse(out.stdout) as {
      model: { layers: number };
      training: { framework: string };
      cluster: { gpu: string; gpus: number };
      warnings: string[];
    };
    expect(doc.model.layers).toBe(32);
    expect(doc.training.framework).toBe('deepspeed');
    expect(doc.cluster).toMatchObject({ gpu: 'a100-80gb', gpus: 16 });
    expect(doc.warnings).toContain('steps_per_print: not used by the planner, ignored');
  });

  it('a NeMo-Megatron-Launcher training YAML: the document, framework megatron, the GPUs of trainer.num_nodes × devices', () => {
    const out = run(['scripts/fixtures/import/yaml/nemo_launcher_llama2_7b.yaml']);
    expect(out.status).toBe(0);
    const doc = JSON.parse(out.stdout) as { model: { layers: number }; training: { framework: string }; cluster: { gpus: number } };
    expect(doc.model.layers).toBe(32);
    expect(doc.training.framework).toBe('megatron');
    expect(doc.cluster.gpus).toBe(128);
  });

  it('an axolotl QLoRA YAML and a LLaMA-Factory LoRA YAML with --gpus 8: training.adapter, modelCode transformers, DP 8', () => {
    const ax = run(['scripts/fixtures/import/yaml/axolotl_llama3_qlora_fsdp_70b.yaml', '--gpus', '8']);
    expect(ax.status).toBe(0);
    const a = JSON.parse(ax.stdout) as { model: { layers: number }; training: Record<string, unknown>; parallel: Record<string, unknown> };
    expect(a.model.layers).toBe(80);
    // lora_r: 8, load_in_4bit: true, lora_target_linear: true; micro 1 × accumulation 4 × 8 GPUs.
    expect(a.training).toMatchObject({
      adapter: { method: 'qlora', rank: 8 },
      modelCode: 'transformers',
      framework: 'fsdp',
      globalBatch: 32,
    });
    expect(a.parallel).toMatchObject({ tp: 1, pp: 1, dp: 8, zero: 3 });
    const lf = run([
      'scripts/fixtures/import/yaml/llamafactory_qwen3_lora_sft_ds3.yaml',
      '--hf',
      'e2e/data/llama3-8b-config.json',
      '--gpus',
      '8',
    ]);
    expect(lf.status).toBe(0);
    const l = JSON.parse(lf.stdout) as { training: Record<string, unknown>; parallel: Record<string, unknown> };
    // lora_rank: 8, lora_target: all; deepspeed: examples/deepspeed/ds_z3_config.json; micro 1 × accumulation 2 × 8.
    expect(l.training).toMatchObject({
      adapter: { method: 'lora', rank: 8, modules: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] },
      framework: 'deepspeed',
      globalBatch: 16,
    });
    expect(l.parallel).toMatchObject({ dp: 8, zero: 3 });
  });

  it('the axolotl QLoRA example (--gpus 8) and an AutoModel pre-training recipe import and estimate without errors', () => {
    const estimateOf = (imported: string) =>
      JSON.parse(runScript('scripts/estimate.ts', ['-'], imported).stdout) as { errors: string[]; memory: { fits: boolean } };
    // examples/llama-3/qlora.yml: micro 2 × accumulation 4 × 8 GPUs; the token budget is not in the file.
    const ax = run(['scripts/fixtures/import/yaml/axolotl_llama3_qlora.yml', '--gpus', '8']);
    expect(ax.status).toBe(0);
    expect(ax.stderr).toContain("not stated in the file (the document's defaults apply): token budget");
    expect(JSON.parse(ax.stdout)).toMatchObject({ training: { globalBatch: 64, seqLen: 4096 }, parallel: { dp: 8 } });
    expect(estimateOf(ax.stdout).errors).toEqual([]);
    // llm_pretrain llama3_1_70b …8nodes_tp1cp2pp1.yaml: benchmark.num_nodes 8 × 8 GPUs, nothing left open.
    const am = run(['scripts/fixtures/import/yaml/automodel_llama3_1_70b_pretrain_benchmark_8nodes_tp1cp2pp1.yaml']);
    expect(am.status).toBe(0);
    expect(am.stderr).toBe('');
    expect(JSON.parse(am.stdout)).toMatchObject({ cluster: { gpus: 64 }, parallel: { cp: 2, dp: 32 }, training: { seqLen: 8192 } });
    expect(estimateOf(am.stdout).errors).toEqual([]);
  });

  it('a malformed file: exit 1, the line named on stderr', () => {
    const out = run(['-'], '[model]\nflavor = 8B\n');
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('the TOML file: line 2:');
  });
});

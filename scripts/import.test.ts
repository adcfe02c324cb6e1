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
    const out = run(['scripts/fixtures/import/deepspeed/finetune_hf_llama_ds_config.json', '--hf', 'e2e/data/llama3-8b-config.json', '--gpu', 'a100-80gb', '--gpus', '16']);
    expect(out.status).toBe(0);
    const doc = JSON.parse(out.stdout) as { model: { layers: number }; training: { framework: string }; cluster: { gpu: string; gpus: number }; warnings: string[] };
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

  it('a malformed file: exit 1, the line named on stderr', () => {
    const out = run(['-'], '[model]\nflavor = 8B\n');
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('the TOML file: line 2:');
  });
});

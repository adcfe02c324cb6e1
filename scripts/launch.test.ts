import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScript } from './run-script.ts';

// `npm run launch` prints exactly the golden launch files (the page shows the same text).
const run = (args: string[], input?: string) => runScript('scripts/launch.ts', args, input);
const golden = 'src/model/export/__golden__/launch';

describe('npm run launch', () => {
  it('--help: usage on stdout, exit 0', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run --silent launch -- FILE/);
  });

  it('prints the golden file of each framework', () => {
    for (const [framework, file] of [
      ['megatron', 'megatron.sh'],
      ['torchtitan', 'torchtitan.toml'],
      ['deepspeed', 'deepspeed.sh'],
    ] as const) {
      const out = run([`${golden}/mixtral-8x7b-ep.document.json`, '--framework', framework]);
      expect(out.status, framework).toBe(0);
      expect(out.stdout, framework).toBe(readFileSync(`${golden}/mixtral-8x7b-ep.${file}`, 'utf8'));
    }
  });

  it('a bad --framework names the choices; an invalid document exits 1 with its errors', () => {
    const bad = run([`${golden}/mixtral-8x7b-ep.document.json`, '--framework', 'nemo']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--framework: needs one of megatron, torchtitan, deepspeed');
    const invalid = run(['-'], '{"version":1,"model":{},"training":{},"cluster":{"gpu":"h100-sxm"}}');
    expect(invalid.status).toBe(1);
    expect(invalid.stderr).toContain('model.layers');
  });

  it("prints a fine-tune's torchtune config and PEFT script (src/model/export/finetune.ts)", () => {
    const doc = JSON.stringify({
      version: 1,
      model: { name: 'Llama 3.1 8B', layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 },
      training: { seqLen: 2048, globalBatch: 8, microBatch: 2, adapter: { method: 'qlora', rank: 16 } },
      parallel: { dp: 1 },
      cluster: { gpu: 'rtx-4090', gpus: 1 },
    });
    const tune = run(['-', '--framework', 'torchtune'], doc);
    expect(tune.status).toBe(0);
    expect(tune.stdout).toContain('_component_: torchtune.models.llama3_1.qlora_llama3_1_8b');
    const peft = run(['-', '--framework=peft'], doc);
    expect(peft.status).toBe(0);
    expect(peft.stdout).toContain('bnb_4bit_quant_type="nf4"');
  });
});

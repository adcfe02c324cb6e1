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
    for (const [framework, file] of [['megatron', 'megatron.sh'], ['torchtitan', 'torchtitan.toml'], ['deepspeed', 'deepspeed.sh']] as const) {
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
});

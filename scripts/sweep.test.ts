import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runScript } from './run-script.ts';
import { estimate } from '../src/model/estimate.ts';

// `npm run --silent sweep -- FILE --knob K` (issue 13): the interchange spec's command-line
// rules (exit 0 with errors for a bad document, 2 only for unreadable input or bad arguments).

const FILE = 'examples/llama3-70b-256-h100.json';
const run = (args: string[], input?: string) => runScript('scripts/sweep.ts', args, input);

interface Printed {
  knob: string;
  rows: Array<{ value: number; output: { memory: { reserved: number }; throughput: { tokensPerSecond: number } } }>;
  skipped: Array<{ value: number; reason: string }>;
  errors: string[];
}

describe('sweep command line', () => {
  it('prints { knob, rows, skipped }, rows ascending, each row the estimate of its document', () => {
    const result = run([FILE, '--knob', 'tp', '--no-timeline']);
    expect(result.status).toBe(0);
    const printed = JSON.parse(result.stdout) as Printed;
    expect(printed.knob).toBe('tp');
    expect(printed.rows.map((r) => r.value)).toEqual([1, 2, 4, 8]);
    expect(printed.skipped.map((s) => s.value)).toEqual([16, 32, 64]);
    // TP 4 at a fixed 256 GPUs: DP 16 (4 × 4 × 16 = 256).
    const doc = JSON.parse(readFileSync(FILE, 'utf8')) as { parallel: object };
    const tp4 = estimate({ ...doc, parallel: { ...doc.parallel, tp: 4, dp: 16 } });
    expect(printed.rows[2]?.output.throughput.tokensPerSecond).toBe(tp4.throughput?.tokensPerSecond);
    expect(printed.rows[2]?.output.memory.reserved).toBe(Math.round(tp4.memory.reserved));
  }, 30_000);

  it('--summary prints one line per value; --help exits 0 with usage', () => {
    const summary = run([FILE, '--knob', 'zero', '--summary']);
    expect(summary.status).toBe(0);
    // A title, what the curve holds, and 4 ZeRO stages.
    const lines = summary.stdout.trim().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toBe(
      'Holding: 256 GPUs, global batch 512 sequences, sequence length 8,192 tokens, micro-batch 1 sequence, precision BF16, token budget 1.5 trillion tokens.',
    );
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run --silent sweep -- FILE/);
  }, 30_000);

  it('--hold-tokens: the sequence-length curve keeps 512 × 8,192 = 4,194,304 tokens per step', () => {
    const printed = JSON.parse(run([FILE, '--knob', 'seqLen', '--no-timeline', '--hold-tokens']).stdout) as Printed & {
      held: Array<{ quantity: string; value: number }>;
      seqLenHold: string;
    };
    expect(printed.seqLenHold).toBe('tokens');
    expect(printed.held.find((h) => h.quantity === 'tokensPerStep')?.value).toBe(4_194_304);
    expect(printed.held.some((h) => h.quantity === 'globalBatch')).toBe(false);
  }, 30_000);

  it('a bad knob is an errors list with exit 0; no knob or no file exits 2', () => {
    const bad = run([FILE, '--knob', 'tpp']);
    expect(bad.status).toBe(0);
    expect((JSON.parse(bad.stdout) as Printed).errors[0]).toMatch(/knob: "tpp"/);
    expect(run([FILE]).status).toBe(2);
    expect(run(['no-such-file.json', '--knob', 'tp']).status).toBe(2);
  }, 30_000);
});

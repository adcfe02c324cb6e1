import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticMegatronLog } from '../src/model/log/index.ts';
import { runScript } from './run-script.ts';

// `npm run log`: the report as JSON; with RUN.json, predicted and ratio (interchange spec, "Command line").
const run = (args: string[], input?: string) => runScript('scripts/log.ts', args, input);
const FIXTURE = 'src/model/log/__fixtures__/megatron-mixtral-756.log';

describe('npm run log', () => {
  it('--help: usage on stdout, exit 0', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run --silent log -- LOGFILE/);
  });

  it("a Megatron-LM log: the spec's fields, medians after warm-up, null for what the log does not give", () => {
    const out = run([FIXTURE]);
    expect(out.status).toBe(0);
    const r = JSON.parse(out.stdout) as Record<string, unknown> & {
      measured: Record<string, unknown>;
      steady: { from: number; to: number; skipped: string };
    };
    expect(Object.keys(r)).toEqual(expect.arrayContaining(['framework', 'steps', 'steady', 'measured', 'series', 'anomalies', 'warnings']));
    expect(r.framework).toBe('megatron');
    expect(r.steps).toBe(3);
    expect(r.steady).toMatchObject({ from: 72, to: 73 });
    expect(r.measured).toEqual({
      stepSeconds: 5.6503,
      tokensPerSecondPerGpu: null,
      tflopsPerGpu: 231.35,
      mfu: null,
      memoryBytes: null,
      memoryMetric: null,
    });
    expect(r).not.toHaveProperty('predicted');
  });

  it('with RUN.json: predicted and ratio, memory bytes whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'log-'));
    const logFile = join(dir, 'train.log');
    writeFileSync(logFile, syntheticMegatronLog({ steps: 20, stepSeconds: 2, globalBatch: 512, seqLen: 4096, gpus: 64, jitter: 0 }));
    const runFile = join(dir, 'run.json');
    writeFileSync(
      runFile,
      JSON.stringify({
        version: 1,
        model: { layers: 32, hidden: 4096, heads: 32, vocab: 32000, ffnType: 'swiglu', ffnHidden: 11008 },
        training: { seqLen: 4096, globalBatch: 512, microBatch: 1 },
        parallel: { tp: 8, pp: 1, dp: 8 },
        cluster: { gpu: 'h100-sxm', gpus: 64 },
      }),
    );
    const out = run([logFile, runFile]);
    expect(out.status).toBe(0);
    const r = JSON.parse(out.stdout) as {
      measured: { stepSeconds: number; memoryBytes: number };
      predicted: { stepSeconds: number; memoryBytes: number };
      ratio: { stepSeconds: number };
    };
    expect(r.measured.stepSeconds).toBe(2);
    expect(r.ratio.stepSeconds).toBeCloseTo(2 / r.predicted.stepSeconds, 9);
    expect(Number.isInteger(r.predicted.memoryBytes)).toBe(true);
  });

  it('an unreadable log or a RUN.json that is not JSON: exit 2 with one line on stderr', () => {
    const missing = run(['no-such.log']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^cannot read no-such\.log/);
    const notJson = run([FIXTURE, '-'], 'not json');
    expect(notJson.status).toBe(2);
    expect(notJson.stderr).toMatch(/is not JSON/);
  });

  it('standard input with -', () => {
    const out = run(['-'], "{'loss': 2.0, 'grad_norm': 1.0, 'learning_rate': 1e-05, 'epoch': 0.1}\n");
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ framework: 'hf-trainer', steps: 1 });
  });
});

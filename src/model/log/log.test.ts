// The log reader on real excerpts (each fixture's first line cites where it was published),
// with every expected figure worked out by hand from the lines themselves.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readLog, LogReader, GiB } from './test-api.ts';

const MiB = 1024 * 1024;
const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url)), 'utf8');
const values = (pairs: ReadonlyArray<readonly [number, number]>) => pairs.map(([, v]) => v);

describe('Megatron-LM', () => {
  it('Mixtral on 16 H100 (issue 756): step time and TFLOP/s medians after skipping the first logged step', () => {
    const r = readLog(fixture('megatron-mixtral-756.log'));
    expect(r.framework).toBe('megatron');
    expect(r.steps).toBe(3);
    // 3 logged steps: ceil(10 % of 3) = 1 skipped (iteration 71); steady 72–73.
    expect(r.steady).toMatchObject({ from: 72, to: 73 });
    expect(r.steady?.skipped).toMatch(/^step 71 \(1 of 3 logged\)/);
    expect(r.measured.stepSeconds).toBeCloseTo((5.4707 + 5.8299) / 2, 6); // 5.6503 s
    expect(r.measured.tflopsPerGpu).toBeCloseTo((238.7 + 224.0) / 2, 6); // 231.35
    // No sequence length or GPU count in the excerpt: tokens/s is not guessed; Megatron prints no MFU.
    expect(r.measured.tokensPerSecondPerGpu).toBeNull();
    expect(r.measured.mfu).toBeNull();
    expect(r.measured.memoryBytes).toBeNull();
    expect(r.series.loss).toEqual([
      [71, 1.818812],
      [72, 1.820313],
      [73, 1.798953],
    ]);
    expect(values(r.series.gradNorm)).toEqual([1.3, 1.305, 1.539]);
    expect(r.facts.globalBatch).toBe(128);
    expect(r.anomalies).toEqual([]);
  });

  it('GPT-2 on V100 (issue 60): fp16 skipped iterations flagged, memory from the warm-up report in MiB', () => {
    const r = readLog(fixture('megatron-gpt2-60.log'));
    expect(r.steps).toBe(3);
    expect(r.steady).toMatchObject({ from: 10, to: 15 });
    expect(r.measured.stepSeconds).toBeCloseTo((1.9939 + 1.9781) / 2, 6); // 1.986 s; the 16.5 s first step skipped
    expect(r.measured.memoryMetric).toBe('peak reserved');
    expect(r.measured.memoryBytes).toBe(17482 * MiB);
    expect(r.warnings).toContain('memory: reported only during warm-up');
    expect(r.anomalies.map((a) => [a.step, a.kind])).toEqual([
      [5, 'skipped-iterations'],
      [10, 'skipped-iterations'],
      [15, 'skipped-iterations'],
    ]);
  });

  it('the "[Rank 0] (after N iterations) memory (MB)" report (pull request 5662): max reserved is the peak', () => {
    const r = readLog(fixture('megatron-memory-5662.log'));
    expect(r.steps).toBe(1);
    expect(r.steady?.skipped).toMatch(/only 1 timed step/);
    expect(r.measured.stepSeconds).toBeCloseTo(0.744, 9);
    expect(r.measured).toMatchObject({ memoryMetric: 'peak reserved', memoryBytes: 6406 * MiB });
    expect(r.series.memoryBytes).toEqual([[20, 6406 * MiB]]);
    expect(r.facts.globalBatch).toBe(16);
  });
});

describe('torchtitan', () => {
  it('pull request 1287: tps, TFLOP/s, MFU and reserved memory; step time from the timestamps', () => {
    const r = readLog(fixture('torchtitan-1287.log'));
    expect(r.framework).toBe('torchtitan');
    expect(r.steps).toBe(6);
    expect(r.steady).toMatchObject({ from: 210, to: 250 });
    // Medians of steps 210–250: tps 5593, 5868, 5869, 5864, 5862 → 5864; tflops → 339.59; mfu → 34.34 %.
    expect(r.measured.tokensPerSecondPerGpu).toBe(5864);
    expect(r.measured.tflopsPerGpu).toBeCloseTo(339.59, 9);
    expect(r.measured.mfu).toBeCloseTo(0.3434, 9);
    expect(r.measured).toMatchObject({ memoryMetric: 'peak reserved', memoryBytes: 49.66 * GiB });
    // Ten steps between log lines: 14.648, 13.964, 13.961, 13.974, 13.977 s → median 1.3974 s a step
    // (5864 tokens/s × 1.3974 s = 8194 tokens a GPU a step: one 8192-token sequence, as it should be).
    expect(r.measured.stepSeconds).toBeCloseTo(1.3974, 9);
    expect(r.warnings.some((w) => w.includes('timestamps'))).toBe(true);
    expect(r.anomalies).toEqual([]);
  });

  it('pull request 2389: every rank prints the step; the first print of a step is kept', () => {
    const r = readLog(fixture('torchtitan-2389.log'));
    expect(r.steps).toBe(2);
    expect(r.steady?.skipped).toMatch(/only 2 timed steps/);
    expect(r.measured.tokensPerSecondPerGpu).toBeCloseTo((10050 + 10007) / 2, 9);
    expect(r.measured.tflopsPerGpu).toBeCloseTo((314.71 + 313.36) / 2, 9);
    expect(r.measured.mfu).toBeCloseTo(0.1396, 9);
    expect(r.measured.stepSeconds).toBeCloseTo(1.637, 9); // 19:46:19,145 − 19:46:17,508
    expect(r.series.gradNorm).toEqual([
      [4, 26.625],
      [5, 46.5],
    ]);
    expect(r.measured.memoryBytes).toBeCloseTo(66.91 * GiB, 0);
  });
});

describe('DeepSpeed', () => {
  it('issue 1825: the throughput timer and skipped steps; no batch size in the log, so the step time comes from the timestamps', () => {
    const r = readLog(fixture('deepspeed-1825.log'));
    expect(r.framework).toBe('deepspeed');
    expect(r.steps).toBe(2);
    // 02:07:14,130 − 02:06:58,985 = 15.145 s over the 10 steps from 40 to 50.
    expect(r.measured.stepSeconds).toBeCloseTo(1.5145, 9);
    expect(r.measured.tokensPerSecondPerGpu).toBeNull();
    expect(r.measured).toMatchObject({ memoryMetric: 'peak allocated', memoryBytes: 9.02 * GiB });
    expect(r.anomalies).toEqual([expect.objectContaining({ step: 40, kind: 'skipped-iterations' })]);
    expect(r.anomalies[0]?.detail).toMatch(/^2 optimizer step\(s\) skipped by step 40/);
  });

  it('issue 1825 with the config dump: samples/s and the batch give the step time', () => {
    const dump = '[2022-03-11 02:05:00,000] [INFO] [config.py:1063:print]   train_batch_size ............. 16\n';
    const r = readLog(dump + fixture('deepspeed-1825.log'));
    // 16 samples ÷ 83.486 and 83.738 samples/s → 0.19165 and 0.19107 s; 2 steps, both steady.
    expect(r.measured.stepSeconds).toBeCloseTo((16 / 83.48609168106144 + 16 / 83.73838805358588) / 2, 9);
    expect(r.facts.globalBatch).toBe(16);
  });

  it("Megatron-DeepSpeed (issue 3742): Megatron's iteration line with the timer's memory", () => {
    const r = readLog(fixture('megatron-deepspeed-3742.log'));
    expect(r.framework).toBe('megatron-deepspeed');
    expect(r.measured.stepSeconds).toBeCloseTo(4.1031, 9);
    expect(r.measured.tflopsPerGpu).toBeCloseTo(112.9, 9);
    expect(r.series.loss).toEqual([[34, 11.18665]]);
    expect(r.measured).toMatchObject({ memoryMetric: 'peak allocated', memoryBytes: 63.31 * GiB });
  });

  it('see_memory_usage before training (pull request 849) is memory "after setup", not a peak', () => {
    const r = readLog(fixture('deepspeed-memory-849.log'));
    expect(r.framework).toBe('deepspeed');
    expect(r.steps).toBe(0);
    expect(r.measured).toMatchObject({ memoryMetric: 'after setup', memoryBytes: 1 * GiB, stepSeconds: null });
    expect(r.warnings.some((w) => w.startsWith('no training steps found'))).toBe(true);
  });
});

describe('Hugging Face Trainer', () => {
  it('transformers pull request 35207: loss dicts without step numbers are counted', () => {
    const r = readLog(fixture('hf-trainer-35207.log'));
    expect(r.framework).toBe('hf-trainer');
    expect(r.steps).toBe(6);
    expect(r.series.loss).toEqual([
      [1, 2.119],
      [2, 1.6462],
      [3, 1.5798],
      [4, 1.6039],
      [5, 1.2141],
      [6, 1.1649],
    ]);
    expect(r.series.gradNorm[0]).toEqual([1, 37.657958984375]);
    expect(r.steady).toBeNull();
    expect(r.measured.stepSeconds).toBeNull();
    expect(r.warnings.some((w) => w.includes('no step number'))).toBe(true);
  });

  it('the closing summary gives a whole-run mean step time, said so', () => {
    const r = readLog(
      `${fixture('hf-trainer-35207.log')}{'train_runtime': 60.0, 'train_samples_per_second': ` +
        `16.0, 'train_steps_per_second': 0.5, 'train_loss': 1.5, 'epoch': 1.5}\n`,
    );
    expect(r.measured.stepSeconds).toBe(2); // 1 ÷ 0.5 steps/s
    expect(r.warnings.some((w) => w.includes('train_steps_per_second'))).toBe(true);
  });

  it("tqdm's seconds per step number the loss dicts that follow", () => {
    const lines = [
      '  5%|▌         | 10/200 [00:21<06:39,  2.10s/it]',
      "{'loss': 2.5, 'grad_norm': 1.0, 'learning_rate': 1e-05, 'epoch': 0.05}",
      ' 10%|█         | 20/200 [00:42<06:18,  2.10s/it]',
      "{'loss': 2.25, 'grad_norm': 0.9, 'learning_rate': 1e-05, 'epoch': 0.1}",
    ];
    const r = readLog(lines.join('\n'));
    expect(r.series.loss).toEqual([
      [10, 2.5],
      [20, 2.25],
    ]);
    expect(r.series.stepSeconds).toEqual([
      [10, 2.1],
      [20, 2.1],
    ]);
  });
});

describe('NeMo', () => {
  it('NeMo 2 (bionemo-recipes pull request 740): train_step_timing and reduced_train_loss', () => {
    const r = readLog(fixture('nemo2-bionemo-740.log'));
    expect(r.framework).toBe('nemo');
    expect(r.steps).toBe(5);
    expect(r.steady).toMatchObject({ from: 121, to: 124 });
    // steps 121–124: 0.03163, 0.03215, 0.03157, 0.0317 s → (0.03163 + 0.0317) / 2
    expect(r.measured.stepSeconds).toBeCloseTo(0.031665, 9);
    expect(r.series.loss[0]).toEqual([120, 1.233]);
    expect(r.facts.globalBatch).toBe(1);
  });

  it('NeMo 1 progress bar (NeMo-Framework-Launcher issue 55): global_step and s/it', () => {
    const r = readLog(fixture('nemo1-launcher-55.log'));
    expect(r.framework).toBe('nemo');
    expect(r.series.loss).toEqual([[794, 3.09]]);
    expect(r.measured.stepSeconds).toBeCloseTo(41.36, 9);
  });
});

describe('streaming', () => {
  it('gives the same report whatever the slices (lines cut anywhere, CRLF)', () => {
    const text = fixture('torchtitan-1287.log').replace(/\n/g, '\r\n');
    const whole = readLog(text);
    const reader = new LogReader();
    for (let i = 0; i < text.length; i += 7) reader.push(text.slice(i, i + 7));
    expect(reader.end()).toEqual(whole);
  });
});

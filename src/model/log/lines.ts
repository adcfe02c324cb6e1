// One reader per framework's line format. Each looks for its own marker first (a substring
// test, so a 50 MB log costs one pass of cheap checks) and reports what the line holds to a
// sink; none throws, whatever the line. Formats, as the frameworks print them:
//   Megatron-LM / Megatron-Bridge (megatron/training/training.py training_log):
//     " iteration 71/ 100 | consumed samples: 9088 | elapsed time per iteration (ms): 5361.6 |
//       throughput per GPU (TFLOP/s/GPU): 243.6 | … | global batch size: 128 | lm loss: 1.818812E+00 |
//       … | grad norm: 1.300 | number of skipped iterations: 0 | number of nan iterations: 0 |"
//     "[Rank 0] (after 20 iterations) memory (MB) | allocated: … | max allocated: … | reserved: … | max reserved: …"
//     the arguments dump "  global_batch_size ............ 128" (Megatron's and DeepSpeed's config print)
//   Megatron-DeepSpeed: "samples/sec: 7.799 | iteration 34/ 10000 | … | approx flops per GPU: 112.9TFLOPS | lm_loss: …"
//   NeMo 2: "Training epoch 0, iteration 120/149 | … | global_step: 120 | reduced_train_loss: 1.233 | train_step_timing in s: 0.03146"
//   NeMo 1 (Lightning progress bar): "Epoch 0: 1%| | 795/77225 [9:07:58<…, 41.36s/it, …, reduced_train_loss=3.090, global_step=794.0, …]"
//   NeMo AutoModel: "step 9 | epoch 0 | loss 0.6974 | grad_norm 1.5436 | … | mem 24.90 GiB | tps 11278.56(1409.82/gpu) | …"
//   torchtitan (metrics.py): "step: 4  loss:  7.62585  grad_norm: 26.6250  memory: 66.91GiB(37.51%)  tps: 10,050  tflops: 314.71  mfu: 13.99%"
//   DeepSpeed: "[Rank 0] step=40, skipped=2, lr=[5e-05], …", the throughput timer
//     "epoch=0/micro_step=34/global_step=34, RunningAvgSamplesPerSec=7.86, CurrSamplesPerSec=8.00, MemAllocated=59.65GB, MaxMemAllocated=63.31GB"
//     (older: "0/40, SamplesPerSec=83.48, …"), see_memory_usage "MA 0.06 GB  Max_MA 0.26 GB  CA 0.71 GB  Max_CA 1 GB"
//   Hugging Face Trainer: "{'loss': 2.119, 'grad_norm': 37.65, 'learning_rate': 4.58e-05, 'epoch': 0.25}",
//     "{'train_runtime': 120.5, 'train_samples_per_second': 8.3, 'train_steps_per_second': 0.52, …}", tqdm "10/200 [00:10<03:10,  1.00s/it]"

import { GiB, MiB, logCount, logNumber } from './numbers.ts';
import type { LogFacts, LogFramework, MemoryMetric, StepRecord } from './types.ts';

/** A step's figures as a line gives them: absent or undefined when the line does not. */
export type StepFields = { [K in Exclude<keyof StepRecord, 'step' | 'time'>]?: StepRecord[K] } & { step: number | null };

export interface LineSink {
  /** A step's figures; step null: the framework numbers no steps (the sink counts them). */
  step(framework: LogFramework | null, record: StepFields): void;
  fact(key: keyof LogFacts, value: number | undefined): void;
  /** A memory report without its own step (DeepSpeed see_memory_usage): before training it is "after setup". */
  memory(metric: MemoryMetric, bytes: number): void;
  /** The Hugging Face Trainer's closing summary. */
  summary(values: {
    runtimeSeconds?: number | undefined;
    samplesPerSecond?: number | undefined;
    stepsPerSecond?: number | undefined;
  }): void;
  /** A line that names a framework without a step (DeepSpeed's banner beside Megatron's lines). */
  marker(framework: LogFramework): void;
}

/** The text after "key" up to the next "|" (Megatron's and NeMo's "key: value |" fields); one indexOf, no split. */
function field(line: string, key: string): string | undefined {
  const at = line.indexOf(key);
  if (at < 0) return undefined;
  const start = at + key.length;
  const end = line.indexOf('|', start);
  return end < 0 ? line.slice(start) : line.slice(start, end);
}

const ITERATION = /iteration\s+(\d+)\s*\/\s*\d+/;

function megatronIteration(line: string, sink: LineSink): boolean {
  if (!line.includes('elapsed time per iteration')) return false;
  const m = ITERATION.exec(line);
  if (!m) return false;
  const ms = logNumber(field(line, 'elapsed time per iteration (ms):'));
  const approx = field(line, 'approx flops per GPU:');
  sink.fact('globalBatch', logCount(field(line, 'global batch size:')));
  const samplesPerSecond = logNumber(field(line, 'samples/sec:'));
  sink.step(samplesPerSecond !== undefined || approx !== undefined ? 'megatron-deepspeed' : 'megatron', {
    step: Number(m[1]),
    loss: logNumber(field(line, 'lm loss:') ?? field(line, 'lm_loss:')),
    gradNorm: logNumber(field(line, 'grad norm:')),
    stepSeconds: ms === undefined ? undefined : ms / 1000,
    tflopsPerGpu: logNumber(field(line, 'throughput per GPU (TFLOP/s/GPU):') ?? approx?.trim().replace(/tflops$/i, '')),
    samplesPerSecond,
    nanIterations: logNumber(field(line, 'number of nan iterations:')),
    skippedIterations: logNumber(field(line, 'number of skipped iterations:')),
  });
  return true;
}

const MEGATRON_MEMORY_STEP = /after (\d+) iterations/;

function megatronMemory(line: string, sink: LineSink): boolean {
  if (!line.includes('memory (MB)')) return false;
  const step = MEGATRON_MEMORY_STEP.exec(line);
  // Megatron divides by 1024 × 1024 (report_memory's mega_bytes): MiB under the label "MB".
  const reserved = logNumber(field(line, 'max reserved:'));
  const allocated = logNumber(field(line, 'max allocated:'));
  if (!step) return reserved !== undefined;
  const memory: Partial<Record<MemoryMetric, number>> = {};
  if (reserved !== undefined && Number.isFinite(reserved)) memory['peak reserved'] = reserved * MiB;
  if (allocated !== undefined && Number.isFinite(allocated)) memory['peak allocated'] = allocated * MiB;
  sink.step(null, { step: Number(step[1]), memory });
  return true;
}

const ARGUMENT = /(?:^|\s)([a-z][a-z0-9_]*) \.{3,} (\S+)\s*$/;
const ARGUMENT_FACTS: Readonly<Record<string, keyof LogFacts>> = {
  global_batch_size: 'globalBatch',
  train_batch_size: 'globalBatch',
  micro_batch_size: 'microBatch',
  train_micro_batch_size_per_gpu: 'microBatch',
  seq_length: 'seqLen',
  world_size: 'gpus',
  tensor_model_parallel_size: 'tp',
  pipeline_model_parallel_size: 'pp',
  context_parallel_size: 'cp',
  expert_model_parallel_size: 'ep',
  num_layers: 'layers',
  hidden_size: 'hidden',
};

function argumentsDump(line: string, sink: LineSink): boolean {
  if (!line.includes(' ...')) return false;
  const m = ARGUMENT.exec(line);
  if (!m) return false;
  const key = ARGUMENT_FACTS[m[1] ?? ''];
  if (key) sink.fact(key, logCount(m[2]));
  if (line.includes('[config.py') || line.includes('DeepSpeedEngine')) sink.marker('deepspeed');
  return true;
}

/** "key=value" pairs (Lightning's progress bar, DeepSpeed's lines). */
function equalsFields(line: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const m of line.matchAll(/([A-Za-z_][\w ]*?)=\s*([^,\]\s]+)/g)) fields.set((m[1] ?? '').trim().toLowerCase(), m[2] ?? '');
  return fields;
}

const TQDM_RATE = /(\d+)\/(\d+) \[[\d:]+<[\d:?]+,\s*([\d.]+)(s\/it|it\/s)/;

function tqdmSeconds(line: string): { step: number; seconds: number } | undefined {
  const m = TQDM_RATE.exec(line);
  if (!m) return undefined;
  const rate = Number(m[3]);
  if (!(rate > 0)) return undefined;
  return { step: Number(m[1]), seconds: m[4] === 's/it' ? rate : 1 / rate };
}

function nemo(line: string, sink: LineSink): boolean {
  if (!line.includes('reduced_train_loss') && !line.includes('train_step_timing')) return false;
  if (line.includes('reduced_train_loss:') || line.includes('train_step_timing in s:')) {
    const step = logNumber(field(line, 'global_step:')) ?? logNumber(ITERATION.exec(line)?.[1]);
    if (step === undefined || !Number.isFinite(step)) return false;
    sink.fact('globalBatch', logCount(field(line, 'global_batch_size:')));
    sink.step('nemo', {
      step: Math.round(step),
      loss: logNumber(field(line, 'reduced_train_loss:')),
      gradNorm: logNumber(field(line, 'grad_norm:')),
      stepSeconds: logNumber(field(line, 'train_step_timing in s:')),
    });
    return true;
  }
  const f = equalsFields(line);
  const tqdm = tqdmSeconds(line);
  const globalStep = logNumber(f.get('global_step'));
  const step = globalStep !== undefined && Number.isFinite(globalStep) ? Math.round(globalStep) : tqdm?.step;
  if (step === undefined) return false;
  sink.step('nemo', {
    step,
    loss: logNumber(f.get('reduced_train_loss')),
    stepSeconds: logNumber(f.get('train_step_timing in s')) ?? tqdm?.seconds,
  });
  return true;
}

const AUTOMODEL = /\bstep (\d+) \| epoch \d+ \| loss (\S+)/;

function automodel(line: string, sink: LineSink): boolean {
  if (!line.includes('| epoch ')) return false;
  const m = AUTOMODEL.exec(line);
  if (!m) return false;
  const perGpu = /tps [\d.]+\(([\d.]+)\/gpu\)/.exec(line)?.[1];
  sink.step('nemo-automodel', {
    step: Number(m[1]),
    loss: logNumber(m[2]),
    gradNorm: logNumber(/\| grad_norm (\S+)/.exec(line)?.[1]),
    tokensPerSecondPerGpu: logNumber(perGpu),
  });
  return true;
}

const TITAN_STEP = /step:\s*(\d+)\s/;
const TITAN_MEMORY = /memory:\s*([\d.]+)\s*GiB/;

function torchtitan(line: string, sink: LineSink): boolean {
  if (!line.includes('step:') || !(line.includes('loss:') || line.includes('tps:'))) return false;
  const m = TITAN_STEP.exec(line);
  if (!m) return false;
  const memory = logNumber(TITAN_MEMORY.exec(line)?.[1]);
  const mfu = logNumber(/mfu:\s*([\d.]+)%/.exec(line)?.[1]);
  // torchtitan logs the device memory monitor's max_reserved_gib (metrics.py): the allocator's peak reservation.
  sink.step('torchtitan', {
    step: Number(m[1]),
    loss: logNumber(/loss:\s*(\S+)/.exec(line)?.[1]),
    gradNorm: logNumber(/grad_norm:\s*(\S+)/.exec(line)?.[1]),
    tokensPerSecondPerGpu: logNumber(/tps:\s*([\d,.]+)/.exec(line)?.[1]),
    tflopsPerGpu: logNumber(/tflops:\s*([\d.]+)/.exec(line)?.[1]),
    mfu: mfu === undefined ? undefined : mfu / 100,
    memory: memory !== undefined && Number.isFinite(memory) ? { 'peak reserved': memory * GiB } : undefined,
  });
  return true;
}

const DS_STEP = /\[Rank \d+\] step=(\d+), skipped=(\d+)/;
const DS_TIMER = /(?:global_step=(\d+)|\s(\d+)\/(\d+)),\s*(?:RunningAvgSamplesPerSec=[^,]+,\s*CurrSamplesPerSec=|SamplesPerSec=)([^,\s]+)/;
const DS_SEE_MEMORY = /Max_MA ([\d.]+) GB\s+CA ([\d.]+) GB\s+Max_CA ([\d.]+) GB/;

function deepspeed(line: string, sink: LineSink): boolean {
  if (line.includes('step=') && line.includes('skipped=')) {
    const m = DS_STEP.exec(line);
    if (!m) return false;
    sink.step('deepspeed', { step: Number(m[1]), skippedTotal: Number(m[2]) });
    return true;
  }
  if (line.includes('SamplesPerSec=')) {
    const m = DS_TIMER.exec(line);
    if (!m) return false;
    const maxAllocated = logNumber(/MaxMemAllocated=([\d.]+)GB/.exec(line)?.[1]);
    // DeepSpeed's timer rounds torch.cuda.max_memory_allocated() / 1024**3 and labels it GB: GiB.
    sink.step('deepspeed', {
      step: Number(m[1] ?? m[3]),
      samplesPerSecond: logNumber(m[4]),
      memory: maxAllocated !== undefined && Number.isFinite(maxAllocated) ? { 'peak allocated': maxAllocated * GiB } : undefined,
    });
    return true;
  }
  if (line.includes('Max_CA')) {
    const m = DS_SEE_MEMORY.exec(line);
    if (!m) return false;
    const maxReserved = Number(m[3]);
    if (Number.isFinite(maxReserved)) sink.memory('peak reserved', maxReserved * GiB);
    sink.marker('deepspeed');
    return true;
  }
  return false;
}

const PY_PAIR = /['"](\w+)['"]:\s*([^,}\s]+)/g;

function hfTrainer(line: string, sink: LineSink): boolean {
  const brace = line.indexOf('{');
  if (brace < 0) return false;
  if (!line.includes("'loss'") && !line.includes('"loss"') && !line.includes('train_runtime')) return false;
  const values = new Map<string, number | undefined>();
  for (const m of line.slice(brace).matchAll(PY_PAIR)) values.set(m[1] ?? '', logNumber((m[2] ?? '').replace(/^['"]|['"]$/g, '')));
  if (values.has('train_runtime')) {
    sink.summary({
      runtimeSeconds: values.get('train_runtime'),
      samplesPerSecond: values.get('train_samples_per_second'),
      stepsPerSecond: values.get('train_steps_per_second'),
    });
    return true;
  }
  if (!values.has('loss')) return false;
  const step = values.get('step');
  sink.step('hf-trainer', {
    step: step !== undefined && Number.isInteger(step) ? step : null,
    loss: values.get('loss'),
    gradNorm: values.get('grad_norm'),
  });
  return true;
}

/** tqdm's progress (the Trainer's bar): the step count and seconds per step, credited to no framework. */
function progressBar(line: string, sink: LineSink): boolean {
  if (!line.includes('it]') && !line.includes('it/s') && !line.includes('s/it')) return false;
  const t = tqdmSeconds(line);
  if (!t) return false;
  sink.step(null, { step: t.step, stepSeconds: t.seconds });
  return true;
}

const READERS: ReadonlyArray<(line: string, sink: LineSink) => boolean> = [
  megatronIteration,
  megatronMemory,
  nemo,
  torchtitan,
  automodel,
  deepspeed,
  hfTrainer,
  progressBar,
  argumentsDump,
];

/** Hands one line to the first reader that recognises it; false when none does. */
export function readLine(line: string, sink: LineSink): boolean {
  if (line.length < 8 || line.length > 20_000) return false;
  for (const read of READERS) if (read(line, sink)) return true;
  if (line.includes('DeepSpeed') && (line.includes('info') || line.includes('INFO'))) sink.marker('deepspeed');
  return false;
}

// A synthetic Megatron-LM log in the exact format of megatron/training/training.py (see
// lines.ts), for the anomaly tests, the 50 MB benchmark (scripts/bench-log.ts) and the page's
// end-to-end test: a steady run with what goes wrong injected at chosen steps.

export interface SyntheticLog {
  readonly steps: number;
  readonly stepSeconds?: number;
  readonly tflops?: number;
  readonly globalBatch?: number;
  readonly seqLen?: number;
  readonly gpus?: number;
  readonly tp?: number;
  readonly pp?: number;
  /** The loss jumps to lossSpikeFactor (default 3) × its trend at this step. */
  readonly lossSpikeAt?: number;
  readonly lossSpikeFactor?: number;
  readonly nanAt?: number;
  /** This step takes 10× the steady time. */
  readonly stallAt?: number;
  /** From this step on, the peak reserved memory grows 1 GiB every 10 steps. */
  readonly memoryGrowthFrom?: number;
  /** Loss and time jitter in parts of one: a deterministic sawtooth, not random. */
  readonly jitter?: number;
}

const pad = (n: number, width: number) => String(n).padStart(width, ' ');

export function* syntheticMegatronLines(o: SyntheticLog): Generator<string> {
  const stepSeconds = o.stepSeconds ?? 2.5;
  const tflops = o.tflops ?? 400;
  const gbs = o.globalBatch ?? 1024;
  const jitter = o.jitter ?? 0.01;
  yield (
    `using world size: ${o.gpus ?? 64}, data-parallel ` +
    `size: ${(o.gpus ?? 64) / ((o.tp ?? 8) * (o.pp ?? 1))}, ` +
    `tensor-model-parallel size: ${o.tp ?? 8}, pipeline-model-parallel size: ${o.pp ?? 1}`
  );
  yield '------------------------ arguments ------------------------';
  yield `  global_batch_size ............................... ${gbs}`;
  yield `  pipeline_model_parallel_size .................... ${o.pp ?? 1}`;
  yield `  seq_length ...................................... ${o.seqLen ?? 4096}`;
  yield `  tensor_model_parallel_size ...................... ${o.tp ?? 8}`;
  yield `  world_size ...................................... ${o.gpus ?? 64}`;
  yield '-------------------- end of arguments ---------------------';
  yield 'training ...';
  for (let i = 1; i <= o.steps; i += 1) {
    const wobble = 1 + jitter * (((i * 7) % 11) / 5 - 1);
    const warm = i === 1 ? 4 : 1;
    const seconds = stepSeconds * wobble * warm * (i === o.stallAt ? 10 : 1);
    let loss = (2 + 8 / Math.sqrt(i)) * wobble;
    if (i === o.lossSpikeAt) loss *= o.lossSpikeFactor ?? 3;
    const lossText = i === o.nanAt ? 'nan' : loss.toExponential(6).toUpperCase();
    yield (
      ` [2026-01-01 00:00:00] iteration ${pad(i, 8)}/${pad(o.steps, 8)} ` +
      `| consumed samples: ${pad(i * gbs, 12)} ` +
      `| elapsed time per iteration (ms): ${(seconds * 1000).toFixed(1)} | throughput per GPU ` +
      `(TFLOP/s/GPU): ${(tflops / wobble / warm).toFixed(1)} ` +
      `| learning rate: 3.000000E-04 | global batch size: ` +
      `${pad(gbs, 5)} | lm loss: ${lossText} | loss scale: 1.0 | grad norm: ${(0.5 * wobble).toFixed(3)} ` +
      `| number of skipped iterations:   0 | number of nan iterations: ${pad(i === o.nanAt ? 1 : 0, 3)} |`
    );
    const grown = o.memoryGrowthFrom !== undefined && i >= o.memoryGrowthFrom ? Math.floor((i - o.memoryGrowthFrom) / 10) * 1024 : 0;
    yield (
      `[Rank 0] (after ${i} iterations) memory (MB) | allocated: 30000.00 | max allocated: ` +
      `52000.00 | reserved: 60000.00 | max reserved: ${(60000 + grown).toFixed(2)}`
    );
  }
}

export function syntheticMegatronLog(o: SyntheticLog): string {
  return `${[...syntheticMegatronLines(o)].join('\n')}\n`;
}

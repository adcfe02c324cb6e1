// "Explain this number": each headline figure as the formula the engine evaluated,
// with the configuration's and the output's own values substituted and the source
// named. Pure: the results are the output's figures, never recomputed for display;
// explain.test.ts checks that every formula, evaluated, gives its result.

import { peakFlopsPerSecond } from '../time/index.ts';
import { explainMemory } from './memory.ts';
import { moeStepNotes } from './moe.ts';
import { microBatchesPerStep } from '../input/index.ts';
import { equation, joined, type Equation, type ExplainedFigure, type Explanation, type Quantity, type QuantityUnit } from './equation.ts';
import type { EstimateOutput, RunConfig, TimePart } from '../input/index.ts';
import type { UncertaintyTable } from '../validation/index.ts';
import { SECONDS_PER_DAY } from '../input/index.ts';

export * from './equation.ts';

/** The step-time parts in the order time.ts adds them (compute + … + bubble + dp + optimizer). */
const STEP_SUM_ORDER: readonly TimePart[] = ['compute', 'recompute', 'tp', 'cp', 'ep', 'pp', 'bubble', 'dp', 'optimizer'];
const TIME_PART_NAMES: Readonly<Record<TimePart, string>> = {
  compute: 'compute',
  recompute: 'recomputation',
  tp: 'exposed TP communication',
  cp: 'exposed CP communication',
  ep: 'exposed EP / ZeRO-3 communication',
  pp: 'pipeline sends',
  bubble: 'pipeline bubble',
  dp: 'exposed DP gradient sync',
  optimizer: 'optimizer step',
};

type Throughput = NonNullable<EstimateOutput['throughput']>;

/** The quantities more than one explanation shows, each named once. */
function sharedQuantities(c: RunConfig, t: Throughput) {
  const quantity = (name: string, value: number, unit: QuantityUnit): Quantity => ({ name, value, unit });
  return {
    stepTime: quantity('step time', t.stepSeconds, 'seconds'),
    tokensPerSecond: quantity('tokens per second', t.tokensPerSecond, 'tokens-per-second'),
    bubbleTime: quantity('bubble time', t.breakdown.bubble, 'seconds'),
    globalBatch: quantity('global batch', c.training.globalBatch, 'sequences'),
    gpus: quantity('GPUs', c.cluster.gpus, 'gpus'),
  };
}

function stepTime(c: RunConfig, t: Throughput): Explanation {
  // A zero term adds nothing to the sum: left out so the line stays readable.
  const parts = STEP_SUM_ORDER.filter((part) => t.breakdown[part] !== 0).map((part): Quantity => ({
    name: TIME_PART_NAMES[part],
    value: t.breakdown[part],
    unit: 'seconds',
  }));
  return {
    figure: 'step-time',
    title: 'Step time',
    lead:
      'One optimizer step on the slowest (critical) pipeline stage: its compute ' +
      "and exposed communication for every micro-batch, the schedule's idle " +
      'time, then the data-parallel gradient sync and the optimizer update.',
    equations: [
      equation(
        'step',
        sharedQuantities(c, t).stepTime,
        'sum of the parts of the step that are not hidden',
        'Pipeline schedule simulated per Narayanan et al. 2021 (arXiv 2104.04473) §2.2; exposed communication and overlap: model-reference.md, "Time"',
        ...joined('+', ...parts),
      ),
    ],
    notes: ['Zero terms are left out. The step-time chart draws the same parts.', ...moeStepNotes(c)],
  };
}

function tokensPerSecond(c: RunConfig, t: Throughput): Explanation {
  const q = sharedQuantities(c, t);
  return {
    figure: 'tokens-per-second',
    title: 'Throughput',
    lead: 'Training tokens the whole cluster processes per second.',
    equations: [
      equation(
        'tokens-per-second',
        q.tokensPerSecond,
        'global batch × sequence length ÷ step time',
        'Tokens per step = global batch × sequence length (interchange training.globalBatch, training.seqLen)',
        q.globalBatch,
        '×',
        { name: 'sequence length', value: c.training.seqLen, unit: 'tokens' },
        '÷',
        q.stepTime,
      ),
    ],
    notes: [],
  };
}

function mfu(c: RunConfig, output: EstimateOutput, t: Throughput): Explanation {
  const q = sharedQuantities(c, t);
  const peak = peakFlopsPerSecond(c.cluster.gpu, c.training.precision);
  return {
    figure: 'mfu',
    title: 'Model FLOPs utilization (MFU)',
    lead:
      `Model FLOPs per second as a share of the ${c.cluster.gpu.name}'s dense ${c.training.precision} ` +
      `peak, over all ${c.cluster.gpus} GPUs. Recomputation is not counted as useful work.`,
    equations: [
      equation(
        'mfu',
        { name: 'MFU', value: t.mfu, unit: 'fraction' },
        'model FLOPs per step ÷ step time ÷ GPUs ÷ peak FLOP/s per GPU',
        'Korthikanti et al. 2022 (arXiv 2205.05198) §6; model FLOPs per Narayanan et al. 2021 §5.1 (2 FLOPs per multiply-add, backward = 2 × forward)',
        ...joined('÷', { name: 'model FLOPs per step', value: output.flops.modelPerStep, unit: 'flop' }, q.stepTime, q.gpus, {
          name: `dense ${c.training.precision} peak`,
          value: peak,
          unit: 'flop-per-second',
        }),
      ),
    ],
    notes: [],
  };
}

/** The critical stage's parts of the step that run inside the schedule, in the order step.ts subtracts them from the makespan. */
const SCHEDULED_PARTS: readonly TimePart[] = ['compute', 'recompute', 'tp', 'cp', 'ep', 'pp'];

function bubble(c: RunConfig, output: EstimateOutput, t: Throughput): Explanation {
  const q = sharedQuantities(c, t);
  const microBatches = microBatchesPerStep(c.training, c.parallel);
  const equations: Equation[] = [
    equation(
      'bubble',
      { name: 'pipeline bubble', value: t.bubbleFraction, unit: 'fraction' },
      'bubble time ÷ step time',
      'The step-time breakdown\'s "pipeline bubble" part over the step (src/model/time/step.ts)',
      ...joined('÷', q.bubbleTime, q.stepTime),
    ),
  ];
  const timeline = output.timeline;
  if (timeline && t.breakdown.bubble > 0) {
    // bubble time = makespan − the critical stage's own work (step.ts); shown only where it is not clamped at zero.
    const work = SCHEDULED_PARTS.filter((part) => t.breakdown[part] !== 0).map((part): Quantity => ({
      name: TIME_PART_NAMES[part],
      value: t.breakdown[part],
      unit: 'seconds',
    }));
    equations.push(
      equation(
        'bubble-time',
        q.bubbleTime,
        "makespan of the simulated schedule − the critical stage's work in it",
        'Pipeline schedule simulated per Narayanan et al. 2021 (arXiv 2104.04473) §2.2 (src/model/schedule/)',
        ...joined('−', { name: 'simulated makespan', value: timeline.makespanSeconds, unit: 'seconds' }, ...work),
      ),
    );
  }
  equations.push(
    equation(
      'micro-batches',
      { name: 'micro-batches per step (m)', value: microBatches, unit: 'count' },
      'global batch ÷ micro-batch ÷ DP',
      'Narayanan et al. 2021 §2.2',
      ...joined(
        '÷',
        q.globalBatch,
        { name: 'micro-batch', value: c.training.microBatch, unit: 'sequences' },
        { name: 'DP', value: c.parallel.dp, unit: 'count' },
      ),
    ),
  );
  return {
    figure: 'bubble-fraction',
    title: 'Pipeline bubble',
    lead:
      `The share of the step time the slowest of the ${c.parallel.pp} pipeline stages sits idle ` +
      `under the ${c.parallel.schedule} schedule: the step-time breakdown's "pipeline bubble" part over ` +
      `the step. For 1F1B with equal stages the schedule's part approaches (p − 1) ÷ (m + p − 1).`,
    equations,
    notes: timeline
      ? ["The same number is the card's, the step-time breakdown's share and the pipeline timeline's caption."]
      : [
          "This schedule has too many blocks to keep: the makespan comes from the simulator's summary or the closed form, not a drawn timeline.",
        ],
  };
}

function trainingDays(c: RunConfig, output: EstimateOutput, t: Throughput): Explanation | null {
  if (!output.time || !output.reliability) return null;
  return {
    figure: 'training-days',
    title: 'Training time',
    lead: `Wall-clock days to train on ${c.training.tokens.toExponential(2)} tokens, stretched by goodput for checkpoint writes, lost work and restarts.`,
    equations: [
      equation(
        'days',
        { name: 'training time', value: output.time.days, unit: 'days' },
        'token budget ÷ tokens per second ÷ goodput ÷ seconds per day',
        'Goodput with the Young 1974 / Daly 2006 checkpoint interval (src/model/reliability.ts)',
        ...joined(
          '÷',
          { name: 'token budget', value: c.training.tokens, unit: 'tokens' },
          sharedQuantities(c, t).tokensPerSecond,
          { name: 'goodput', value: output.reliability.goodput, unit: 'fraction' },
          { name: 'seconds per day', value: SECONDS_PER_DAY, unit: 'seconds-per-day' },
        ),
      ),
    ],
    notes: [],
  };
}

const HOURS_PER_DAY = 24;

function costUsd(c: RunConfig, output: EstimateOutput, t: Throughput): Explanation | null {
  if (!output.time || !output.cost) return null;
  const gpuHours: Quantity = { name: 'GPU-hours', value: output.time.gpuHours, unit: 'gpu-hours' };
  return {
    figure: 'cost-usd',
    title: 'Cost',
    lead: 'What the GPUs cost for the whole run at the configured price per GPU-hour (GPUs only: no storage, network or staff).',
    equations: [
      equation(
        'gpu-hours',
        gpuHours,
        'GPUs × training days × 24 h',
        'Training time × cluster size',
        ...joined(
          '×',
          sharedQuantities(c, t).gpus,
          { name: 'training time', value: output.time.days, unit: 'days' },
          { name: 'hours per day', value: HOURS_PER_DAY, unit: 'hours-per-day' },
        ),
      ),
      equation(
        'usd',
        { name: 'cost', value: output.cost.usd, unit: 'usd' },
        'GPU-hours × price per GPU-hour',
        // The source in the user's words (issue 22, item 11), not the document's field name.
        "Your price per GPU-hour (Price, $/GPU-h); left empty, the GPU preset's own price",
        ...joined('×', gpuHours, { name: 'price per GPU-hour', value: c.cost.usdPerGpuHour, unit: 'usd-per-gpu-hour' }),
      ),
    ],
    notes: [],
  };
}

/** The explanation of one figure of `output`, computed for `config`; null when the output lacks that figure. */
export function explainFigure(
  figure: ExplainedFigure,
  config: RunConfig,
  output: EstimateOutput,
  table: UncertaintyTable,
): Explanation | null {
  if (output.errors.length > 0) return null;
  if (figure === 'memory-total') return explainMemory(config, output, table);
  const t = output.throughput;
  if (!t) return null;
  switch (figure) {
    case 'step-time':
      return stepTime(config, t);
    case 'tokens-per-second':
      return tokensPerSecond(config, t);
    case 'mfu':
      return mfu(config, output, t);
    case 'bubble-fraction':
      return bubble(config, output, t);
    case 'training-days':
      return trainingDays(config, output, t);
    case 'cost-usd':
      return costUsd(config, output, t);
  }
}

// npm run --silent sweep -- FILE|- --knob K [--hold-tokens] [--no-timeline] [--summary]
// One knob across its values with everything else fixed: one row per valid value,
// ascending, each row's output exactly what `estimate` gives for the document with that
// value set (reliability.completion as its p10/p50/p90 range alone); values the engine rejects are listed under "skipped" with its reason.
import { sweepDocument, SWEEP_KNOBS, type SweepResult } from '../src/model/sweep/index.ts';
import { GiB, type Completion } from '../src/model/input/index.ts';
import { holdingLine } from '../src/ui/tradeoffs/captions.ts';
import { exitWithHelpIfAsked, fail, wholeBytes } from './cli.ts';
import { readJsonInput } from './read-input.ts';

const USAGE = 'npm run --silent sweep -- FILE|- --knob K [--hold-tokens] [--no-timeline] [--summary]';
const HELP = `
usage: ${USAGE}

Sweeps one knob of the interchange document in FILE (or standard input with -) and
prints { "knob", "label", "absorbedBy", "current", "rows": [ { "value", "changes",
"output" } ], "skipped": [ { "value", "reason" } ], "held": [ { "quantity", "value" } ],
"seqLenHold", "errors", "warnings" }, rows in ascending value (recompute: none,
selective, full; precision: fp4 … fp32); "held" lists what every row keeps fixed.

  --knob K        one of ${SWEEP_KNOBS.join(', ')}
                  (tp, pp and cp keep the GPU count: DP follows; gpus moves DP;
                  checkpointInterval is in minutes, from 2 minutes to a day)
  --hold-tokens   the seqLen curve holds tokens per step (the global batch in sequences
                  scales inversely with the length) instead of sequences per step
  --no-timeline   rows without the simulated pipeline timeline (much shorter output)
  --summary       one line per value instead of JSON
  --help          this text

Exits 0 with an "errors" list for an invalid document or knob; exits 2 only when FILE
cannot be read or is not JSON, or the arguments are wrong.
`;

const args = process.argv.slice(2);
exitWithHelpIfAsked(args, HELP);
const knobAt = args.indexOf('--knob');
const knob = knobAt >= 0 ? args[knobAt + 1] : undefined;
const flags = new Set(['--knob', '--hold-tokens', '--no-timeline', '--summary']);
const unknown = args.filter((a) => a.startsWith('--') && !flags.has(a));
if (unknown.length > 0 || knob === undefined)
  fail(`${unknown.length > 0 ? `${unknown.join(', ')}: unknown option` : '--knob is required'}\nusage: ${USAGE}`);
const files = args.filter((a, i) => !a.startsWith('--') && i !== knobAt + 1);
const result = sweepDocument(readJsonInput(files, USAGE), knob, {
  timeline: !args.includes('--no-timeline'),
  seqLenHold: args.includes('--hold-tokens') ? 'tokens' : 'sequences',
});

/** The simulated end (reliability.completion): the median run's days with the p10–p90 band, and its dollars. */
function endRange(c: Completion | undefined): string[] {
  if (!c) return [];
  const d = c.days;
  return [
    `end p50 ${d.p50.toFixed(1)} days [p10 ${d.p10.toFixed(1)}, p90 ${d.p90.toFixed(1)}]`,
    `p50 $${Math.round(c.usd.p50).toLocaleString('en-US')}`,
  ];
}

function summaryLines(r: SweepResult): string {
  if (r.errors.length > 0) return ['invalid:', ...r.errors.map((e) => `  - ${e}`)].join('\n');
  const shown = (v: string | number) => (typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(1) : String(v)).padStart(8);
  const lines = r.rows.map(({ value, output: o }) =>
    [
      `${shown(value)}${value === r.current ? '*' : ' '}`,
      `${o.memory.fits ? 'fits ' : 'OOM  '}`,
      `${(o.memory.reserved / GiB).toFixed(1).padStart(7)} GiB`,
      `${Math.round(o.throughput?.tokensPerSecond ?? 0)
        .toLocaleString('en-US')
        .padStart(12)} tokens/s`,
      `MFU ${((o.throughput?.mfu ?? 0) * 100).toFixed(1).padStart(5)} %`,
      `${(o.time?.days ?? 0).toFixed(1).padStart(7)} days`,
      `$${Math.round(o.cost?.usd ?? 0).toLocaleString('en-US')}`,
      `goodput ${((o.reliability?.goodput ?? 0) * 100).toFixed(2)} %`,
      ...endRange(o.reliability?.completion),
    ].join('  '),
  );
  const skipped = r.skipped.map((s) => `${shown(s.value)}   skipped: ${s.reason}`);
  const follows = r.knob === 'gpus' ? ' (DP follows the GPU count)' : r.absorbedBy ? ' (DP follows, GPUs fixed)' : '';
  const holding = holdingLine(r);
  return [`${r.label}${follows}; * = the document's value`, ...(holding ? [holding] : []), ...lines, ...skipped].join('\n');
}

process.stdout.write(args.includes('--summary') ? `${summaryLines(result)}\n` : `${JSON.stringify(wholeBytes(result), null, 2)}\n`);

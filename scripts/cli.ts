// What every command line of the project shares: `--help` (usage on stdout, exit 0),
// whole-number byte counts in the JSON it prints, and the short human summary table.
import { readFileSync } from 'node:fs';
import type { EstimateOutput } from '../src/model/input/index.ts';
import { GiB } from '../src/model/input/index.ts';
import { formatModelSummary } from '../src/ui/format.ts';

// `estimate … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

/** Writes `message` to standard error and exits with `code` (2: unreadable input or bad arguments; 1: an input that cannot be used). */
export function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** Prints `help` and exits 0 when the arguments ask for it (--help or -h anywhere). */
export function exitWithHelpIfAsked(args: readonly string[], help: string): void {
  if (!args.includes('--help') && !args.includes('-h')) return;
  process.stdout.write(`${help.trim()}\n`);
  process.exit(0);
}

/** A script's opening comment block without its first line (the usage): one text for the reader of the code and of the terminal. */
export function openingComment(moduleUrl: string): string {
  const lines = readFileSync(new URL(moduleUrl), 'utf8').split('\n');
  const end = lines.findIndex((l) => !l.startsWith('//'));
  return lines
    .slice(1, end < 0 ? lines.length : end)
    .map((l) => l.replace(/^\/\/ ?/, ''))
    .join('\n');
}

/** A byte count is a whole number: memory figures (every field under `memory`) and fields named …Bytes…. */
export function wholeBytes(value: unknown, inBytes = false, key = ''): unknown {
  if (typeof value === 'number') return (inBytes || /bytes/i.test(key)) && Number.isFinite(value) ? Math.round(value) : value;
  if (Array.isArray(value)) return value.map((v) => wholeBytes(v, inBytes, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wholeBytes(v, inBytes || k === 'memory', k)]));
  }
  return value;
}

const gib = (bytes: number) => `${(bytes / GiB).toFixed(1)} GiB`;
const grouped = (x: number, digits = 0) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function duration(seconds: number): string {
  if (seconds < 1) return `${(seconds * 1000).toFixed(0)} ms`;
  if (seconds < 120) return `${seconds.toFixed(2)} s`;
  return `${(seconds / 60).toFixed(1)} min`;
}

/** Memory of every stage, or of the first, last and largest when there are many. */
function stageMemory(o: EstimateOutput): string {
  const totals = o.memory.stages.map((s) => s.total);
  if (totals.length <= 4) return totals.map((t, i) => `stage ${i + 1}: ${gib(t)}`).join(' · ');
  const most = totals.indexOf(Math.max(...totals));
  const picks = [...new Set([0, most, totals.length - 1])];
  return `${picks.map((i) => `stage ${i + 1}: ${gib(totals[i] ?? 0)}`).join(' · ')} (of ${totals.length} stages)`;
}

/** The short table of `estimate --summary`: which model, will it fit, how fast, how long, how much. */
export function summaryTable(o: EstimateOutput, name: string, tokenBudget?: string): string {
  if (o.errors.length > 0) return [`${name}: invalid`, ...o.errors.map((e) => `  - ${e}`)].join('\n');
  const capacity = o.memory.capacity;
  const peak = o.memory.perGpu.total;
  const margin = capacity - peak;
  const rows: Array<[string, string]> = [
    ...(o.model ? [['model', formatModelSummary(o.model)] as [string, string]] : []),
    [
      'fits',
      `${o.memory.fits ? 'yes' : 'no'}: ${gib(peak)} of ${gib(capacity)} per GPU (${margin >= 0 ? `${gib(margin)} spare` : `${gib(-margin)} over`})`,
    ],
    ['memory / GPU', stageMemory(o)],
  ];
  // What offload keeps in one node's CPU memory (memory.host), only when it keeps anything there.
  const host = o.memory.host;
  if (host.perNode > 0)
    rows.push([
      'host / node',
      `${host.perNode <= host.capacity ? 'fits' : 'does not fit'}: ${gib(host.perNode)} of ${gib(host.capacity)} CPU memory`,
    ]);
  const t = o.throughput;
  if (t) {
    rows.push(['step', duration(t.stepSeconds)]);
    rows.push(['tokens/s', grouped(t.tokensPerSecond)]);
    rows.push(['MFU', `${(t.mfu * 100).toFixed(1)} %`]);
  }
  if (tokenBudget !== undefined) rows.push(['tokens', tokenBudget]);
  if (o.time) rows.push(['days', grouped(o.time.days, 1)]);
  if (o.cost) rows.push(['dollars', `$${grouped(o.cost.usd)}`]);
  rows.push(...scheduleRows(o));
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`);
  const warnings = o.warnings.map((w) => `  ! ${w}`);
  return [name, ...lines, ...warnings].join('\n');
}

const range = (p: { p10: number; p50: number; p90: number }, f: (x: number) => string) => `${f(p.p50)} (p10 ${f(p.p10)}, p90 ${f(p.p90)})`;

/** The figures a schedule is planned with: rates, interruptions, and the end as a range (reliability.completion). */
function scheduleRows(o: EstimateOutput): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  if (o.time) rows.push(['tokens/day', grouped(o.time.tokensPerDay)]);
  if (o.cost) rows.push(['$ / M tokens', `$${grouped(o.cost.usdPerMillionTokens, 3)}`]);
  const r = o.reliability;
  if (!r) return rows;
  rows.push(['interruptions', grouped(r.expectedInterruptions, 1)]);
  const c = r.completion;
  if (!c) return rows;
  const days = (x: number) => grouped(x, 1);
  const usd = (x: number) => `$${grouped(x)}`;
  rows.push(['end, days', range(c.days, days)]);
  rows.push(['end, dollars', range(c.usd, usd)]);
  if (c.endDate) rows.push(['end date', `${c.endDate.p50} (p10 ${c.endDate.p10}, p90 ${c.endDate.p90})`]);
  if (c.onDemand) {
    rows.push(['on demand, days', range(c.onDemand.days, days)]);
    rows.push(['on demand, $', range(c.onDemand.usd, usd)]);
  }
  return rows;
}

// npm run bench:search [-- --runs N] [-- --json]
// Layouts evaluated per CPU-second by the exhaustive search (every layout's memory and
// step time computed, no pruning), on the three spaces of issue 5, and the wall time of
// the exhaustive and of the pruned search. One untimed warm-up run per space first (the
// JIT's first pass over the engine), then N timed runs: median with min–max spread.
// CPU time is process.cpuUsage() (user + system, every thread of the process: the JIT's
// and the garbage collector's background threads included). The exhaustive rate is
// measured on the whole space (uneven layer splits and sparse interleaving too, layouts
// ranked one by one); the pruned search is what `npm run search` does by default (even
// splits, grouped, 10 % margin). The first and third spaces again as LoRA fine-tunes (a frozen base
// beside the adapters). Then cluster sizing (issue 15): GPT-3 175B on A100 80GB, H100 SXM or H200,
// 256–4,096 GPUs, least cost within 60 days, the whole document search (variants and the
// engine's re-evaluation included), wall time.
import { searchDocument, searchLayouts } from '../src/model/search/index.ts';
import { BENCHMARK_SPACES, FINETUNE_BENCHMARK_SPACES, searchBase, searchRunDocument } from '../src/testing/search-fixtures.ts';
import type { SearchResult } from '../src/model/search/index.ts';

const TARGET_LAYOUTS_PER_CPU_SECOND = 1e6;
const TARGET_GPT3_EXHAUSTIVE_SECONDS = 10;
const TARGET_SIZING_SECONDS = 5;
const FULL_SPACE = { exhaustive: true, evenLayerSplit: false, interleaveWithFullPipeline: false, groupByLayout: false } as const;

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Math.max(1, Number(args[runsAt + 1]) || 5) : 5;
const json = args.includes('--json');

interface Timed {
  readonly result: SearchResult;
  readonly cpuSeconds: number;
  readonly wallSeconds: number;
}

function timed(f: () => SearchResult): Timed {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const result = f();
  const used = process.cpuUsage(cpu);
  return { result, cpuSeconds: (used.user + used.system) / 1e6, wallSeconds: (performance.now() - wall) / 1000 };
}

function spread(values: readonly number[]): { median: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return { median, min: sorted[0] ?? 0, max: sorted[sorted.length - 1] ?? 0 };
}

const fmt = (s: { median: number; min: number; max: number }, digits: number, scale = 1) =>
  `${(s.median / scale).toFixed(digits)} (${(s.min / scale).toFixed(digits)}–${(s.max / scale).toFixed(digits)})`;

const report = [...BENCHMARK_SPACES, ...FINETUNE_BENCHMARK_SPACES].map((space) => {
  const base = searchBase(space);
  const cold = timed(() => searchLayouts(base, FULL_SPACE));
  const exhaustive = Array.from({ length: runs }, () => timed(() => searchLayouts(base, FULL_SPACE)));
  const pruned = Array.from({ length: runs }, () => timed(() => searchLayouts(base)));
  const layouts = cold.result.counts.layouts;
  const rate = spread(exhaustive.map((r) => r.result.counts.evaluated / r.cpuSeconds));
  const best = cold.result.top[0];
  return {
    space: space.label,
    layouts,
    runs,
    exhaustive: {
      evaluatedPerCpuSecond: rate,
      coldRunEvaluatedPerCpuSecond: cold.result.counts.evaluated / cold.cpuSeconds,
      wallSeconds: spread(exhaustive.map((r) => r.wallSeconds)),
      cpuSeconds: spread(exhaustive.map((r) => r.cpuSeconds)),
    },
    pruned: {
      wallSeconds: spread(pruned.map((r) => r.wallSeconds)),
      evaluated: pruned[0]?.result.counts.evaluated ?? 0,
      memoryOnly: pruned[0]?.result.counts.memoryOnly ?? 0,
      pruned: pruned[0]?.result.counts.pruned ?? 0,
    },
    best: best
      ? { parallel: best.parallel, microBatch: best.microBatch, recompute: best.recompute, tokensPerSecond: best.tokensPerSecond }
      : null,
    meetsRate: rate.median >= TARGET_LAYOUTS_PER_CPU_SECOND,
  };
});

const SIZING_TYPES = ['a100-80gb', 'h100-sxm', 'h200'];
const sizingDocument = (() => {
  const doc = searchRunDocument(
    BENCHMARK_SPACES[0] ?? { model: 'gpt3-175b', gpu: 'a100-80gb', gpus: 1024, globalBatch: 1536, seqLen: 2048 },
  );
  const { gpus: _gpus, ...cluster } = doc.cluster as Record<string, unknown>;
  return { ...doc, cluster, search: { objective: 'usd', gpuTypes: SIZING_TYPES, minGpus: 256, maxGpus: 4096, maxDays: 60 } };
})();
const sizingRuns = Array.from({ length: Math.max(2, Math.ceil(runs / 2)) }, () => {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const out = searchDocument(sizingDocument);
  const used = process.cpuUsage(cpu);
  return { out, wallSeconds: (performance.now() - wall) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
});
// The first run is the cold one (JIT); the median is over the rest.
const sizing = {
  space: 'Cluster sizing: GPT-3 175B, A100 80GB / H100 SXM / H200, 256–4,096 GPUs, least cost within 60 days',
  coldWallSeconds: sizingRuns[0]?.wallSeconds ?? 0,
  wallSeconds: spread(sizingRuns.slice(1).map((r) => r.wallSeconds)),
  cpuSeconds: spread(sizingRuns.slice(1).map((r) => r.cpuSeconds)),
  layouts: sizingRuns[0]?.out.layouts ?? 0,
  evaluated: sizingRuns[0]?.out.evaluated ?? 0,
  best: sizingRuns[0]?.out.results[0]
    ? {
        gpu: sizingRuns[0].out.results[0].cluster.gpu,
        gpus: sizingRuns[0].out.results[0].cluster.gpus,
        parallel: sizingRuns[0].out.results[0].parallel,
        days: sizingRuns[0].out.results[0].output.time?.days ?? 0,
        usd: sizingRuns[0].out.results[0].output.cost?.usd ?? 0,
      }
    : null,
};

if (json) {
  process.stdout.write(`${JSON.stringify({ spaces: report, sizing }, null, 2)}\n`);
} else {
  process.stdout.write(`Exhaustive layout search, ${runs} timed runs after one warm-up; median (min–max)\n\n`);
  for (const r of report) {
    process.stdout.write(`${r.space}\n`);
    process.stdout.write(`  layouts                      ${r.layouts.toLocaleString('en-US')}\n`);
    process.stdout.write(
      `  exhaustive: M layouts/CPU-s  ${fmt(r.exhaustive.evaluatedPerCpuSecond, 2, 1e6)}  ` +
        ` (cold first run ${(r.exhaustive.coldRunEvaluatedPerCpuSecond / 1e6).toFixed(2)})\n`,
    );
    process.stdout.write(`  exhaustive: wall s           ${fmt(r.exhaustive.wallSeconds, 2)}   CPU s ${fmt(r.exhaustive.cpuSeconds, 2)}\n`);
    process.stdout.write(
      `  pruned:     wall s           ${fmt(r.pruned.wallSeconds, 2)}   evaluated ` +
        `${r.pruned.evaluated.toLocaleString('en-US')}, memory only ` +
        `${r.pruned.memoryOnly.toLocaleString('en-US')}, pruned ${r.pruned.pruned.toLocaleString('en-US')}\n`,
    );
    if (r.best)
      process.stdout.write(
        `  best: ${JSON.stringify(r.best.parallel)} micro-batch ${r.best.microBatch}, recompute ` +
          `${r.best.recompute}, ${Math.round(r.best.tokensPerSecond).toLocaleString('en-US')} tokens/s\n`,
      );
    process.stdout.write('\n');
  }
  const gpt3 = report[0];
  const rateOk = report.every((r) => r.meetsRate);
  const gpt3Ok = gpt3 !== undefined && gpt3.exhaustive.wallSeconds.median < TARGET_GPT3_EXHAUSTIVE_SECONDS;
  process.stdout.write(`≥ 1,000,000 layouts per CPU-second (median) on every space: ${rateOk ? 'yes' : 'NO'}\n`);
  process.stdout.write(`exhaustive GPT-3 space under ${TARGET_GPT3_EXHAUSTIVE_SECONDS} s: ${gpt3Ok ? 'yes' : 'NO'}\n\n`);
  process.stdout.write(`${sizing.space}\n`);
  process.stdout.write(
    `  layouts                      ${sizing.layouts.toLocaleString('en-US')} (evaluated ${sizing.evaluated.toLocaleString('en-US')})\n`,
  );
  process.stdout.write(
    `  wall s                       ${fmt(sizing.wallSeconds, 2)}   CPU s ` +
      `${fmt(sizing.cpuSeconds, 2)}   (cold first run ${sizing.coldWallSeconds.toFixed(2)})\n`,
  );
  if (sizing.best)
    process.stdout.write(
      `  best: ${sizing.best.gpus} × ${String(sizing.best.gpu)}, ${JSON.stringify(sizing.best.parallel)}, ` +
        `${sizing.best.days.toFixed(1)} days, $${Math.round(sizing.best.usd).toLocaleString('en-US')}\n`,
    );
  process.stdout.write(
    `cluster sizing under ${TARGET_SIZING_SECONDS} s (median wall): ${sizing.wallSeconds.median < TARGET_SIZING_SECONDS ? 'yes' : 'NO'}\n`,
  );
}

// npx tsx scripts/memory-table.ts: the memory model against every memory row of
// validation/published-runs.json. Each figure is compared with the part of the
// most loaded stage's memory that its metric measured (stageMemoryForMetric in
// src/model/memory.ts). Prints id, metric, published and predicted GiB, error, then
// the median |error| and the worst under-prediction. `--breakdown` adds the parts.
import { readFileSync } from 'node:fs';
import { parseDocument } from '../src/model/input/index.ts';
import { stageMemoryForMetric, stageMemoryDetails } from '../src/model/memory/index.ts';
import { GiB } from '../src/model/input/index.ts';

interface MemoryRow {
  readonly id: string;
  readonly metric: string | null;
  readonly input: unknown;
  readonly published: number;
}

function memoryRows(file: unknown): MemoryRow[] {
  const cases = (file as { cases?: unknown[] }).cases ?? [];
  return cases.flatMap((raw) => {
    const c = raw as { id?: string; input?: unknown; expected?: { memoryBytesPerGpu?: number | null; memoryMetric?: string | null } };
    const published = c.expected?.memoryBytesPerGpu;
    if (typeof published !== 'number' || typeof c.id !== 'string') return [];
    return [{ id: c.id, metric: c.expected?.memoryMetric ?? null, input: c.input, published }];
  });
}

const file = JSON.parse(readFileSync(new URL('../validation/published-runs.json', import.meta.url), 'utf8')) as unknown;
const showBreakdown = process.argv.includes('--breakdown');
const gib = (bytes: number) => (bytes / GiB).toFixed(2);
const errors: number[] = [];

console.log(`${'id'.padEnd(52)} ${'metric'.padEnd(24)} ${'published'.padStart(10)} ${'predicted'.padStart(10)}   error`);
for (const row of memoryRows(file)) {
  const parsed = parseDocument(row.input);
  if (!parsed.ok) {
    console.log(`${row.id.padEnd(52)} invalid: ${parsed.errors[0] ?? ''}`);
    continue;
  }
  const stages = stageMemoryDetails(parsed.config);
  const worst = stages.reduce((a, b) => (b.breakdown.total > a.breakdown.total ? b : a));
  const predicted = stageMemoryForMetric(worst, row.metric);
  const error = (predicted - row.published) / row.published;
  errors.push(error);
  console.log(
    `${row.id.padEnd(52)} ${(row.metric ?? '—').padEnd(24)} ${gib(row.published).padStart(10)} ` +
      `${gib(predicted).padStart(10)} ${(error * 100).toFixed(1).padStart(6)}%`,
  );
  if (showBreakdown) {
    const b = worst.breakdown;
    const o = worst.other;
    console.log(
      `    params ${gib(b.parameters)}  grads ${gib(b.gradients)}  optimizer ${gib(b.optimizer)} ` +
        ` activations ${gib(b.activations)}  other ${gib(b.other)} (gathered ` +
        `${gib(o.gatheredWeights)}, unsharded grads ${gib(o.unshardedGradients)}), reserve ` +
        `${gib(o.allocatorReserve)}, outside the allocator ` +
        `${gib(o.runtime)} (context ${gib(o.device.cudaContext)}, ` +
        `NCCL ${gib(o.device.ncclBuffers)}, cuBLAS ${gib(o.device.workspaces)})`,
    );
  }
}

const sorted = errors.map(Math.abs).sort((a, b) => a - b);
const mid = sorted.length / 2;
const median =
  sorted.length === 0 ? 0 : sorted.length % 2 === 1 ? (sorted[Math.floor(mid)] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
const worstUnder = Math.min(0, ...errors);
console.log(
  `\n${errors.length} rows  median |error| ${(median * 100).toFixed(1)}%  worst under-prediction ${(worstUnder * 100).toFixed(1)}%`,
);

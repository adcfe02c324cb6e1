// The layouts the search found, as Markdown (for a doc) and CSV (for a spreadsheet):
// one row per layout by its best variant, in rank order, with the figures the table
// shows and the layout's own fields. Pure functions of the table's rows (searchTable.ts).

import { csvField, markdownTable } from '../exporters.ts';
import { formatCount, formatDays, formatGiB, formatPercent, formatTokensPerSecond, formatUsd } from '../format.ts';
import { formatRange } from '../uncertainty/figureRanges.ts';
import { VERDICT_LABEL } from '../uncertainty/memoryVerdict.ts';
import { layoutText, type SearchRow } from './searchTable.ts';

function capacityOf(row: SearchRow): number {
  return row.result.output.memory.capacity;
}

type RangedKey = keyof NonNullable<SearchRow['ranges']>;

/** "52.3k tokens/s (43k – 59.8k tokens/s)": the figure, then its 90 % range where the layout has one (issue 35). */
function withRange(row: SearchRow, key: RangedKey, format: (value: number) => string): string {
  const range = row.ranges?.[key];
  return range ? `${format(row[key])} (${formatRange(range, format)})` : format(row[key]);
}

export function searchToMarkdown(rows: readonly SearchRow[], title = 'Layouts found'): string {
  const header = ['Rank', 'GPU', 'GPUs', 'Memory per GPU / capacity', 'Tokens/s', 'MFU', 'Days', 'Cost', 'Layout'];
  const body = rows.map((r) => [
    String(r.rank),
    r.gpuName,
    formatCount(r.result.cluster.gpus),
    `${withRange(r, 'memoryBytes', formatGiB)} of ${formatGiB(capacityOf(r))} ` +
      `(${formatPercent(r.memoryBytes / capacityOf(r))}), ${VERDICT_LABEL[r.verdict].toLowerCase()}`,
    withRange(r, 'tokensPerSecond', formatTokensPerSecond),
    withRange(r, 'mfu', formatPercent),
    withRange(r, 'days', formatDays),
    withRange(r, 'usd', formatUsd),
    layoutText(r.result),
  ]);
  return [
    `## ${title}`,
    '',
    'In brackets: where 9 in 10 published runs like each layout fell around the estimate (its segment of the validation set).',
    '',
    ...markdownTable(
      header,
      body,
      header.map((_, i) => i > 1 && i < header.length - 1),
    ),
    '',
  ].join('\n');
}

export const SEARCH_CSV_HEADER = [
  'Rank',
  'GPU type',
  'GPUs',
  'TP',
  'PP',
  'DP',
  'CP',
  'EP',
  'VPP',
  'ZeRO stage',
  'Pipeline schedule',
  'Sequence parallel',
  'Micro-batch (sequences)',
  'Recompute',
  'Optimizer offload',
  'Parameter offload',
  'Memory per GPU (bytes)',
  'GPU memory capacity (bytes)',
  'Memory share of capacity (fraction)',
  'Memory verdict',
  'Throughput (tokens/s)',
  'MFU (fraction)',
  'Training time (days)',
  'Cost (USD)',
  'Memory range low (bytes)',
  'Memory range high (bytes)',
  'Throughput range low (tokens/s)',
  'Throughput range high (tokens/s)',
  'Training time range low (days)',
  'Training time range high (days)',
  'Cost range low (USD)',
  'Cost range high (USD)',
] as const;

function field(value: number | string | boolean): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return csvField(value);
}

/** RFC 4180 CSV: a header row, then one row per layout (its best variant), raw values in the units of the headers. */
export function searchToCsv(rows: readonly SearchRow[]): string {
  const lines = rows.map((r) => {
    const p = r.result.parallel;
    const t = r.result.training;
    return [
      r.rank,
      r.gpuName,
      r.result.cluster.gpus,
      p.tp,
      p.pp,
      p.dp,
      p.cp,
      p.ep,
      p.vpp,
      p.zero,
      p.schedule,
      p.sequenceParallel,
      t.microBatch,
      t.recompute,
      t.offload.optimizer,
      t.offload.parameters,
      r.memoryBytes,
      capacityOf(r),
      r.memoryBytes / capacityOf(r),
      VERDICT_LABEL[r.verdict],
      r.tokensPerSecond,
      r.mfu,
      r.days,
      r.usd,
      ...(['memoryBytes', 'tokensPerSecond', 'days', 'usd'] as const).flatMap((k) => [
        r.ranges?.[k]?.low ?? NaN,
        r.ranges?.[k]?.high ?? NaN,
      ]),
    ]
      .map(field)
      .join(',');
  });
  return `${[SEARCH_CSV_HEADER.map(csvField).join(','), ...lines].join('\r\n')}\r\n`;
}

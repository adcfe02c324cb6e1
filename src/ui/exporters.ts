// Export an estimate as JSON (input and output, for tools), Markdown (a table of the
// key figures, for docs) or CSV (raw values in base units, for spreadsheets). Pure
// functions of their arguments; the download itself lives in ExportMenu.

import { MEMORY_PARTS, TIME_PARTS } from '../model/input/index.ts';
import type { EstimateOutput, MemoryPart } from '../model/input/index.ts';
import {
  NOT_AVAILABLE,
  formatDays,
  formatFlopsPerToken,
  formatGiB,
  formatMinutes,
  formatModelSummary,
  formatNumber,
  formatParameterCount,
  formatPercent,
  formatSeconds,
  formatTokensPerSecond,
  formatUsd,
} from './format.ts';
import { elasticWords, medianIntervalWords, milestoneWords } from './reliability/completionWords.ts';
import { keyFigures, memoryCapacityNote } from './keyFigures.ts';
import { GiB } from '../model/input/index.ts';
import { UNCERTAINTY_TABLE, headlineBands, type BandedFigure } from '../model/validation/index.ts';
import { layoutWords } from './embed/embedCard.ts';

const DEFAULT_FILE_BASE = 'llm-train-plan';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The model's name from an interchange document, when it has one. */
function modelName(document: unknown): string | null {
  const model = isRecord(document) ? document.model : undefined;
  const name = isRecord(model) ? model.name : undefined;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : null;
}

/** A file name stem from the model name: "GPT-3 175B" → "gpt-3-175b-plan". */
export function fileBaseName(document: unknown): string {
  const slug = (modelName(document) ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug ? `${slug}-plan` : DEFAULT_FILE_BASE;
}

/** Non-finite numbers become null: JSON has no NaN or Infinity. */
function finiteOrNull(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? null : value;
}

export function toJson(document: unknown, output: EstimateOutput): string {
  return JSON.stringify({ generator: 'llm-train-planner', input: document, output }, finiteOrNull, 2) + '\n';
}

/** A Markdown table cell's text: pipes and backslashes escaped, one line. */
export function markdownCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A GitHub-flavoured Markdown table, its lines; `rightAligned` per column. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[], rightAligned: readonly boolean[]): string[] {
  const line = (cells: readonly string[]) => `| ${cells.map(markdownCell).join(' | ')} |`;
  const rule = `|${header.map((_, i) => (rightAligned[i] ? '---:' : ':---')).join('|')}|`;
  return [line(header), rule, ...rows.map(line)];
}

function layoutLine(document: unknown): string | null {
  const parallel = isRecord(document) ? document.parallel : undefined;
  if (!isRecord(parallel)) return null;
  const parts = ['tp', 'pp', 'dp', 'cp', 'ep', 'vpp']
    .filter((key) => typeof parallel[key] === 'number')
    .map((key) => `${key} ${String(parallel[key])}`);
  if (typeof parallel.zero === 'number') parts.push(`ZeRO ${parallel.zero}`);
  if (typeof parallel.schedule === 'string') parts.push(parallel.schedule);
  return parts.length > 0 ? `Parallel layout: ${parts.join(' · ')}` : null;
}

function figureRows(output: EstimateOutput): string[][] {
  const capacity = memoryCapacityNote(output);
  return keyFigures(output).map((figure) => {
    let value = figure.unavailableReason ? `${NOT_AVAILABLE} (${figure.unavailableReason})` : figure.text;
    if (figure.id === 'memory-total' && figure.value !== null) {
      value += ` ${capacity.capacityText}${capacity.oomText ? ' — out of memory' : ''}`;
    }
    return [figure.label, value, figure.explanation];
  });
}

/** The memory parts a table lists: a fine-tune's frozen weights first (training.adapter), when any stage holds them. */
function memoryParts(output: EstimateOutput): readonly (MemoryPart | 'frozen')[] {
  return output.memory.stages.some((s) => s.frozen !== undefined) ? ['frozen', ...MEMORY_PARTS] : MEMORY_PARTS;
}

function stageRows(output: EstimateOutput): string[][] {
  return output.memory.stages.map((stage, index) => [
    String(index),
    ...memoryParts(output).map((part) => formatNumber((stage[part] ?? 0) / GiB)),
    formatNumber(stage.total / GiB),
    stage.total > output.memory.capacity ? 'no' : 'yes',
  ]);
}

/** What the days and dollars assume: the cluster (GPU type and count), the price and the token budget; null when the document cannot be read. */
function runLines(document: unknown): string[] {
  const words = layoutWords(document);
  return words ? [`Cluster: ${words.cluster}`, '', `Budget: ${words.budget}`, ''] : [];
}

/** The headline figures' ranges, each with its own format, in the order the page shows them. */
const RANGE_ROWS: readonly { readonly key: BandedFigure; readonly label: string; readonly format: (value: number) => string }[] = [
  { key: 'memoryTotal', label: 'Memory per GPU', format: formatGiB },
  { key: 'stepSeconds', label: 'Step time', format: formatSeconds },
  { key: 'tokensPerSecond', label: 'Throughput', format: formatTokensPerSecond },
  { key: 'mfu', label: 'MFU', format: formatPercent },
  { key: 'days', label: 'Training time', format: formatDays },
  { key: 'usd', label: 'Cost', format: formatUsd },
];

/** The ranges published runs measured around such predictions (the validation set's bands), as the figure cards show them. */
function rangeLines(output: EstimateOutput): string[] {
  const bands = headlineBands(output, UNCERTAINTY_TABLE);
  const rows = RANGE_ROWS.flatMap((r) => {
    const band = bands[r.key];
    return band ? [[r.label, r.format(band.low), r.format(band.high)]] : [];
  });
  if (rows.length === 0) return [];
  const percent = Math.round((UNCERTAINTY_TABLE.upperQuantile - UNCERTAINTY_TABLE.lowerQuantile) * 100);
  return [
    `### Ranges (${percent} % of published runs measured within them)`,
    '',
    ...markdownTable(['Figure', 'Low', 'High'], rows, [false, true, true]),
    '',
  ];
}

const PERCENTILES = ['p10', 'p50', 'p90'] as const;

/** The run's end over the simulated runs (reliability.completion): its percentiles, on spot the on-demand answer, the quarters of the budget. */
function completionLines(output: EstimateOutput): string[] {
  const c = output.reliability?.completion;
  if (!c) return [];
  const header = [
    'Percentile',
    'Days',
    'Dollars',
    ...(c.endDate ? ['Ends on'] : []),
    ...(c.onDemand ? ['On-demand days', 'On-demand dollars'] : []),
  ];
  const rows = PERCENTILES.map((p) => [
    p,
    formatDays(c.days[p]),
    formatUsd(c.usd[p]),
    ...(c.endDate ? [c.endDate[p]] : []),
    ...(c.onDemand ? [formatDays(c.onDemand.days[p]), formatUsd(c.onDemand.usd[p])] : []),
  ]);
  const lines = [
    `### When the run ends${c.onDemand ? ' (spot, and the same run on demand)' : ''}`,
    '',
    ...markdownTable(
      header,
      rows,
      header.map((_, i) => i > 0),
    ),
    '',
  ];
  const quarters = milestoneWords(c);
  if (quarters.length > 0) {
    lines.push(
      ...markdownTable(
        ['Token budget reached', 'Median run', 'Range'],
        quarters.map((m) => [m.share, m.when, m.range]),
        [false, true, true],
      ),
      '',
    );
  }
  for (const sentence of [medianIntervalWords(c, output.reliability?.optimalCheckpointIntervalMinutes ?? null), elasticWords(c), c.basis]) {
    if (sentence) lines.push(markdownCell(sentence), '');
  }
  return lines;
}

export function toMarkdown(document: unknown, output: EstimateOutput): string {
  const lines: string[] = [`## Training plan: ${markdownCell(modelName(document) ?? 'unnamed model')}`, ''];
  if (output.model) lines.push(`Model: ${formatModelSummary(output.model)}`, '');
  lines.push(...runLines(document));
  const layout = layoutLine(document);
  if (layout) lines.push(layout, '');
  lines.push(...markdownTable(['Figure', 'Value', 'How it is computed'], figureRows(output), [false, true, false]), '');
  lines.push(...rangeLines(output));
  lines.push(...completionLines(output));
  if (output.memory.stages.length > 0 && output.errors.length === 0) {
    lines.push(`### Memory per pipeline stage (GiB, capacity ${formatGiB(output.memory.capacity)})`, '');
    const header = ['Stage', ...memoryParts(output), 'total', 'fits'];
    lines.push(
      ...markdownTable(
        header,
        stageRows(output),
        header.map((_, i) => i > 0 && i < header.length - 1),
      ),
      '',
    );
  }
  if (output.throughput) {
    const { breakdown } = output.throughput;
    lines.push('### Step-time breakdown', '');
    lines.push(
      ...markdownTable(
        ['Part', 'Seconds per step'],
        TIME_PARTS.map((p) => [p, formatSeconds(breakdown[p])]),
        [false, true],
      ),
      '',
    );
  }
  for (const [title, messages] of [
    ['Errors', output.errors],
    ['Warnings', output.warnings],
  ] as const) {
    if (messages.length > 0) lines.push(`### ${title}`, '', ...messages.map((m) => `- ${markdownCell(m)}`), '');
  }
  return lines.join('\n');
}

export const CSV_COLUMNS = ['section', 'stage', 'name', 'value', 'unit', 'text'] as const;
type CsvRow = readonly [section: string, stage: string, name: string, value: number | null, unit: string, text: string];

/** An RFC 4180 field: quoted when it holds a quote, comma or line break. */
export function csvField(field: string): string {
  return /[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}

function csvLine(row: CsvRow): string {
  const [section, stage, name, value, unit, text] = row;
  const valueText = value !== null && Number.isFinite(value) ? String(value) : '';
  return [section, stage, name, valueText, unit, text].map(csvField).join(',');
}

/** The interchange output's `model` summary, one row per figure under its output name. */
function modelRows(output: EstimateOutput): CsvRow[] {
  const m = output.model;
  if (!m) return [];
  return [
    ['model', '', 'parameters', m.parameters, 'parameters', formatParameterCount(m.parameters)],
    ['model', '', 'activeParameters', m.activeParameters, 'parameters', formatParameterCount(m.activeParameters)],
    ['model', '', 'flopsPerToken', m.flopsPerToken, 'FLOP', formatFlopsPerToken(m.flopsPerToken)],
  ];
}

/** reliability.completion as rows: days and dollars at each percentile (on spot, on demand too), the end dates, the quarters, the interval chosen. */
function completionRows(output: EstimateOutput): CsvRow[] {
  const c = output.reliability?.completion;
  if (!c) return [];
  const rows: CsvRow[] = [];
  const percentiles = (prefix: string, days: typeof c.days, usd: typeof c.usd) => {
    for (const p of PERCENTILES) {
      rows.push(['completion', '', `${prefix}days-${p}`, days[p], 'days', formatDays(days[p])]);
      rows.push(['completion', '', `${prefix}usd-${p}`, usd[p], 'USD', formatUsd(usd[p])]);
    }
  };
  percentiles('', c.days, c.usd);
  if (c.endDate) for (const p of PERCENTILES) rows.push(['completion', '', `end-date-${p}`, null, 'date', c.endDate[p]]);
  if (c.onDemand) percentiles('on-demand-', c.onDemand.days, c.onDemand.usd);
  if (c.waiting) percentiles('waiting-', c.waiting.days, c.waiting.usd);
  for (const m of c.milestones ?? []) {
    const share = Math.round(m.fraction * 100);
    rows.push(['completion', '', `budget-${share}pct-days-p50`, m.days.p50, 'days', m.date?.p50 ?? formatDays(m.days.p50)]);
  }
  if (c.p50OptimalInterval) {
    rows.push([
      'completion',
      '',
      'p50-optimal-checkpoint-interval',
      c.p50OptimalInterval.minutes,
      'minutes',
      formatMinutes(c.p50OptimalInterval.minutes),
    ]);
  }
  rows.push(['completion', '', 'basis', null, '', c.basis]);
  return rows;
}

function csvRows(output: EstimateOutput): CsvRow[] {
  const rows: CsvRow[] = modelRows(output);
  rows.push(
    ...keyFigures(output).map((f): CsvRow => [
      'figure',
      '',
      f.id,
      f.value,
      f.unit,
      f.unavailableReason ? `${NOT_AVAILABLE} (${f.unavailableReason})` : f.text,
    ]),
  );
  const { capacity, fits, stages } = output.memory;
  rows.push(['figure', '', 'memory-capacity', capacity, 'bytes', formatGiB(capacity)]);
  rows.push(['figure', '', 'memory-fits', fits ? 1 : 0, 'boolean', fits ? 'yes' : 'no']);
  stages.forEach((stage, index) => {
    for (const part of [...memoryParts(output), 'total' as const]) {
      const bytes = stage[part] ?? 0;
      rows.push(['stage-memory', String(index), part, bytes, 'bytes', formatGiB(bytes)]);
    }
  });
  if (output.throughput) {
    const { breakdown } = output.throughput;
    for (const part of TIME_PARTS) rows.push(['step-time', '', part, breakdown[part], 'seconds', formatSeconds(breakdown[part])]);
  }
  rows.push(...completionRows(output));
  for (const message of output.errors) rows.push(['error', '', '', null, '', message]);
  for (const message of output.warnings) rows.push(['warning', '', '', null, '', message]);
  return rows;
}

/** RFC 4180 CSV, one row per figure, per stage and memory part, and per step-time part. */
export function toCsv(output: EstimateOutput): string {
  return [CSV_COLUMNS.join(','), ...csvRows(output).map(csvLine)].join('\r\n') + '\r\n';
}

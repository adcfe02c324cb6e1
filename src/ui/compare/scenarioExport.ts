// The scenario table as Markdown (fields as rows, scenarios side by side, as on the
// page) and as CSV (one row per scenario, raw values in the units their headers name).
// Pure functions of the table (scenarios.ts); the download lives in ScenarioTable.

import { csvField, markdownCell, markdownTable } from '../exporters.ts';
import { BAND_PERCENT, type ScenarioTable } from './scenarios.ts';

/** What the table's figures mean, under it in the Markdown export. */
export const SCENARIO_NOTES: readonly string[] = [
  'Memory: what the device holds on the most loaded GPU (memory.deviceUsed, what "fits" is judged on) against that ' +
    "configuration's own GPU capacity; the lower share of capacity is the better headroom.",
  `Ranges: ${BAND_PERCENT} % of published runs measured within them around such a prediction (the validation set).`,
  'Tokens per day: the token budget over the wall-clock training days (goodput included). "(best)" marks the best of the scenarios in a row.',
];

export function scenariosToMarkdown(table: ScenarioTable, title = 'Scenarios'): string {
  const header = ['Field', ...table.names];
  const rows = table.fields
    .filter((f) => f.id !== 'name')
    .map((field) => [field.label, ...field.cells.map((cell) => (cell.best ? `${cell.text} (best)` : cell.text))]);
  return [
    `## ${markdownCell(title)}`,
    '',
    ...markdownTable(
      header,
      rows,
      header.map(() => false),
    ),
    '',
    ...SCENARIO_NOTES.map((note) => `- ${markdownCell(note)}`),
    '',
  ].join('\n');
}

function csvValue(value: number | string | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return csvField(value);
}

/** RFC 4180 CSV: a header row, then one row per scenario; a missing figure is an empty field. */
export function scenariosToCsv(table: ScenarioTable): string {
  const lines = [table.csvHeader.map(csvField).join(','), ...table.csvRows.map((row) => row.map(csvValue).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

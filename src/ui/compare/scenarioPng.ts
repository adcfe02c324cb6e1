// The scenario table as a PNG, drawn locally on a canvas (no network): a title, each
// scenario's name over its column, every field as a row, the best of a row in bold.

import type { ScenarioTable } from './scenarios.ts';

const SCALE = 2;
const PAD = 16;
const ROW = 22;
const CELL_PAD = 12;
const FONT = '12px system-ui, sans-serif';
const BOLD = '600 12px system-ui, sans-serif';
const TITLE_FONT = '600 15px system-ui, sans-serif';
const LIGHT = { background: '#ffffff', text: '#111827', muted: '#4b5563', rule: '#d1d5db' };
const DARK = { background: '#111827', text: '#f3f4f6', muted: '#d1d5db', rule: '#4b5563' };

export async function scenariosPng(table: ScenarioTable, title: string): Promise<Blob | null> {
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) return null;
  const colors = window.matchMedia('(prefers-color-scheme: dark)').matches ? DARK : LIGHT;
  const rows = table.fields.filter((f) => f.id !== 'name');
  const headings = table.names;
  const width = (texts: readonly string[], font: string) => {
    context.font = font;
    return Math.max(0, ...texts.map((t) => context.measureText(t).width)) + CELL_PAD;
  };
  const labelWidth = width(
    rows.map((r) => r.label),
    BOLD,
  );
  const columnWidths = headings.map((h, i) =>
    Math.max(
      width([h], BOLD),
      width(
        rows.map((r) => `${r.cells[i]?.text ?? ''} ▲`),
        BOLD,
      ),
    ),
  );
  const tableWidth = labelWidth + columnWidths.reduce((a, b) => a + b, 0);
  const logicalWidth = Math.max(tableWidth, width([title], TITLE_FONT)) + 2 * PAD;
  const logicalHeight = PAD + ROW + 8 + ROW * (rows.length + 1) + PAD;
  canvas.width = Math.ceil(logicalWidth * SCALE);
  canvas.height = Math.ceil(logicalHeight * SCALE);
  context.scale(SCALE, SCALE);
  context.fillStyle = colors.background;
  context.fillRect(0, 0, logicalWidth, logicalHeight);
  context.fillStyle = colors.text;
  context.font = TITLE_FONT;
  context.fillText(title, PAD, PAD + 15);
  let y = PAD + ROW + 8;
  const columnX = (i: number) => PAD + labelWidth + columnWidths.slice(0, i).reduce((a, b) => a + b, 0);
  context.font = BOLD;
  headings.forEach((h, i) => context.fillText(h, columnX(i), y + 15));
  for (const row of rows) {
    y += ROW;
    context.strokeStyle = colors.rule;
    context.lineWidth = 1;
    context.beginPath();
    context.moveTo(PAD, y + 0.5);
    context.lineTo(PAD + tableWidth, y + 0.5);
    context.stroke();
    context.fillStyle = colors.muted;
    context.font = BOLD;
    context.fillText(row.label, PAD, y + 15);
    row.cells.forEach((cell, i) => {
      context.fillStyle = colors.text;
      context.font = cell.best ? BOLD : FONT;
      context.fillText(cell.best ? `${cell.text} ▲` : cell.text, columnX(i), y + 15);
    });
  }
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
}

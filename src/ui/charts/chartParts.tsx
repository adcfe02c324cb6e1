// Pieces the charts share. The legend is plain HTML with its colors in data
// attributes, so the PNG export can redraw it next to the chart's SVG.

import type { ReactElement, ReactNode, SVGProps } from 'react';
import type { BarShapeProps } from 'recharts';
import type { TickFormatter } from 'recharts/types/cartesian/CartesianAxis';
import { TableRegion } from '../TableRegion.tsx';

/** Rose-600: ≥ 3:1 against both white and gray-900 backgrounds. */
export const OOM_COLOR = '#e11d48';

/** Tooltip on a fixed light card whatever the theme, so its text keeps ≥ 4.5:1. */
export const TOOLTIP_STYLES = {
  contentStyle: { backgroundColor: '#ffffff', border: '1px solid #9ca3af', borderRadius: 6, color: '#111827', fontSize: 12 },
  itemStyle: { color: '#111827' },
  labelStyle: { color: '#111827', fontWeight: 600 },
} as const;

export interface LegendItem {
  readonly key: string;
  readonly label: string;
  readonly color: string;
  readonly dashed?: boolean;
}

export function ChartLegend({ items, extra }: { items: readonly LegendItem[]; extra?: Omit<LegendItem, 'key'> }) {
  const all = extra ? [...items, { key: 'extra', ...extra }] : items;
  return (
    <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs">
      {all.map((item) => (
        <li
          key={item.key}
          data-legend-label={item.label}
          data-legend-color={item.color}
          data-legend-dashed={item.dashed ? 'true' : undefined}
          className="flex items-center gap-1.5"
        >
          <span
            aria-hidden="true"
            className="inline-block h-3 w-3 rounded-sm"
            style={item.dashed ? { borderTop: `2px dashed ${item.color}`, height: 0, width: 14 } : { backgroundColor: item.color }}
          />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

export function ChartUnavailable({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed border-gray-400 p-4 text-sm text-gray-700 dark:border-gray-600 dark:text-gray-300">
      {children}
    </p>
  );
}

interface TickProps {
  readonly x?: number | string | undefined;
  readonly y?: number | string | undefined;
  readonly payload?: { readonly value?: unknown } | undefined;
  readonly index?: number | undefined;
  readonly textAnchor?: string | undefined;
  readonly verticalAnchor?: string | undefined;
  readonly tickFormatter?: TickFormatter | undefined;
}

/** SVG's dy for recharts' vertical anchors: text hangs below the point, centers on it, or sits on it. */
const TICK_DY: Readonly<Record<string, string>> = { start: '0.71em', middle: '0.355em', end: '0' };

function textAnchorOf(anchor: string | undefined): 'start' | 'middle' | 'end' {
  return anchor === 'start' || anchor === 'end' ? anchor : 'middle';
}

/**
 * An axis tick as one plain <text>. Recharts' own tick wraps each label to the axis
 * width and so measures it in the DOM, which forces a layout of the whole page on
 * every chart redraw (20 ms of a 100 ms task with long inputs); our labels are short
 * and never wrap.
 */
export function plainTick(props: TickProps): ReactNode {
  const value = props.payload?.value;
  const text = props.tickFormatter ? props.tickFormatter(value, props.index ?? 0) : String(value ?? '');
  return (
    <text
      x={props.x}
      y={props.y}
      textAnchor={textAnchorOf(props.textAnchor)}
      dy={TICK_DY[props.verticalAnchor ?? 'middle'] ?? '0.355em'}
      fill="currentColor"
      fontSize={12}
    >
      {text}
    </text>
  );
}

/** Axis text (ticks, labels) in the page's text colour, 12 px. */
export const AXIS_TEXT = { fill: 'currentColor', fontSize: 12 } as const;

/** A bar as one plain <rect> where recharts drew it (a negative size drawn as none), painted as asked. */
export function barRect(shape: BarShapeProps, paint: Pick<SVGProps<SVGRectElement>, 'fill' | 'stroke' | 'strokeWidth'>): ReactElement {
  return <rect x={shape.x} y={shape.y} width={Math.max(0, shape.width)} height={Math.max(0, shape.height)} {...paint} />;
}

/** The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k at or above the value: a round axis top. */
export function niceCeiling(value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const mantissa = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].find((m) => m * power >= value) ?? 10;
  return mantissa * power;
}

/**
 * A column of a chart's table: a plain name holds numbers (right-aligned); `{ words }` holds words (left-aligned);
 * `{ unseen }` is named for screen readers only (a column of buttons).
 */
export type Column = string | { readonly words: string } | { readonly unseen: string };

const columnName = (column: Column) => (typeof column === 'string' ? column : 'words' in column ? column.words : column.unseen);

function ColumnHead({ column }: { column: Column }) {
  if (typeof column !== 'string' && 'unseen' in column)
    return (
      <th scope="col" className="px-2">
        <span className="sr-only">{column.unseen}</span>
      </th>
    );
  return (
    <th scope="col" className={typeof column === 'string' ? 'px-2' : 'px-2 text-left'}>
      {columnName(column)}
    </th>
  );
}

/** The header row's cells, one per column. */
export function ColumnHeads({ columns }: { columns: readonly Column[] }) {
  return columns.map((column) => <ColumnHead key={columnName(column)} column={column} />);
}

/** A body row's first cell, naming the row (a stage, a part). */
export function RowHead({ children }: { children: ReactNode }) {
  return (
    <th scope="row" className="px-2 text-left font-normal">
      {children}
    </th>
  );
}

/**
 * A chart's numbers as a table under a disclosure (the chart's text alternative for
 * people who want every value): a keyboard-focusable scrolling region named after it.
 * `columns` name the header row's cells, `children` are the body's rows.
 */
export function ChartTable(props: { summary: string; label: string; columns: readonly Column[]; children: ReactNode }) {
  const { summary, label, columns, children } = props;
  return (
    <details className="mt-2 text-sm">
      <summary className="cursor-pointer text-gray-700 dark:text-gray-300">{summary}</summary>
      <TableRegion label={label} scroll="max-h-80 overflow-auto">
        <table className="mt-1 w-full text-right tabular-nums text-gray-900 dark:text-gray-100">
          <thead>
            <tr>
              <ColumnHeads columns={columns} />
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </TableRegion>
    </details>
  );
}

// Pieces the charts share. The legend is plain HTML with its colors in data
// attributes, so the PNG export can redraw it next to the chart's SVG.

import type { ReactNode } from 'react';

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
        <li key={item.key} data-legend-label={item.label} data-legend-color={item.color}
          data-legend-dashed={item.dashed ? 'true' : undefined} className="flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm"
            style={item.dashed
              ? { borderTop: `2px dashed ${item.color}`, height: 0, width: 14 }
              : { backgroundColor: item.color }} />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

export function ChartUnavailable({ children }: { children: ReactNode }) {
  return <p className="rounded-lg border border-dashed border-gray-400 p-4 text-sm text-gray-700 dark:border-gray-600 dark:text-gray-300">{children}</p>;
}

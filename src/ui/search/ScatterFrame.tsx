// The frame of the search's scatter charts (ParetoChart.tsx, CostDaysChart.tsx): an image
// named by its summary, a chart as wide as the page with a faint grid and two number axes
// (the domain from the data, ticks, line and names in the text colour); the points are the
// chart's own.

import type { ReactNode } from 'react';
import { CartesianGrid, ScatterChart, XAxis, YAxis } from 'recharts';
import { AXIS_TEXT } from '../charts/chartParts.tsx';
import { niceStep } from '../charts/pipelineLayout.ts';

/** One axis: the data's key and name (the tooltip's), the name drawn beside it, how a tick reads. */
export interface ScatterAxis {
  readonly dataKey: string;
  readonly name: string;
  readonly label: string;
  readonly tick: (value: number) => string;
  readonly unit?: string;
  /** The y axis's width in px, for long ticks ("$1.2M"). */
  readonly width?: number;
  /** The values plotted on this axis: where they (nearly) coincide the axis spreads around them (spreadDomain). */
  readonly values?: readonly number[];
}

/** Relative spread below which an axis's values count as one: ticks at three significant digits would all read alike. */
const SAME_VALUE_SPREAD = 0.02;
/** Padding each side of values that coincide, a share of their size: ticks 10 % apart read apart. */
const SAME_VALUE_PADDING = 0.05;

/** A spread axis: its domain and round ticks 1, 2 or 5 × 10^k apart. */
export interface SpreadAxis {
  readonly domain: readonly [number, number];
  readonly ticks: readonly number[];
}

/**
 * The axis for values that (nearly) coincide — one layout found, or several alike — so that its ticks are distinct
 * round numbers around them ("2k, 2.1k, 2.2k, 2.3k", not five "2.16k"); null where recharts' own nice domain does
 * (values spread, or none). Never below 0 for values that are not.
 */
export function spreadDomain(values: readonly number[]): SpreadAxis | null {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return null;
  const low = Math.min(...finite);
  const high = Math.max(...finite);
  const size = Math.max(Math.abs(low), Math.abs(high));
  if (high - low > SAME_VALUE_SPREAD * size) return null;
  const pad = size > 0 ? SAME_VALUE_PADDING * size : 1;
  const from = low >= 0 ? Math.max(0, low - pad) : low - pad;
  const to = high + pad;
  const step = niceStep((to - from) / 4);
  const first = Math.floor(from / step);
  const last = Math.ceil(to / step);
  const ticks = Array.from({ length: last - first + 1 }, (_, i) => Number(((first + i) * step).toPrecision(12)));
  return { domain: [ticks[0] ?? from, ticks[ticks.length - 1] ?? to], ticks };
}

const NUMBER_AXIS = { type: 'number', domain: ['auto', 'auto'], tick: AXIS_TEXT, stroke: 'currentColor' } as const;

const axisProps = ({ dataKey, name, unit, width, tick, values }: ScatterAxis) => {
  const spread = spreadDomain(values ?? []);
  return {
    ...NUMBER_AXIS,
    ...(spread ? { domain: spread.domain, ticks: spread.ticks } : {}),
    dataKey,
    name,
    ...(unit === undefined ? {} : { unit }),
    ...(width === undefined ? {} : { width }),
    tickFormatter: (v: number) => tick(v),
  };
};

export function ScatterFrame(props: {
  testId: string;
  summary: string;
  left: number;
  height: number;
  x: ScatterAxis;
  y: ScatterAxis;
  children: ReactNode;
}) {
  const { testId, summary, left, height, x, y, children } = props;
  return (
    <div data-testid={testId} role="img" aria-label={summary} className="text-gray-700 dark:text-gray-300">
      <ScatterChart
        responsive
        accessibilityLayer={false}
        margin={{ top: 16, right: 24, bottom: 24, left }}
        style={{ width: '100%', height }}
      >
        <CartesianGrid stroke="currentColor" strokeOpacity={0.15} />
        <XAxis {...axisProps(x)} label={{ value: x.label, position: 'insideBottom', offset: -12, ...AXIS_TEXT }} />
        <YAxis {...axisProps(y)} label={{ value: y.label, angle: -90, position: 'insideLeft', ...AXIS_TEXT }} />
        {children}
      </ScatterChart>
    </div>
  );
}

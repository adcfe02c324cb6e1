// The frame of the search's scatter charts (ParetoChart.tsx, CostDaysChart.tsx): an image
// named by its summary, a chart as wide as the page with a faint grid and two number axes
// (the domain from the data, ticks, line and names in the text colour); the points are the
// chart's own.

import type { ReactNode } from 'react';
import { CartesianGrid, ScatterChart, XAxis, YAxis } from 'recharts';
import { AXIS_TEXT } from '../charts/chartParts.tsx';

/** One axis: the data's key and name (the tooltip's), the name drawn beside it, how a tick reads. */
export interface ScatterAxis {
  readonly dataKey: string;
  readonly name: string;
  readonly label: string;
  readonly tick: (value: number) => string;
  readonly unit?: string;
  /** The y axis's width in px, for long ticks ("$1.2M"). */
  readonly width?: number;
}

const NUMBER_AXIS = { type: 'number', domain: ['auto', 'auto'], tick: AXIS_TEXT, stroke: 'currentColor' } as const;

const axisProps = ({ dataKey, name, unit, width, tick }: ScatterAxis) => ({
  ...NUMBER_AXIS,
  dataKey,
  name,
  ...(unit === undefined ? {} : { unit }),
  ...(width === undefined ? {} : { width }),
  tickFormatter: (v: number) => tick(v),
});

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

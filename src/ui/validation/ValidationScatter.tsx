// Predicted against published, one point per case, on log axes with the y = x line:
// points above it are over-predictions. Throughput (tokens/s per GPU) and memory
// (GiB) apart. The table of every case below is the per-point text alternative; each
// chart's own table gives the spread it draws.

import { CartesianGrid, ReferenceLine, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { CaseResult } from '../../model/validation/index.ts';
import { ChartLegend, ChartUnavailable, RowHead, TOOLTIP_STYLES } from '../charts/chartParts.tsx';
import { formatNumber } from '../format.ts';
import { rowsOf, spreadOf, type Spread } from './validationView.ts';
import { GiB } from '../../model/input/index.ts';

/** Okabe–Ito blue, ≥ 3:1 against white and gray-900. */
const POINT_COLOR = '#0072b2';
const COUNT = 'px-2 text-right tabular-nums';

interface Point {
  readonly id: string;
  readonly published: number;
  readonly predicted: number;
}

interface ChartSpec {
  readonly key: 'throughput' | 'memory';
  readonly title: string;
  readonly unit: string;
  readonly points: readonly Point[];
  readonly spread: Spread;
}

/** 1-2-5 ticks covering [low, high]. */
function logTicks(low: number, high: number): number[] {
  const ticks: number[] = [];
  for (let power = Math.floor(Math.log10(low)); power <= Math.ceil(Math.log10(high)); power++) {
    for (const m of [1, 2, 5]) {
      const t = m * 10 ** power;
      if (t >= low && t <= high) ticks.push(t);
    }
  }
  return ticks;
}

function specs(cases: readonly CaseResult[]): ChartSpec[] {
  const throughputRows = rowsOf(cases, false).filter((r) => r.figure === 'tokensPerSecondPerGpu');
  const memoryRows = rowsOf(cases, true);
  const points = (rows: typeof memoryRows, scale: number): Point[] =>
    rows.flatMap((r) =>
      r.predicted !== null && r.predicted > 0 && r.published > 0
        ? [{ id: r.id, published: r.published / scale, predicted: r.predicted / scale }]
        : [],
    );
  return [
    {
      key: 'throughput',
      title: 'Throughput per GPU (tokens/s)',
      unit: 'tokens/s',
      points: points(throughputRows, 1),
      spread: spreadOf(throughputRows),
    },
    { key: 'memory', title: 'Memory per GPU (GiB)', unit: 'GiB', points: points(memoryRows, GiB), spread: spreadOf(memoryRows) },
  ];
}

function summaryText(spec: ChartSpec): string {
  const { spread } = spec;
  const within = spread.within.map((w) => `${w.count} within ±${w.limit * 100} %`).join(', ');
  return (
    `${spec.title}: predicted against published for ${spec.points.length} cases on logarithmic axes, with the line where they are equal. ` +
    `${spread.over} over-predicted, ${spread.under} under-predicted; ${within}.`
  );
}

function SpreadTable({ spec }: { spec: ChartSpec }) {
  return (
    <details className="mt-2 text-sm">
      <summary className="cursor-pointer text-gray-700 dark:text-gray-300">{spec.title}: the spread as a table</summary>
      <table className="mt-1 text-gray-900 dark:text-gray-100">
        <tbody>
          {spec.spread.within.map((w) => (
            <tr key={w.limit}>
              <RowHead>Within ±{w.limit * 100} % of published</RowHead>
              <td className={COUNT}>
                {w.count} of {spec.spread.predicted}
              </td>
            </tr>
          ))}
          <tr>
            <RowHead>Over-predicted (above the line)</RowHead>
            <td className={COUNT}>{spec.spread.over}</td>
          </tr>
          <tr>
            <RowHead>Under-predicted (below the line)</RowHead>
            <td className={COUNT}>{spec.spread.under}</td>
          </tr>
        </tbody>
      </table>
    </details>
  );
}

function OneChart({ spec }: { spec: ChartSpec }) {
  if (spec.points.length === 0) {
    return <ChartUnavailable>{spec.title}: no case of this selection has one.</ChartUnavailable>;
  }
  const values = spec.points.flatMap((p) => [p.published, p.predicted]);
  const low = Math.min(...values) / 1.25;
  const high = Math.max(...values) * 1.25;
  const axis = {
    type: 'number',
    scale: 'log',
    domain: [low, high],
    ticks: logTicks(low, high),
    allowDataOverflow: true,
    tick: { fill: 'currentColor', fontSize: 12 },
    stroke: 'currentColor',
    tickFormatter: (v: number) => formatNumber(v),
  } as const;
  return (
    <figure className="flex min-w-0 flex-col">
      <div
        data-testid={`validation-scatter-${spec.key}`}
        role="img"
        aria-label={summaryText(spec)}
        className="text-gray-700 dark:text-gray-300"
      >
        <ScatterChart
          responsive
          accessibilityLayer={false}
          margin={{ top: 8, right: 16, bottom: 24, left: 16 }}
          style={{ width: '100%', height: 320 }}
        >
          <CartesianGrid stroke="currentColor" strokeOpacity={0.15} />
          <XAxis
            {...axis}
            dataKey="published"
            name="Published"
            label={{ value: `Published (${spec.unit})`, position: 'insideBottom', offset: -14, fill: 'currentColor', fontSize: 12 }}
          />
          <YAxis
            {...axis}
            dataKey="predicted"
            name="Predicted"
            width={64}
            label={{
              value: `Predicted (${spec.unit})`,
              angle: -90,
              position: 'insideLeft',
              offset: -6,
              fill: 'currentColor',
              fontSize: 12,
            }}
          />
          <ReferenceLine
            segment={[
              { x: low, y: low },
              { x: high, y: high },
            ]}
            stroke="currentColor"
            strokeDasharray="6 3"
            ifOverflow="hidden"
          />
          <Tooltip
            {...TOOLTIP_STYLES}
            cursor={{ strokeDasharray: '3 3' }}
            formatter={(v) => (typeof v === 'number' ? `${formatNumber(v)} ${spec.unit}` : String(v))}
            labelFormatter={(_, payload) => String((payload[0]?.payload as Point | undefined)?.id ?? '')}
          />
          <Scatter data={[...spec.points]} fill={POINT_COLOR} fillOpacity={0.7} isAnimationActive={false} />
        </ScatterChart>
        <ChartLegend
          items={[{ key: 'case', label: 'One published run', color: POINT_COLOR }]}
          extra={{ label: 'Predicted = published', color: 'currentColor', dashed: true }}
        />
      </div>
      <figcaption className="mt-1 text-sm text-gray-700 dark:text-gray-300">
        {spec.title}: above the dashed line the planner over-predicts, below it under-predicts.
      </figcaption>
      <SpreadTable spec={spec} />
    </figure>
  );
}

export function ValidationScatter({ cases }: { cases: readonly CaseResult[] }) {
  return (
    <div className="grid gap-4 rounded-lg border border-gray-300 p-4 min-[900px]:grid-cols-2 dark:border-gray-700">
      {specs(cases).map((spec) => (
        <OneChart key={spec.key} spec={spec} />
      ))}
    </div>
  );
}

// Where the seconds of one optimizer step go: one horizontal bar per part of the
// step-time breakdown (compute, recompute, exposed communication, bubble, optimizer),
// with the same numbers in a <details> table.

import { Bar, BarChart, CartesianGrid, LabelList, Tooltip, XAxis, YAxis } from 'recharts';
import type { BarShapeProps } from 'recharts';
import { TIME_PARTS } from '../../model/input/index.ts';
import type { EstimateOutput, TimePart } from '../../model/input/index.ts';
import { formatPercent, formatSeconds } from '../format.ts';
import { barRect, ChartTable, RowHead, ChartUnavailable, TOOLTIP_STYLES, plainTick } from './chartParts.tsx';
import { timeAxisFormatter, timeTicks } from './timeTicks.ts';

/** Colors ≥ 3:1 against both white and gray-900; the bars are also labelled on the axis. */
const TIME_COLORS: Readonly<Record<TimePart, string>> = {
  compute: '#0072b2',
  recompute: '#0891b2',
  tp: '#8b5cf6',
  cp: '#c026d3',
  ep: '#db2777',
  pp: '#a6761d',
  dp: '#009e73',
  bubble: '#6b7280',
  optimizer: '#d55e00',
};
const TIME_LABELS: Readonly<Record<TimePart, string>> = {
  compute: 'Compute',
  recompute: 'Recompute',
  tp: 'Tensor parallel',
  cp: 'Context parallel',
  ep: 'Expert parallel',
  pp: 'Pipeline sends',
  dp: 'Data parallel',
  bubble: 'Pipeline bubble',
  optimizer: 'Optimizer step',
};

interface PartRow {
  readonly part: TimePart;
  readonly label: string;
  readonly seconds: number;
  readonly share: number;
}

type Throughput = NonNullable<EstimateOutput['throughput']>;

/** Each part's seconds and share of the step; the bubble's share is the engine's bubbleFraction, the number its card shows. */
export function partRows(t: Pick<Throughput, 'breakdown' | 'stepSeconds' | 'bubbleFraction'>): PartRow[] {
  return TIME_PARTS.map((part) => {
    const seconds = Number.isFinite(t.breakdown[part]) ? t.breakdown[part] : 0;
    const share = part === 'bubble' ? t.bubbleFraction : t.stepSeconds > 0 ? seconds / t.stepSeconds : 0;
    return { part, label: TIME_LABELS[part], seconds, share };
  });
}

function summary(rows: readonly PartRow[], stepSeconds: number): string {
  const largest = [...rows]
    .sort((a, b) => b.seconds - a.seconds)
    .filter((r) => r.seconds > 0)
    .slice(0, 3);
  const parts = largest.map((r) => `${r.label.toLowerCase()} ${formatSeconds(r.seconds)}`).join(', ');
  return `Step-time breakdown of a ${formatSeconds(stepSeconds)} step${parts ? `; largest parts: ${parts}` : ''}.`;
}

function BreakdownTable({ rows }: { rows: readonly PartRow[] }) {
  return (
    <ChartTable
      summary="Step-time breakdown as a table"
      label="Step-time breakdown"
      columns={[{ words: 'Part' }, 'Seconds per step', 'Share of step']}
    >
      {rows.map((row) => (
        <tr key={row.part}>
          <RowHead>{row.label}</RowHead>
          <td className="px-2">{formatSeconds(row.seconds)}</td>
          <td className="px-2">{formatPercent(row.share)}</td>
        </tr>
      ))}
    </ChartTable>
  );
}

export default function StepBreakdownChart(props: { output: EstimateOutput }) {
  const { throughput } = props.output;
  if (!throughput) {
    const why = props.output.errors.length > 0 ? 'the configuration is invalid' : 'time model not computed';
    return <ChartUnavailable>Step-time breakdown not shown: {why}.</ChartUnavailable>;
  }
  const rows = partRows(throughput);
  const largest = rows.reduce((most, r) => Math.max(most, r.seconds), 0);
  const ticks = timeTicks(largest, 5);
  const tickText = timeAxisFormatter(ticks[ticks.length - 1] ?? largest);
  const partsSum = rows.reduce((sum, r) => sum + r.seconds, 0);
  const colored = (shape: BarShapeProps) => {
    const row = rows[shape.index];
    return barRect(shape, { fill: row ? TIME_COLORS[row.part] : shape.fill });
  };
  return (
    <figure className="flex flex-col">
      <div
        data-testid="step-breakdown-chart"
        data-chart-title="Step-time breakdown (seconds per step)"
        role="img"
        aria-label={summary(rows, throughput.stepSeconds)}
        className="text-gray-700 dark:text-gray-300"
      >
        <BarChart
          responsive
          accessibilityLayer={false}
          layout="vertical"
          data={rows}
          margin={{ top: 8, right: 64, bottom: 8, left: 8 }}
          style={{ width: '100%', height: 300 }}
        >
          <CartesianGrid stroke="currentColor" strokeOpacity={0.15} horizontal={false} />
          {/* interval 0: five round ticks never crowd, and recharts then skips measuring each label in the DOM (a forced layout of the page). */}
          <XAxis
            type="number"
            interval={0}
            tick={plainTick}
            stroke="currentColor"
            ticks={ticks}
            domain={[0, ticks[ticks.length - 1] ?? 'auto']}
            tickFormatter={(v: number) => tickText(v)}
          />
          <YAxis type="category" dataKey="label" width={120} interval={0} tick={plainTick} stroke="currentColor" />
          <Tooltip {...TOOLTIP_STYLES} formatter={(v) => (typeof v === 'number' ? formatSeconds(v) : String(v))} />
          <Bar dataKey="seconds" name="Seconds per step" isAnimationActive={false} shape={colored}>
            <LabelList
              dataKey="seconds"
              position="right"
              fill="currentColor"
              fontSize={12}
              formatter={(v) => (typeof v === 'number' ? formatSeconds(v) : '')}
            />
          </Bar>
        </BarChart>
      </div>
      <figcaption className="mt-1 text-sm text-gray-700 dark:text-gray-300">
        Seconds per step by part; step time {formatSeconds(throughput.stepSeconds)}, sum of parts {formatSeconds(partsSum)}
        {Math.abs(partsSum - throughput.stepSeconds) > 1e-9 * Math.max(1, throughput.stepSeconds)
          ? ' (the parts need not add up to the step: some run overlapped)'
          : ''}
        . Pipeline bubble {formatSeconds(throughput.breakdown.bubble)}, {formatPercent(throughput.bubbleFraction)} of the step: the Pipeline
        bubble figure.
      </figcaption>
      <BreakdownTable rows={rows} />
    </figure>
  );
}

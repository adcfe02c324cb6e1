// What went wrong, as pictures: loss and grad norm over the steps with spikes and NaN/Inf
// marked, throughput and memory with drops, stalls and growth marked. Each marker is the
// step an anomaly names; each chart has a text alternative (its anomalies listed with the
// rule that flagged them, in the figure's caption).

import { CartesianGrid, Line, LineChart, ReferenceDot, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { AnomalyKind, LogReport, SeriesName } from '../../model/log/index.ts';
import { formatGiB, formatNumber, formatSeconds } from '../format.ts';
import { ChartUnavailable, OOM_COLOR, TOOLTIP_STYLES } from '../charts/chartParts.tsx';
import { anomalyWords } from './anomalyWords.ts';

const LINE_COLOR = '#0072b2';
/** Three significant figures: a grad norm of 0.512 is not "0.5". */
const plain = (v: number) => String(Number(v.toPrecision(3)));

interface ChartSpec {
  readonly id: string;
  readonly title: string;
  readonly series: SeriesName;
  readonly kinds: readonly AnomalyKind[];
  readonly format: (v: number) => string;
}

const CHARTS: readonly ChartSpec[] = [
  { id: 'loss', title: 'Loss', series: 'loss', kinds: ['loss-spike', 'loss-nan', 'nan-iterations', 'skipped-iterations'], format: plain },
  { id: 'grad-norm', title: 'Gradient norm', series: 'gradNorm', kinds: ['grad-norm-spike', 'grad-norm-nan'], format: plain },
  { id: 'step-time', title: 'Step time', series: 'stepSeconds', kinds: ['throughput-drop', 'stall'], format: formatSeconds },
  {
    id: 'throughput',
    title: 'Tokens/s per GPU',
    series: 'tokensPerSecondPerGpu',
    kinds: ['throughput-drop', 'stall'],
    format: formatNumber,
  },
  { id: 'memory', title: 'Peak memory', series: 'memoryBytes', kinds: ['memory-growth'], format: formatGiB },
];

/** A marker's height: the series' value at the step, or (NaN, a step the series lacks) the highest value drawn. */
function markerY(points: ReadonlyArray<readonly [number, number]>, step: number): number {
  const at = points.find(([s]) => s === step);
  if (at) return at[1];
  return points.reduce((m, [, v]) => Math.max(m, v), Number.NEGATIVE_INFINITY);
}

function OneChart({ spec, report }: { spec: ChartSpec; report: LogReport }) {
  const points = report.series[spec.series];
  if (points.length < 2) return null;
  const data = points.map(([step, value]) => ({ step, value }));
  const marks = report.anomalies.filter((a) => spec.kinds.includes(a.kind));
  // NaN steps have no point in the series: a vertical line marks them.
  const nanKinds: readonly AnomalyKind[] = ['loss-nan', 'grad-norm-nan', 'nan-iterations'];
  const caption =
    marks.length === 0
      ? `${spec.title} over ${points.length} logged steps (${points[0]?.[0]}–${points[points.length - 1]?.[0]}); nothing flagged.`
      : `${spec.title} over ${points.length} logged steps; flagged: ` +
        `${marks.slice(0, 8).map(anomalyWords).join('; ')}${marks.length > 8 ? `; and ${marks.length - 8} more` : ''}.`;
  return (
    <figure data-testid={`log-chart-${spec.id}`} className="flex flex-col gap-1">
      <figcaption className="text-sm font-medium text-gray-900 dark:text-gray-100">{spec.title}</figcaption>
      <div role="img" aria-label={caption}>
        <LineChart
          responsive
          accessibilityLayer={false}
          data={data}
          margin={{ top: 8, right: 12, bottom: 4, left: 8 }}
          style={{ width: '100%', height: 180 }}
        >
          <CartesianGrid strokeDasharray="3 3" stroke="#9ca3af" strokeOpacity={0.4} />
          <XAxis dataKey="step" type="number" domain={['dataMin', 'dataMax']} tick={{ fontSize: 11, fill: 'currentColor' }} />
          <YAxis
            tickFormatter={(v: number) => spec.format(v)}
            width={70}
            tick={{ fontSize: 11, fill: 'currentColor' }}
            domain={['auto', 'auto']}
          />
          <Tooltip
            {...TOOLTIP_STYLES}
            formatter={(v) => (typeof v === 'number' ? spec.format(v) : String(v))}
            labelFormatter={(s) => `step ${String(s)}`}
          />
          <Line type="linear" dataKey="value" stroke={LINE_COLOR} dot={false} isAnimationActive={false} />
          {marks
            .filter((a) => nanKinds.includes(a.kind))
            .map((a) => (
              <ReferenceLine key={`${a.kind}-${a.step}`} x={a.step} stroke={OOM_COLOR} strokeDasharray="4 2" />
            ))}
          {marks
            .filter((a) => !nanKinds.includes(a.kind))
            .map((a) => (
              <ReferenceDot
                key={`${a.kind}-${a.step}`}
                x={a.step}
                y={markerY(points, a.step)}
                r={5}
                fill={OOM_COLOR}
                stroke="#ffffff"
                shape={(props: { cx?: number; cy?: number }) => (
                  <circle
                    data-testid="log-marker"
                    data-kind={a.kind}
                    data-step={a.step}
                    cx={props.cx}
                    cy={props.cy}
                    r={5}
                    fill={OOM_COLOR}
                    stroke="#ffffff"
                  />
                )}
              />
            ))}
        </LineChart>
      </div>
    </figure>
  );
}

export default function LogCharts({ report }: { report: LogReport }) {
  const drawn = CHARTS.filter((c) => report.series[c.series].length >= 2);
  if (drawn.length === 0) return <ChartUnavailable>The log has too few steps to draw.</ChartUnavailable>;
  return (
    <div className="flex flex-col gap-3">
      {drawn.map((spec) => (
        <OneChart key={spec.id} spec={spec} report={report} />
      ))}
    </div>
  );
}

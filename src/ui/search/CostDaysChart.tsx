// Cluster sizing's picture: for each GPU type, the cost of training the token budget
// against the days it takes, one point per cluster size (its soonest layout within the
// limits), joined in order of size: bigger clusters finish sooner and usually cost more.
// Loaded lazily with recharts; a summary and a table repeat it for screen readers; the
// day limit is drawn as a dashed line.

import { ReferenceLine, Scatter, Tooltip, ZAxis } from 'recharts';
import type { CostFront } from '../../model/search/index.ts';
import { ChartLegend, ChartTable, ChartUnavailable, TOOLTIP_STYLES } from '../charts/chartParts.tsx';
import { formatCount, formatCountOf, formatDays, formatNumber, formatUsd } from '../format.ts';
import { ScatterFrame, type ScatterAxis } from './ScatterFrame.tsx';
import { layoutText } from './searchTable.ts';

/** Okabe–Ito blue, vermillion, bluish green, reddish purple, orange, sky blue: told apart with colour-vision deficiency. */
const COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9'];
const colorOf = (i: number) => COLORS[i % COLORS.length] ?? '#0072b2';

function summary(fronts: readonly CostFront[]): string {
  const parts = fronts.map((f) => {
    const first = f.points[0];
    const last = f.points[f.points.length - 1];
    if (!first || !last) return `${f.name}: no cluster size meets the limits`;
    return (
      `${f.name}: ${formatDays(first.days)} for ${formatUsd(first.usd)} on ${formatCountOf(first.gpus, 'GPU')} to ` +
      `${formatDays(last.days)} for ${formatUsd(last.usd)} on ${formatCountOf(last.gpus, 'GPU')}`
    );
  });
  return `Cost against days to train, per GPU type. ${parts.join('; ')}.`;
}

function FrontsTable({ fronts }: { fronts: readonly CostFront[] }) {
  return (
    <ChartTable
      summary="Cost against days as a table"
      label="Cost against days"
      columns={[{ words: 'GPU' }, 'GPUs', 'Days', 'Cost', { words: 'Layout' }]}
    >
      {fronts.flatMap((f) =>
        f.points.map((p, i) => (
          <tr key={`${f.gpu}-${i}`}>
            <td className="px-2 text-left">{f.name}</td>
            <td className="px-2">{formatCount(p.gpus)}</td>
            <td className="px-2">{formatDays(p.days)}</td>
            <td className="px-2">{formatUsd(p.usd)}</td>
            <td className="px-2 text-left">{layoutText({ parallel: p.parallel, training: p.training, cluster: { gpus: p.gpus } })}</td>
          </tr>
        )),
      )}
    </ChartTable>
  );
}

const X_AXIS: ScatterAxis = { dataKey: 'days', name: 'Days', label: 'Days to train', tick: formatNumber };
const Y_AXIS: ScatterAxis = { dataKey: 'usd', name: 'Cost', label: 'Cost', tick: formatUsd, width: 72 };

export default function CostDaysChart({ fronts, maxDays }: { fronts: readonly CostFront[]; maxDays: number | null }) {
  if (fronts.every((f) => f.points.length === 0))
    return <ChartUnavailable>No cost-against-days curve: no cluster size met the limits.</ChartUnavailable>;
  const series = fronts.map((f, i) => ({
    ...f,
    color: colorOf(i),
    data: [...f.points].sort((a, b) => a.gpus - b.gpus).map((p) => ({ days: p.days, usd: p.usd, gpus: p.gpus })),
  }));
  return (
    <figure className="flex flex-col">
      <ScatterFrame
        testId="cost-days-chart"
        summary={summary(fronts)}
        left={24}
        height={300}
        x={{ ...X_AXIS, values: series.flatMap((s) => s.data.map((p) => p.days)) }}
        y={{ ...Y_AXIS, values: series.flatMap((s) => s.data.map((p) => p.usd)) }}
      >
        <ZAxis type="number" dataKey="gpus" name="GPUs" range={[60, 60]} />
        <Tooltip
          {...TOOLTIP_STYLES}
          formatter={(v, name) => (typeof v === 'number' ? (name === 'Cost' ? formatUsd(v) : formatNumber(v)) : String(v))}
        />
        {maxDays !== null && <ReferenceLine x={maxDays} stroke="currentColor" strokeDasharray="4 4" ifOverflow="extendDomain" />}
        {series.map((s) => (
          <Scatter key={s.gpu} name={s.name} data={s.data} fill={s.color} line={{ stroke: s.color }} isAnimationActive={false} />
        ))}
      </ScatterFrame>
      <ChartLegend
        items={series.map((s) => ({ key: s.gpu, label: s.name, color: s.color }))}
        {...(maxDays !== null ? { extra: { label: `Day limit (${formatDays(maxDays)})`, color: '#6b7280', dashed: true } } : {})}
      />
      <figcaption className="mt-1 text-sm text-gray-700 dark:text-gray-300">
        Cost of training the token budget against the days it takes, per GPU type: each point is one cluster size with its soonest layout,
        joined from the fewest GPUs to the most.
      </figcaption>
      <FrontsTable fronts={fronts} />
    </figure>
  );
}

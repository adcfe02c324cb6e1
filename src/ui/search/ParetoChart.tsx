// The Pareto front the search found: throughput against the most loaded GPU's memory
// (closed-form step time, as the search ranked), each point a layout no other beats on
// both. Loaded lazily with recharts; a summary and a table repeat it for screen readers.

import { Scatter, Tooltip } from 'recharts';
import type { SearchDocumentOutput } from '../../model/search/index.ts';
import { ChartTable, ChartUnavailable, TOOLTIP_STYLES } from '../charts/chartParts.tsx';
import { formatGiB, formatNumber, formatTokensPerSecond } from '../format.ts';
import { ScatterFrame, type ScatterAxis } from './ScatterFrame.tsx';
import { layoutText } from './searchTable.ts';
import { GiB } from '../../model/input/index.ts';

/** Okabe–Ito blue: ≥ 3:1 against white and gray-900. */
const FRONT_COLOR = '#0072b2';

type FrontPoint = SearchDocumentOutput['pareto'][number];

function summary(front: readonly FrontPoint[]): string {
  const first = front[0];
  const last = front[front.length - 1];
  if (!first || !last) return 'No layout on the front.';
  return (
    `Pareto front of ${front.length} layouts, throughput against memory per GPU: from ${formatTokensPerSecond(first.tokensPerSecond)} ` +
    `at ${formatGiB(first.memoryBytes)} to ${formatTokensPerSecond(last.tokensPerSecond)} at ${formatGiB(last.memoryBytes)}.`
  );
}

function FrontTable({ front }: { front: readonly FrontPoint[] }) {
  return (
    <ChartTable summary="The front as a table" label="Pareto front" columns={['Memory per GPU', 'Tokens/s', { words: 'Layout' }]}>
      {front.map((p, i) => (
        <tr key={i}>
          <td className="px-2">{formatGiB(p.memoryBytes)}</td>
          <td className="px-2">{formatTokensPerSecond(p.tokensPerSecond)}</td>
          <td className="px-2 text-left">{layoutText({ parallel: p.parallel, training: p.training, cluster: { gpus: p.gpus } })}</td>
        </tr>
      ))}
    </ChartTable>
  );
}

const X_AXIS: ScatterAxis = {
  dataKey: 'memoryGiB',
  name: 'Memory per GPU',
  unit: ' GiB',
  label: 'Memory per GPU (GiB)',
  tick: formatNumber,
};
const Y_AXIS: ScatterAxis = { dataKey: 'tokensPerSecond', name: 'Tokens/s', label: 'Tokens/s', tick: (v) => formatNumber(v / 1000) + 'k' };

export default function ParetoChart({ front }: { front: readonly FrontPoint[] }) {
  if (front.length === 0) return <ChartUnavailable>No Pareto front: no layout fitted.</ChartUnavailable>;
  const points = front.map((p) => ({ memoryGiB: p.memoryBytes / GiB, tokensPerSecond: p.tokensPerSecond }));
  return (
    <figure className="flex flex-col">
      <ScatterFrame
        testId="pareto-chart"
        summary={summary(front)}
        left={16}
        height={280}
        x={{ ...X_AXIS, values: points.map((p) => p.memoryGiB) }}
        y={{ ...Y_AXIS, values: points.map((p) => p.tokensPerSecond) }}
      >
        <Tooltip {...TOOLTIP_STYLES} formatter={(v) => (typeof v === 'number' ? formatNumber(v) : String(v))} />
        <Scatter data={points} fill={FRONT_COLOR} line={{ stroke: FRONT_COLOR }} isAnimationActive={false} />
      </ScatterFrame>
      <figcaption className="mt-1 text-sm text-gray-700 dark:text-gray-300">
        Throughput against memory per GPU: each point is a layout that no other is both faster and smaller than.
      </figcaption>
      <FrontTable front={front} />
    </figure>
  );
}

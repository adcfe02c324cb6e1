// One knob's trade-off as three small charts over the same values: tokens per second,
// memory per GPU against the GPU's capacity, and dollars (or days) for the token budget.
// Values that do not fit are shaded, the current value is marked, hovering shows the
// figures and clicking a point applies it. The values sit evenly spaced in their order
// (a category axis drawn on a numeric one, so a value's band can be shaded).

import { memo, useMemo, type ReactNode } from 'react';
import { Area, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDays, formatGiB, formatNumber, formatPercent, formatTokensPerSecond, formatUsd } from '../format.ts';
import { GiB } from '../../model/input/index.ts';
import { STILL_LINE, StillReferenceArea, StillReferenceLine } from '../charts/stillParts.tsx';
import { ColumnHeads, OOM_COLOR, RowHead, TOOLTIP_STYLES, niceCeiling, plainTick } from '../charts/chartParts.tsx';
import { useStaggeredValue } from '../useSettledValue.ts';
import { CHART_STAGGER_MS, unfitRuns, type TradeoffPoint } from './points.ts';
import { VERDICT_LABEL } from '../uncertainty/memoryVerdict.ts';

export type CostUnit = 'usd' | 'days';

interface Series {
  readonly id: 'speed' | 'memory' | 'cost';
  readonly title: string;
  readonly color: string;
  readonly of: (p: TradeoffPoint) => number;
  readonly tick: (v: number) => string;
}

const SPEED: Series = {
  id: 'speed',
  title: 'Tokens per second',
  color: '#0072b2',
  of: (p) => p.tokensPerSecond,
  tick: (v) => formatTokensPerSecond(v).replace(' tokens/s', ''),
};
const MEMORY: Series = {
  id: 'memory',
  title: 'Memory per GPU (GiB, used on the device)',
  color: '#cc79a7',
  of: (p) => p.memoryGiB,
  tick: (v) => formatNumber(v),
};
const COST: Readonly<Record<CostUnit, Series>> = {
  usd: {
    id: 'cost',
    title: 'Cost of the token budget (US$)',
    color: '#009e73',
    of: (p) => p.usd,
    tick: (v) => (v === 0 ? '0' : formatUsd(v)),
  },
  days: { id: 'cost', title: 'Days for the token budget', color: '#009e73', of: (p) => p.days, tick: (v) => formatNumber(v) },
};
/** The cost chart of a banded knob (points.ts BANDED_KNOBS): the median simulated run, its p10–p90 band drawn behind. */
const BANDED_COST: Readonly<Record<CostUnit, Series & { readonly band: (p: TradeoffPoint) => [number, number] }>> = {
  usd: {
    ...COST.usd,
    title: 'Cost of the token budget (US$): median simulated run, p10–p90 band',
    of: (p) => p.range?.usd[1] ?? p.usd,
    band: (p) => [p.range?.usd[0] ?? p.usd, p.range?.usd[2] ?? p.usd],
  },
  days: {
    ...COST.days,
    title: 'Days for the token budget: median simulated run, p10–p90 band',
    of: (p) => p.range?.days[1] ?? p.days,
    band: (p) => [p.range?.days[0] ?? p.days, p.range?.days[2] ?? p.days],
  },
};

/** "54.2 days (p10 53.9, p90 54.6)": a point's simulated range in the cost unit, or its expected figure without one. */
export function rangeText(p: TradeoffPoint, unit: CostUnit): string {
  const format = unit === 'usd' ? formatUsd : formatDays;
  const r = unit === 'usd' ? p.range?.usd : p.range?.days;
  return r ? `${format(r[1])} (p10 ${format(r[0])}, p90 ${format(r[2])})` : format(unit === 'usd' ? p.usd : p.days);
}

function PointTooltip({ active, payload }: { active?: boolean; payload?: ReadonlyArray<{ payload?: unknown }> }): ReactNode {
  const p = payload?.[0]?.payload as TradeoffPoint | undefined;
  if (!active || !p) return null;
  return (
    <div style={TOOLTIP_STYLES.contentStyle} className="px-2 py-1">
      <p style={TOOLTIP_STYLES.labelStyle}>
        {p.valueLabel}
        {p.current ? ' (current)' : ''}
      </p>
      <p>
        {formatTokensPerSecond(p.tokensPerSecond)} · MFU {formatPercent(p.mfu)}
      </p>
      <p>
        {formatGiB(p.memoryGiB * GiB)} of {formatGiB(p.capacityGiB * GiB)}
        {p.verdict === 'safe' ? '' : `: ${VERDICT_LABEL[p.verdict].toLowerCase()}`}
      </p>
      <p>
        {formatDays(p.days)} · {formatUsd(p.usd)}
      </p>
      {p.range && <p>Simulated end: {rangeText(p, 'days')}</p>}
      <p>Click to apply</p>
    </div>
  );
}

interface DotProps {
  readonly cx?: number;
  readonly cy?: number;
  readonly index?: number;
  readonly payload?: TradeoffPoint;
}

const HEIGHT = { speed: 116, memory: 116, cost: 140 } as const;

type BandedSeries = Series & { readonly band?: (p: TradeoffPoint) => [number, number] };

function SmallChart({
  series,
  points,
  onApply,
}: {
  series: BandedSeries;
  points: readonly TradeoffPoint[] | null;
  onApply: (p: TradeoffPoint) => void;
}) {
  if (!points) return <div style={{ height: HEIGHT[series.id] + 16 }} />;
  return <SmallChartNow series={series} points={points} onApply={onApply} />;
}

const MARGIN = { top: 6, right: 16, bottom: 2, left: 8 } as const;
const CHART_STYLE = {
  speed: { width: '100%', height: HEIGHT.speed },
  memory: { width: '100%', height: HEIGHT.memory },
  cost: { width: '100%', height: HEIGHT.cost },
} as const;
const POINT_TOOLTIP = <PointTooltip />;
const CAPACITY_LABEL = { value: 'capacity', position: 'insideTopRight', fill: 'currentColor', fontSize: 11 } as const;

/** The series' dots, each a 12 px target that applies its point; the point comes with the dot (recharts' payload). */
function pointDot(series: BandedSeries, onApply: (p: TradeoffPoint) => void) {
  return function PointDot(props: DotProps) {
    const p = props.payload;
    if (!p || props.cx === undefined || props.cy === undefined) return <g key={`none-${props.index ?? 0}`} />;
    // A transparent disc of 12 px around the visible dot: a target a hand can hit.
    return (
      <g
        key={p.index}
        style={{ cursor: 'pointer' }}
        onClick={() => onApply(p)}
        data-testid="tradeoff-point"
        data-series={series.id}
        data-value={String(p.value)}
        data-fits={p.fits ? 'true' : 'false'}
        data-current={p.current ? 'true' : undefined}
      >
        <circle cx={props.cx} cy={props.cy} r={12} fill="transparent" />
        <circle
          cx={props.cx}
          cy={props.cy}
          r={p.current ? 6 : 4.5}
          fill={p.fits ? series.color : OOM_COLOR}
          stroke={p.current ? 'currentColor' : '#ffffff'}
          strokeWidth={p.current ? 2.5 : 1}
        />
      </g>
    );
  };
}

/**
 * The props of the chart's parts, kept the same object while what they draw is the same: recharts re-registers a part whose
 * props change in its chart's store, and each registration makes every selector of the chart run again (stillParts.tsx).
 */
function useStableParts(series: BandedSeries, points: readonly TradeoffPoint[], onApply: (p: TradeoffPoint) => void) {
  const count = points.length;
  const labels = points.map((p) => p.valueLabel).join('\u0000');
  const capacity = points[0]?.capacityGiB ?? 0;
  const floor = series.id === 'memory' ? capacity : 0;
  return {
    ticks: useMemo(() => Array.from({ length: count }, (_, i) => i), [count]),
    tickFormatter: useMemo(() => {
      const words = labels.split('\u0000');
      return (i: number) => words[i] ?? '';
    }, [labels]),
    yDomain: useMemo(() => [0, (max: number) => niceCeiling(Math.max(max, floor) * 1.05)] as const, [floor]),
    dot: useMemo(() => pointDot(series, onApply), [series, onApply]),
    capacity,
  };
}

// Memoized: until its turn comes, a chart keeps its drawing without redrawing it.
const SmallChartNow = memo(function SmallChartNow({
  series,
  points,
  onApply,
}: {
  series: BandedSeries;
  points: readonly TradeoffPoint[];
  onApply: (p: TradeoffPoint) => void;
}) {
  const { ticks, tickFormatter, yDomain, dot, capacity } = useStableParts(series, points, onApply);
  const current = points.find((p) => p.current);
  return (
    <div className="text-gray-700 dark:text-gray-300">
      <p className="text-xs font-medium">{series.title}</p>
      <ComposedChart responsive accessibilityLayer={false} data={points as TradeoffPoint[]} margin={MARGIN} style={CHART_STYLE[series.id]}>
        <CartesianGrid stroke="currentColor" strokeOpacity={0.15} vertical={false} />
        <XAxis
          dataKey="index"
          type="number"
          domain={[-0.5, points.length - 0.5]}
          ticks={ticks}
          interval={0}
          tick={plainTick}
          tickFormatter={tickFormatter}
          stroke="currentColor"
          height={series.id === 'cost' ? 24 : 8}
          hide={series.id !== 'cost'}
        />
        <YAxis width={64} tick={plainTick} tickFormatter={series.tick} stroke="currentColor" interval={0} tickCount={3} domain={yDomain} />
        {unfitRuns(points).map(([first, last]) => (
          <StillReferenceArea key={first} x1={first - 0.5} x2={last + 0.5} fill={OOM_COLOR} fillOpacity={0.1} ifOverflow="hidden" />
        ))}
        {current && <StillReferenceLine x={current.index} stroke="currentColor" strokeDasharray="3 3" strokeOpacity={0.6} />}
        {series.id === 'memory' && capacity > 0 && (
          <StillReferenceLine
            y={capacity}
            stroke={OOM_COLOR}
            strokeDasharray="6 3"
            strokeWidth={1.5}
            ifOverflow="extendDomain"
            label={CAPACITY_LABEL}
          />
        )}
        <Tooltip content={POINT_TOOLTIP} isAnimationActive={false} />
        {series.band && (
          <Area
            dataKey={series.band}
            name="p10–p90"
            stroke="none"
            fill={series.color}
            fillOpacity={0.2}
            isAnimationActive={false}
            activeDot={false}
            data-testid="tradeoff-band"
          />
        )}
        <Line dataKey={series.of} name={series.title} stroke={series.color} dot={dot} {...STILL_LINE} />
      </ComposedChart>
    </div>
  );
});

/** Screen-reader and keyboard twin of the charts: the figures of every value, each with an Apply button. */
function TradeoffTable({
  points,
  banded,
  onApply,
}: {
  points: readonly TradeoffPoint[];
  banded: boolean;
  onApply: (p: TradeoffPoint) => void;
}) {
  return (
    <details className="mt-2 text-sm">
      <summary className="cursor-pointer text-gray-700 dark:text-gray-300">The curve as a table, with a button to apply each value</summary>
      <div className="max-h-80 overflow-auto" tabIndex={0} role="region" aria-label="Trade-off values (scrollable table)">
        <table className="mt-1 w-full text-right tabular-nums text-gray-900 dark:text-gray-100">
          <thead>
            <tr>
              <ColumnHeads
                columns={[
                  { words: 'Value' },
                  'Tokens/s',
                  'Memory per GPU',
                  `Days${banded ? ', median (p10, p90)' : ''}`,
                  `Cost${banded ? ', median (p10, p90)' : ''}`,
                  { words: 'Memory verdict' },
                  { unseen: 'Apply' },
                ]}
              />
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.index} className={p.current ? 'font-semibold' : undefined}>
                <RowHead>
                  {p.valueLabel}
                  {p.current ? ' (current)' : ''}
                </RowHead>
                <td className="px-2">{formatTokensPerSecond(p.tokensPerSecond)}</td>
                <td className="px-2">{formatGiB(p.memoryGiB * GiB)}</td>
                <td className="px-2">{banded ? rangeText(p, 'days') : formatDays(p.days)}</td>
                <td className="px-2">{banded ? rangeText(p, 'usd') : formatUsd(p.usd)}</td>
                <td className="px-2 text-left" data-testid="tradeoff-verdict" data-verdict={p.verdict}>
                  {VERDICT_LABEL[p.verdict]}
                </td>
                <td className="px-2">
                  <button
                    type="button"
                    disabled={p.current}
                    onClick={() => onApply(p)}
                    className={
                      'rounded px-2 py-0.5 text-blue-800 underline disabled:text-gray-600 disabled:no-underline ' +
                      'dark:text-blue-300 dark:disabled:text-gray-400'
                    }
                  >
                    Apply<span className="sr-only"> {p.valueLabel}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

export function curveSummary(knobLabel: string, points: readonly TradeoffPoint[], costUnit: CostUnit, banded = false): string {
  const fit = points.filter((p) => p.fits);
  const fastest = fit.reduce<TradeoffPoint | null>((a, p) => (a === null || p.tokensPerSecond > a.tokensPerSecond ? p : a), null);
  const cheapest = fit.reduce<TradeoffPoint | null>((a, p) => (a === null || COST[costUnit].of(p) < COST[costUnit].of(a) ? p : a), null);
  const parts = [
    `${knobLabel} from ${points[0]?.valueLabel ?? ''} to ${points[points.length - 1]?.valueLabel ?? ''}: ${fit.length} of ${points.length} values fit.`,
  ];
  if (fastest) parts.push(`Fastest that fits: ${fastest.valueLabel} at ${formatTokensPerSecond(fastest.tokensPerSecond)}.`);
  if (cheapest)
    parts.push(
      `${costUnit === 'usd' ? 'Cheapest' : 'Quickest'} that fits: ${cheapest.valueLabel} at ` +
        `${costUnit === 'usd' ? formatUsd(cheapest.usd) : formatDays(cheapest.days)}.`,
    );
  const current = points.find((p) => p.current);
  if (banded && current?.range) parts.push(`At ${current.valueLabel} the simulated runs end in ${rangeText(current, costUnit)}.`);
  return parts.join(' ');
}

// Memoized: the panel redraws its controls when a knob is picked, and the curves only when their answer comes.
export default memo(function TradeoffChart({
  knobLabel,
  points,
  costUnit,
  banded = false,
  onApply,
}: {
  knobLabel: string;
  points: readonly TradeoffPoint[];
  costUnit: CostUnit;
  banded?: boolean;
  onApply: (p: TradeoffPoint) => void;
}) {
  // A band only where the engine simulated every point's end.
  const band = banded && points.length > 0 && points.every((p) => p.range !== null);
  // A chain: each chart takes the points a stagger after the chart above it has drawn them, so that no two redraws (nor the
  // store notifications recharts sends in the frame after each) share a task, even when a busy main thread fires timers late.
  const speed = useStaggeredValue(points, 0);
  const memory = useStaggeredValue(speed, CHART_STAGGER_MS);
  const cost = useStaggeredValue(memory, CHART_STAGGER_MS);
  const shown = [speed, memory, cost] as const;
  return (
    <figure>
      <div
        data-testid="tradeoff-chart"
        data-points={points.length}
        data-banded={band ? 'true' : undefined}
        role="img"
        aria-label={curveSummary(knobLabel, points, costUnit, band)}
        className="flex flex-col gap-1"
      >
        {[SPEED, MEMORY, band ? BANDED_COST[costUnit] : COST[costUnit]].map((series, order) => (
          <SmallChart key={series.id} series={series} points={shown[order] ?? null} onApply={onApply} />
        ))}
      </div>
      <p className="mt-1 flex flex-wrap gap-x-4 text-xs text-gray-700 dark:text-gray-300">
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-3 w-3 rounded-full border-2 border-current align-middle" />
          current value
        </span>
        <span>
          <span
            aria-hidden="true"
            className="mr-1 inline-block h-3 w-3 align-middle"
            style={{ backgroundColor: OOM_COLOR, opacity: 0.5 }}
          />
          does not fit
        </span>
        {band && (
          <span>
            <span
              aria-hidden="true"
              className="mr-1 inline-block h-3 w-3 align-middle"
              style={{ backgroundColor: COST[costUnit].color, opacity: 0.3 }}
            />
            p10–p90 of the simulated runs
          </span>
        )}
        <span>{knobLabel} on the horizontal axis; click a point to apply it</span>
      </p>
      <TradeoffTable points={points} banded={band} onApply={onApply} />
    </figure>
  );
});

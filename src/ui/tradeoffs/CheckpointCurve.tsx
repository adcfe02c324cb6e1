// Goodput against the checkpoint interval, from a few minutes to a day, on a log axis:
// Daly's expected wall time for the user's GPU MTBF, cluster size and checkpoint write
// time (reliability.ts), with Young's optimum √(2δM) marked and the run's own interval
// beside it when it is set. Below, the days to the end at each interval as the engine
// simulated them (reliability.completion): the median run with its p10–p90 band, with
// Young/Daly's interval and the one whose median ends soonest both marked (the goodput curve
// above is Daly's expectation, so it marks Young/Daly's alone). Clicking a point sets the interval.

import { Area, CartesianGrid, ComposedChart, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { memo, useMemo, type ReactNode } from 'react';
import { formatDays, formatMinutes, formatNumber, formatPercent, formatSeconds } from '../format.ts';
import { TOOLTIP_STYLES, plainTick } from '../charts/chartParts.tsx';
import { STILL_LINE, StillReferenceLine } from '../charts/stillParts.tsx';
import { CHART_STAGGER_MS, bestGoodput, type TradeoffPoint } from './points.ts';
import { SECONDS_PER_HOUR } from '../../model/input/index.ts';
import { useStaggeredValue } from '../useSettledValue.ts';

const COLOR = '#0072b2';
const OPTIMUM_COLOR = '#009e73';
/** The interval chosen against the distribution (Okabe–Ito vermillion, apart from Young's green). */
const MEDIAN_COLOR = '#d55e00';
const TICKS_MINUTES = [2, 5, 15, 60, 240, 1440];

/** A chart's margins and size: constants, so that a redraw with new points passes recharts the same objects. */
interface Frame {
  readonly margin: { readonly top: number; readonly right: number; readonly bottom: number; readonly left: number };
  readonly style: { readonly width: '100%'; readonly height: number };
}
const GOODPUT_FRAME: Frame = { margin: { top: 20, right: 24, bottom: 16, left: 8 }, style: { width: '100%', height: 200 } };
const DAYS_FRAME: Frame = { margin: { top: 8, right: 24, bottom: 4, left: 8 }, style: { width: '100%', height: 140 } };

/** The props both charts share: their points, margins, as wide as the panel and `height` px tall, without recharts' keyboard layer. */
function chartFrame(data: readonly TradeoffPoint[], frame: Frame) {
  return { responsive: true, accessibilityLayer: false, data: data as TradeoffPoint[], ...frame };
}

/** The axis both curves share: minutes between checkpoints on a log scale, ticked at TICKS_MINUTES. */
const MINUTES_AXIS = {
  dataKey: (p: TradeoffPoint) => p.value as number,
  type: 'number',
  scale: 'log',
  domain: ['dataMin', 'dataMax'],
  ticks: TICKS_MINUTES,
  interval: 0,
  tick: plainTick,
  tickFormatter: (v: number) => formatMinutes(v),
  stroke: 'currentColor',
} as const;

interface Props {
  readonly points: readonly TradeoffPoint[];
  readonly optimumMinutes: number;
  /** The interval the run is set to, or null when it checkpoints at the optimum. */
  readonly chosenMinutes: number | null;
  readonly writeSeconds: number | null;
  readonly clusterMtbfHours: number | null;
  /** The interval whose simulated runs end soonest at the median (reliability.completion.p50OptimalInterval), or null. */
  readonly medianBest: { readonly minutes: number; readonly days: readonly [number, number, number] } | null;
  readonly onApply: (p: TradeoffPoint) => void;
}

function GoodputTooltip({ active, payload }: { active?: boolean; payload?: ReadonlyArray<{ payload?: unknown }> }): ReactNode {
  const p = payload?.[0]?.payload as TradeoffPoint | undefined;
  if (!active || !p) return null;
  return (
    <div style={TOOLTIP_STYLES.contentStyle} className="px-2 py-1">
      <p style={TOOLTIP_STYLES.labelStyle}>Every {p.valueLabel}</p>
      <p>
        Goodput {formatPercent(p.goodput)} · {formatDays(p.days)}
      </p>
      <p>Click to checkpoint at this interval</p>
    </div>
  );
}

interface DotProps {
  readonly cx?: number;
  readonly cy?: number;
  readonly index?: number;
  readonly payload?: TradeoffPoint;
}

const GOODPUT_TOOLTIP = <GoodputTooltip />;
const MINUTES_LABEL = {
  value: 'Minutes between checkpoints (log scale)',
  position: 'insideBottom',
  offset: -10,
  fill: 'currentColor',
  fontSize: 12,
} as const;
const YOURS_LABEL = { value: 'yours', position: 'insideBottomLeft', fill: 'currentColor', fontSize: 12 } as const;
const percentTick = (v: number) => formatPercent(v);
const numberTick = (v: number) => formatNumber(v);
const bandDays = (p: TradeoffPoint) => [p.range?.days[0] ?? 0, p.range?.days[2] ?? 0];
const medianDays = (p: TradeoffPoint) => p.range?.days[1] ?? 0;

/** The goodput curve's dots, each a target that checkpoints at its interval; the point comes with the dot (recharts' payload). */
function intervalDot(optimumMinutes: number, onApply: (p: TradeoffPoint) => void) {
  return function IntervalDot(props: DotProps) {
    const p = props.payload;
    if (!p || props.cx === undefined || props.cy === undefined) return <g key={`none-${props.index ?? 0}`} />;
    return (
      <g key={p.index} style={{ cursor: 'pointer' }} onClick={() => onApply(p)} data-testid="checkpoint-point" data-value={String(p.value)}>
        <circle cx={props.cx} cy={props.cy} r={10} fill="transparent" />
        <circle
          cx={props.cx}
          cy={props.cy}
          r={p.value === optimumMinutes ? 5.5 : 3.5}
          fill={p.value === optimumMinutes ? OPTIMUM_COLOR : COLOR}
          stroke="#ffffff"
        />
      </g>
    );
  };
}

/** After the three charts of the knob's curve (TradeoffChart's chain of staggers, each after the chart above has drawn), in a task of its own. */
const CURVE_DELAY_MS = 5 * CHART_STAGGER_MS;

export default function CheckpointCurve(props: Props) {
  const shown = useStaggeredValue(props, CURVE_DELAY_MS);
  if (!shown) return <div style={{ height: 260 }} />;
  return <CheckpointCurveNow {...shown} />;
}

// Memoized: until its turn comes, the curve keeps its drawing without redrawing it.
const CheckpointCurveNow = memo(function CheckpointCurveNow({
  points,
  optimumMinutes,
  chosenMinutes,
  writeSeconds,
  clusterMtbfHours,
  medianBest,
  onApply,
}: Props) {
  const best = bestGoodput(points);
  const optimum = points.find((p) => p.value === optimumMinutes);
  const low = Math.min(...points.map((p) => p.goodput));
  // Stable parts (stillParts.tsx): recharts re-registers a part whose props change, and runs every selector again.
  const dot = useMemo(() => intervalDot(optimumMinutes, onApply), [optimumMinutes, onApply]);
  const optimumLabel = useMemo(
    () => ({ value: `optimum ${formatMinutes(optimumMinutes)}`, position: 'top', fill: 'currentColor', fontSize: 12 }) as const,
    [optimumMinutes],
  );
  const summary =
    `Goodput against the checkpoint interval from ${formatMinutes(points[0]?.value as number)} to ` +
    `${formatMinutes(points[points.length - 1]?.value as number)}. ` +
    `Young/Daly optimum: every ${formatMinutes(optimumMinutes)}, goodput ${formatPercent(optimum?.goodput ?? 0)}; ` +
    `highest on the curve: every ${best?.valueLabel ?? ''}.`;
  return (
    <figure>
      <div
        data-testid="checkpoint-curve"
        data-optimum-minutes={optimumMinutes}
        role="img"
        aria-label={summary}
        className="text-gray-700 dark:text-gray-300"
      >
        <LineChart {...chartFrame(points, GOODPUT_FRAME)}>
          <CartesianGrid stroke="currentColor" strokeOpacity={0.15} vertical={false} />
          <XAxis {...MINUTES_AXIS} label={MINUTES_LABEL} />
          <YAxis
            width={56}
            domain={[Math.max(0, Math.floor(low * 20) / 20), 1]}
            tick={plainTick}
            interval={0}
            tickCount={4}
            tickFormatter={percentTick}
            stroke="currentColor"
          />
          <StillReferenceLine x={optimumMinutes} stroke={OPTIMUM_COLOR} strokeWidth={2} strokeDasharray="5 3" label={optimumLabel} />
          {chosenMinutes !== null && chosenMinutes !== optimumMinutes && (
            <StillReferenceLine x={chosenMinutes} stroke="currentColor" strokeDasharray="2 2" label={YOURS_LABEL} />
          )}
          <Tooltip content={GOODPUT_TOOLTIP} isAnimationActive={false} />
          <Line dataKey="goodput" stroke={COLOR} dot={dot} {...STILL_LINE} />
        </LineChart>
      </div>
      <EndDaysCurve points={points} optimumMinutes={optimumMinutes} medianBest={medianBest} />
      <figcaption className="mt-1 text-sm text-gray-700 dark:text-gray-300">
        <span data-testid="checkpoint-optimum">Young/Daly optimum: every {formatMinutes(optimumMinutes)}</span>
        {writeSeconds !== null && clusterMtbfHours !== null && (
          <>
            {' '}
            = √(2 × {formatSeconds(writeSeconds)} to write × {formatSeconds(clusterMtbfHours * SECONDS_PER_HOUR)} between failures of the
            whole cluster)
          </>
        )}
        , goodput {formatPercent(optimum?.goodput ?? 0)}.
        {chosenMinutes !== null && chosenMinutes !== optimumMinutes && <> This run checkpoints every {formatMinutes(chosenMinutes)}.</>}
        {medianBest && (
          <span data-testid="checkpoint-median-best" className="block">
            Against the distribution: every {formatMinutes(medianBest.minutes)}, the median simulated run ends in{' '}
            {formatDays(medianBest.days[1])} (p10 {formatDays(medianBest.days[0])}, p90 {formatDays(medianBest.days[2])}).
          </span>
        )}
      </figcaption>
    </figure>
  );
});

/** The interval chosen against the distribution, as a vertical mark (labelled below the axis' top, apart from Young's). */
function MedianMark({ minutes, optimumMinutes }: { minutes: number; optimumMinutes: number }) {
  const label = useMemo(
    () =>
      ({
        value: minutes === optimumMinutes ? 'median best: same' : `median best ${formatMinutes(minutes)}`,
        position: 'insideTopRight',
        fill: 'currentColor',
        fontSize: 12,
      }) as const,
    [minutes, optimumMinutes],
  );
  return (
    <StillReferenceLine x={minutes} stroke={MEDIAN_COLOR} strokeWidth={2} strokeDasharray="1 3" ifOverflow="extendDomain" label={label} />
  );
}

/** Days to the end at each interval: the median simulated run, its p10–p90 band, both optimum marks. */
type EndDaysProps = Pick<Props, 'points' | 'optimumMinutes' | 'medianBest'>;

/** The second chart draws in a task of its own, one stagger after the goodput curve (main-thread budget, e2e @timing). */
function EndDaysCurve(props: EndDaysProps) {
  const shown = useStaggeredValue(props, CHART_STAGGER_MS);
  return shown ? <EndDaysCurveNow {...shown} /> : <div style={{ minHeight: 160 }} />;
}

const EndDaysCurveNow = memo(function EndDaysCurveNow({ points, optimumMinutes, medianBest }: EndDaysProps) {
  // The same array for the same points: recharts redraws the whole chart for new data.
  const ranged = useMemo(() => points.filter((p) => p.range !== null), [points]);
  if (ranged.length === 0) return null;
  const low = Math.min(...ranged.map((p) => p.range?.days[0] ?? Infinity));
  const high = Math.max(...ranged.map((p) => p.range?.days[2] ?? 0));
  const first = ranged[0];
  const last = ranged[ranged.length - 1];
  const summary =
    `Days to the end against the checkpoint interval, the median of the simulated runs with their p10–p90 band: ` +
    `${first?.valueLabel ?? ''}: ${formatDays(first?.range?.days[1] ?? 0)}; ${last?.valueLabel ?? ''}: ${formatDays(last?.range?.days[1] ?? 0)}. ` +
    `Young/Daly optimum every ${formatMinutes(optimumMinutes)}` +
    (medianBest ? `; the median ends soonest every ${formatMinutes(medianBest.minutes)}, in ${formatDays(medianBest.days[1])}.` : '.');
  return (
    <div
      data-testid="checkpoint-days-curve"
      data-median-best-minutes={medianBest?.minutes}
      role="img"
      aria-label={summary}
      className="mt-2 text-gray-700 dark:text-gray-300"
    >
      <p className="text-xs font-medium">Days to the end: median simulated run, p10–p90 band</p>
      <ComposedChart {...chartFrame(ranged, DAYS_FRAME)}>
        <CartesianGrid stroke="currentColor" strokeOpacity={0.15} vertical={false} />
        <XAxis {...MINUTES_AXIS} />
        <YAxis
          width={56}
          domain={[Math.floor(low * 0.98), Math.ceil(high * 1.02)]}
          tick={plainTick}
          tickCount={3}
          tickFormatter={numberTick}
          stroke="currentColor"
        />
        <StillReferenceLine x={optimumMinutes} stroke={OPTIMUM_COLOR} strokeWidth={2} strokeDasharray="5 3" />
        {medianBest && <MedianMark minutes={medianBest.minutes} optimumMinutes={optimumMinutes} />}
        <Area dataKey={bandDays} stroke="none" fill={COLOR} fillOpacity={0.2} isAnimationActive={false} activeDot={false} />
        <Line dataKey={medianDays} stroke={COLOR} dot={false} {...STILL_LINE} />
      </ComposedChart>
    </div>
  );
});

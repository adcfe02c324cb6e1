// The simulated pipeline schedule as a Gantt chart: one row per stage, time to the
// right, one <rect data-kind> per forward (F), backward (B) or weight-gradient (W) block.
// Bubbles are the empty stretches of a row. Plain SVG, computed once per timeline:
// recharts has no Gantt chart, and 20,000 blocks need no per-block components. With many
// micro-batches it opens on the first ones at full size (readableWindow), with a button
// for the whole step; the time axis ticks on seconds, minutes, hours (timeTicks.ts).

import { useId, useMemo, useState } from 'react';
import type { BlockKind, EstimateOutput, Timeline } from '../../model/input/index.ts';
import { formatNumber, formatPercent, formatSeconds } from '../format.ts';

/** Stages and micro-batches are counted from 1 on the page, as the formula views count them ("pipeline stage 3 of 4"). */
export const stageLabel = (stage: number): string => `Stage ${stage + 1}`;
import { ChartLegend, ChartTable, RowHead, ChartUnavailable } from './chartParts.tsx';
import type { LegendItem } from './chartParts.tsx';
import { chartGeometry, clampWindowStart, readableWindow, stageStats, timelineSpan, useElementWidth } from './pipelineLayout.ts';
import { TimelineWindow } from './TimelineWindow.tsx';
import { timeAxisFormatter, windowTicks } from './timeTicks.ts';
import type { ChartGeometry, StageStats } from './pipelineLayout.ts';

interface Shade {
  readonly fill: string;
  readonly text: string;
  readonly stroke?: string;
}

/** Even chunks in the Okabe–Ito color, odd chunks (interleaving, DualPipe's reverse direction) lighter and outlined. */
const SHADES: Readonly<Record<BlockKind, readonly [Shade, Shade]>> = {
  F: [
    { fill: '#0072b2', text: '#ffffff' },
    { fill: '#56b4e9', text: '#000000', stroke: '#0072b2' },
  ],
  B: [
    { fill: '#d55e00', text: '#000000' },
    { fill: '#f0a35e', text: '#000000', stroke: '#d55e00' },
  ],
  W: [
    { fill: '#009e73', text: '#000000' },
    { fill: '#66c2a5', text: '#000000', stroke: '#009e73' },
  ],
};
const KIND_LABELS: Readonly<Record<BlockKind, string>> = { F: 'Forward', B: 'Backward', W: 'Weight gradients' };
const KINDS: readonly BlockKind[] = ['F', 'B', 'W'];
const LABEL_FONT = 10;

/**
 * The blocks as SVG markup. A string, not 20,000 React elements: the browser parses
 * it in a few milliseconds and React reconciles one node. Every value in it is a
 * number or one of the constants above, so nothing user-typed reaches the markup.
 */
function blockMarkup(timeline: Timeline, g: ChartGeometry): string {
  const rects: string[] = [];
  const labels: string[] = [];
  const labelRows = g.rowHeight >= LABEL_FONT + 4;
  const height = g.rowHeight - g.rowGap;
  for (const block of timeline.blocks) {
    const shades = SHADES[block.kind] as readonly [Shade, Shade] | undefined;
    if (!shades || !Number.isFinite(block.startSeconds) || !Number.isFinite(block.endSeconds)) continue;
    const shade = shades[Math.trunc(block.chunk) % 2 === 0 ? 0 : 1];
    const x = g.x(block.startSeconds);
    const width = Math.max(0.6, g.x(block.endSeconds) - x);
    const y = g.rowTop(Math.trunc(block.stage)) + g.rowGap / 2;
    const outline = shade.stroke ? ` stroke="${shade.stroke}" stroke-width="0.75"` : '';
    rects.push(
      `<rect data-kind="${block.kind}" x="${x.toFixed(2)}" y="${y}" width="${width.toFixed(2)}" height="${height}" fill="${shade.fill}"${outline}/>`,
    );
    const text = String(Math.trunc(block.microBatch) + 1);
    if (labelRows && width >= 6 + 6 * text.length && x >= g.left - 0.5 && x + width <= g.left + g.plotWidth + 0.5) {
      labels.push(
        `<text x="${(x + width / 2).toFixed(2)}" y="${y + height / 2}" fill="${shade.text}" font-size="${LABEL_FONT}" ` +
          `text-anchor="middle" dominant-baseline="central">${text}</text>`,
      );
    }
  }
  return rects.join('') + labels.join('');
}

function Axes({ timeline, g, origin }: { timeline: Timeline; g: ChartGeometry; origin: number }) {
  const labelEvery = Math.max(1, Math.ceil(12 / g.rowHeight));
  const rows = Array.from({ length: timeline.stages }, (_, stage) => stage);
  const axisY = g.plotBottom;
  const ticks = windowTicks(origin, g.span, Math.max(2, Math.floor(g.plotWidth / 90)));
  const tickText = timeAxisFormatter(ticks[ticks.length - 1] ?? origin + g.span);
  return (
    <g fill="currentColor" fontSize={11}>
      {rows.map((stage) => (
        <rect
          key={`lane${stage}`}
          x={g.left}
          y={g.rowTop(stage)}
          width={g.plotWidth}
          height={g.rowHeight}
          fill="currentColor"
          fillOpacity={stage % 2 === 0 ? 0.06 : 0.03}
        />
      ))}
      {rows
        .filter((stage) => stage % labelEvery === 0)
        .map((stage) => (
          <text key={`s${stage}`} x={g.left - 6} y={g.rowTop(stage) + g.rowHeight / 2} textAnchor="end" dominantBaseline="central">
            {stageLabel(stage)}
          </text>
        ))}
      <line x1={g.left} x2={g.left + g.plotWidth} y1={axisY} y2={axisY} stroke="currentColor" />
      {ticks.map((t) => (
        <g key={`x${t}`}>
          <line x1={g.x(t)} x2={g.x(t)} y1={axisY} y2={axisY + 4} stroke="currentColor" />
          <text x={g.x(t)} y={axisY + 16} textAnchor="middle">
            {tickText(t)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** The one bubble figure (throughput.bubbleFraction, the card's), in words. */
function bubbleText(bubbleFraction: number | null): string {
  return bubbleFraction === null ? '' : `; pipeline bubble ${formatPercent(bubbleFraction)} of the step`;
}

function summary(timeline: Timeline, stats: readonly StageStats[], bubbleFraction: number | null): string {
  const counts = KINDS.map((k) => [k, stats.reduce((n, s) => n + s.blocks[k], 0)] as const).filter(([, n]) => n > 0);
  const countText = counts.map(([k, n]) => `${KIND_LABELS[k].toLowerCase()} ${n}`).join(', ');
  return (
    `Pipeline schedule: ${timeline.stages} stages, ${timeline.microBatches} micro-batches, ` +
    `${timeline.blocks.length} blocks (${countText}) over ${formatSeconds(timeline.makespanSeconds)}${bubbleText(bubbleFraction)}.`
  );
}

function StageTable({ stats }: { stats: readonly StageStats[] }) {
  return (
    <ChartTable
      summary="Busy and idle time per stage as a table"
      label="Busy and idle time per stage"
      columns={[{ words: 'Stage' }, 'Busy', 'Idle', 'Idle share of the schedule', ...KINDS.map((k) => `${KIND_LABELS[k]} blocks`)]}
    >
      {stats.map((s) => (
        <tr key={s.stage}>
          <RowHead>{stageLabel(s.stage)}</RowHead>
          <td className="px-2">{formatSeconds(s.busySeconds)}</td>
          <td className="px-2">{formatSeconds(s.idleSeconds)}</td>
          <td className="px-2">{formatPercent(s.idleFraction)}</td>
          {KINDS.map((k) => (
            <td key={k} className="px-2">
              {formatNumber(s.blocks[k])}
            </td>
          ))}
        </tr>
      ))}
    </ChartTable>
  );
}

function legendItems(stats: readonly StageStats[], hasOddChunks: boolean): LegendItem[] {
  const present = KINDS.filter((k) => stats.some((s) => s.blocks[k] > 0));
  const items: LegendItem[] = present.map((k) => ({ key: k, label: `${k}: ${KIND_LABELS[k]}`, color: SHADES[k][0].fill }));
  if (hasOddChunks) items.push({ key: 'odd', label: 'Lighter: odd chunk or reverse direction', color: SHADES.F[1].fill });
  return items;
}

/** What the step time adds after the drawn schedule: the exposed data-parallel sync and the optimizer step (the engine's breakdown). */
interface AfterSchedule {
  readonly stepSeconds: number;
  readonly dpSeconds: number;
  readonly optimizerSeconds: number;
}

/** The strip's step time against the drawn schedule, so the two numbers never disagree without a word (issue 22, item 11). */
function afterText(a: AfterSchedule): string {
  return (
    `The step time (${formatSeconds(a.stepSeconds)}) adds what comes after this timeline: the optimizer step ` +
    `(${formatSeconds(a.optimizerSeconds)}) and the exposed data-parallel gradient sync (${formatSeconds(a.dpSeconds)}).`
  );
}

function TimelineChart({
  timeline,
  bubbleFraction,
  after,
}: {
  timeline: Timeline;
  bubbleFraction: number | null;
  after: AfterSchedule | null;
}) {
  const [containerRef, width] = useElementWidth<HTMLDivElement>(960);
  const [wholeStep, setWholeStep] = useState(false);
  const [start, setStart] = useState(0);
  // An id that is a plain XML name, so the exported SVG (PNG export) reads it too.
  const clipId = `pipeline-plot-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const span = timelineSpan(timeline);
  const full = useMemo(() => chartGeometry(timeline.stages, span, width), [timeline.stages, span, width]);
  const readable = useMemo(() => readableWindow(timeline, span, full.plotWidth), [timeline, span, full.plotWidth]);
  // Zoomed only where the whole step would shrink its blocks below a readable width.
  const zoomable = readable < span * 0.98;
  const shown = zoomable && !wholeStep ? readable : span;
  // Kept inside the step when the step or the window shrinks (a new configuration, a narrower window).
  const origin = shown < span ? clampWindowStart(start, span, shown) : 0;
  const g = useMemo(() => chartGeometry(timeline.stages, shown, width, origin), [timeline.stages, shown, width, origin]);
  const blocks = useMemo(() => ({ __html: blockMarkup(timeline, g) }), [timeline, g]);
  const stats = useMemo(() => stageStats(timeline, span), [timeline, span]);
  const hasOddChunks = useMemo(() => timeline.blocks.some((b) => b.chunk % 2 === 1), [timeline]);
  return (
    <figure className="flex flex-col">
      {zoomable && (
        <TimelineWindow
          start={origin}
          window={readable}
          span={span}
          microBatches={timeline.microBatches}
          wholeStep={wholeStep}
          onStart={setStart}
          onWholeStep={setWholeStep}
        />
      )}
      <div
        ref={containerRef}
        data-testid="pipeline-chart"
        data-chart-title="Pipeline schedule (stages × time)"
        role="img"
        data-window-seconds={shown}
        data-window-start={origin}
        aria-label={summary(timeline, stats, bubbleFraction)}
        className="text-gray-700 dark:text-gray-300"
      >
        <svg
          xmlns="http://www.w3.org/2000/svg"
          width={g.width}
          height={g.height}
          viewBox={`0 0 ${g.width} ${g.height}`}
          className="block max-w-full"
          fontFamily="system-ui, sans-serif"
        >
          <defs>
            <clipPath id={clipId}>
              <rect x={g.left} y={0} width={g.plotWidth} height={g.plotBottom} />
            </clipPath>
          </defs>
          <Axes timeline={timeline} g={g} origin={origin} />
          <g clipPath={`url(#${clipId})`} dangerouslySetInnerHTML={blocks} />
        </svg>
        <ChartLegend items={legendItems(stats, hasOddChunks)} />
      </div>
      <figcaption className="mt-1 text-sm text-gray-700 dark:text-gray-300">
        Pipeline schedule over one step ({formatSeconds(timeline.makespanSeconds)})
        {bubbleFraction !== null && <>: pipeline bubble {formatPercent(bubbleFraction)} of the step, as on the Pipeline bubble figure</>}.
        Empty stretches are idle time; numbers are micro-batches, from 1.
        {after && (
          <>
            {' '}
            <span data-testid="pipeline-after">{afterText(after)}</span>
          </>
        )}
      </figcaption>
      <StageTable stats={stats} />
    </figure>
  );
}

export default function PipelineChart(props: { output: EstimateOutput }) {
  const { timeline } = props.output;
  if (!timeline) return <ChartUnavailable>Pipeline timeline not shown: schedule not simulated.</ChartUnavailable>;
  if (timeline.blocks.length === 0 || !(timelineSpan(timeline) > 0)) {
    return <ChartUnavailable>Pipeline timeline not shown: the simulated schedule is empty.</ChartUnavailable>;
  }
  const t = props.output.throughput;
  const after = t ? { stepSeconds: t.stepSeconds, dpSeconds: t.breakdown.dp, optimizerSeconds: t.breakdown.optimizer } : null;
  return <TimelineChart timeline={timeline} bubbleFraction={t?.bubbleFraction ?? null} after={after} />;
}

// Per-GPU memory of every pipeline stage as stacked bars (GiB), each bar the stage's
// device-used bytes, the one figure the fit is judged on (model/memory/fit.ts): the
// allocated parts, then the allocator's reserve and what the runtime (CUDA context, NCCL,
// cuBLAS) holds outside the allocator, as their own segments. The GPU's capacity is a
// reference line with the band above it shaded: a bar reaching into the band does not fit,
// as the verdict says. A <details> table repeats the numbers for screen readers.

import { memo, useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { BarShapeProps } from 'recharts';
import type { EstimateOutput } from '../../model/input/index.ts';
import { allocatedParts, fitMemoryBytes, stageFitLayers } from '../../model/memory/index.ts';
import { formatGiB, formatNumber } from '../format.ts';
import {
  ChartLegend,
  barRect,
  ChartTable,
  RowHead,
  ChartUnavailable,
  OOM_COLOR,
  TOOLTIP_STYLES,
  niceCeiling,
  plainTick,
} from './chartParts.tsx';
import { GiB } from '../../model/input/index.ts';
import { StillReferenceArea, StillReferenceLine } from './stillParts.tsx';
import { DEVICE_LAYERS, MEMORY_LAYER_COLORS, MEMORY_LAYER_LABELS, type MemoryLayer } from './memoryLayers.ts';

/** `stage` counts from 1, as the pipeline timeline's rows and the formula view ("pipeline stage 3 of 4") do. */
type StageRow = Record<MemoryLayer, number> & { readonly stage: number; readonly totalGiB: number; readonly oom: boolean };

/** GiB per layer of each stage, read off the model's layers (stageFitLayers): the bar's height is the stage's fit figure. */
function stageRows(output: EstimateOutput): StageRow[] {
  const { capacity } = output.memory;
  return stageFitLayers(output).map((l) => {
    const s = l.allocated;
    return {
      stage: l.stage,
      frozen: (s.frozen ?? 0) / GiB,
      parameters: s.parameters / GiB,
      gradients: s.gradients / GiB,
      optimizer: s.optimizer / GiB,
      activations: s.activations / GiB,
      other: s.other / GiB,
      reserve: l.allocatorReserve / GiB,
      runtime: l.runtime / GiB,
      totalGiB: l.deviceUsed / GiB,
      oom: l.deviceUsed > capacity,
    };
  });
}

function summary(output: EstimateOutput, oomStages: number): string {
  const { stages, perGpu, reserved, capacity } = output.memory;
  const fitText = oomStages === 0 ? 'every stage fits' : `${oomStages} of ${stages.length} stages exceed it`;
  const frozen = perGpu.frozen !== undefined ? `frozen weights (${formatGiB(perGpu.frozen)} on the most loaded GPU), trainable ` : '';
  return (
    `Memory per GPU for ${stages.length} pipeline stages, stacked by ${frozen}parameters, gradients, optimizer state, ` +
    `activations and other (allocated), the allocator's reserve, and the CUDA context, NCCL buffers and cuBLAS workspaces outside the allocator. ` +
    `Most loaded: ${formatGiB(fitMemoryBytes(output))} per GPU on the device (of which ${formatGiB(reserved)} reserved by the ` +
    `allocator, ${formatGiB(perGpu.total)} allocated), ` +
    `of ${formatGiB(capacity)} capacity; ${fitText}.`
  );
}

function MemoryTable({ rows, parts }: { rows: readonly StageRow[]; parts: readonly MemoryLayer[] }) {
  return (
    <ChartTable
      summary="Memory per stage as a table (GiB)"
      label="Memory per stage"
      columns={[{ words: 'Stage' }, ...parts.map((part) => MEMORY_LAYER_LABELS[part]), 'Total on the device', { words: 'Fits' }]}
    >
      {rows.map((row) => (
        <tr key={row.stage}>
          <RowHead>{row.stage}</RowHead>
          {parts.map((part) => (
            <td key={part} className="px-2">
              {formatNumber(row[part])}
            </td>
          ))}
          <td className="px-2 font-medium">{formatNumber(row.totalGiB)}</td>
          <td className="px-2 text-left">{row.oom ? 'no: out of memory' : 'yes'}</td>
        </tr>
      ))}
    </ChartTable>
  );
}

/** The GPU's capacity as a dashed line labelled with it: memoized, a redraw at the same capacity leaves it registered (stillParts.tsx). */
const CapacityLine = memo(function CapacityLine({ capacity }: { capacity: number }) {
  const label = useMemo(() => ({ value: formatGiB(capacity), position: 'right', fill: 'currentColor', fontSize: 12 }) as const, [capacity]);
  return (
    <StillReferenceLine
      y={capacity / GiB}
      stroke={OOM_COLOR}
      strokeDasharray="6 3"
      strokeWidth={1.5}
      ifOverflow="extendDomain"
      label={label}
    />
  );
});

/** `height` of the plot in pixels (320 by default); `compact` (the embed card) leaves out the table below it. */
export default function MemoryChart(props: { output: EstimateOutput; height?: number; compact?: boolean }) {
  const { output, height = 320, compact = false } = props;
  const { stages, capacity } = output.memory;
  if (stages.length === 0 || output.errors.length > 0) {
    const why = output.errors.length > 0 ? 'the configuration is invalid' : 'no pipeline stages computed';
    return <ChartUnavailable>Memory chart not shown: {why}.</ChartUnavailable>;
  }
  const rows = stageRows(output);
  const parts: readonly MemoryLayer[] = [...allocatedParts(stages), ...DEVICE_LAYERS];
  const capacityGiB = capacity / GiB;
  const axisTopGiB = niceCeiling(1.05 * rows.reduce((max, r) => Math.max(max, r.totalGiB), capacityGiB));
  const oomStages = rows.filter((r) => r.oom).length;
  // The tallest bar in bytes: the figure the strip and the verdict show (memory/fit.ts), for tests and tools to compare.
  const tallestBytes = stageFitLayers(output).reduce((most, l) => Math.max(most, l.deviceUsed), 0);
  const many = rows.length > 32;
  const tickInterval = Math.max(0, Math.ceil(rows.length / 16) - 1);
  const outlineOom = (shape: BarShapeProps) => {
    const oom = !many && (rows[shape.originalDataIndex]?.oom ?? false);
    return barRect(shape, { fill: shape.fill, stroke: oom ? OOM_COLOR : 'none', strokeWidth: oom ? 1.5 : 0 });
  };
  return (
    <figure className="flex flex-col">
      <div
        data-testid="memory-chart"
        data-chart-title="Memory per GPU by pipeline stage (GiB)"
        data-tallest-bytes={tallestBytes}
        role="img"
        aria-label={summary(output, oomStages)}
        className="text-gray-700 dark:text-gray-300"
      >
        <BarChart
          responsive
          accessibilityLayer={false}
          data={rows}
          barCategoryGap={many ? '5%' : '20%'}
          maxBarSize={72}
          margin={{ top: 16, right: 72, bottom: 16, left: 8 }}
          style={{ width: '100%', height }}
        >
          <CartesianGrid stroke="currentColor" strokeOpacity={0.15} vertical={false} />
          <XAxis
            dataKey="stage"
            interval={tickInterval}
            tick={plainTick}
            stroke="currentColor"
            label={{ value: 'Pipeline stage', position: 'insideBottom', offset: -8, fill: 'currentColor', fontSize: 12 }}
          />
          {/* interval 0: five round ticks never crowd, and recharts then skips measuring each label in the DOM (a forced layout of the page). */}
          <YAxis
            domain={[0, axisTopGiB]}
            interval={0}
            tick={plainTick}
            stroke="currentColor"
            tickFormatter={(v: number) => formatNumber(v)}
            label={{ value: 'GiB', angle: -90, position: 'insideLeft', fill: 'currentColor', fontSize: 12 }}
          />
          {oomStages > 0 && (
            <StillReferenceArea y1={capacityGiB} y2={axisTopGiB} fill={OOM_COLOR} fillOpacity={0.12} ifOverflow="extendDomain" />
          )}
          <Tooltip
            {...TOOLTIP_STYLES}
            formatter={(v) => (typeof v === 'number' ? formatNumber(v) + ' GiB' : String(v))}
            labelFormatter={(stage) => `Stage ${String(stage)}`}
          />
          {parts.map((part) => (
            <Bar
              key={part}
              dataKey={part}
              name={MEMORY_LAYER_LABELS[part]}
              stackId="memory"
              fill={MEMORY_LAYER_COLORS[part]}
              isAnimationActive={false}
              shape={outlineOom}
            />
          ))}
          <CapacityLine capacity={capacity} />
        </BarChart>
        <ChartLegend
          items={parts.map((part) => ({ key: part, label: MEMORY_LAYER_LABELS[part], color: MEMORY_LAYER_COLORS[part] }))}
          extra={{ label: 'GPU capacity', color: OOM_COLOR, dashed: true }}
        />
      </div>
      <figcaption className="mt-1 text-sm text-gray-700 dark:text-gray-300">
        Memory per GPU by pipeline stage.{' '}
        {oomStages > 0 ? (
          <strong className="text-red-700 dark:text-red-300">
            {oomStages} of {rows.length} stages do not fit in {formatGiB(capacity)}.
          </strong>
        ) : (
          `All stages fit in ${formatGiB(capacity)}: the most loaded holds ${formatGiB(fitMemoryBytes(output))} on the device.`
        )}
      </figcaption>
      {!compact && <MemoryTable rows={rows} parts={parts} />}
    </figure>
  );
}

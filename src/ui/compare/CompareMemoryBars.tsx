// The most loaded GPU of a pinned scenario and of the current configuration as two stacked bars on one scale, each with its
// GPU's capacity marked, so "which fits, and by how much" reads at a glance. The
// per-stage charts below keep their own axes; these bars are the like-for-like view.

import { MEMORY_PARTS, type EstimateOutput, type MemoryPart } from '../../model/input/index.ts';
import { ChartLegend, OOM_COLOR } from '../charts/chartParts.tsx';
import { formatGiB } from '../format.ts';

/** The memory chart's Okabe–Ito colors (charts/MemoryChart.tsx), so a part has one color everywhere. */
type Part = MemoryPart | 'frozen';
const MEMORY_COLORS: Readonly<Record<Part, string>> = {
  frozen: '#9c7a00', parameters: '#0072b2', gradients: '#d55e00', optimizer: '#009e73', activations: '#cc79a7', other: '#6b7280',
};
const MEMORY_LABELS: Readonly<Record<Part, string>> = {
  frozen: 'Frozen weights', parameters: 'Parameters', gradients: 'Gradients', optimizer: 'Optimizer state', activations: 'Activations', other: 'Other',
};

interface Row { readonly name: string; readonly output: EstimateOutput }

function rowText(output: EstimateOutput): string {
  const { perGpu, capacity } = output.memory;
  const fits = perGpu.total <= capacity;
  return `${formatGiB(perGpu.total)} of ${formatGiB(capacity)}${fits ? '' : ': out of memory'}`;
}

/** A fine-tune's frozen weights (training.adapter) first, when either configuration holds them. */
function partsOf(rows: readonly Row[]): readonly Part[] {
  return rows.some((r) => r.output.memory.perGpu.frozen !== undefined) ? ['frozen', ...MEMORY_PARTS] : MEMORY_PARTS;
}

function Bar({ row, scale, parts }: { row: Row; scale: number; parts: readonly Part[] }) {
  const { perGpu, capacity } = row.output.memory;
  const fits = perGpu.total <= capacity;
  return (
    <>
      <span className="font-medium">{row.name}</span>
      <div className="relative h-6 rounded-sm bg-gray-100 dark:bg-gray-800">
        <div className="flex h-full overflow-hidden rounded-sm">
          {parts.map((part) => (
            <div key={part} style={{ width: `${(100 * (perGpu[part] ?? 0)) / scale}%`, backgroundColor: MEMORY_COLORS[part] }} />
          ))}
        </div>
        <div aria-hidden="true" className="absolute -top-1 -bottom-1 border-l-2 border-dashed"
          style={{ left: `${(100 * capacity) / scale}%`, borderColor: OOM_COLOR }} />
      </div>
      <span className={`tabular-nums ${fits ? '' : 'font-semibold text-red-700 dark:text-red-300'}`}>{rowText(row.output)}</span>
    </>
  );
}

export function CompareMemoryBars({ pinned, current, pinnedName, currentName }: {
  pinned: EstimateOutput; current: EstimateOutput; pinnedName: string; currentName: string;
}) {
  const rows: Row[] = [{ name: pinnedName, output: pinned }, { name: currentName, output: current }];
  const scale = 1.05 * Math.max(...rows.flatMap((r) => [r.output.memory.perGpu.total, r.output.memory.capacity]), 1);
  const parts = partsOf(rows);
  const summary = `Memory of the most loaded GPU on one scale: ${pinnedName} ${rowText(pinned)}; ${currentName} ${rowText(current)}.`;
  return (
    <figure className="flex flex-col gap-1">
      <div role="img" aria-label={summary} data-testid="compare-memory-bars"
        className="grid grid-cols-[minmax(5.5rem,auto)_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-2 text-sm text-gray-800 dark:text-gray-200">
        {rows.map((row) => <Bar key={row.name} row={row} scale={scale} parts={parts} />)}
      </div>
      <div className="text-gray-700 dark:text-gray-300">
        <ChartLegend items={parts.map((part) => ({ key: part, label: MEMORY_LABELS[part], color: MEMORY_COLORS[part] }))}
          extra={{ label: 'GPU capacity', color: OOM_COLOR, dashed: true }} />
      </div>
      <figcaption className="text-sm text-gray-700 dark:text-gray-300">Memory per GPU, most loaded stage, the pinned scenario and the current configuration on the same scale.</figcaption>
    </figure>
  );
}

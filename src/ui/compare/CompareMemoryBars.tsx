// The most loaded GPU of a pinned scenario and of the current configuration as two stacked bars on one scale, each with its
// GPU's capacity marked, so "which fits, and by how much" reads at a glance. Each bar is
// the one memory figure the verdict judges (model/memory/fit.ts): the allocated parts, the
// allocator's reserve and the runtime outside it, as the memory chart stacks them. The
// per-stage charts below keep their own axes; these bars are the like-for-like view.

import type { EstimateOutput } from '../../model/input/index.ts';
import { allocatedParts, fitMemoryBytes, mostLoadedFitLayers, type StageFitLayers } from '../../model/memory/index.ts';
import { ChartLegend, OOM_COLOR } from '../charts/chartParts.tsx';
import { DEVICE_LAYERS, MEMORY_LAYER_COLORS, MEMORY_LAYER_LABELS, type MemoryLayer } from '../charts/memoryLayers.ts';
import { formatGiB } from '../format.ts';

interface Row {
  readonly name: string;
  readonly output: EstimateOutput;
}

function rowText(output: EstimateOutput): string {
  const { capacity } = output.memory;
  const used = fitMemoryBytes(output);
  return `${formatGiB(used)} of ${formatGiB(capacity)}${used <= capacity ? '' : ': out of memory'}`;
}

/** A fine-tune's frozen weights (training.adapter) first, when either configuration holds them; the reserve and runtime on top. */
function partsOf(rows: readonly Row[]): readonly MemoryLayer[] {
  return [...allocatedParts(rows.map((r) => r.output.memory.perGpu)), ...DEVICE_LAYERS];
}

function layerBytes(layers: StageFitLayers | null, part: MemoryLayer): number {
  if (!layers) return 0;
  if (part === 'reserve') return layers.allocatorReserve;
  if (part === 'runtime') return layers.runtime;
  return layers.allocated[part] ?? 0;
}

function Bar({ row, scale, parts }: { row: Row; scale: number; parts: readonly MemoryLayer[] }) {
  const { capacity } = row.output.memory;
  const fits = fitMemoryBytes(row.output) <= capacity;
  const layers = mostLoadedFitLayers(row.output);
  return (
    <>
      <span className="font-medium">{row.name}</span>
      <div className="relative h-6 rounded-sm bg-gray-100 dark:bg-gray-800">
        <div className="flex h-full overflow-hidden rounded-sm">
          {parts.map((part) => (
            <div key={part} style={{ width: `${(100 * layerBytes(layers, part)) / scale}%`, backgroundColor: MEMORY_LAYER_COLORS[part] }} />
          ))}
        </div>
        <div
          aria-hidden="true"
          className="absolute -top-1 -bottom-1 border-l-2 border-dashed"
          style={{ left: `${(100 * capacity) / scale}%`, borderColor: OOM_COLOR }}
        />
      </div>
      <span className={`tabular-nums ${fits ? '' : 'font-semibold text-red-700 dark:text-red-300'}`}>{rowText(row.output)}</span>
    </>
  );
}

export function CompareMemoryBars({
  pinned,
  current,
  pinnedName,
  currentName,
}: {
  pinned: EstimateOutput;
  current: EstimateOutput;
  pinnedName: string;
  currentName: string;
}) {
  const rows: Row[] = [
    { name: pinnedName, output: pinned },
    { name: currentName, output: current },
  ];
  const scale = 1.05 * Math.max(...rows.flatMap((r) => [fitMemoryBytes(r.output), r.output.memory.capacity]), 1);
  const parts = partsOf(rows);
  const summary = `Memory of the most loaded GPU on one scale, what the device holds: ${pinnedName} ${rowText(pinned)}; ${currentName} ${rowText(current)}.`;
  return (
    <figure className="flex flex-col gap-1">
      <div
        role="img"
        aria-label={summary}
        data-testid="compare-memory-bars"
        className="grid grid-cols-[minmax(5.5rem,auto)_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-2 text-sm text-gray-800 dark:text-gray-200"
      >
        {rows.map((row) => (
          <Bar key={row.name} row={row} scale={scale} parts={parts} />
        ))}
      </div>
      <div className="text-gray-700 dark:text-gray-300">
        <ChartLegend
          items={parts.map((part) => ({ key: part, label: MEMORY_LAYER_LABELS[part], color: MEMORY_LAYER_COLORS[part] }))}
          extra={{ label: 'GPU capacity', color: OOM_COLOR, dashed: true }}
        />
      </div>
      <figcaption className="text-sm text-gray-700 dark:text-gray-300">
        Memory per GPU, most loaded stage, the pinned scenario and the current configuration on the same scale.
      </figcaption>
    </figure>
  );
}

// The memory card's line for the host (memory.host): what offload keeps in one node's CPU
// memory against that memory, shown only when offload is on. The verdict above says when it
// does not fit (uncertainty/FigureUncertainty.tsx); this shows how close it is.

import type { EstimateOutput } from '../model/input/index.ts';
import { hostInUse, hostOverCapacity, hostUseWords } from './uncertainty/hostMemoryWords.ts';

export function HostMemoryUse({ output }: { output: EstimateOutput }) {
  const words = hostUseWords(output);
  if (!hostInUse(output) || !words) return null;
  const over = hostOverCapacity(output);
  const { perNode, capacity } = output.memory.host;
  const width = capacity > 0 ? Math.min(100, (100 * perNode) / capacity) : 100;
  return (
    <div
      data-testid="host-memory"
      data-fits={over ? 'false' : 'true'}
      className="mt-3 flex flex-col gap-1 text-sm text-gray-800 dark:text-gray-200"
    >
      <p>
        <span className="font-medium">CPU memory per node (offload): </span>
        <span data-testid="host-memory-use" className="tabular-nums">
          {words}
        </span>
        {over && <span className="font-semibold text-red-700 dark:text-red-300"> — does not fit</span>}
      </p>
      <div aria-hidden="true" className="h-2 w-full overflow-hidden rounded bg-gray-200 dark:bg-gray-800">
        <div
          className={`h-full ${over ? 'bg-red-700 dark:bg-red-400' : 'bg-green-700 dark:bg-green-400'}`}
          style={{ width: `${width}%` }}
        />
      </div>
    </div>
  );
}

// The answer at a glance, pinned at the top of the results from 700 px (below that, one
// column, the phone's strip pins above the controls instead: frame/PhoneStrip.tsx): the run it
// is for (model, GPUs, layout; its name a way to the run's frame), the way to the layout search, the memory verdict with its margin, then
// memory per GPU, step time, throughput, MFU,
// days and dollars for the token budget. These figures' data-testids live here only
// (the cards below repeat them with their range and explanation, without ids). While the input is invalid the strip keeps the
// last good figures, dimmed and marked data-stale="true"; a run that does not fit
// says so beside its speed and cost.

import type { Doc, EstimateOutput } from '../model/input/index.ts';
import { layoutWords } from './embed/embedCard.ts';
import { jumpToFrame, jumpToSearch } from './frame/jump.ts';
import { ExplainButton } from './explain/ExplainButton.tsx';
import { formatGiB } from './format.ts';
import { fitMemoryBytes } from '../model/memory/index.ts';
import { hostShortfallWords } from './uncertainty/hostMemoryWords.ts';
import { keyFigures, memoryCapacityNote, type KeyFigure } from './keyFigures.ts';
import { OomVerdictLine, StripRange, WhyThisRange } from './uncertainty/FigureUncertainty.tsx';
import { planTitle } from './ShareBar.tsx';

/** The figures of the strip, in order; the cards below show them again as the second look, without their ids. */
export const STRIP_FIGURE_IDS: readonly string[] = ['memory-total', 'step-time', 'tokens-per-second', 'mfu', 'training-days', 'cost-usd'];

export const STALE_TEXT = 'for the previous input';
/** Dimmed but readable: the text stays above AA contrast at this opacity in light and dark. */
export const STALE_CLASS = 'opacity-80 grayscale-[0.6]';

/** The room between the one memory figure (memory/fit.ts: what the device holds) and the GPU's memory, in words ("12.3 GiB to spare" / "4.0 GiB over"). */
export function marginText(output: EstimateOutput): string {
  const spare = output.memory.capacity - fitMemoryBytes(output);
  return spare >= 0 ? `${formatGiB(spare)} to spare` : `${formatGiB(-spare)} over`;
}

function StripFigure({ figure, output }: { figure: KeyFigure; output: EstimateOutput }) {
  const capacity = figure.id === 'memory-total' && figure.value !== null ? memoryCapacityNote(output).capacityText : null;
  return (
    <div className="flex min-w-0 flex-col">
      <dt className="truncate text-xs font-medium text-gray-700 dark:text-gray-300">{figure.label}</dt>
      <dd
        data-testid={figure.id}
        data-value={figure.value ?? ''}
        className="text-lg font-semibold tabular-nums text-gray-900 dark:text-gray-50"
      >
        <ExplainButton figureId={figure.value === null ? '' : figure.id} label={figure.label} output={output}>
          {figure.text}
          {capacity && <span className="text-xs font-normal text-gray-700 dark:text-gray-300"> {capacity}</span>}
        </ExplainButton>
      </dd>
      <StripRange figureId={figure.id} output={output} />
    </div>
  );
}

const LINK =
  'rounded text-blue-800 underline underline-offset-2 hover:text-blue-950 focus-visible:outline-2 focus-visible:outline-blue-700 ' +
  'dark:text-blue-300 dark:hover:text-blue-100 dark:focus-visible:outline-blue-300';

/**
 * Which run the figures are for: "Llama 3 70B on 64 × NVIDIA H100 SXM5 80GB · TP 8 · PP 4 · DP 2 · CP 1 · EP 1". The run's
 * name is a button to its frame (model, GPUs, budget, price), the controls anyone changes first.
 */
function RunLine({ document }: { document: Doc | null }) {
  if (!document) return null;
  const words = layoutWords(document);
  // A no-break space keeps each degree with its value ("EP 1") when the line wraps.
  const degrees = words ? ` · ${words.degrees.replace(/([A-Z]+) (\d)/g, '$1\u00a0$2')}` : '';
  return (
    <p data-testid="strip-run" className="text-xs text-gray-700 dark:text-gray-300">
      <button type="button" data-testid="strip-run-name" className={`${LINK} text-left`} onClick={jumpToFrame}>
        {planTitle(document)}
        <span className="sr-only"> (change the model, GPUs, token budget or price)</span>
      </button>
      {degrees}
    </p>
  );
}

export function SummaryStrip({ output, document, stale }: { output: EstimateOutput; document: Doc | null; stale: boolean }) {
  const byId = new Map(keyFigures(output).map((f) => [f.id, f]));
  const figures = STRIP_FIGURE_IDS.map((id) => byId.get(id)).filter((f): f is KeyFigure => f !== undefined);
  // The strip names one memory figure: its GPU out-of-memory line repeats it, the layers stay on the memory card; a host shortfall keeps the note's words.
  const note = memoryCapacityNote(output).oomText;
  const gpuOnly = note !== null && fitMemoryBytes(output) > output.memory.capacity && hostShortfallWords(output) === null;
  const oom = gpuOnly
    ? `Out of memory: needs ${formatGiB(fitMemoryBytes(output))} per GPU, the GPU has ${formatGiB(output.memory.capacity)}`
    : note;
  return (
    <section
      aria-label="Summary"
      data-testid="summary-strip"
      data-stale={stale ? 'true' : undefined}
      className={
        'max-[699px]:static sticky top-0 z-10 flex flex-col gap-1 rounded-lg border border-gray-300 bg-white/95 p-2 ' +
        'shadow-sm backdrop-blur dark:border-gray-700 dark:bg-gray-950/95'
      }
    >
      {stale && (
        <p className="text-xs font-semibold text-amber-900 dark:text-amber-200">
          These figures are {STALE_TEXT}: correct the error above to update them.
        </p>
      )}
      <div className={`flex flex-col gap-1 ${stale ? STALE_CLASS : ''}`}>
        <div className="flex flex-wrap items-baseline justify-between gap-x-3">
          <div className="flex flex-wrap items-baseline gap-x-3">
            <dl className="flex flex-wrap items-baseline gap-x-3">
              <dt className="sr-only">Memory verdict</dt>
              <OomVerdictLine output={output} />
              <dt className="sr-only">Margin to the GPU's memory</dt>
              <dd data-testid="memory-margin" className="text-sm text-gray-800 dark:text-gray-200">
                {marginText(output)}
              </dd>
            </dl>
            {/* The layout search sits at the bottom of the results; the way to it sits beside the verdict (issue 22, item 9). */}
            <button type="button" data-testid="strip-search" className={`${LINK} text-sm`} onClick={jumpToSearch}>
              Search layouts
            </button>
          </div>
          <RunLine document={document} />
        </div>
        <dl className="grid grid-cols-[repeat(auto-fill,minmax(8.5rem,1fr))] gap-x-3 gap-y-1">
          {figures.map((f) => (
            <StripFigure key={f.id} figure={f} output={output} />
          ))}
        </dl>
        <WhyThisRange output={output} />
        {oom && (
          <p data-testid="oom-warning" className="text-xs font-medium text-red-700 dark:text-red-300">
            <span aria-hidden="true">⚠ </span>
            {oom}. Speed, time and cost are for a run that would not start as configured.
          </p>
        )}
      </div>
    </section>
  );
}

// Phone (below 700 px, one column): the answer before the controls and in view while a
// field is edited (ux.md principle 13). One or two lines pinned to the top of the window:
// the memory verdict, memory per GPU of capacity, step time, days and dollars, and the
// run's name as a way to its frame. Wider windows have the full strip beside the controls.
// Its figures are the strip's own (keyFigures, verdictWords); its test ids are its own, so
// the strip's ids stay unique on the page.

import type { EstimateOutput } from '../../model/input/index.ts';
import { usePlanner } from '../../state/react.ts';
import { verdictWords } from '../embed/embedCard.ts';
import { keyFigures, memoryCapacityNote } from '../keyFigures.ts';
import { planTitle } from '../ShareBar.tsx';
import { STALE_CLASS, STALE_TEXT } from '../SummaryStrip.tsx';
import { VERDICT_ICON, VERDICT_LABEL, VERDICT_STYLE } from '../uncertainty/memoryVerdict.ts';
import { PHONE_STRIP_TEST_ID, jumpToFrame, jumpToSearch } from './jump.ts';

const LINK =
  'w-fit rounded text-blue-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-blue-700 ' +
  'dark:text-blue-300 dark:focus-visible:outline-blue-300';
/** Beside the memory: the speed, time and cost a planner asks next. */
const NEXT_FIGURES = ['step-time', 'training-days', 'cost-usd'] as const;

function Figures({ output }: { output: EstimateOutput }) {
  const verdict = verdictWords(output);
  const byId = new Map(keyFigures(output).map((f) => [f.id, f]));
  const memory = byId.get('memory-total');
  const capacity = memoryCapacityNote(output).capacityText;
  return (
    <>
      <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
        <span data-testid="phone-verdict" data-verdict={verdict.verdict} className={`font-semibold ${VERDICT_STYLE[verdict.verdict]}`}>
          <span aria-hidden="true">{VERDICT_ICON[verdict.verdict]} </span>
          {VERDICT_LABEL[verdict.verdict]}
        </span>
        <span data-testid="phone-memory" className="font-semibold tabular-nums text-gray-900 dark:text-gray-50">
          {memory?.text} <span className="font-normal text-gray-700 dark:text-gray-300">{capacity} per GPU</span>
        </span>
      </p>
      <p className="flex flex-wrap gap-x-3 text-xs tabular-nums text-gray-800 dark:text-gray-200">
        {NEXT_FIGURES.map((id) => {
          const f = byId.get(id);
          return f ? (
            <span key={id}>
              <span className="text-gray-700 dark:text-gray-300">{f.label}</span> {f.text}
            </span>
          ) : null;
        })}
      </p>
    </>
  );
}

export function PhoneStrip() {
  const output = usePlanner((s) => s.output);
  const stale = usePlanner((s) => s.errors.length > 0);
  const document = usePlanner((s) => s.document);
  return (
    <section
      aria-label="Answer at a glance"
      data-testid={PHONE_STRIP_TEST_ID}
      data-stale={stale ? 'true' : undefined}
      className={
        'sticky top-0 z-20 -mx-4 flex flex-col gap-0.5 border-b border-gray-300 bg-white/95 px-4 py-1.5 shadow-sm ' +
        'backdrop-blur min-[700px]:hidden dark:border-gray-700 dark:bg-gray-950/95'
      }
    >
      {output ? (
        <div className={stale ? STALE_CLASS : undefined}>
          {stale && <p className="sr-only">These figures are {STALE_TEXT}.</p>}
          <Figures output={output} />
        </div>
      ) : (
        <p className="text-sm text-gray-800 dark:text-gray-200">Computing the first estimate…</p>
      )}
      <p className="flex flex-wrap gap-x-3 text-xs">
        <button type="button" onClick={jumpToFrame} className={`${LINK} truncate text-left`}>
          {planTitle(document)}
          <span className="sr-only"> (change the model, GPUs, token budget or price)</span>
        </button>
        <button type="button" onClick={jumpToSearch} className={LINK}>
          Search layouts
        </button>
      </p>
    </section>
  );
}

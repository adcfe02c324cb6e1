// `?embed=1`: a card for an iframe of 700 × 450 (the copied snippet's size, share.ts):
// the run's name and layout in words, the memory verdict with its margin, the key
// figures and the memory chart, without scrolling, with a link back to the full page.

import { Suspense, lazy } from 'react';
import { usePlanner } from '../state/react.ts';
import { pageUrl } from '../state/share.ts';
import type { EstimateOutput } from '../model/input/index.ts';
import { CARD_FIGURES, CARD_RANGE_FIGURES, completionCardWords, layoutWords, verdictWords } from './embed/embedCard.ts';
import { keyFigures } from './keyFigures.ts';
import { BAND_PERCENT, figureRange, rangeBases } from './uncertainty/figureRanges.ts';
import { Notices } from './Notices.tsx';
import { ConfigErrors, NoResults } from './Results.tsx';
import { planTitle } from './ShareBar.tsx';

const MemoryChart = lazy(() => import('./charts/MemoryChart.tsx'));

/** The chart's plot height: what 450 px leave after the header, layout, verdict, figures, their ranges and the end's range. */
const CARD_CHART_HEIGHT = 112;

const MUTED = 'text-gray-700 dark:text-gray-300';
const VERDICT_STYLE = {
  safe: 'border-green-700 text-green-800 dark:border-green-400 dark:text-green-300',
  tight: 'border-amber-600 text-amber-800 dark:border-amber-400 dark:text-amber-300',
  'will-not-fit': 'border-red-700 text-red-700 dark:border-red-400 dark:text-red-300',
} as const;
const VERDICT_ICON = { safe: '✓', tight: '⚠', 'will-not-fit': '✕' } as const;

function Layout({ document }: { document: unknown }) {
  const words = layoutWords(document);
  if (!words) return null;
  return (
    <p data-testid="embed-layout" className={`text-xs leading-snug ${MUTED}`}>
      <span className="font-medium text-gray-900 dark:text-gray-100">{words.cluster}</span>
      {' · '}
      {words.degrees} · {words.memoryAndSchedule} · {words.batch}
      {/* Days and dollars cannot be read alone: say the budget and price they assume (ux.md principle 15). */}
      {' · '}
      <span data-testid="embed-budget">days and cost for {words.budget}</span>
    </p>
  );
}

function Verdict({ output }: { output: EstimateOutput }) {
  const v = verdictWords(output);
  return (
    <p data-testid="oom-verdict" data-verdict={v.verdict} className={`rounded border-l-4 pl-2 text-sm ${VERDICT_STYLE[v.verdict]}`}>
      <span aria-hidden="true">{VERDICT_ICON[v.verdict]} </span>
      <strong>{v.headline}</strong>: {v.detail}
      <span data-testid="tight-rule" className={`block text-xs ${MUTED}`}>
        {v.tight}
      </span>
    </p>
  );
}

function CardFigures({ output }: { output: EstimateOutput }) {
  const figures = keyFigures(output).filter((f) => CARD_FIGURES.includes(f.id));
  return (
    <dl aria-label="Key figures" className="grid grid-cols-3 gap-x-3 gap-y-1">
      {figures.map((f) => (
        <div key={f.id} className="flex min-w-0 items-baseline gap-2">
          <dt className={`text-xs ${MUTED}`}>{f.label}</dt>
          <dd data-testid={f.id} data-value={f.value ?? ''} className="truncate font-semibold tabular-nums text-gray-900 dark:text-gray-50">
            {f.text}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The ranges of memory, tokens/s, days and dollars on one line; the basis behind them when opened. */
function CardRanges({ output }: { output: EstimateOutput }) {
  const bases = rangeBases(output);
  const parts = CARD_RANGE_FIGURES.flatMap(({ id, words }) => {
    const range = figureRange(id, output);
    return range ? [{ id, words, range }] : [];
  });
  if (!bases || parts.length === 0) return null;
  return (
    <details data-testid="embed-ranges" className={`text-xs ${MUTED}`}>
      <summary className="cursor-pointer truncate">
        {BAND_PERCENT} ranges{bases.beyond ? ' (beyond the validated range)' : ''}:{' '}
        {parts.map(({ id, words, range }, i) => (
          <span key={id} data-testid={`embed-range-${id}`} data-low={range.low} data-high={range.high}>
            {i > 0 ? ' · ' : ''}
            {words} {range.text}
          </span>
        ))}
      </summary>
      <p data-testid="range-basis-speed">Speed, time and cost: {bases.speed}.</p>
      <p data-testid="range-basis-memory">Memory: {bases.memory}.</p>
    </details>
  );
}

export function EmbedView() {
  const output = usePlanner((s) => s.output);
  const document = usePlanner((s) => s.document);
  const outputDocument = usePlanner((s) => s.outputDocument);
  const fullPage = pageUrl(window.location.href, window.location.hash.replace(/^#/, ''), false);
  return (
    <main className="flex flex-col gap-2 p-3" data-testid="embed-view">
      <header className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h1 className="text-base font-semibold text-gray-900 dark:text-gray-100">{planTitle(document)}</h1>
        <a href={fullPage} target="_blank" rel="noopener" className="text-sm font-medium text-blue-800 underline dark:text-blue-300">
          Open in the full planner<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </header>
      <Notices />
      <ConfigErrors />
      {output ? (
        <>
          <Layout document={outputDocument ?? document} />
          <Verdict output={output} />
          <CardFigures output={output} />
          <CardRanges output={output} />
          {completionCardWords(output) && (
            <p data-testid="embed-completion" className={`text-xs leading-snug ${MUTED}`}>
              {completionCardWords(output)}
            </p>
          )}
          <section aria-label="Memory chart">
            <Suspense
              fallback={
                <p className={`text-sm ${MUTED}`} style={{ minHeight: CARD_CHART_HEIGHT }}>
                  Loading the memory chart…
                </p>
              }
            >
              <MemoryChart output={output} height={CARD_CHART_HEIGHT} compact />
            </Suspense>
          </section>
        </>
      ) : (
        <NoResults />
      )}
    </main>
  );
}

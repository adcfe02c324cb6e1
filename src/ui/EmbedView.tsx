// `?embed=1`: a compact, read-only view for an iframe: the headline figures, the
// memory chart and the pipeline timeline, with a link back to the full page.

import { usePlanner } from '../state/react.ts';
import { pageUrl } from '../state/share.ts';
import { Figures } from './Figures.tsx';
import { Notices } from './Notices.tsx';
import { Charts, ConfigErrors, NoResults } from './Results.tsx';
import { planTitle } from './ShareBar.tsx';

export function EmbedView() {
  const output = usePlanner((s) => s.output);
  const document = usePlanner((s) => s.document);
  const fullPage = pageUrl(window.location.href, window.location.hash.replace(/^#/, ''), false);
  return (
    <main className="flex flex-col gap-3 p-3" data-testid="embed-view">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-base font-semibold text-gray-900 dark:text-gray-100">{planTitle(document)}</h1>
        <a href={fullPage} target="_blank" rel="noopener" className="text-sm font-medium text-blue-800 underline dark:text-blue-300">
          Open in the full planner<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </header>
      <Notices />
      <ConfigErrors />
      {output ? (
        <>
          <Figures output={output} compact />
          <Charts output={output} compact />
        </>
      ) : <NoResults />}
    </main>
  );
}

// Ways across the page that skip the scrolling: the strip's run name to the run's frame,
// the verdict's "Search layouts" to the layout search, the skip link to the results. DOM
// only (no state): each opens what is folded, scrolls it into view and moves the focus, so
// a keyboard or screen-reader user lands where a mouse user looks.

/** The id of the run's frame (FrameSection), the search disclosure and the results region. */
export const FRAME_SECTION_ID = 'run';
export const SEARCH_PANEL_ID = 'layout-search';
export const RESULTS_ID = 'results';

/** How long a jump waits for a panel that is still loading (the search panel loads once the page is idle). */
const WAIT_FOR_PANEL_MS = 3000;
const POLL_MS = 50;

function whenPresent(id: string, then: (element: HTMLElement) => void): void {
  const started = performance.now();
  const look = () => {
    const element = document.getElementById(id);
    if (element) then(element);
    else if (performance.now() - started < WAIT_FOR_PANEL_MS) window.setTimeout(look, POLL_MS);
  };
  look();
}

function land(target: HTMLElement, focus: HTMLElement): void {
  // The smooth scroll is left to the browser's setting; focus without a second jump.
  target.scrollIntoView({ block: 'start' });
  focus.focus({ preventScroll: true });
}

/** Unfolds the run's frame if folded and focuses its first control (the model preset). */
export function jumpToFrame(): void {
  const section = document.querySelector<HTMLElement>(`[data-testid="section-${FRAME_SECTION_ID}"]`);
  if (!section) return;
  const toggle = section.querySelector<HTMLButtonElement>('button[aria-expanded="false"]');
  toggle?.click();
  // The unfolded body renders on the next frame.
  window.requestAnimationFrame(() => {
    const first = section.querySelector<HTMLElement>('select, input');
    land(section, first ?? section);
  });
}

/** Opens the layout search's disclosure and focuses its summary. */
export function jumpToSearch(): void {
  whenPresent(SEARCH_PANEL_ID, (element) => {
    if (element instanceof HTMLDetailsElement) element.open = true;
    const summary = element.querySelector<HTMLElement>('summary');
    land(element, summary ?? element);
  });
}

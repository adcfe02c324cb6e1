// Ways across the page that skip the scrolling: the strip's run name to the run's frame,
// the verdict's "Search layouts" to the layout search, the skip link to the results. DOM
// only (no state): each opens what is folded, scrolls it into view and moves the focus, so
// a keyboard or screen-reader user lands where a mouse user looks.

/** The id of the run's frame (FrameSection), the search disclosure and the results region. */
export const FRAME_SECTION_ID = 'run';
export const SEARCH_PANEL_ID = 'layout-search';
export const RESULTS_ID = 'results';

/**
 * How long a jump waits for a panel that is still loading (the search panel loads once the page is idle). The reader
 * asked for it, so the wait is long: on a busy 2-core machine the panel's chunk has come after more than 3 s (a clean-clone
 * CI run, 2026-12-05), and a click that silently did nothing was the result.
 */
const WAIT_FOR_PANEL_MS = 20_000;
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

/** The phone's pinned strip (PhoneStrip), when shown: what it covers at the top of the window. */
export const PHONE_STRIP_TEST_ID = 'phone-strip';

function land(target: HTMLElement, focus: HTMLElement): void {
  target.scrollIntoView({ block: 'start' });
  // On a phone the pinned strip covers the top of the window: scroll back by its height so the target's title shows.
  const strip = document.querySelector<HTMLElement>(`[data-testid="${PHONE_STRIP_TEST_ID}"]`);
  const covered = strip ? strip.getBoundingClientRect().height : 0;
  if (covered > 0 && target.getBoundingClientRect().top < covered) window.scrollBy(0, -covered - 8);
  // Focus without a second jump.
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

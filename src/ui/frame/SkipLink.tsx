// The first focusable element of the page: "Skip to results" (WCAG 2.4.1, bypass blocks).
// Hidden until focused. Not a plain #results link: the address's fragment carries the
// configuration (#config=…), so the jump is made here without touching it.

import { RESULTS_ID } from './jump.ts';

export function SkipLink() {
  return (
    <a
      href={`#${RESULTS_ID}`}
      data-testid="skip-link"
      className={
        'sr-only rounded bg-white px-3 py-2 text-sm font-medium text-blue-800 underline focus:not-sr-only ' +
        'focus:absolute focus:top-2 focus:left-2 focus:z-50 focus-visible:outline-2 focus-visible:outline-blue-700 dark:bg-gray-900 dark:text-blue-300'
      }
      onClick={(e) => {
        e.preventDefault();
        const results = document.getElementById(RESULTS_ID);
        results?.scrollIntoView({ block: 'start' });
        results?.focus({ preventScroll: true });
      }}
    >
      Skip to results
    </a>
  );
}

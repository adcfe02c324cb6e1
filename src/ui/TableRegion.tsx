// A table wider or longer than its place: a keyboard-focusable scrolling region named
// after the table ("… (scrollable table)"), with the page's focus ring.

import type { ReactNode } from 'react';

const FOCUS_RING = 'focus-visible:outline-2 focus-visible:outline-blue-700 dark:focus-visible:outline-blue-300';

/** `scroll`: how it scrolls (sideways by default; 'max-h-80 overflow-auto' for a tall table). */
export function TableRegion({ label, scroll = 'overflow-x-auto', children }: { label: string; scroll?: string; children: ReactNode }) {
  return (
    <div className={`${scroll} ${FOCUS_RING}`} tabIndex={0} role="region" aria-label={`${label} (scrollable table)`}>
      {children}
    </div>
  );
}

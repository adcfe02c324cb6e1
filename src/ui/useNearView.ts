// In one column (a phone, below 700 px) the results come after all the controls, thousands of
// pixels down: a chart there is drawn once it comes within a screen of the view, not while the
// page loads (Lighthouse's total blocking time on its phone, issue 31 item 6). In two columns
// the results sit beside the controls, in view, and everything draws as before. Once drawn, a
// chart stays drawn; printing draws them all first.

import { startTransition, useEffect, useState, type RefObject } from 'react';

/** Two columns from here on: the `min-[700px]:` classes of App.tsx and Results.tsx. */
export const TWO_COLUMNS_QUERY = '(min-width: 700px)';

/** How far ahead of the view a part starts drawing: one screen height above and below. */
const AHEAD = '100% 0px';

function drawnAtOnce(): boolean {
  return (
    typeof window.IntersectionObserver !== 'function' ||
    typeof window.matchMedia !== 'function' ||
    window.matchMedia(TWO_COLUMNS_QUERY).matches
  );
}

/** True once the element is within a screen of the view, or at once where the layout has two columns. */
export function useNearView(ref: RefObject<Element | null>): boolean {
  const [near, setNear] = useState(drawnAtOnce);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return undefined;
    const show = () => startTransition(() => setNear(true));
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) show();
      },
      { rootMargin: AHEAD },
    );
    observer.observe(element);
    const columns = window.matchMedia(TWO_COLUMNS_QUERY);
    const onColumns = () => {
      if (columns.matches) show();
    };
    columns.addEventListener('change', onColumns);
    // A printed page has every chart: drawn synchronously before the browser lays the page out.
    const onPrint = () => setNear(true);
    window.addEventListener('beforeprint', onPrint);
    return () => {
      observer.disconnect();
      columns.removeEventListener('change', onColumns);
      window.removeEventListener('beforeprint', onPrint);
    };
  }, [near, ref]);
  return near;
}

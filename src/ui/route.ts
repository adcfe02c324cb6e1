// Which page the full planner shows: the planner itself, or the Validation page at
// `#/validation`. The route is one `&`-separated part of the fragment, so share links
// keep decoding as before. Following the tab links pushes a history entry without a
// `hashchange` (the configuration and any pinned comparison stay as they are in the
// store), and the Planner tab goes Back to the planner's own address when it can.
// The address bar's replaceState writes of the share fragment never move the page.

import { useSyncExternalStore, type MouseEvent } from 'react';

export type PageRoute = 'planner' | 'validation';

export const VALIDATION_HASH = '#/validation';

export function routeOf(hash: string): PageRoute {
  return hash.replace(/^#/, '').split('&').includes('/validation') ? 'validation' : 'planner';
}

let current: PageRoute | null = null;
const listeners = new Set<() => void>();

function setRoute(next: PageRoute): void {
  if (next === current) return;
  current = next;
  listeners.forEach((listener) => listener());
}

function onNavigation(): void {
  setRoute(routeOf(window.location.hash));
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0) {
    window.addEventListener('hashchange', onNavigation);
    window.addEventListener('popstate', onNavigation);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    window.removeEventListener('hashchange', onNavigation);
    window.removeEventListener('popstate', onNavigation);
  };
}

function snapshot(): PageRoute {
  current ??= routeOf(window.location.hash);
  return current;
}

export function useRoute(): PageRoute {
  return useSyncExternalStore(subscribe, snapshot, () => 'planner');
}

/** Marks the history entry the Validation tab pushed from the planner. */
const FROM_PLANNER = 'llm-train-planner:from-planner';

function plainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * A tab link's click: to the Validation page by pushState (no hashchange, so nothing
 * rereads the configuration); back to the planner by history.back() when the entry
 * came from it, else by the link's own address. Modified clicks open a new tab as usual.
 */
export function followTab(event: MouseEvent, to: PageRoute): void {
  if (!plainClick(event) || to === snapshot()) return;
  if (to === 'validation') {
    event.preventDefault();
    window.history.pushState({ [FROM_PLANNER]: true }, '', VALIDATION_HASH);
    setRoute('validation');
    return;
  }
  const state: unknown = window.history.state;
  if (typeof state === 'object' && state !== null && FROM_PLANNER in state) {
    event.preventDefault();
    window.history.back();
  }
}

// The store as React sees it: one store per page, handed down by context.

import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { PlannerState } from './store.ts';

export const PlannerContext = createContext<StoreApi<PlannerState> | null>(null);

export function usePlannerStore(): StoreApi<PlannerState> {
  const store = useContext(PlannerContext);
  if (!store) throw new Error('usePlanner needs a PlannerContext provider above it');
  return store;
}

/** One value from the store; re-renders only when it changes (return stable values, or use zustand's useShallow). */
export function usePlanner<T>(selector: (state: PlannerState) => T): T {
  return useStore(usePlannerStore(), selector);
}

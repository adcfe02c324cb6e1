// The comparison slice of the store: one configuration pinned beside the current one,
// with its own estimate. Pinning copies nothing: documents are immutable, so the
// pinned document is the current one at the moment of pinning, and its estimate is
// reused when the page already has it. A pin read from a link has no estimate yet;
// the pinned estimator (ui/compare/usePinnedEstimate.ts) supplies it.

import type { StateCreator } from 'zustand/vanilla';
import type { EstimateOutput } from '../model/input/index.ts';
import type { Doc } from './doc.ts';

export interface PinnedConfiguration {
  readonly document: Doc;
  /** Its estimate; null until one arrives (or while it has errors). */
  readonly output: EstimateOutput | null;
  /** Its field-named errors, when it cannot run. */
  readonly errors: readonly string[];
}

export interface CompareSlice {
  readonly pinned: PinnedConfiguration | null;
  /** Pins the current configuration, with its estimate when the page has it. */
  pin(): void;
  /** Back to the single view. */
  unpin(): void;
  /** The pinned configuration becomes the current one, and the current one is pinned. */
  swapPinned(): void;
  /** A pinned configuration from a link (null: none); its estimate is requested separately. */
  setPinnedDocument(document: Doc | null): void;
  /** The pinned estimator's answer; ignored unless it is for the configuration pinned now. */
  receivePinned(output: EstimateOutput, document: Doc): void;
}

/**
 * The part of the planner's state the comparison reads and writes besides its own slice:
 * the current document and its estimate (store.ts, ConfigSlice and ResultsSlice). Named
 * here, not imported, so the store can build on this slice without a cycle.
 */
export interface CompareHost extends CompareSlice {
  readonly document: Doc;
  readonly output: EstimateOutput | null;
  readonly outputDocument: Doc | null;
  readonly errors: readonly string[];
}

function pinnedFrom(state: CompareHost): PinnedConfiguration {
  const current = state.outputDocument === state.document && state.errors.length === 0;
  return { document: state.document, output: current ? state.output : null, errors: [] };
}

export const compareSlice: StateCreator<CompareHost, [], [], CompareSlice> = (set, get) => ({
  pinned: null,
  pin: () => set({ pinned: pinnedFrom(get()) }),
  unpin: () => set({ pinned: null }),
  swapPinned: () => {
    const state = get();
    const old = state.pinned;
    if (!old) return;
    const next: Partial<CompareHost> = { pinned: pinnedFrom(state), document: old.document };
    // The old pin's estimate shows at once; the estimator's answer for it replaces it.
    set(old.output ? { ...next, output: old.output, outputDocument: old.document, errors: [] } : next);
  },
  setPinnedDocument: (document) => set({ pinned: document ? { document, output: null, errors: [] } : null }),
  receivePinned: (output, document) => {
    const pinned = get().pinned;
    if (!pinned || pinned.document !== document) return;
    set({ pinned: output.errors.length > 0 ? { document, output: null, errors: output.errors } : { document, output, errors: [] } });
  },
});

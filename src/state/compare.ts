// The scenarios slice of the store: configurations pinned beside the current one, each
// with a name and its own estimate. Pinning copies nothing: documents are immutable, so
// a pinned document is the current one at the moment of pinning, and its estimate is
// reused when the page already has it. A pin read from a link has no estimate yet; the
// pinned estimator (ui/compare/usePinnedEstimate.ts) supplies it. The pins travel in
// the link (url-codec.ts, `&pins=`), so they survive a reload and a new link.

import type { StateCreator } from 'zustand/vanilla';
import type { EstimateOutput } from '../model/input/index.ts';
import type { Doc } from './doc.ts';
import { MAX_LINK_PINS, MAX_PIN_NAME_LENGTH, type LinkPin } from './url-codec.ts';

/** At most this many pinned configurations: what a link carries (url-codec.ts). */
export const MAX_PINS = MAX_LINK_PINS;

export interface PinnedConfiguration {
  /** The name the table and the exports show; the user may edit it. */
  readonly name: string;
  readonly document: Doc;
  /** Its estimate; null until one arrives (or while it has errors). */
  readonly output: EstimateOutput | null;
  /** Its field-named errors, when it cannot run. */
  readonly errors: readonly string[];
}

export interface CompareSlice {
  /** Oldest first; empty: the single view. */
  readonly pinned: readonly PinnedConfiguration[];
  /** Pins the current configuration (with its estimate when the page has it); nothing at MAX_PINS. */
  pin(): void;
  /** Removes one pin. */
  unpin(index: number): void;
  /** Removes every pin: back to the single view. */
  unpinAll(): void;
  renamePin(index: number, name: string): void;
  /** A pin's configuration becomes the current one (Undo brings the previous one back); the pins stay. */
  applyPin(index: number): void;
  /** The pins of a link (names may be empty: the page names them); their estimates are requested separately. */
  setPinnedFromLink(pins: readonly LinkPin[]): void;
  /** The pinned estimator's answer; given to every pin of that very document, ignored otherwise. */
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
  replaceDocument(document: Doc): void;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The first of "A", "B", … that no pin is named yet ("Scenario 27" past Z). */
export function nextPinName(taken: readonly string[]): string {
  const used = new Set(taken.map((name) => name.trim()));
  for (const letter of LETTERS) if (!used.has(letter)) return letter;
  let n = LETTERS.length + 1;
  while (used.has(`Scenario ${n}`)) n++;
  return `Scenario ${n}`;
}

/** A name as typed, trimmed to MAX_PIN_NAME_LENGTH; an empty one falls back to `fallback`. */
function cleanName(name: string, fallback: string): string {
  const trimmed = name.trim().slice(0, MAX_PIN_NAME_LENGTH);
  return trimmed === '' ? fallback : trimmed;
}

export const compareSlice: StateCreator<CompareHost, [], [], CompareSlice> = (set, get) => ({
  pinned: [],
  pin: () => {
    const state = get();
    if (state.pinned.length >= MAX_PINS) return;
    const current = state.outputDocument === state.document && state.errors.length === 0;
    const name = nextPinName(state.pinned.map((p) => p.name));
    set({ pinned: [...state.pinned, { name, document: state.document, output: current ? state.output : null, errors: [] }] });
  },
  unpin: (index) => set({ pinned: get().pinned.filter((_, i) => i !== index) }),
  unpinAll: () => set({ pinned: [] }),
  renamePin: (index, name) => {
    const pinned = get().pinned;
    const pin = pinned[index];
    if (!pin) return;
    const others = pinned.filter((_, i) => i !== index).map((p) => p.name);
    set({ pinned: pinned.map((p, i) => (i === index ? { ...p, name: cleanName(name, nextPinName(others)) } : p)) });
  },
  applyPin: (index) => {
    const pin = get().pinned[index];
    if (!pin) return;
    get().replaceDocument(pin.document);
    // The pin's estimate shows at once; the estimator's answer for it replaces it.
    if (pin.output) set({ output: pin.output, outputDocument: pin.document, errors: [] });
  },
  setPinnedFromLink: (pins) => {
    const named: PinnedConfiguration[] = [];
    for (const pin of pins.slice(0, MAX_PINS)) {
      const name = cleanName(pin.name, nextPinName(named.map((p) => p.name)));
      named.push({ name, document: pin.document, output: null, errors: [] });
    }
    set({ pinned: named });
  },
  receivePinned: (output, document) => {
    const pinned = get().pinned;
    if (!pinned.some((p) => p.document === document)) return;
    const answer = output.errors.length > 0 ? { output: null, errors: output.errors } : { output, errors: [] };
    set({ pinned: pinned.map((p) => (p.document === document ? { ...p, ...answer } : p)) });
  },
});

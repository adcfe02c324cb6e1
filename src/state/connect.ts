// Wiring between the store and the outside world: the estimator worker, the
// address bar, and the link the page was opened with.

import type { StoreApi } from 'zustand/vanilla';
import type { Estimator } from '../worker/client.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import type { Doc } from './doc.ts';
import { isEmbedSearch } from './share.ts';
import type { PlannerState } from './store.ts';
import { encodeShareFragment, readHash, readPinsHash, type LinkPin } from './url-codec.ts';

/** Sends every new configuration to the estimator, and its answers to the store. Returns the unsubscribe. */
export function connectEstimator(store: StoreApi<PlannerState>, estimator: Estimator): () => void {
  estimator.request(store.getState().document);
  return store.subscribe((state, previous) => {
    if (state.document !== previous.document) estimator.request(state.document);
  });
}

/** Quiet time before the address bar follows an edit: a dragged slider writes history once, not per step. */
export const URL_UPDATE_DELAY_MS = 250;

interface AddressBar {
  readonly location: { readonly pathname: string; readonly search: string; readonly hash: string };
  readonly history: { replaceState(data: unknown, unused: string, url?: string): void };
  /** The window's, to follow a comparison link pasted into an open page. */
  addEventListener?(type: 'hashchange', listener: () => void): void;
  removeEventListener?(type: 'hashchange', listener: () => void): void;
}

/**
 * The pinned configurations of the link in the address bar, into the store. A link
 * without pins keeps the ones the page holds: following a link never drops a scenario
 * (Remove does).
 */
async function followPins(store: StoreApi<PlannerState>, hash: string): Promise<void> {
  const read = await readPinsHash(hash);
  if (read.kind === 'pins') store.getState().setPinnedFromLink(read.pins);
  else if (read.kind === 'error') store.getState().setLinkError(read.message);
}

/** What the link carries of the pins: their names and documents, not their estimates. */
function linkPins(state: PlannerState): readonly LinkPin[] {
  return state.pinned.map((p) => ({ name: p.name, document: p.document }));
}

function samePins(a: PlannerState['pinned'], b: PlannerState['pinned']): boolean {
  return a.length === b.length && a.every((p, i) => p.document === b[i]?.document && p.name === b[i]?.name);
}

/**
 * Keeps the fragment equal to the share encoding of the configuration and of the pinned
 * ones (replaceState: no history entries); reads the pins of the link the page was
 * opened with, and of a link pasted into it later.
 */
export function connectAddressBar(store: StoreApi<PlannerState>, bar: AddressBar, delayMs = URL_UPDATE_DELAY_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let written = 0;
  void followPins(store, bar.location.hash);
  const onHashChange = () => {
    if (/(^#|&)(s|config)=/.test(bar.location.hash)) void followPins(store, bar.location.hash);
  };
  bar.addEventListener?.('hashchange', onHashChange);
  const write = async (document: Doc, pins: readonly LinkPin[]) => {
    const ticket = ++written;
    const fragment = await encodeShareFragment(document, pins);
    if (ticket !== written) return;
    const { pathname, search, hash } = bar.location;
    if (hash !== `#${fragment}`) bar.history.replaceState(null, '', `${pathname}${search}#${fragment}`);
  };
  const unsubscribe = store.subscribe((state, previous) => {
    if (state.document === previous.document && samePins(state.pinned, previous.pinned)) return;
    clearTimeout(timer);
    timer = setTimeout(() => void write(state.document, linkPins(state)), delayMs);
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
    bar.removeEventListener?.('hashchange', onHashChange);
  };
}

export interface StartPoint {
  readonly document: Doc;
  readonly linkError: string | null;
  readonly embed: boolean;
}

/** The configuration the page opens on: the link's, or the default (with the reason when the link could not be read). */
export async function readStartPoint(location: { readonly hash: string; readonly search: string }): Promise<StartPoint> {
  const embed = isEmbedSearch(location.search);
  const read = await readHash(location.hash);
  if (read.kind === 'document') return { document: read.document, linkError: null, embed };
  return { document: DEFAULT_DOCUMENT, linkError: read.kind === 'error' ? read.message : null, embed };
}

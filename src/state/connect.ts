// Wiring between the store and the outside world: the estimator worker, the
// address bar, and the link the page was opened with.

import type { StoreApi } from 'zustand/vanilla';
import type { Estimator } from '../worker/client.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import type { Doc } from './doc.ts';
import { isEmbedSearch } from './share.ts';
import type { PlannerState } from './store.ts';
import { encodeShareFragment, readHash, readPinnedHash } from './url-codec.ts';

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

/** The pinned configuration of the link in the address bar, into the store (a link without one unpins). */
async function followPin(store: StoreApi<PlannerState>, hash: string, onStart: boolean): Promise<void> {
  const read = await readPinnedHash(hash);
  if (read.kind === 'document') store.getState().setPinnedDocument(read.document);
  else if (read.kind === 'error') store.getState().setLinkError(read.message);
  else if (!onStart) store.getState().setPinnedDocument(null);
}

/**
 * Keeps the fragment equal to the share encoding of the configuration, and of the
 * pinned one when there is one (replaceState: no history entries); reads the pin of
 * the link the page was opened with.
 */
export function connectAddressBar(store: StoreApi<PlannerState>, bar: AddressBar, delayMs = URL_UPDATE_DELAY_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let written = 0;
  void followPin(store, bar.location.hash, true);
  const onHashChange = () => {
    if (/(^#|&)(s|config)=/.test(bar.location.hash)) void followPin(store, bar.location.hash, false);
  };
  bar.addEventListener?.('hashchange', onHashChange);
  const write = async (document: Doc, pinned: Doc | null) => {
    const ticket = ++written;
    const fragment = await encodeShareFragment(document, pinned);
    if (ticket !== written) return;
    const { pathname, search, hash } = bar.location;
    if (hash !== `#${fragment}`) bar.history.replaceState(null, '', `${pathname}${search}#${fragment}`);
  };
  const unsubscribe = store.subscribe((state, previous) => {
    const pinned = state.pinned?.document ?? null;
    if (state.document === previous.document && pinned === (previous.pinned?.document ?? null)) return;
    clearTimeout(timer);
    timer = setTimeout(() => void write(state.document, pinned), delayMs);
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

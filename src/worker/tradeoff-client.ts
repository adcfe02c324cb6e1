// The page's side of the trade-off panel: one knob's curve and the checkpoint curve
// (engineApi.tradeoffs), from a worker of their own (latest-client.ts), so a dragged
// slider's estimate never queues behind the dozens of engine runs a curve takes.

import { emptySweep, type SeqLenHold } from '../model/sweep/index.ts';
import type { TradeoffAnswer } from './api.ts';
import type { WorkerLike } from './session.ts';
import { createLatestClient, type LatestClient } from './latest-client.ts';

/** Two curves of up to ~20 engine runs each: about a second on a cold worker on a slow machine. */
export const TRADEOFF_TIMEOUT_MS = 30_000;

export interface TradeoffQuestion {
  readonly document: unknown;
  readonly knob: string;
  /** The sequence-length curve: hold sequences (default) or tokens per step. */
  readonly seqLenHold?: SeqLenHold;
}

export type TradeoffClient = LatestClient<TradeoffQuestion, TradeoffAnswer>;

export function createTradeoffClient(createWorker: () => WorkerLike, timeoutMs = TRADEOFF_TIMEOUT_MS): TradeoffClient {
  const failed = (reason: string) => emptySweep(null, '', [reason]);
  return createLatestClient<TradeoffQuestion, TradeoffAnswer>(createWorker, {
    ask: (remote, q) => remote.tradeoffs(q.document, q.knob, q.seqLenHold),
    failure: (reason) => ({ knob: failed(reason), checkpoint: failed(reason) }),
    what: 'the trade-off curves',
    timeoutMs,
  });
}

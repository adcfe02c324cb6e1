// For the worker clients' tests: a stand-in worker, comlink over a Node MessageChannel
// exposing `api`, that records whether it was terminated and can fake a crash.

import { expose, type Endpoint } from 'comlink';
import { MessageChannel } from 'node:worker_threads';
import type { WorkerLike } from '../worker/session.ts';

export type FakeWorker = WorkerLike & { terminated: boolean; crash(): void };

export function fakeWorker(api: object): FakeWorker {
  const { port1, port2 } = new MessageChannel();
  expose(api, port2 as unknown as Endpoint);
  const endpoint = port1 as unknown as Endpoint & EventTarget;
  const worker = Object.assign(endpoint, {
    terminated: false,
    terminate() {
      worker.terminated = true;
      port1.close();
      port2.close();
    },
    crash() {
      endpoint.dispatchEvent(new Event('error'));
    },
  });
  return worker;
}

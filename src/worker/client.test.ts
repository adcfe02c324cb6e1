import { describe, it, expect, afterEach } from 'vitest';
import { fakeWorker as fakeWorkerOf } from '../testing/fake-worker.ts';
import { invalidOutput } from '../model/estimate.ts';
import type { EstimateOutput } from '../model/input/index.ts';
import { createEstimator, MAX_RESTARTS_IN_A_ROW, type Estimator } from './client.ts';
import { engineApi } from './api.ts';

type Impl = (document: unknown) => Promise<EstimateOutput> | EstimateOutput;

/** A stand-in for the worker with `impl` as the exposed estimate. */
const fakeWorker = (impl: Impl) => fakeWorkerOf({ estimate: impl });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const answerAfter =
  (ms: number, seen: unknown[]): Impl =>
  async (document) => {
    seen.push(document);
    await sleep(ms);
    return invalidOutput([], [String(document)]);
  };
const never: Impl = () => new Promise<EstimateOutput>(() => undefined);

let estimator: Estimator | undefined;
afterEach(() => estimator?.dispose());

async function until(condition: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(5);
  }
}

describe('the estimator client', () => {
  it('drops stale work: of three quick requests, the middle one is never sent and only the last is answered', async () => {
    const seen: unknown[] = [];
    const results: unknown[] = [];
    estimator = createEstimator({
      createWorker: () => fakeWorker(answerAfter(20, seen)),
      onResult: (_, d) => results.push(d),
      onRestart: () => undefined,
    });
    estimator.request('a');
    estimator.request('b');
    estimator.request('c');
    await until(() => results.length > 0);
    await sleep(40);
    // 'a' was already running when 'b' and 'c' came; 'c' replaced 'b' while it waited; 'a's answer is stale.
    expect(seen).toEqual(['a', 'c']);
    expect(results).toEqual(['c']);
  });

  it('restarts a worker that does not answer in time, says so, and answers the next request', async () => {
    const workers = [fakeWorker(never), fakeWorker(answerAfter(0, []))];
    const messages: string[] = [];
    const results: unknown[] = [];
    estimator = createEstimator({
      createWorker: () => workers.shift() ?? fakeWorker(never),
      onResult: (_, d) => results.push(d),
      onRestart: (m) => messages.push(m),
      timeoutMs: 50,
    });
    estimator.request('hangs');
    await until(() => messages.length > 0);
    expect(messages[0]).toMatch(/did not answer within 0.05 s and was restarted/);
    expect(results).toEqual([]);
    estimator.request('next');
    await until(() => results.length > 0);
    expect(results).toEqual(['next']);
  });

  it('restarts a crashed worker and runs the newest request once more', async () => {
    const first = fakeWorker(never);
    const workers = [first, fakeWorker(answerAfter(0, []))];
    const messages: string[] = [];
    const results: unknown[] = [];
    estimator = createEstimator({
      createWorker: () => workers.shift() ?? fakeWorker(never),
      onResult: (_, d) => results.push(d),
      onRestart: (m) => messages.push(m),
    });
    estimator.request('doc');
    await sleep(10);
    first.crash();
    await until(() => results.length > 0);
    expect(messages).toEqual(['The estimator stopped unexpectedly and was restarted.']);
    expect(results).toEqual(['doc']);
  });

  it(`gives up after ${MAX_RESTARTS_IN_A_ROW} restarts in a row, saying so`, async () => {
    const messages: string[] = [];
    estimator = createEstimator({
      createWorker: () => fakeWorker(never),
      onResult: () => undefined,
      onRestart: (m) => messages.push(m),
      timeoutMs: 10,
    });
    for (let i = 0; i <= MAX_RESTARTS_IN_A_ROW; i++) {
      estimator.request(i);
      await until(() => messages.length > i);
    }
    expect(messages).toHaveLength(MAX_RESTARTS_IN_A_ROW + 1);
    expect(messages.at(-1)).toMatch(/stopped; reload the page/);
  });
});

describe('the worker API', () => {
  it('answers invalid input with field-named errors, not an exception', () => {
    const output = engineApi.estimate({ version: 1, model: { layers: 'many' }, training: {}, cluster: { gpu: 'h100-sxm' } });
    expect(output.errors).toContain('model.layers: must be a whole number, got "many"');
    expect(engineApi.estimate('not a document').errors).toEqual(['document: must be a JSON object']);
  });
});

import { describe, it, expect } from 'vitest';
import { engineApi } from './api.ts';
import { fakeWorker } from '../testing/fake-worker.ts';
import { runFit } from './fit-client.ts';

const document = {
  version: 1,
  model: { layers: 4, hidden: 1024, heads: 16, vocab: 32000 },
  training: { seqLen: 2048, globalBatch: 8, microBatch: 2 },
  parallel: { tp: 1, pp: 1, dp: 1 },
  cluster: { gpu: 'h100-sxm', gpus: 1 },
};

describe('running a fit in its own worker', () => {
  it("answers with the engine's fit and terminates the worker", async () => {
    const step = engineApi.estimate(document).throughput?.stepSeconds ?? NaN;
    const worker = fakeWorker(engineApi);
    const result = await runFit(() => worker, document, { stepSeconds: step });
    expect(result.ok && result.fit.computeEfficiencyScale?.ok && result.fit.computeEfficiencyScale.scale).toBeCloseTo(1, 8);
    expect(worker.terminated).toBe(true);
  });

  it('gives an error value when the worker does not answer in time', async () => {
    const worker = fakeWorker({ fitRun: () => new Promise(() => undefined) });
    const result = await runFit(() => worker, document, { stepSeconds: 1 }, 30);
    expect(result).toEqual({ ok: false, errors: ['the fit did not finish within 0.03 s'] });
    expect(worker.terminated).toBe(true);
  });

  it('gives an error value when the worker crashes', async () => {
    const worker = fakeWorker({ fitRun: () => new Promise(() => undefined) });
    const pending = runFit(() => worker, document, { stepSeconds: 1 });
    setTimeout(() => worker.crash(), 10);
    expect(await pending).toEqual({ ok: false, errors: ['the fitting worker stopped unexpectedly'] });
  });

  it("passes the engine's field-named errors through", async () => {
    const result = await runFit(() => fakeWorker(engineApi), { version: 1 }, { stepSeconds: 1 });
    expect(result.ok === false && result.errors).toContain('model: is required');
  });
});

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { engineApi } from './api.ts';
import { fakeWorker } from '../testing/fake-worker.ts';
import { createTradeoffClient } from './tradeoff-client.ts';

const LLAMA_70B = JSON.parse(readFileSync(new URL('../../examples/llama3-70b-256-h100.json', import.meta.url), 'utf8')) as unknown;

describe('the trade-off worker client', () => {
  it("answers with the knob's curve and the checkpoint curve, without timelines, through comlink", async () => {
    const client = createTradeoffClient(() => fakeWorker(engineApi));
    const answer = await client.request({ document: LLAMA_70B, knob: 'zero' });
    expect(answer?.knob.rows.map((r) => r.value)).toEqual([0, 1, 2, 3]);
    expect(answer?.checkpoint.knob).toBe('checkpointInterval');
    expect(answer?.checkpoint.rows.length).toBeGreaterThan(15);
    expect(answer?.knob.rows.every((r) => r.output.timeline === null)).toBe(true);
    client.dispose();
  }, 30_000);

  it('an unknown knob or a bad document is an error value', async () => {
    expect(engineApi.tradeoffs(LLAMA_70B, 'nope').knob.errors[0]).toMatch(/knob: "nope"/);
    expect(engineApi.tradeoffs({ version: 1 }, 'tp').knob.errors.length).toBeGreaterThan(0);
  });

  it('a worker that never answers gives an error value within the timeout', async () => {
    const client = createTradeoffClient(() => fakeWorker({ tradeoffs: () => new Promise(() => {}) }), 200);
    const answer = await client.request({ document: LLAMA_70B, knob: 'tp' });
    expect(answer?.knob.errors).toEqual(['the trade-off curves were not computed within 0.2 s']);
    client.dispose();
  });
});

import { describe, expect, it } from 'vitest';
import { launchFileForDocument } from '../export/index.ts';
import { importLaunchFile } from '../import/index.ts';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { layerForwardSeconds } from './compute.ts';

// training.fastExp, the made-up switch of docs/contributing.md's worked example.
const doc = (training: object) => ({
    version: 1,
    model: { layers: 4, hidden: 4096, heads: 32, kvHeads: 8, vocab: 32000 },
    training: { seqLen: 8192, globalBatch: 8, microBatch: 1, ...training },
    parallel: { tp: 2, dp: 4 },
    cluster: {
      gpu: { name: 'g', memoryGiB: 80, bf16Tflops: 1000, hbmGBps: 3000, intraNodeGBps: 450, interNodeGBps: 50, expTeraOpsPerSecond: 1e-3 },
    },
});

function config(training: object): RunConfig {
  const parsed = parseDocument(doc(training));
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

const launch = (training: object) => {
  const file = launchFileForDocument(doc(training), 'megatron');
  return file.ok ? file.launch.text : '';
};

describe('training.fastExp', () => {
  it('is off when absent, and on halves an exponential-bound attention forward (the exponentials are all of it at 1e-3 T/s)', () => {
    expect(config({}).training.fastExp).toBe(false);
    const off = layerForwardSeconds(config({}), 0, 8192).attentionForward;
    const on = layerForwardSeconds(config({ fastExp: true }), 0, 8192).attentionForward;
    expect(on).toBeLessThan(off);
    expect(on / off).toBeGreaterThan(0.5);
  });

  it('the Megatron-LM launch writes --example-fast-exp when on, and the import reads it back', () => {
    const text = launch({ fastExp: true });
    expect(text).toContain('--example-fast-exp');
    expect(launch({})).not.toContain('--example-fast-exp');
    const back = importLaunchFile(text);
    expect(back.ok && (back.document['training'] as Record<string, unknown>)['fastExp']).toBe(true);
  });
});

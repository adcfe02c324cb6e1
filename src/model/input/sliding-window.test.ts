import { describe, it, expect } from 'vitest';
import { parseDocument, readModelObject } from './document.ts';

const MODEL = { layers: 4, hidden: 256, heads: 4, vocab: 1000 };

function errorsOf(slidingWindow: unknown, model: Record<string, unknown> = MODEL): readonly string[] {
  const read = readModelObject({ ...model, slidingWindow });
  return read.ok ? [] : read.errors;
}

describe('model.slidingWindow: read once, at the edge', () => {
  it('absent or null leaves the key out of the config, so older documents read exactly as before', () => {
    for (const model of [MODEL, { ...MODEL, slidingWindow: null }]) {
      const read = readModelObject(model);
      expect(read.ok && 'slidingWindow' in read.model).toBe(false);
    }
  });

  it('keeps the window and the HF layer_types pattern as written', () => {
    const read = readModelObject({ ...MODEL, slidingWindow: { window: 128, layerTypes: ['sliding_attention', 'full_attention'] } });
    expect(read.ok && read.model.slidingWindow).toEqual({ window: 128, layerTypes: ['sliding_attention', 'full_attention'] });
    const all = readModelObject({ ...MODEL, slidingWindow: { window: 4096 } });
    expect(all.ok && all.model.slidingWindow).toEqual({ window: 4096 });
  });

  it('names each bad value in words', () => {
    expect(errorsOf({})).toEqual(['model.slidingWindow.window: is required']);
    expect(errorsOf({ window: 0 })[0]).toMatch(/^model\.slidingWindow\.window: /);
    expect(errorsOf({ window: 12.5 })[0]).toMatch(/^model\.slidingWindow\.window: /);
    expect(errorsOf({ window: 128, layerTypes: [] })).toEqual([
      'model.slidingWindow.layerTypes: must be a non-empty list of "sliding_attention" or "full_attention", one a layer from layer 0, got a list',
    ]);
    expect(errorsOf({ window: 128, layerTypes: 'alternate' })[0]).toMatch(/must be a non-empty list .* got "alternate"/);
    expect(errorsOf({ window: 128, layerTypes: ['sliding_attention', 'local'] })).toEqual([
      'model.slidingWindow.layerTypes: entry 1 is "local", not "sliding_attention" or "full_attention"',
    ]);
    expect(errorsOf(128)[0]).toMatch(/^model\.slidingWindow: /);
  });

  it('rejects a pattern longer than the model, and warns of unknown keys', () => {
    const five = Array<string>(5).fill('sliding_attention');
    expect(errorsOf({ window: 128, layerTypes: five })).toEqual([
      'model.slidingWindow.layerTypes: has 5 entries, more than model.layers=4 (a shorter list repeats from layer 0)',
    ]);
    const parsed = parseDocument({
      version: 1,
      model: { ...MODEL, slidingWindow: { window: 128, every: 2 } },
      training: { seqLen: 1024, globalBatch: 8 },
      cluster: { gpu: 'h100-sxm' },
    });
    expect(parsed.ok).toBe(true);
    expect(parsed.warnings).toContain('model.slidingWindow.every: unknown field, ignored');
  });
});

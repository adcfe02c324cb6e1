import { describe, expect, it } from 'vitest';
import { launchFileForDocument } from '../export/index.ts';
import { parseDocument } from '../input/index.ts';
import { importLaunchFile } from './index.ts';

function document(slidingWindow: unknown, layers = 36) {
  return {
    version: 1,
    model: {
      name: 'windowed',
      layers,
      hidden: 2880,
      heads: 64,
      kvHeads: 8,
      headDim: 64,
      ffnHidden: 2880,
      ffnType: 'swiglu',
      vocab: 201088,
      slidingWindow,
    },
    training: { seqLen: 4096, globalBatch: 64, microBatch: 1, framework: 'megatron' },
    cluster: { gpu: 'h100-sxm', gpus: 8 },
  };
}

function roundTrip(doc: unknown): { window: unknown; warnings: readonly string[] } {
  const launch = launchFileForDocument(doc, 'megatron');
  if (!launch.ok) throw new Error(launch.errors.join('; '));
  const imported = importLaunchFile(launch.launch.text, { gpu: 'h100-sxm' });
  if (!imported.ok) throw new Error(imported.errors.join('; '));
  const parsed = parseDocument(imported.document);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return { window: parsed.config.model.slidingWindow, warnings: imported.warnings.filter((w) => !w.startsWith('cluster.gpu')) };
}

describe('Megatron-LM round trip of model.slidingWindow', () => {
  it('GPT-OSS (every other layer), Gemma 3 (5 of 6 over 62 layers), every layer, and a per-layer list come back identical', () => {
    const five = [...Array<string>(5).fill('sliding_attention'), 'full_attention'];
    const cases: [unknown, number][] = [
      [{ window: 128, layerTypes: ['sliding_attention', 'full_attention'] }, 36],
      [{ window: 1024, layerTypes: five }, 62],
      [{ window: 4096 }, 32],
      [{ window: 4096, layerTypes: ['full_attention', 'full_attention', 'sliding_attention'] }, 8],
    ];
    for (const [window, layers] of cases) {
      const back = roundTrip(document(window, layers));
      expect(back.window).toEqual(window);
      expect(back.warnings).toEqual([]);
    }
  });

  it('no window: none written, none read', () => {
    expect(roundTrip(document(null)).window).toBeUndefined();
  });

  it('reads a hand-written file: -1 is no window; a look-ahead or an unreadable pattern is named', () => {
    const base = document(null);
    const launch = launchFileForDocument(base, 'megatron');
    if (!launch.ok) throw new Error(launch.errors.join('; '));
    const withFlags = (flags: string) => launch.launch.text.replace('--num-layers 36', `--num-layers 36 ${flags}`);
    const read = (flags: string) => {
      const imported = importLaunchFile(withFlags(flags), { gpu: 'h100-sxm' });
      if (!imported.ok) throw new Error(imported.errors.join('; '));
      return { window: (imported.document.model as Record<string, unknown>)['slidingWindow'], warnings: imported.warnings };
    };
    expect(read('--window-size -1,0').window).toBeUndefined();
    const ahead = read('--window-size 64,64');
    expect(ahead.window).toEqual({ window: 65 });
    expect(ahead.warnings).toContain('--window-size: 64,64 looks 64 tokens ahead; the estimate counts a causal window of 65 keys');
    const odd = read('--window-size 127,0 --window-attn-skip-freq "[1,0]*17+[1]*2"');
    expect(odd.window).toEqual({ window: 128 });
    expect(odd.warnings.join()).toMatch(/--window-attn-skip-freq: .* is neither N nor/);
  });
});

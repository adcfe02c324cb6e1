import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { hostMemory } from '../memory/index.ts';
import { parseDocument } from '../input/index.ts';
import { fitSuggestions } from './fit-suggestions.ts';
import { layoutConfig } from './pieces.ts';
import { searchLayouts } from './search.ts';
import { parseSearchDocument } from './document.ts';
import { searchRunDocument } from '../../testing/search-fixtures.ts';

// The search's fit asks the host too (run.ts hostHolds, memory/host.ts), as estimate's memory.fits does.
describe('the layout search counts the host too', () => {
  // Llama 3 70B on 8 H100 cannot fit without offload: even ZeRO-3 keeps 16 × 70.55e9 / 8 = 141 GB of model
  // states per GPU. With optimizer offload the host needs 16 bytes per parameter (ZeRO-1/2) or 20 (ZeRO-3):
  // 1.13e12 or 1.41e12 bytes per node. 2 TiB (2.20e12) holds either; 1 TiB (1.10e12) neither.
  const base = (hostMemoryGiB: number) => {
    const parsed = parseSearchDocument(searchRunDocument({ model: 'llama3-70b', gpu: 'h100-sxm', gpus: 8, globalBatch: 64, seqLen: 4096 }));
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    return { ...parsed.base, cluster: { ...parsed.base.cluster, hostMemoryGiB } };
  };

  it('on 2 TiB every layout it returns offloads and the host holds it; on 1 TiB none fits', () => {
    const roomy = base(2048);
    const found = searchLayouts(roomy, { searchOffload: true, topK: 10 }).top;
    expect(found.length).toBeGreaterThan(0);
    for (const l of found) {
      expect(l.offload.optimizer || l.offload.parameters).toBe(true);
      const host = hostMemory(layoutConfig(roomy, l));
      expect(host.perNode).toBeLessThanOrEqual(host.capacity);
    }
    expect(searchLayouts(base(1024), { searchOffload: true, topK: 10 }).top).toEqual([]);
  });
});

describe('"make it fit" counts the host too', () => {
  it(
    '405B with full offload on one DGX H100: no fix keeps 8 GPUs; the fewest that fit is 32, with the ' +
      'parameters back on the GPU and the host holding 16 × 405.85e9 / 4 = 1.62e12 bytes of its 2 TiB',
    () => {
      // On 8 GPUs the host would need 22 × 405,853,388,800 = 8.93e12 bytes per node (full offload) or
      // 16 × 405.85e9 = 6.49e12 (optimizer only): neither fits 2 TiB (2.199e12). On 32 GPUs (4 nodes) with
      // parameters kept on the GPU, each node's host holds 16 bytes × 405.85e9 / 4 = 1.62e12 bytes; full
      // offload there would be 22 × 405.85e9 / 4 = 2.232e12, just over 2 TiB.
      const parsed = parseDocument(JSON.parse(readFileSync('examples/llama3-405b-zero3-offload-8-h100.json', 'utf8')));
      if (!parsed.ok) throw new Error(parsed.errors.join('; '));
      const fixes = fitSuggestions(parsed.config);
      expect(fixes.fits).toBe(false);
      expect(fixes.suggestions.some((s) => s.group === 'sameGpus')).toBe(false);
      const first = fixes.suggestions[0];
      expect(first?.gpus).toBe(32);
      expect(first?.changes).toContainEqual({ path: ['training', 'offload', 'parameters'], value: false });
      expect(first?.label).toContain('Parameters kept on the GPU');
      expect(fixes.suggestions.every((s) => s.gpus >= 32)).toBe(true);
    },
  );
});

import { describe, expect, it } from 'vitest';
import { hostMemory } from '../memory/index.ts';
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

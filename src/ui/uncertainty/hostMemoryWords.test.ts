import { describe, it, expect } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { OomVerdictLine } from './FigureUncertainty.tsx';
import { hostShortfallWords, hostUseWords } from './hostMemoryWords.ts';
import { HostMemoryUse } from '../HostMemoryUse.tsx';
import { memoryCapacityNote } from '../keyFigures.ts';
import { verdictWords } from '../embed/embedCard.ts';
import { sampleOutput } from '../testOutputs.ts';
import type { EstimateOutput } from '../../model/input/index.ts';

const GIB = 2 ** 30;
const TIB = 2 ** 40;

/** The sample output at 50 % of its 80 GiB GPU, with `perGpu` bytes offloaded by each of 8 GPUs of a node of `capacity` bytes. */
function withHost(perGpu: number, capacity = 2 * TIB): EstimateOutput {
  const output = sampleOutput();
  const total = 40 * GIB;
  const host = { perNode: 8 * perGpu, capacity, perGpu };
  return {
    ...output,
    memory: {
      ...output.memory,
      perGpu: { ...output.memory.perGpu, total },
      reserved: total,
      deviceUsed: total,
      fits: host.perNode <= capacity,
      host,
    },
  };
}

describe('host memory in words', () => {
  // 405B with ZeRO-3 and full offload on one DGX H100 (model/memory/host.test.ts): 8.93e12 bytes per node = 8.12 TiB.
  const over = withHost(8_928_774_553_600 / 8);

  it('the verdict says the host cannot hold it, with both figures', () => {
    expect(hostShortfallWords(over)).toBe('needs 8.12 TiB of CPU memory per node; this node has 2 TiB');
    const html = renderToStaticMarkup(createElement(OomVerdictLine, { output: over }));
    expect(html).toContain('data-verdict="will-not-fit"');
    expect(html).toContain('offload needs 8.12 TiB of CPU memory per node; this node has 2 TiB');
  });

  it('the out-of-memory note and the embed say it too, not a GPU shortfall', () => {
    expect(memoryCapacityNote(over).oomText).toBe('Out of CPU memory: offload needs 8.12 TiB of CPU memory per node; this node has 2 TiB');
    expect(verdictWords(over)).toMatchObject({ verdict: 'will-not-fit', headline: 'Will not fit' });
    expect(verdictWords(over).detail).toContain('offload needs 8.12 TiB of CPU memory per node');
  });

  it('the memory card shows use against capacity when offload is on, and nothing without it', () => {
    // 70B with ZeRO-3 optimizer offload: 20 × 70.55e9 = 1.41e12 bytes per node = 1.28 TiB, 164 GiB per GPU, 64.2 % of 2 TiB (2,199,023,255,552 bytes).
    const fits = withHost(1_411_074_129_920 / 8);
    expect(hostUseWords(fits)).toBe('1.28 TiB of 2 TiB (64.2 %), 8 GPUs × 164 GiB');
    expect(hostShortfallWords(fits)).toBeNull();
    expect(renderToStaticMarkup(createElement(HostMemoryUse, { output: fits }))).toContain('data-fits="true"');
    expect(renderToStaticMarkup(createElement(HostMemoryUse, { output: over }))).toContain('does not fit');
    expect(renderToStaticMarkup(createElement(HostMemoryUse, { output: withHost(0) }))).toBe('');
    expect(renderToStaticMarkup(createElement(OomVerdictLine, { output: fits }))).toContain('data-verdict="safe"');
  });
});

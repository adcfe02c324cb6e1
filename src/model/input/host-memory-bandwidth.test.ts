import { describe, expect, it } from 'vitest';
import { LLAMA3_8B_MODEL } from '../../testing/documents.ts';
import { parseDocument } from './document.ts';
import { GPU_PRESETS } from './gpus.ts';

// cluster.hostMemoryGBps (a project field): the node's CPU memory bandwidth, what an offloaded
// optimizer step streams through (time/optimizer.ts). Absent: the preset's usual server.

const read = (cluster: object) =>
  parseDocument({
    version: 1,
    model: LLAMA3_8B_MODEL,
    training: { seqLen: 2048, globalBatch: 8 },
    cluster: { gpu: 'h100-sxm', ...cluster },
  });

describe('cluster.hostMemoryGBps', () => {
  it("defaults to the GPU preset's usual server: channels × transfer rate × 8 bytes, over its sockets", () => {
    const defaultOf = (gpu: string) => {
      const parsed = read({ gpu });
      return parsed.ok ? parsed.config.cluster.hostMemoryGBps : NaN;
    };
    expect(defaultOf('a100-80gb')).toBeCloseTo(2 * 8 * 3.2 * 8, 9); // DGX A100: 2 × EPYC 7742, 8 × DDR4-3200 each
    expect(defaultOf('h100-sxm')).toBeCloseTo(2 * 8 * 4.8 * 8, 9); // DGX H100: 2 × Xeon 8480C, 8 × DDR5-4800 each
    expect(defaultOf('h200')).toBeCloseTo(2 * 8 * 4.8 * 8, 9);
    expect(defaultOf('b200')).toBeCloseTo(2 * 8 * 5.6 * 8, 9); // DGX B200: 2 × Xeon 8570, 8 × DDR5-5600 each
    expect(defaultOf('gb200')).toBe(2 * 512); // one compute tray: 2 Grace, 512 GB/s of LPDDR5X each
    expect(defaultOf('rtx-4090')).toBeCloseTo(2 * 5.6 * 8, 9); // a desktop: 2 channels of DDR5-5600
  });

  it('every preset states its host bandwidth with a source', () => {
    for (const g of GPU_PRESETS) {
      expect(g.hostMemoryGBps, g.id).toBeGreaterThan(0);
      expect(g.hostMemoryGBpsSource.length, g.id).toBeGreaterThan(20);
    }
  });

  it("a custom GPU takes the DGX H100's 614.4 GB/s, as its host memory takes the DGX H100's; a given value wins", () => {
    const custom = read({ gpu: { name: 'X', memoryGiB: 48, bf16Tflops: 300, hbmGBps: 1000, intraNodeGBps: 50, interNodeGBps: 25 } });
    expect(custom.ok && custom.config.cluster.hostMemoryGBps).toBe(614.4);
    const given = read({ hostMemoryGBps: 89.6 });
    expect(given.ok && given.config.cluster.hostMemoryGBps).toBe(89.6);
    expect(given.warnings).toEqual([]);
  });

  it('refuses 0, negatives, text and absurd values with an error naming the field', () => {
    for (const bad of [0, -1, 'fast', 1e9, null]) {
      const parsed = read({ hostMemoryGBps: bad });
      if (bad === null) {
        // null reads as absent, as the other optional numbers do.
        expect(parsed.ok && parsed.config.cluster.hostMemoryGBps).toBe(614.4);
        continue;
      }
      expect(parsed.ok, String(bad)).toBe(false);
      if (!parsed.ok) expect(parsed.errors.some((e) => e.startsWith('cluster.hostMemoryGBps'))).toBe(true);
    }
  });
});

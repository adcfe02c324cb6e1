import { describe, expect, it } from 'vitest';
import { estimate } from '../estimate.ts';
import { GiB, parseDocument, type RunConfig } from '../input/index.ts';
import { LLAMA2_7B_MODEL } from '../../testing/documents.ts';
import { stageMemoryDetails } from './stages.ts';
import { cacheWithinCapacity, zero3GatherCacheBytes } from './zero3-gather-cache.ts';

// Hand derivation: Llama 2 7B (FlagPerf llama2_7b-deepspeed: 32 layers, hidden 4096, FFN
// 11,008, vocab 32,000, untied) on one GPU of DeepSpeed ZeRO-3 over 8 GPUs, bf16.
//   one layer: 4 · 4096² + 3 · 4096 · 11,008 + 2 · 4096 = 67,108,864 + 135,266,304 + 8,192 = 202,383,360
//   embedding and lm_head: 2 · 32,000 · 4096 = 262,144,000; final norm 4096
//   all: 32 · 202,383,360 + 262,144,000 + 4096 = 6,738,415,616 weights, 16-bit: 13,476,831,232 bytes
// What the allocated peak already counts as gathered (memory.ts zero3GatheredBytes): the larger of
// two layers and lm_head plus one layer, 131,072,000 + 202,383,360 = 333,455,360 < 404,766,720,
// beyond the 1/8 shard, 16-bit: 404,766,720 · 7/8 · 2 = 708,341,760 bytes.
// The gather cache: 13,476,831,232 − 708,341,760 = 12,768,489,472 bytes (11.89 GiB).
const ALL_WEIGHT_BYTES = 2 * 6_738_415_616;
const COUNTED_GATHERED = 404_766_720 * (7 / 8) * 2;
const CACHE = ALL_WEIGHT_BYTES - COUNTED_GATHERED;

function doc(training: Record<string, unknown> = {}, parallel: Record<string, unknown> = {}, gpu: unknown = 'h800') {
  return {
    version: 1,
    model: LLAMA2_7B_MODEL,
    training: {
      seqLen: 4096,
      globalBatch: 8,
      microBatch: 1,
      precision: 'bf16',
      optimizer: 'adam',
      recompute: 'none',
      framework: 'deepspeed',
      ...training,
    },
    parallel: { tp: 1, pp: 1, dp: 8, zero: 3, ...parallel },
    cluster: { gpu, gpusPerNode: 8, gpus: 8 },
  };
}

function config(raw: unknown): RunConfig {
  const parsed = parseDocument(raw);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

function memory(raw: unknown) {
  const out = estimate(raw);
  if (!('memory' in out) || out.memory === undefined) throw new Error('no memory');
  return out.memory;
}

describe("DeepSpeed ZeRO-3's gather-stream cache (training.forwardHostSync)", () => {
  it('adds the 16-bit weights gathered in one forward, less the gathered weights already counted, to reserved', () => {
    const ahead = memory(doc({ forwardHostSync: 'none' }));
    const waits = memory(doc({ forwardHostSync: 'layer' }));
    expect(ahead.reserved - waits.reserved).toBeCloseTo(CACHE, -1);
    expect(ahead.deviceUsed - waits.deviceUsed).toBeCloseTo(CACHE, -1);
    expect(ahead.perGpu.total).toBe(waits.perGpu.total);
    expect(stageMemoryDetails(config(doc({ forwardHostSync: 'none' })))[0]?.other.zero3GatherCache).toBeCloseTo(CACHE, -1);
  });

  it('counts what the allocated peak gathers once, and the whole copy at the function', () => {
    const c = config(doc({ forwardHostSync: 'none' }));
    expect(zero3GatherCacheBytes(c, { dense: 6_738_415_616, expert: 0 }, COUNTED_GATHERED)).toBe(CACHE);
    expect(zero3GatherCacheBytes(c, { dense: 6_738_415_616, expert: 0 }, 0)).toBe(ALL_WEIGHT_BYTES);
  });

  it('is absent by default, and wherever the gathers cannot run ahead or nothing is gathered', () => {
    const base = memory(doc()).reserved;
    expect(memory(doc({ forwardHostSync: 'layer' })).reserved).toBe(base);
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ framework: 'fsdp' }, {}], // FSDP's rate limiter waits on the compute stream
      [{}, { zero: 2 }], // nothing gathered below stage 3
      [{ offload: { optimizer: true, parameters: true } }, {}], // ZeRO-Infinity gathers from the host
    ];
    for (const [training, parallel] of cases) {
      const sync = memory(doc(training, parallel)).reserved;
      expect(memory(doc({ ...training, forwardHostSync: 'none' }, parallel)).reserved).toBe(sync);
    }
    // One GPU: DeepSpeed gathers nothing (partition_parameters.py _no_gather_coalesced).
    const single = { ...doc({ forwardHostSync: 'none' }, { dp: 1 }), cluster: { gpu: 'h800', gpusPerNode: 1, gpus: 1 } };
    expect(zero3GatherCacheBytes(config(single), { dense: 6_738_415_616, expert: 0 }, 0)).toBe(0);
  });

  it('takes only free memory: never past the capacity, never a "will not fit"', () => {
    const gpu = (memoryGiB: number) => ({
      name: 'test 80',
      memoryGiB,
      bf16Tflops: 989,
      hbmGBps: 3350,
      intraNodeGBps: 200,
      interNodeGBps: 25,
    });
    // 48 GiB: the run fits without the cache (about 45 GiB on this custom GPU), so the cache fills the rest.
    const roomy = memory(doc({ forwardHostSync: 'none' }, {}, gpu(48)));
    const without = memory(doc({}, {}, gpu(48)));
    expect(without.deviceUsed).toBeLessThan(48 * GiB);
    expect(without.deviceUsed + CACHE).toBeGreaterThan(48 * GiB);
    expect(roomy.deviceUsed).toBeCloseTo(48 * GiB, -1);
    expect(roomy.fits).toBe(true);
    // 40 GiB: the run does not fit without the cache, and the cache adds nothing to it.
    const tight = memory(doc({ forwardHostSync: 'none' }, {}, gpu(40)));
    const tightWithout = memory(doc({}, {}, gpu(40)));
    expect(tight.deviceUsed).toBe(tightWithout.deviceUsed);
    expect(tight.fits).toBe(false);
  });

  it('cacheWithinCapacity: the smaller of the cache and the free bytes, never negative', () => {
    expect(cacheWithinCapacity(10, 50, 80)).toBe(10);
    expect(cacheWithinCapacity(40, 50, 80)).toBe(30);
    expect(cacheWithinCapacity(40, 90, 80)).toBe(0);
    expect(cacheWithinCapacity(-5, 50, 80)).toBe(0);
  });

  it('reads only "layer" and "none"', () => {
    const parsed = parseDocument(doc({ forwardHostSync: 'step' }));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors.join(' ')).toContain('training.forwardHostSync');
  });
});

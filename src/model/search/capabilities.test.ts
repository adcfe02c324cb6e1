import { describe, expect, it } from 'vitest';
import { layoutGroups } from './space.ts';
import { allowedGpuCounts, sizingGranularity } from './sizing.ts';
import { searchLayouts } from './search.ts';
import { searchDocument } from './document.ts';
import { otherFrameworkNote } from './switches.ts';
import { searchBase, searchRunDocument, type SearchRunSpec } from '../../testing/search-fixtures.ts';
import { DUALPIPE_MIN_MICRO_BATCHES_PER_STAGE, type Framework } from '../input/index.ts';

// Issue 36: the search and cluster sizing offer only what the chosen framework runs.
// Megatron-LM runs 1F1B and interleaved 1F1B (megatron/core/pipeline_parallel/schedules.py
// get_forward_backward_func); torchtitan runs DualPipeV through torch.distributed.pipelining,
// whose ScheduleDualPipeV needs n_microbatches >= num_stages = 2 per rank × pp (DeepSeek's
// reference, deepseek-ai/DualPipe dualpipe.py, asserts num_chunks >= num_ranks * 2).
const MIXTRAL: SearchRunSpec = { model: 'mixtral-8x7b', gpu: 'h100-sxm', gpus: 64, globalBatch: 64, seqLen: 4096 };
const on = (framework: Framework, spec: SearchRunSpec = MIXTRAL) => searchBase({ ...spec, training: { ...spec.training, framework } });

describe('pipeline schedules follow the framework', () => {
  it('under Megatron-LM no layout of the space uses DualPipe, zero-bubble or GPipe with a pipeline', () => {
    const groups = layoutGroups(on('megatron'), { gpuCounts: [64], fixed: { tp: 2 } });
    const piped = groups.filter((g) => g.pp > 1);
    expect(piped.length).toBeGreaterThan(0);
    const schedules = new Set(piped.flatMap((g) => g.shapes.map((s) => s.schedule)));
    expect([...schedules].sort()).toEqual(['1f1b', 'interleaved-1f1b']);
  });

  it('under torchtitan DualPipe is offered, and only with at least 2 × pp micro-batches per step', () => {
    expect(DUALPIPE_MIN_MICRO_BATCHES_PER_STAGE).toBe(2);
    const groups = layoutGroups(on('torchtitan'), { gpuCounts: [64], fixed: { tp: 2 } });
    const dual = groups.filter((g) => g.shapes.some((s) => s.schedule === 'dualpipe'));
    expect(dual.length).toBeGreaterThan(0);
    for (const g of dual) expect(g.microBatches, JSON.stringify({ pp: g.pp, m: g.microBatches })).toBeGreaterThanOrEqual(2 * g.pp);
    // And groups below the minimum exist, without DualPipe: the rule removed it there.
    const below = groups.filter((g) => g.pp > 1 && g.pp % 2 === 0 && g.microBatches < 2 * g.pp);
    expect(below.length).toBeGreaterThan(0);
    for (const g of below) expect(g.shapes.map((s) => s.schedule)).not.toContain('dualpipe');
  });

  it("the ranked search: Megatron-LM never returns DualPipe; torchtitan's DualPipe results meet the minimum", () => {
    const options = { gpuCounts: [64], fixed: { tp: 2, ep: 8 }, topK: 10, groupByLayout: false, pareto: false };
    const megatron = searchLayouts(on('megatron'), options);
    expect(megatron.top.length).toBeGreaterThan(0);
    expect(megatron.top.every((l) => l.parallel.schedule !== 'dualpipe')).toBe(true);
    const titan = searchLayouts(on('torchtitan'), { ...options, fixed: { ...options.fixed, schedule: 'dualpipe' } });
    expect(titan.top.length).toBeGreaterThan(0);
    for (const l of titan.top) expect(64 / (l.microBatch * l.parallel.dp)).toBeGreaterThanOrEqual(2 * l.parallel.pp);
  });

  it('cluster sizing: a DualPipe run has no cluster size under Megatron-LM, and some under torchtitan', () => {
    const fixed = { schedule: 'dualpipe' as const };
    expect(allowedGpuCounts(on('megatron'), { fixed }, { min: 8, max: 256 })).toEqual([]);
    expect(allowedGpuCounts(on('torchtitan'), { fixed }, { min: 8, max: 256 }).length).toBeGreaterThan(0);
  });

  it('DeepSpeed runs ZeRO 2 and 3 only without a pipeline (PipelineEngine)', () => {
    const groups = layoutGroups(on('deepspeed'), { gpuCounts: [64], fixed: { tp: 2 } });
    for (const g of groups.filter((x) => x.pp > 1)) expect(Math.max(...g.combos.map((c) => c.zero))).toBeLessThanOrEqual(1);
    expect(groups.some((g) => g.pp === 1 && g.combos.some((c) => c.zero === 3))).toBe(true);
  });
});

describe('a precision the GPU has no tensor cores for', () => {
  it("is refused by the search with the engine's reason", () => {
    const out = searchDocument(searchRunDocument({ ...MIXTRAL, training: { precision: 'fp4' } }));
    expect(out.results).toEqual([]);
    expect(out.errors.join(' ')).toMatch(/fp4 needs FP4 tensor cores/);
  });
});

describe('cluster sizing counts whole OS nodes and says why a GPU type has no result', () => {
  const LLAMA: SearchRunSpec = { model: 'llama3-8b', gpu: 'gb200', gpus: 8, globalBatch: 1024, seqLen: 4096 };
  it('GB200: whole compute trays of 4 GPUs, not whole 72-GPU racks (1,024 is a candidate)', () => {
    const base = searchBase({ ...LLAMA, training: { framework: 'megatron' } });
    const counts = allowedGpuCounts(base, {}, { min: 1000, max: 1100 });
    expect(counts).toContain(1024);
    expect(counts.every((n) => n % 4 === 0)).toBe(true);
    expect(sizingGranularity(base)).toMatch(/whole compute trays of 4 GPUs.*NVLink domain holds 72/);
  });

  it('a GPU type that cannot run the document is dropped with the reason, the others searched', () => {
    const doc = {
      ...searchRunDocument({ ...LLAMA, training: { precision: 'fp4', framework: 'megatron' } }),
      search: { gpuTypes: ['h100-sxm', 'gb200'] },
    };
    const out = searchDocument(doc, { gpuCounts: [8], topK: 2 });
    expect(out.errors).toEqual([]);
    expect(out.warnings.some((w) => /h100-sxm has no result: training\.precision: fp4 needs FP4 tensor cores/.test(w))).toBe(true);
    expect(out.results.length).toBeGreaterThan(0);
    expect(out.results.every((r) => r.cluster.gpu === 'gb200')).toBe(true);
  });
});

describe("the search tries the framework's own switches, and names a better plan another framework runs", () => {
  // Mixtral 8x7B on 64 H100 under Megatron-LM (alltoall dispatcher): EP overlap is a switch of
  // its own (--overlap-moe-expert-parallel-comm); whole-iteration graphs are not tried, the
  // alltoall dispatcher synchronises with the host (capabilities.ts cudaGraphProblem).
  const doc = { ...searchRunDocument({ ...MIXTRAL, training: { framework: 'megatron' } }), parallel: { tp: 2 } };
  const out = searchDocument(doc, { topK: 3 });
  it('results carry the switches, and EP overlap only where Megatron-Core runs it', () => {
    expect(out.errors).toEqual([]);
    const all = out.results.flatMap((r) => [r, ...r.variants]);
    expect(all.every((r) => r.training.epComm !== undefined && r.training.cudaGraph === 'none')).toBe(true);
    expect(all.some((r) => r.training.epComm === true)).toBe(true);
    for (const r of all.filter((x) => x.training.epComm)) {
      expect(r.parallel.ep).toBeGreaterThan(1);
      expect(r.training.recompute).not.toBe('full');
      if (r.parallel.pp > 1) expect(r.parallel.schedule).toBe('interleaved-1f1b');
      expect(r.output.warnings.some((w) => w.startsWith('training.overlap.epComm'))).toBe(false);
    }
  });
  it('a DualPipe plan is a labelled note for torchtitan, never a Megatron-LM result', () => {
    expect(out.results.every((r) => r.parallel.schedule !== 'dualpipe')).toBe(true);
    const base = on('megatron', { ...MIXTRAL, globalBatch: 256 });
    const options = { gpuCounts: [64], fixed: { tp: 2, pp: 4 } };
    // Against a run that would take a million days, torchtitan's DualPipeV is named, with its days and layout …
    expect(otherFrameworkNote(base, options, 1e6)).toMatch(
      /^Another framework: torchtitan's DualPipeV would take [\d.]+ days on 64 GPUs \(TP 2, PP 4, .*against 1000000\.0 days with Megatron-LM's best/,
    );
    // … never when it is not sooner, nor when the framework runs DualPipe itself.
    expect(otherFrameworkNote(base, options, 1e-6)).toBeNull();
    expect(otherFrameworkNote(on('torchtitan', { ...MIXTRAL, globalBatch: 256 }), options, 1e6)).toBeNull();
  });
});

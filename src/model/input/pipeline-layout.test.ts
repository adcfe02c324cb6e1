import { describe, expect, it } from 'vitest';
import { parseDocument } from './document.ts';
import { layoutKeptFor, parsePipelineLayout } from './pipeline-layout.ts';

const chunkText = (text: string) => {
  const parsed = parsePipelineLayout(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.chunks.map((c) => `${c.embedding ? 'E' : ''}${'t'.repeat(c.decoderLayers)}${'m'.repeat(c.mtpLayers)}${c.loss ? 'L' : ''}`);
};

describe("Megatron's layout grammar (pipeline_parallel_layer_layout.py parse_str_to_list)", () => {
  it("unrolls the docstring's own example the way Megatron-Core does", () => {
    // Docstring: "Ettt|(tt|)*29,m|L" → [["E","t","t","t"]] + [["t","t"]]*29 + [["m"],["L"]]: 32 chunks.
    expect(chunkText('Ettt|(tt|)*29,m|L')).toEqual(['Ettt', ...Array<string>(29).fill('tt'), 'm', 'L']);
  });

  it('unrolls (…)*N before x*N, keeps empty chunks, and ignores commas', () => {
    // Bridge v0.3.0 GB300 preset "Et*4|(t*4|)*14tmL": (t*4|)*14 first, then each t*4: 16 chunks.
    expect(chunkText('Et*4|(t*4|)*14tmL')).toEqual(['Etttt', ...Array<string>(14).fill('tttt'), 'tmL']);
    // arguments.py help: "E|(t|)*3,m|m||L": an empty chunk between the two "|".
    expect(chunkText('E|(t|)*3,m|m||L')).toEqual(['E', 't', 't', 't', 'm', 'm', '', 'L']);
  });

  it('names a character that is not a layer, and refuses a text that unrolls too far', () => {
    const bad = parsePipelineLayout('Et|(tt|*30mL');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.reason).toMatch(/^"\(" is not a layer: write E \(embedding\), t \(decoder layer\)/);
    const huge = parsePipelineLayout('E(tttttttttt)*999999999L');
    expect(huge.ok).toBe(false);
    if (!huge.ok) expect(huge.reason).toMatch(/unrolls to more than/);
  });
});

/** DeepSeek-V3's shape (config_671B.json: 61 layers, 3 dense, 256 experts top-8, MLA) with one MTP layer, on 1,024 H100 at PP 8 × VPP 4. */
function deepseek(parallel: Record<string, unknown>, mtpLayers = 1) {
  return {
    version: 1,
    model: {
      layers: 61,
      hidden: 7168,
      heads: 128,
      kvHeads: 128,
      ffnHidden: 18432,
      ffnType: 'swiglu',
      vocab: 129280,
      moe: { experts: 256, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 3 },
      mla: { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 },
      mtpLayers,
    },
    training: { seqLen: 4096, globalBatch: 8192, microBatch: 1, precision: 'bf16', framework: 'megatron' },
    parallel: { tp: 2, pp: 8, ep: 64, vpp: 4, ...parallel },
    cluster: { gpu: 'h100-sxm', gpus: 1024 },
  };
}

const errorsOf = (doc: unknown) => {
  const parsed = parseDocument(doc);
  return parsed.ok ? [] : parsed.errors;
};

describe('parallel.pipelineLayout in a document', () => {
  it('takes the Bridge H100 preset at PP 8 × VPP 4 and keeps the text as written, trimmed', () => {
    const parsed = parseDocument(deepseek({ pipelineLayout: ' Et|(tt|)*30mL ' }));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.config.parallel.pipelineLayout).toBe('Et|(tt|)*30mL');
  });

  it('absent, null or blank: no key in the config (the even split, every figure as before)', () => {
    for (const value of [undefined, null, '', '  ']) {
      const parsed = parseDocument(deepseek(value === undefined ? {} : { pipelineLayout: value }));
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expect('pipelineLayout' in parsed.config.parallel).toBe(false);
    }
  });

  it("names each of Megatron-Core's checks in the field's words", () => {
    const at = 'parallel.pipelineLayout: ';
    expect(errorsOf(deepseek({ pipelineLayout: 7 }))).toEqual([`${at}must be Megatron's layout as text, such as "Et|(tt|)*30mL", got 7`]);
    expect(errorsOf(deepseek({ pipelineLayout: 'Et|(tt|)*30mL', vpp: 2 }))).toEqual([
      `${at}has 32 chunks between "|"; pp × vpp = 8 × 2 needs 16 (for 32 chunks set parallel.vpp to 4)`,
    ]);
    expect(errorsOf(deepseek({ pipelineLayout: 'tE|(tt|)*30mL' }))).toEqual([`${at}must start with E (the embedding) and name it once`]);
    expect(errorsOf(deepseek({ pipelineLayout: 'Et|(tt|)*30Lm' }))).toEqual([
      `${at}must end with L (the loss and output layer) and name it once`,
    ]);
    expect(errorsOf(deepseek({ pipelineLayout: 'E|(tt|)*30mL' }))).toEqual([`${at}holds 60 decoder layers (t); model.layers is 61`]);
    expect(errorsOf(deepseek({ pipelineLayout: 'Et|(tt|)*30L' }))).toEqual([`${at}holds 0 MTP layers (m); model.mtpLayers is 1`]);
    expect(errorsOf(deepseek({ pipelineLayout: 'Et|(tt|)*30mL' }, 0))).toEqual([`${at}holds 1 MTP layer (m); model.mtpLayers is 0`]);
    expect(errorsOf(deepseek({ pipelineLayout: 'Et|(tt|)*29t,m|tL' }))).toEqual([
      `${at}decoder layers (t) must come before the MTP layers (m)`,
    ]);
    // Megatron-Core after core_v0.15.0 also runs MTP alone on an earlier rank's last chunk; the engine keeps it with the loss.
    expect(errorsOf(deepseek({ pipelineLayout: 'Et|(tt|)*29ttm|L' }))).toEqual([
      `${at}the MTP layers (m) must sit in the last chunk, with L (Megatron-Core core_v0.15.0; a separate MTP stage is not modelled)`,
    ]);
  });

  it('refuses DualPipe and a framework that splits the pipeline its own way', () => {
    const dual = deepseek({ pipelineLayout: 'Et*7|(t*8|)*6t*6mL', vpp: 1, schedule: 'dualpipe' });
    expect(errorsOf(dual)).toContain(
      'parallel.pipelineLayout: DualPipe places two chunks on each rank, one per direction; a Megatron layout is for 1F1B and interleaved 1F1B',
    );
    const titan = deepseek({ pipelineLayout: 'Et|(tt|)*30mL' });
    titan.training.framework = 'torchtitan';
    expect(errorsOf(titan)).toContain(
      `parallel.pipelineLayout: is Megatron-LM's --pipeline-model-parallel-layout; training.framework "torchtitan" splits the pipeline its own way`,
    );
  });
});

describe('a stated layout carried to other degrees (search, fixes)', () => {
  it('stays only where pp and vpp are its own', () => {
    const stated = { pp: 8, vpp: 4, pipelineLayout: 'Et|(tt|)*30mL' };
    expect(layoutKeptFor(stated, { pp: 8, vpp: 4, schedule: 'interleaved-1f1b' })).toEqual({ pipelineLayout: 'Et|(tt|)*30mL' });
    expect(layoutKeptFor(stated, { pp: 8, vpp: 2, schedule: 'interleaved-1f1b' })).toEqual({});
    expect(layoutKeptFor(stated, { pp: 4, vpp: 4, schedule: 'interleaved-1f1b' })).toEqual({});
    expect(layoutKeptFor({ pp: 8, vpp: 4 }, { pp: 8, vpp: 4, schedule: 'interleaved-1f1b' })).toEqual({});
  });
});

import { describe, expect, it } from 'vitest';
import { EVERY_FIELD_DOCUMENT, FINETUNE_DOCUMENT, MOE_STACK_DOCUMENT } from '../../testing/documents.ts';
import { SWEEP_KNOBS } from '../sweep/index.ts';
import { parseDocument } from './document.ts';
import { DOC_PATHS, FIELDS, fieldSpec, keysUnder, pathUnder, readSwitches, STACK_KEYS } from './schema.ts';
import { FieldReader } from './fields.ts';
import { TRAINING_SWITCH_KEYS, TRAINING_SWITCHES } from './switches.ts';

// The field table (schema.ts) is the one list of the document's fields; these tests hold
// the lists derived from it to the ones the parser kept by hand before (issue 33 item 1:
// no behaviour change), and the every-field test document to every field.

describe('the key lists the parser reads from the field table', () => {
  // The lists document.ts and stack.ts kept by hand until issue 33, as sets (unknownKeys asks only membership).
  const before: Readonly<Record<string, readonly string[]>> = {
    '': ['version', 'model', 'training', 'parallel', 'cluster', 'cost', 'calibration', 'search', 'warnings'],
    model: [
      'name',
      'layers',
      'hidden',
      'heads',
      'kvHeads',
      'headDim',
      'ffnHidden',
      'ffnType',
      'vocab',
      'tiedEmbeddings',
      'moe',
      'mla',
      'mtpLayers',
      'slidingWindow',
    ],
    'model.slidingWindow': ['window', 'layerTypes'],
    'model.moe': ['experts', 'topK', 'expertFfnHidden', 'sharedExperts', 'denseLayers', 'capacityFactor'],
    'model.mla': ['qLoraRank', 'kvLoraRank', 'qkNopeHeadDim', 'qkRopeHeadDim', 'vHeadDim'],
    parallel: ['tp', 'pp', 'dp', 'cp', 'ep', 'vpp', 'etp', 'pipelineLayout', 'sequenceParallel', 'zero', 'schedule'],
    cluster: ['gpu', 'gpusPerNode', 'gpus', 'hostMemoryGiB', 'hostMemoryGBps'],
    'cluster.gpu': [
      'name',
      'memoryGiB',
      'bf16Tflops',
      'fp8Tflops',
      'fp32Tflops',
      'fp4Tflops',
      'expTeraOpsPerSecond',
      'hbmGBps',
      'intraNodeGBps',
      'interNodeGBps',
      'tdpWatts',
      'usdPerHour',
    ],
    cost: [
      'usdPerGpuHour',
      'pue',
      'gridKgCo2PerKwh',
      'gpuMtbfHours',
      'checkpointWriteGBps',
      'checkpointIntervalMinutes',
      'capacity',
      'spotUsdPerGpuHour',
      'preemptionsPerNodeDay',
      'restartMinutes',
      'elastic',
      'startDate',
    ],
    calibration: ['computeEfficiencyScale', 'memoryOverheadScale'],
    'training.offload': ['optimizer', 'parameters', 'optimizerFraction'],
    'training.adapter': ['method', 'rank', 'modules'],
    'training.overlap': ['tpComm', 'dpGrad', 'dpParam', 'epComm'],
  };
  const stackBefore = [
    'framework',
    'loss',
    'compile',
    'dropout',
    'recomputeModules',
    'selectivePolicy',
    'recomputeLayerFrequency',
    'recomputeLayers',
    'optimizerStateDtype',
    'activationOffloadLayers',
    'attentionKernel',
    'fp8Recipe',
    'fp8ParamGather',
    'overlap',
    'modelCode',
    'forwardHostSync',
    'moeDispatcher',
    'cudaGraph',
    'frameworkRelease',
  ];
  const trainingBefore = [
    'seqLen',
    'globalBatch',
    'microBatch',
    'tokens',
    'precision',
    'optimizer',
    'masterWeights',
    'gradDtype',
    'recompute',
    ...TRAINING_SWITCH_KEYS,
    'offload',
    'adapter',
    // Issue 32 item 4: the MoE routing fields (input/moe-routing.ts), training fields, not stack ones.
    'moeLoadImbalance',
    'moeRouter',
    ...stackBefore,
  ];

  for (const [section, keys] of Object.entries(before)) {
    it(`${section || 'the top level'}: the same keys as before`, () => {
      expect([...keysUnder(section)].sort()).toEqual([...keys].sort());
    });
  }
  it('training and its software stack: the same keys as before, the switches included', () => {
    expect([...keysUnder('training')].sort()).toEqual([...trainingBefore].sort());
    expect([...STACK_KEYS]).toEqual(stackBefore);
  });

  it('a key outside the table is still one warning, a key inside none', () => {
    const doc = structuredClone(EVERY_FIELD_DOCUMENT) as unknown as Record<string, Record<string, unknown>>;
    const parsed = parseDocument({ ...doc, training: { ...doc['training'], flashAtention: true } });
    expect(parsed.warnings.filter((w) => w.includes('unknown field'))).toEqual(['training.flashAtention: unknown field, ignored']);
  });
});

describe('the switch table', () => {
  it('reads each switch as its entry says: absent or null its default, a non-boolean an error naming it', () => {
    const r = new FieldReader();
    const absent = readSwitches(r, {});
    for (const key of TRAINING_SWITCH_KEYS) expect(absent[key]).toBe(TRAINING_SWITCHES[key].default);
    expect(readSwitches(r, { flashAttention: null }).flashAttention).toBe(true);
    expect(readSwitches(r, { flashAttention: false }).flashAttention).toBe(false);
    expect(r.errors).toEqual([]);
    readSwitches(r, { flashAttention: 'yes' });
    expect(r.errors).toEqual(['training.flashAttention: must be true or false, got "yes"']);
  });

  it('flashAttention reads as before: absent is on, false is off', () => {
    const on = parseDocument(EVERY_FIELD_DOCUMENT);
    const off = parseDocument({ ...EVERY_FIELD_DOCUMENT, training: { ...EVERY_FIELD_DOCUMENT.training, flashAttention: false } });
    expect(on.ok && on.config.training.flashAttention).toBe(true);
    expect(off.ok && off.config.training.flashAttention).toBe(false);
  });
});

/** Leaves of a JSON value as dotted paths (a list is one leaf). */
function leafPaths(value: unknown, path = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [path];
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, path ? `${path}.${key}` : key));
}

describe('the every-field test documents', () => {
  // Fields the every-field documents leave out on purpose: MLA is its own model (hf-config tests),
  // a custom GPU's exp rate follows from its BF16 peak, and the spot, elastic and calendar fields
  // have documents of their own in the reliability tests; search and warnings are blocks, not fields.
  const leftOut = new Set([
    'model.mla.qLoraRank',
    'model.mla.kvLoraRank',
    'model.mla.qkNopeHeadDim',
    'model.mla.qkRopeHeadDim',
    'model.mla.vHeadDim',
    'training.offload.optimizerFraction',
    'cluster.gpu.expTeraOpsPerSecond',
    'cluster.hostMemoryGiB',
    'cluster.hostMemoryGBps',
    'cost.checkpointIntervalMinutes',
    'cost.capacity',
    'cost.spotUsdPerGpuHour',
    'cost.preemptionsPerNodeDay',
    'cost.restartMinutes',
    'cost.elastic',
    'cost.startDate',
    'search',
    'warnings',
  ]);

  it('set every field of the table that has no object below it, but those left out on purpose', () => {
    const set = new Set([EVERY_FIELD_DOCUMENT, MOE_STACK_DOCUMENT, FINETUNE_DOCUMENT].flatMap((d) => leafPaths(d)));
    const leaves = DOC_PATHS.filter((p) => fieldSpec(p)?.kind !== 'object' && fieldSpec(p)?.kind !== 'gpu');
    expect(leaves.filter((p) => !set.has(p) && !leftOut.has(p))).toEqual([]);
    // Each left out is still a field of the table (the list goes stale otherwise).
    for (const p of leftOut) expect(fieldSpec(p)).toBeDefined();
  });

  it('hold no key the table lacks', () => {
    const known = new Set<string>(DOC_PATHS);
    const paths = [EVERY_FIELD_DOCUMENT, MOE_STACK_DOCUMENT, FINETUNE_DOCUMENT].flatMap((d) => leafPaths(d));
    expect(paths.filter((p) => !known.has(p) && !p.startsWith('model.mla'))).toEqual([]);
  });
});

describe('the table against the rest of the engine', () => {
  it('names only sweep knobs that exist, and each knob of a single field at most once', () => {
    const knobs = Object.values(FIELDS).flatMap((spec) => ('knob' in spec && typeof spec.knob === 'string' ? [spec.knob] : []));
    for (const knob of knobs) expect(SWEEP_KNOBS).toContain(knob);
    expect(new Set(knobs).size).toBe(knobs.length);
  });

  it('builds paths under an object as the document spells them', () => {
    expect(pathUnder('training.offload', 'optimizer')).toEqual(['training', 'offload', 'optimizer']);
    expect(pathUnder('cost', 'pue')).toEqual(['cost', 'pue']);
  });
});

import type { ModelJson } from '../input/index.ts';
import { expandCitation } from './citations.ts';
import PRESETS_FILE from './presets.json' with { type: 'json' };
import { denseShape as dense } from './shape.ts';
import type { ModelPreset } from './types.ts';

// Model presets: what each model is (hubIds, published parameter count, pre-training and
// longest context, the authors' expert parallelism) and where every number comes from are
// data, in presets.json, where a source opening with `{NAME}` stands for one of the file's
// `citations` (citations.ts); each shape is built here with the catalog's shape builders, as
// the interchange document's `model` object, so a preset drops into a document unchanged.
// `seqLen` is the sequence length the model was pre-trained at (its main pre-training stage,
// not a later long-context stage), the preset's `training.seqLen`; `longestContext` is the
// longest context it was trained or extended to, a fact of the model shown beside the picker,
// never a training length the preset sets (issue 31 item 3). Mixtral 8x22B's pre-training
// length is NeMo's recipe's, Mistral AI not having published it (its contextSource says so).

type PresetId = keyof typeof PRESETS_FILE.presets;

const llama3 = (size: '8B' | '70B' | '405B', version: '3' | '3.1'): ModelJson => {
  const name = `Llama ${version} ${size}`;
  if (size === '8B') return dense(name, 32, 4096, 32, 8, 14336, 128256);
  if (size === '70B') return dense(name, 80, 8192, 64, 8, 28672, 128256);
  return dense(name, 126, 16384, 128, 8, 53248, 128256);
};

/** Each preset's shape; the compiler asks for one per preset of presets.json. */
const SHAPES: Readonly<Record<PresetId, ModelJson>> = {
  'gpt3-175b': dense('GPT-3 175B', 96, 12288, 96, 96, 49152, 51200, { ungated: true, tied: true }),
  'llama2-7b': dense('Llama 2 7B', 32, 4096, 32, 32, 11008, 32000),
  'llama2-13b': dense('Llama 2 13B', 40, 5120, 40, 40, 13824, 32000),
  'llama2-70b': dense('Llama 2 70B', 80, 8192, 64, 8, 28672, 32000),
  'llama3-8b': llama3('8B', '3'),
  'llama3-70b': llama3('70B', '3'),
  'llama3-405b': llama3('405B', '3'),
  'llama3.1-8b': llama3('8B', '3.1'),
  'llama3.1-70b': llama3('70B', '3.1'),
  'llama3.1-405b': llama3('405B', '3.1'),
  'mixtral-8x7b': {
    name: 'Mixtral 8x7B',
    layers: 32,
    hidden: 4096,
    heads: 32,
    kvHeads: 8,
    ffnHidden: 14336,
    ffnType: 'swiglu',
    vocab: 32000,
    tiedEmbeddings: false,
    moe: { experts: 8, topK: 2, expertFfnHidden: 14336, sharedExperts: 0, denseLayers: 0 },
    mla: null,
    mtpLayers: 0,
  },
  'mixtral-8x22b': {
    name: 'Mixtral 8x22B',
    layers: 56,
    hidden: 6144,
    heads: 48,
    kvHeads: 8,
    ffnHidden: 16384,
    ffnType: 'swiglu',
    vocab: 32000,
    tiedEmbeddings: false,
    moe: { experts: 8, topK: 2, expertFfnHidden: 16384, sharedExperts: 0, denseLayers: 0 },
    mla: null,
    mtpLayers: 0,
  },
  'deepseek-v3': {
    name: 'DeepSeek-V3 671B',
    layers: 61,
    hidden: 7168,
    heads: 128,
    kvHeads: 128,
    ffnHidden: 18432,
    ffnType: 'swiglu',
    vocab: 129280,
    tiedEmbeddings: false,
    moe: { experts: 256, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 3 },
    mla: { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 },
    mtpLayers: 1,
  },
  'qwen2.5-72b': dense('Qwen2.5 72B', 80, 8192, 64, 8, 29568, 152064),
  'megatron-1t': dense('Megatron GPT 1T', 128, 25600, 160, 160, 102400, 51200, { ungated: true, tied: true }),
};

type PresetFacts = Omit<ModelPreset, 'id' | 'model'>;

/** A preset's facts with each source's `{NAME}` expanded. */
function withCitations(facts: PresetFacts): PresetFacts {
  const cite = (source: string) => expandCitation(source, PRESETS_FILE.citations);
  const { authorsEp, params } = facts;
  return {
    ...facts,
    params: { ...params, source: cite(params.source) },
    contextSource: cite(facts.contextSource),
    source: cite(facts.source),
    ...(authorsEp ? { authorsEp: { ...authorsEp, source: cite(authorsEp.source) } } : {}),
  };
}

/** The presets' facts as their file states them; the compiler checks each entry's fields here. */
const FACTS: Readonly<Record<PresetId, PresetFacts>> = PRESETS_FILE.presets;

export const MODEL_PRESETS: readonly ModelPreset[] = (Object.keys(FACTS) as PresetId[]).map((id) => {
  const { hubIds, params, ...rest } = withCitations(FACTS[id]);
  // The catalog's field order (types.ts): the shape after the parameter count.
  return { id, hubIds, params, model: SHAPES[id], ...rest };
});

/** The preset with this id, or undefined. */
export function findModelPreset(id: string): ModelPreset | undefined {
  return MODEL_PRESETS.find((preset) => preset.id === id);
}

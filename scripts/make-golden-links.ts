// npx tsx scripts/make-golden-links.ts [--write]
// Prints (or, with --write, writes) the golden links of e2e/golden-links/: one per
// released link format and per feature, each with the document it must open forever.
// Run ONCE when a format or feature is released; afterwards the committed files are
// the contract and no test ever regenerates them (see e2e/golden-links/README.md).
// Existing files are never overwritten: an old link must keep passing as it is.

import { existsSync, writeFileSync } from 'node:fs';
import { estimate } from '../src/model/estimate.ts';
import { DEFAULT_DOCUMENT } from '../src/state/defaults.ts';
import type { Doc } from '../src/state/doc.ts';
import { encodeConfigFragment, encodeShareFragment } from '../src/state/url-codec.ts';
import { EVERY_FIELD_DOCUMENT } from '../src/testing/documents.ts';
import { keyFigures } from '../src/ui/keyFigures.ts';

interface Golden {
  readonly name: string;
  readonly description: string;
  readonly document: Doc;
  readonly link: (document: Doc) => Promise<string>;
  readonly embed?: boolean;
}

const LLAMA3_8B_ON_16_A100 = {
  version: 1,
  model: { name: 'Llama 3 8B', layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 },
  training: { seqLen: 4096, globalBatch: 64, microBatch: 2 },
  parallel: { tp: 2, pp: 2, dp: 4 },
  cluster: { gpu: 'a100-80gb', gpus: 16 },
};

/** Mixtral 8x7B (Jiang et al. 2024, Table 1) on 64 H100: TP 2 × PP 4 × DP 8, experts split 8 ways. */
const MIXTRAL_ON_64_H100 = {
  version: 1,
  model: {
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
  training: { seqLen: 4096, globalBatch: 512, microBatch: 1, precision: 'bf16', recompute: 'selective' },
  parallel: { tp: 2, pp: 4, dp: 8, ep: 8, zero: 1, schedule: '1f1b' },
  cluster: { gpu: 'h100-sxm', gpus: 64 },
};

/** DeepSeek-V3's shape (arXiv 2412.19437) with MLA, MTP and DualPipe on 2,048 H100: PP 16 × DP 128, EP 64. */
const DEEPSEEK_DUALPIPE = {
  version: 1,
  model: {
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
  training: { seqLen: 4096, globalBatch: 15360, microBatch: 1, precision: 'fp8', tokens: 14.8e12 },
  parallel: { tp: 1, pp: 16, dp: 128, ep: 64, zero: 1, schedule: 'dualpipe' },
  cluster: { gpu: 'h100-sxm', gpus: 2048 },
};

const share = (document: Doc) => encodeShareFragment(document);
const config = (padded: boolean) => async (document: Doc) => {
  const fragment = encodeConfigFragment(document);
  const length = fragment.length - 'config='.length;
  return padded ? fragment + '='.repeat((4 - (length % 4)) % 4) : fragment;
};

const GOLDENS: readonly Golden[] = [
  {
    name: 's1-default',
    description: "Share link, format 1 (s=1.): the page's default configuration, Llama 3 70B on 64 H100",
    document: DEFAULT_DOCUMENT,
    link: share,
  },
  {
    name: 's1-every-field',
    description:
      'Share link, format 1: every optional field written out, a custom GPU, MoE with EP, interleaved 1F1B, CP, ZeRO-2, fp8, offload, calibration',
    document: EVERY_FIELD_DOCUMENT as unknown as Doc,
    link: share,
  },
  {
    name: 's1-moe',
    description: 'Share link, format 1: Mixtral 8x7B with expert parallelism 8',
    document: MIXTRAL_ON_64_H100,
    link: share,
  },
  {
    name: 'config-unpadded',
    description: '#config= link (interchange spec "In the page"), base64url without padding, only the required fields',
    document: LLAMA3_8B_ON_16_A100,
    link: config(false),
  },
  {
    name: 'config-padded',
    description: '#config= link with base64 "=" padding',
    document: { ...LLAMA3_8B_ON_16_A100, model: { ...LLAMA3_8B_ON_16_A100.model, name: 'Llama 3 8B (padded)' } },
    link: config(true),
  },
  {
    name: 'embed-s1-dualpipe',
    description: 'Embed link (?embed=1#s=1.): DeepSeek-V3 with MLA, MTP and DualPipe in the compact view',
    document: DEEPSEEK_DUALPIPE,
    link: share,
    embed: true,
  },
];

async function build(golden: Golden) {
  const fragment = await golden.link(golden.document);
  const output = estimate(golden.document);
  if (output.errors.length > 0) throw new Error(`${golden.name}: ${output.errors.join('; ')}`);
  const figures = keyFigures(output).filter((f) => !golden.embed || f.headline);
  return {
    description: golden.description,
    url: `/${golden.embed ? '?embed=1' : ''}#${fragment}`,
    expect: { document: golden.document },
    figuresWhenRecorded: {
      note:
        `Informational: what the engine showed on ${new Date().toISOString().slice(0, 10)}. ` +
        `The test compares the page with the engine of the day, not with these.`,
      ...Object.fromEntries(figures.map((f) => [f.id, f.text])),
    },
  };
}

const write = process.argv.includes('--write');
for (const golden of GOLDENS) {
  const path = new URL(`../e2e/golden-links/${golden.name}.json`, import.meta.url);
  const text = `${JSON.stringify(await build(golden), null, 2)}\n`;
  if (!write) process.stdout.write(`// ${golden.name}.json\n${text}`);
  else if (existsSync(path)) console.log(`kept ${golden.name}.json (golden links are never rewritten)`);
  else {
    writeFileSync(path, text);
    console.log(`wrote ${golden.name}.json`);
  }
}

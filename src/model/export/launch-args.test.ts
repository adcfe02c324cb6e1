import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DOCUMENT } from '../../state/defaults.ts';
import { parseDocument } from '../input/index.ts';
import { launchExports, launchExportsForDocument, megatronExport, torchtitanExport, deepspeedExport } from './launch-args.ts';
import type { RunConfig } from '../input/index.ts';

// The golden files under __golden__/launch/ were written by hand from each project's
// documented names (Megatron-LM megatron/training/arguments.py and its Llama 3 and
// Mixtral example scripts; DeepSpeed docs/_pages/config-json.md; torchtitan
// torchtitan/config/job_config.py), not generated: a change in the mapping must be
// made in both places, deliberately.

const golden = (name: string) => readFileSync(fileURLToPath(new URL(`./__golden__/launch/${name}`, import.meta.url)), 'utf8');
const goldenDocument = (name: string): unknown => JSON.parse(golden(`${name}.document.json`));

function config(document: unknown): RunConfig {
  const parsed = parseDocument(document);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

const cases: readonly (readonly [name: string, document: unknown])[] = [
  ['llama3-70b-default', DEFAULT_DOCUMENT],
  ['mixtral-8x7b-ep', goldenDocument('mixtral-8x7b-ep')],
  ['llama3-8b-zero3-offload', goldenDocument('llama3-8b-zero3-offload')],
  ['llama3-70b-gb200-1024', goldenDocument('llama3-70b-gb200-1024')],
];

describe('GB200 NVL72 launches per compute tray, not per rack (issue 36)', () => {
  // An NVL72 rack is one NVLink domain of 72 GPUs but 18 compute trays of 4 GPUs, each its
  // own OS (input/gpus.ts nodeGpus): torchrun starts 4 processes on each of 1,024 / 4 = 256 nodes.
  const c = config(goldenDocument('llama3-70b-gb200-1024'));
  it('the NVLink domain stays 72 GPUs for the communication model', () => expect(c.cluster.gpusPerNode).toBe(72));
  for (const [target, text] of [
    ['Megatron-LM', megatronExport(c).text],
    ['torchtitan', torchtitanExport(c).text],
    ['DeepSpeed', deepspeedExport(c).launch.text],
  ] as const) {
    it(`${target}: torchrun --nnodes 256 --nproc-per-node 4`, () => {
      expect(text).toContain('torchrun --nnodes 256 --nproc-per-node 4');
      expect(text).not.toMatch(/--nproc-per-node (72|1024)/);
    });
  }
});

describe('launch arguments equal the hand-written golden files', () => {
  for (const [name, document] of cases) {
    const c = config(document);
    it(`${name}: Megatron-LM flags`, () => expect(megatronExport(c).text).toBe(golden(`${name}.megatron.sh`)));
    it(`${name}: DeepSpeed config`, () => expect(deepspeedExport(c).text).toBe(golden(`${name}.deepspeed.json`)));
    it(`${name}: torchtitan TOML`, () => expect(torchtitanExport(c).text).toBe(golden(`${name}.torchtitan.toml`)));
    it(`${name}: DeepSpeed launch (config written by a here-document, then Megatron-DeepSpeed)`, () =>
      expect(deepspeedExport(c).launch.text).toBe(golden(`${name}.deepspeed.sh`)));
    it(`${name}: the launch file is the export's file for Megatron-LM and torchtitan`, () => {
      expect(megatronExport(c).launch.text).toBe(megatronExport(c).text);
      expect(torchtitanExport(c).launch.text).toBe(torchtitanExport(c).text);
    });
  }
});

describe('the DeepSpeed config', () => {
  for (const [name, document] of cases) {
    it(`${name}: is JSON, and train_batch_size = micro-batch × accumulation steps × data parallel (DeepSpeed's own rule)`, () => {
      const c = config(document);
      const parsed = JSON.parse(deepspeedExport(c).text) as Record<string, number>;
      expect(parsed['train_batch_size']).toBe(
        (parsed['train_micro_batch_size_per_gpu'] ?? 0) * (parsed['gradient_accumulation_steps'] ?? 0) * c.parallel.dp,
      );
    });
  }
});

describe('what a framework cannot express is said, in the export and in its notes', () => {
  const base = DEFAULT_DOCUMENT as { parallel: object; training: object };
  const variant = (parallel: object, training: object = {}, gpus = 64) =>
    config({
      ...DEFAULT_DOCUMENT,
      parallel: { ...base.parallel, ...parallel },
      training: { ...base.training, ...training },
      cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus },
    });

  it('a GPipe or zero-bubble schedule: Megatron-LM runs 1F1B', () => {
    for (const schedule of ['gpipe', 'zero-bubble'] as const) {
      const out = megatronExport(variant({ schedule }));
      expect(out.notes.some((n) => n.includes('Megatron-LM runs 1F1B'))).toBe(true);
      expect(out.text).toMatch(/^# {3}- the .* schedule: Megatron-LM runs 1F1B/m);
    }
  });

  it('8-bit Adam: no --optimizer flag, and a note in all three exports', () => {
    const c = variant({}, { optimizer: 'adam8bit' });
    expect(megatronExport(c).text).not.toMatch(/^--optimizer /m);
    for (const out of launchExports(c)) expect(out.text).toMatch(/8-bit Adam/);
  });

  it('an uneven pipeline split is written as first/last-stage layer counts when only the ends are lighter, else as the layout', () => {
    // 80 layers on 6 stages: ceil(80/6) = 14, deficit 4 → first, last, second and fifth get 13: 13, 13, 14, 14, 13, 13,
    // written chunk by chunk (E the embedding, t a layer, L the loss).
    expect(megatronExport(variant({ pp: 6, dp: 1 }, {}, 48)).text).toContain(
      '--pipeline-model-parallel-layout "Et*13|t*13|t*14|t*14|t*13|t*13L" \\',
    );
    // Interleaved 2 × 3 chunks over 80 layers: the same counts, chunk v·pp + r on rank r.
    expect(megatronExport(variant({ pp: 2, vpp: 3, dp: 2, schedule: 'interleaved-1f1b' }, {}, 32)).text).toContain(
      '--pipeline-model-parallel-layout "Et*13|t*13|t*14|t*14|t*13|t*13L" \\',
    );
    // 80 layers on 3 stages: ceil(80/3) = 27, deficit 1 → the first stage gets 26: 26, 27, 27.
    const text = megatronExport(variant({ pp: 3, dp: 2 }, {}, 48)).text;
    expect(text).toContain('--decoder-first-pipeline-num-layers 26 \\');
    expect(text).toContain('--decoder-last-pipeline-num-layers 27 \\');
  });

  it('multi-head latent attention, shared experts, dense layers and MTP (DeepSeek-V3 shapes) map to their Megatron-LM flags', () => {
    const text = megatronExport(
      config({
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
          moe: { experts: 256, topK: 8, expertFfnHidden: 2048, sharedExperts: 1, denseLayers: 3 },
          mla: { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 },
          mtpLayers: 1,
        },
        training: { seqLen: 4096, globalBatch: 8192, microBatch: 1 },
        parallel: { tp: 1, pp: 16, dp: 128, ep: 64, schedule: '1f1b' },
        cluster: { gpu: 'h800', gpus: 2048 },
      }),
    ).text;
    for (const flag of [
      '--moe-shared-expert-intermediate-size 2048',
      '--moe-layer-freq "([0]*3+[1]*58)"',
      '--multi-latent-attention',
      '--q-lora-rank 1536',
      '--kv-lora-rank 512',
      '--qk-head-dim 128',
      '--qk-pos-emb-head-dim 64',
      '--v-head-dim 128',
      '--mtp-num-layers 1',
    ]) {
      expect(text).toContain(`${flag} \\`);
    }
    expect(text).not.toContain('--group-query-attention');
  });

  it('an invalid document gives its errors, not exports', () => {
    const result = launchExportsForDocument({ version: 1, model: { layers: 'many' }, training: {}, cluster: { gpu: 'h100-sxm' } });
    expect(result.ok === false && result.errors).toContain('model.layers: must be a whole number, got "many"');
  });
});

describe("the export the page shows first is the framework profile's own launch target (input/frameworks.ts launchTarget)", () => {
  const withFramework = (framework: string) =>
    config({ ...DEFAULT_DOCUMENT, training: { ...(DEFAULT_DOCUMENT.training as object), framework } });
  // generic and megatron: Megatron-LM; torchtitan and fsdp (FSDP2 is what torchtitan runs): torchtitan; deepspeed: DeepSpeed.
  for (const [framework, first] of [
    ['generic', 'megatron'],
    ['megatron', 'megatron'],
    ['torchtitan', 'torchtitan'],
    ['fsdp', 'torchtitan'],
    ['deepspeed', 'deepspeed'],
  ] as const) {
    it(`${framework} → ${first} first, then the other two`, () => {
      const targets = launchExports(withFramework(framework)).map((e) => e.target);
      expect(targets[0]).toBe(first);
      expect([...targets].sort()).toEqual(['deepspeed', 'megatron', 'torchtitan']);
    });
  }
});

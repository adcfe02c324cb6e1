import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT } from '../../state/defaults.ts';
import { launchFileForDocument } from '../export/index.ts';
import { importLaunchFile } from './index.ts';

// Issue 23: every imported document states every parallel degree (the derived ones too), and
// the torchtitan keys the importer used to drop.

const mixtral = {
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
    moe: { experts: 8, topK: 2, expertFfnHidden: 14336 },
  },
  training: { seqLen: 4096, globalBatch: 512, microBatch: 1, tokens: 1e12, precision: 'bf16', recompute: 'full' },
  parallel: { tp: 2, pp: 4, dp: 8, ep: 8, vpp: 2, sequenceParallel: true, zero: 1, schedule: 'interleaved-1f1b' },
  cluster: { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 64 },
};
const dense = { ...DEFAULT_DOCUMENT, parallel: { tp: 8, dp: 8, zero: 1, sequenceParallel: true }, cluster: { gpu: 'h100-sxm', gpus: 64 } };

describe('round trips through the launch exporter state every degree', () => {
  for (const [name, doc, expected] of [
    ['Mixtral 8x7B, TP 2 × PP 4 × DP 8, EP 8', mixtral, { tp: 2, pp: 4, dp: 8, cp: 1, ep: 8 }],
    ['Llama 3 70B with PP and CP left to their defaults, TP 8 × DP 8', dense, { tp: 8, pp: 1, dp: 8, cp: 1, ep: 1 }],
  ] as const) {
    for (const framework of ['megatron', 'torchtitan', 'deepspeed'] as const) {
      it(`${name} through ${framework}`, () => {
        const launch = launchFileForDocument(doc, framework);
        if (!launch.ok) throw new Error(launch.errors.join('; '));
        const imported = importLaunchFile(launch.launch.text, { gpu: 'h100-sxm' });
        if (!imported.ok) throw new Error(imported.errors.join('; '));
        // The document as imported, before any default: every degree is there, as a number.
        expect(imported.document['parallel']).toMatchObject(expected);
      });
    }
  }

  it('a Megatron script that names only TP: PP, CP and EP are 1, DP is the GPUs over TP', () => {
    const r = importLaunchFile(
      'torchrun --nnodes 2 --nproc-per-node 8 pretrain_gpt.py --tensor-model-parallel-size ' +
        '4 --num-layers 2 --hidden-size 64 --num-attention-heads 4 --vocab-size 100',
    );
    if (!r.ok) throw new Error(r.errors.join('; '));
    expect(r.document['parallel']).toMatchObject({ tp: 4, pp: 1, cp: 1, ep: 1, dp: 4 });
  });

  it('with the GPUs unknown, DP is left to them (and said by the GPU warning), the other degrees still stated', () => {
    const r = importLaunchFile('--tensor-model-parallel-size 2 --num-layers 2 --hidden-size 64 --num-attention-heads 4 --vocab-size 100');
    if (!r.ok) throw new Error(r.errors.join('; '));
    expect(r.document['parallel']).toMatchObject({ tp: 2, pp: 1, cp: 1, ep: 1 });
    expect((r.document['parallel'] as Record<string, unknown>)['dp']).toBeUndefined();
  });
});

const titan = (extra: string) => {
  const r = importLaunchFile(`[model]\nname = "llama3"\nflavor = "8B"\n[parallelism]\ndata_parallel_shard_degree = 8\n${extra}`, {
    gpu: 'h100-sxm',
  });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return { training: r.document['training'] as Record<string, unknown>, warnings: r.warnings };
};

describe('torchtitan keys', () => {
  it("[training] mixed_precision_reduce is the gradients' dtype (default float32)", () => {
    expect(titan('[training]\nmixed_precision_reduce = "bfloat16"\n').training['gradDtype']).toBe('bf16');
    expect(titan('[training]\nmixed_precision_reduce = "float32"\n').training['gradDtype']).toBe('fp32');
    expect(titan('').training['gradDtype']).toBe('fp32');
  });

  it('[compile] components: "loss" is a compiled loss, "model" compiles the blocks (default both)', () => {
    expect(titan('[compile]\nenable = true\ncomponents = ["loss"]\n').training).toMatchObject({ loss: 'compiled' });
    expect(titan('[compile]\nenable = true\ncomponents = ["loss"]\n').training['compile']).toBeUndefined();
    expect(titan('[compile]\nenable = true\ncomponents = ["model"]\n').training).toMatchObject({ compile: true });
    expect(titan('[compile]\nenable = true\ncomponents = ["model"]\n').training['loss']).toBeUndefined();
    expect(titan('[compile]\nenable = true\n').training).toMatchObject({ compile: true, loss: 'compiled' });
    expect(titan('[compile]\nenable = false\ncomponents = ["model", "loss"]\n').training['compile']).toBeUndefined();
  });

  it('float8 and mx converters in either spelling, with their recipe', () => {
    const f8 = importLaunchFile(
      '[model]\nname = "llama3"\nflavor = "8B"\nconverters = ["quantize.linear.float8"]\n[quantize.linear.float8]\nrecipe_name = "rowwise"\n',
      { gpu: 'h100-sxm', gpus: 8 },
    );
    if (!f8.ok) throw new Error(f8.errors.join('; '));
    expect(f8.document['training']).toMatchObject({ precision: 'fp8', fp8Recipe: 'rowwise' });
    expect(f8.warnings.filter((w) => w.includes('quantize'))).toEqual([]);
    const mx = importLaunchFile('[model]\nname = "llama3"\nflavor = "8B"\nconverters = ["mx"]\n[mx]\nrecipe_name = "mxfp8_cublas"\n', {
      gpu: 'b200',
      gpus: 8,
    });
    if (!mx.ok) throw new Error(mx.errors.join('; '));
    expect(mx.document['training']).toMatchObject({ precision: 'fp8', fp8Recipe: 'mxfp8' });
  });

  it('[activation_checkpoint], the pipeline schedule and micro-batch size, expert degrees', () => {
    const r = importLaunchFile(
      [
        '[model]',
        'name = "llama3"',
        'flavor = "8B"',
        '[training]',
        'local_batch_size = 16',
        'seq_len = 8192',
        '[parallelism]',
        'data_parallel_shard_degree = 2',
        'pipeline_parallel_degree = 4',
        'pipeline_parallel_schedule = "Interleaved1F1B"',
        'pipeline_parallel_layers_per_stage = 4',
        'pipeline_parallel_microbatch_size = 2',
        'expert_parallel_degree = 2',
        'expert_tensor_parallel_degree = 1',
        '[activation_checkpoint]',
        'mode = "full"',
      ].join('\n'),
      { gpu: 'h100-sxm' },
    );
    if (!r.ok) throw new Error(r.errors.join('; '));
    // 32 layers ÷ (4 layers a virtual stage × 4 ranks) = 2 virtual stages; local 16 over DP 2 → global 32.
    expect(r.document['parallel']).toMatchObject({ pp: 4, vpp: 2, schedule: 'interleaved-1f1b', ep: 2, etp: 1, dp: 2, tp: 1, cp: 1 });
    expect(r.document['training']).toMatchObject({ microBatch: 2, globalBatch: 32, recompute: 'full' });
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importLaunchFile, type ImportOptions } from './index.ts';

// Launch files as their authors publish them (scripts/fixtures/import/README.md: source,
// commit, licence). Each expected value is read off the file by hand; the comment says where.
const fixture = (path: string) => readFileSync(new URL(`../../../scripts/fixtures/import/${path}`, import.meta.url), 'utf8');
const hf = readFileSync(new URL('../../../e2e/data/llama3-8b-config.json', import.meta.url), 'utf8');

function imported(path: string, options: ImportOptions = {}) {
  const result = importLaunchFile(fixture(path), { gpu: 'h100-sxm', ...options });
  if (!result.ok) throw new Error(result.errors.join('; '));
  const doc = result.document as {
    model: Record<string, unknown>;
    training: Record<string, unknown>;
    parallel: Record<string, unknown>;
    cluster: Record<string, unknown>;
  };
  return { ...doc, kind: result.kind, warnings: result.warnings };
}

describe('Megatron-LM examples/', () => {
  it('llama/train_llama3_8b_h100_fp8.sh: MODEL_ARGS, the fp8 DTYPE_ARGS (DTYPE="fp8"), the MOCK data branch, 8 GPUs on 1 node', () => {
    const d = imported('megatron/train_llama3_8b_h100_fp8.sh');
    expect(d.kind).toBe('megatron');
    expect(d.training['framework']).toBe('megatron');
    // NUM_LAYERS=32, --hidden-size 4096, --ffn-hidden-size 14336, 32 heads, --num-query-groups 8, --kv-channels 128, --vocab-size 128256 (MOCK branch).
    expect(d.model).toMatchObject({
      layers: 32,
      hidden: 4096,
      ffnHidden: 14336,
      heads: 32,
      kvHeads: 8,
      headDim: 128,
      ffnType: 'swiglu',
      tiedEmbeddings: false,
      vocab: 128256,
    });
    // SEQ_LENGTH=8192, MICRO_BATCH_SIZE=1, GLOBAL_BATCH_SIZE=128, --train-samples 1953125000 × 8192 tokens.
    expect(d.training).toMatchObject({
      seqLen: 8192,
      microBatch: 1,
      globalBatch: 128,
      tokens: 1953125000 * 8192,
      precision: 'fp8',
      gradDtype: 'bf16',
      loss: 'fused',
      flashAttention: true,
    });
    // TP_SIZE=1, CP_SIZE=1, --sequence-parallel, --use-distributed-optimizer; PP left commented out, so stated as 1;
    // DP derived: 8 GPUs ÷ (TP 1 × PP 1 × CP 1); EP 1 (no experts).
    expect(d.parallel).toMatchObject({ tp: 1, pp: 1, cp: 1, ep: 1, dp: 8, sequenceParallel: true, zero: 1 });
    // GPUS_PER_NODE=8, NUM_NODES=1.
    expect(d.cluster).toMatchObject({ gpus: 8, gpusPerNode: 8 });
    // The real-data branch (else) is not taken: TOKENIZER_ARG defaults to "MOCK".
    expect(d.warnings).not.toContain('--tokenizer-model: not used by the planner, ignored');
    expect(d.warnings).toContain('--lr: not used by the planner, ignored');
  });

  it("mixtral/train_mixtral_8x7b_distributed.sh: MoE 8 experts top-2, PP 4, EP 8; the vocabulary is the tokenizer's", () => {
    const d = imported('megatron/train_mixtral_8x7b_distributed.sh');
    expect(d.model).toMatchObject({
      layers: 32,
      hidden: 4096,
      ffnHidden: 14336,
      heads: 32,
      kvHeads: 8,
      ffnType: 'swiglu',
      moe: { experts: 8, topK: 2, expertFfnHidden: 14336 },
    });
    // --train-iters 500000 × --global-batch-size 256 × --seq-length 4096.
    expect(d.training).toMatchObject({
      seqLen: 4096,
      microBatch: 1,
      globalBatch: 256,
      tokens: 500000 * 256 * 4096,
      precision: 'bf16',
      overlap: { dpGrad: true, dpParam: true },
    });
    expect(d.parallel).toMatchObject({ tp: 1, pp: 4, ep: 8, zero: 1, sequenceParallel: true, schedule: '1f1b' });
    // NNODES=${SLURM_NNODES:-"1"}, GPUS_PER_NODE=8.
    expect(d.cluster).toMatchObject({ gpus: 8, gpusPerNode: 8 });
    expect(d.warnings).toContain(
      'model.vocab: the file leaves the vocabulary to its tokenizer (--tokenizer-type Llama2Tokenizer); set model.vocab',
    );
  });

  it('gpt3/train_gpt3_175b_distributed.sh: GPT-3 175B, fp16, TP 8 × PP 16 (the GPUs come from --gpus: the file has 1 node)', () => {
    const d = imported('megatron/train_gpt3_175b_distributed.sh', { gpus: 1024 });
    expect(d.model).toMatchObject({ layers: 96, hidden: 12288, heads: 96, ffnType: 'gelu', tiedEmbeddings: true });
    expect(d.model['ffnHidden']).toBeUndefined();
    expect(d.training).toMatchObject({
      seqLen: 2048,
      microBatch: 1,
      globalBatch: 1536,
      tokens: 500000 * 1536 * 2048,
      precision: 'fp16',
      flashAttention: true,
    });
    expect(d.parallel).toMatchObject({ tp: 8, pp: 16, zero: 0, sequenceParallel: false });
    expect(d.cluster['gpus']).toBe(1024);
  });
});

describe('torchtitan torchtitan/models/llama3/train_configs/', () => {
  it('llama3_8b.toml: flavor 8B, local batch 1, seq 8192, FSDP over the GPUs left (64 given), selective op-level AC', () => {
    const d = imported('torchtitan/llama3_8b.toml', { gpus: 64 });
    expect(d.kind).toBe('torchtitan');
    expect(d.model).toMatchObject({ layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, vocab: 128256 });
    // global_batch_size absent: local_batch_size 1 × 64 data-parallel ranks; steps 1000.
    expect(d.training).toMatchObject({
      seqLen: 8192,
      microBatch: 1,
      globalBatch: 64,
      tokens: 1000 * 64 * 8192,
      recompute: 'selective',
      selectivePolicy: 'op',
      framework: 'torchtitan',
    });
    expect(d.parallel).toMatchObject({ tp: 1, pp: 1, cp: 1, dp: 64, zero: 3 });
    expect(d.warnings).toContain('[checkpoint]: not used by the planner, ignored');
  });

  it('llama3_70b.toml: TP 8, full AC, local batch 8; 64 A100 (its NOTE) → FSDP 8', () => {
    const d = imported('torchtitan/llama3_70b.toml', { gpus: 64 });
    expect(d.model).toMatchObject({ layers: 80, hidden: 8192, heads: 64, ffnHidden: 28672 });
    expect(d.training).toMatchObject({ seqLen: 8192, microBatch: 8, globalBatch: 64, recompute: 'full', precision: 'bf16' });
    expect(d.parallel).toMatchObject({ tp: 8, dp: 8, sequenceParallel: true, zero: 3 });
  });

  it('llama3_405b.toml: converters = ["float8"] → fp8, compile on, TP 8, local batch 2; 128 GPUs → FSDP 16', () => {
    const d = imported('torchtitan/llama3_405b.toml', { gpus: 128 });
    expect(d.model).toMatchObject({ layers: 126, hidden: 16384, heads: 128, ffnHidden: 53248 });
    expect(d.training).toMatchObject({
      precision: 'fp8',
      compile: true,
      microBatch: 2,
      globalBatch: 32,
      recompute: 'full',
      tokens: 3000 * 32 * 8192,
    });
    expect(d.parallel).toMatchObject({ tp: 8, dp: 16 });
  });

  it('debug_model.toml: the debugmodel flavor (vocabulary 2048), AC every 2nd layer; Interleaved1F1B is ignored without PP', () => {
    const d = imported('torchtitan/debug_model.toml', { gpus: 8 });
    expect(d.model).toMatchObject({ layers: 6, hidden: 256, heads: 16, vocab: 2048, ffnHidden: 768 });
    expect(d.training).toMatchObject({
      recompute: 'selective',
      selectivePolicy: 'layer',
      recomputeLayerFrequency: 2,
      microBatch: 8,
      globalBatch: 64,
    });
    expect(d.parallel['schedule']).toBeUndefined();
  });
});

describe('DeepSpeed (Megatron-DeepSpeed examples_deepspeed/)', () => {
  it('pretrain_llama2_distributed.sh: the config from its here-document (ZeRO $ZERO_STAGE=0, bf16), Megatron-DeepSpeed flags for the model', () => {
    const d = imported('deepspeed/pretrain_llama2_distributed.sh');
    expect(d.kind).toBe('deepspeed');
    expect(d.training['framework']).toBe('deepspeed');
    // HIDDEN_SIZE=2048, FFN_HIDDEN_SIZE=5504, NUM_LAYERS=24, NUM_HEADS=16, NUM_KV_HEADS=4, SEQ_LENGTH=2048.
    expect(d.model).toMatchObject({
      layers: 24,
      hidden: 2048,
      ffnHidden: 5504,
      heads: 16,
      kvHeads: 4,
      ffnType: 'swiglu',
      tiedEmbeddings: false,
    });
    // MICRO_BATCH_SIZE=4, GLOBAL_BATCH_SIZE=32, TRAIN_STEPS=250000; activation_checkpoint="false" so no recompute flags.
    expect(d.training).toMatchObject({
      seqLen: 2048,
      microBatch: 4,
      globalBatch: 32,
      tokens: 250000 * 32 * 2048,
      precision: 'bf16',
      optimizer: 'adam',
      recompute: 'none',
      flashAttention: false,
    });
    // TP=2, PP=2, ZERO_STAGE=0; 8 GPUs on 1 node → DP 2.
    expect(d.parallel).toMatchObject({ tp: 2, pp: 2, zero: 0 });
    expect(d.cluster).toMatchObject({ gpus: 8, gpusPerNode: 8 });
    // LOG_TO_WANDB=0: the wandb branch is not taken.
    expect(d.warnings.some((w) => w.startsWith('--wandb'))).toBe(false);
  });

  it(
    'MoE/ds_pretrain_gpt_1.3B_MoE128.sh: run through eval ${run_cmd}; GPT-3 XL 1.3B ' +
      'with 128 experts, EP 64 (NUM_GPUS 64 < EP_SIZE 128), fp16, activation checkpointing',
    () => {
      const d = imported('deepspeed/ds_pretrain_gpt_1.3B_MoE128.sh');
      // NUM_LAYERS=24, HIDDEN_SIZE=2048, NUM_ATTN_HEADS=16; --num-experts ${EP_SIZE}=128, Megatron-DeepSpeed's --topk default 1.
      expect(d.model).toMatchObject({ layers: 24, hidden: 2048, heads: 16, ffnType: 'gelu', moe: { experts: 128, topK: 1 } });
      // TRAIN_TOKENS=300000000000 (--train-tokens), GLOBAL_BATCH_SIZE=512, BATCH_SIZE=8; ACTIVATION_CHECKPOINT="true".
      expect(d.training).toMatchObject({
        seqLen: 2048,
        globalBatch: 512,
        microBatch: 8,
        tokens: 3e11,
        precision: 'fp16',
        recompute: 'full',
      });
      expect(d.parallel).toMatchObject({ tp: 1, ep: 64 });
      expect(d.warnings).toContain(
        '--deepspeed_config: the DeepSpeed config is another file; import it too for ZeRO, offload and precision',
      );
    },
  );

  it("finetune_hf_llama/ds_config.json with Llama 3 8B's config.json: batch 256 of micro-batches 16, ZeRO 0, bf16", () => {
    const d = imported('deepspeed/finetune_hf_llama_ds_config.json', { hfConfig: hf, gpus: 8 });
    expect(d.kind).toBe('deepspeed');
    expect(d.model).toMatchObject({ layers: 32, hidden: 4096, kvHeads: 8, vocab: 128256 });
    expect(d.training).toMatchObject({ globalBatch: 256, microBatch: 16, precision: 'bf16', seqLen: 8192 });
    expect(d.parallel).toMatchObject({ zero: 0 });
    expect(d.warnings).toContain('steps_per_print: not used by the planner, ignored');
  });

  it('MoE/ds_config_gpt_TEMPLATE.json (placeholders the script fills with sed) is not JSON: the answer names line 2', () => {
    const result = importLaunchFile(fixture('deepspeed/ds_config_gpt_TEMPLATE.json'));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]).toMatch(/^the JSON file: line 2, column \d+: not valid JSON/);
  });
});

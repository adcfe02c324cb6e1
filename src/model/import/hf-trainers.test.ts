import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../input/index.ts';
import { presetForHubId } from './hf-trainers.ts';
import { importLaunchFile, type ImportOptions } from './index.ts';

// axolotl and LLaMA-Factory LoRA / QLoRA YAMLs as published (scripts/fixtures/import/README.md:
// source, commit, licence). Each expected value is read off the file by hand; the comment says where.
const fixture = (path: string) => readFileSync(new URL(`../../../scripts/fixtures/import/yaml/${path}`, import.meta.url), 'utf8');
const hf = readFileSync(new URL('../../../e2e/data/llama3-8b-config.json', import.meta.url), 'utf8');
const ALL = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];

function imported(path: string, options: ImportOptions = {}) {
  const result = importLaunchFile(fixture(path), { gpu: 'h100-sxm', ...options });
  if (!result.ok) throw new Error(result.errors.join('; '));
  const doc = result.document as {
    model: Record<string, unknown>;
    training: Record<string, unknown>;
    parallel: Record<string, unknown>;
    cluster: Record<string, unknown>;
  };
  return { ...doc, document: result.document, kind: result.kind, warnings: result.warnings };
}

describe('axolotl examples/llama-3', () => {
  it('lora-8b.yml: LoRA r 32 on every linear, 8-bit Adam, 4096 tokens, micro 2 × accumulation 4 on 1 assumed GPU', () => {
    const d = imported('axolotl_llama3_lora_8b.yml');
    expect(d.kind).toBe('axolotl');
    // base_model: NousResearch/Meta-Llama-3-8B → the llama3-8b preset's shapes.
    expect(d.model).toMatchObject({
      name: 'NousResearch/Meta-Llama-3-8B',
      layers: 32,
      hidden: 4096,
      heads: 32,
      kvHeads: 8,
      ffnHidden: 14336,
      vocab: 128256,
    });
    // adapter: lora, lora_r: 32, lora_target_linear: true; sequence_len 4096; micro_batch_size 2; gradient_accumulation_steps 4;
    // optimizer adamw_bnb_8bit; bf16: auto; gradient_checkpointing: true; attn_implementation: flash_attention_2.
    expect(d.training).toMatchObject({
      adapter: { method: 'lora', rank: 32, modules: ALL },
      seqLen: 4096,
      microBatch: 2,
      globalBatch: 2 * 4 * 1,
      optimizer: 'adam8bit',
      precision: 'bf16',
      recompute: 'full',
      flashAttention: true,
      modelCode: 'transformers',
      framework: 'generic',
    });
    expect(d.parallel).toEqual({ tp: 1, pp: 1, cp: 1, ep: 1, dp: 1, zero: 0 });
    expect(d.warnings.some((w) => w.startsWith('parallel.dp: the GPUs come from the launcher'))).toBe(true);
    expect(d.warnings).toContain('num_epochs: 4 epochs; the planner plans one step (training.tokens not set)');
    expect(d.warnings.some((w) => w.startsWith('load_in_8bit:'))).toBe(true);
    expect(parseDocument(d.document).ok).toBe(true);
  });

  it('lora-8b.yml on 8 GPUs: globalBatch = 2 × 4 × 8', () => {
    const d = imported('axolotl_llama3_lora_8b.yml', { gpus: 8 });
    expect(d.training['globalBatch']).toBe(64);
    expect(d.parallel).toMatchObject({ dp: 8, tp: 1, pp: 1 });
    expect(parseDocument(d.document).ok).toBe(true);
  });

  it('qlora-fsdp-70b.yaml: QLoRA r 8 (load_in_4bit), FSDP full shard with parameter offload, 512 tokens', () => {
    const d = imported('axolotl_llama3_qlora_fsdp_70b.yaml', { gpus: 8 });
    // base_model: casperhansen/llama-3-70b-fp16 → llama3-70b.
    expect(d.model).toMatchObject({ layers: 80, hidden: 8192, heads: 64, kvHeads: 8 });
    // adapter: qlora, lora_r: 8; sequence_len 512; micro_batch_size 1 × accumulation 4 × 8 GPUs; adamw_torch_fused.
    expect(d.training).toMatchObject({
      adapter: { method: 'qlora', rank: 8, modules: ALL },
      seqLen: 512,
      microBatch: 1,
      globalBatch: 32,
      optimizer: 'adam',
      framework: 'fsdp',
      offload: { optimizer: true, parameters: true },
      recompute: 'full',
    });
    // fsdp: [full_shard, auto_wrap], fsdp_sharding_strategy: FULL_SHARD.
    expect(d.parallel).toEqual({ tp: 1, pp: 1, cp: 1, ep: 1, dp: 8, zero: 3 });
    expect(parseDocument(d.document).ok).toBe(true);
  });
});

describe('LLaMA-Factory examples/', () => {
  it('extras/fsdp_qlora/llama3_lora_sft.yaml: quantization_bit 4 → QLoRA, lora_rank 8, lora_target all, cutoff_len 2048', () => {
    const d = imported('llamafactory_llama3_qlora_sft.yaml');
    expect(d.kind).toBe('llama-factory');
    expect(d.model).toMatchObject({ name: 'meta-llama/Meta-Llama-3-8B-Instruct', layers: 32, hidden: 4096 });
    // per_device_train_batch_size 1 × gradient_accumulation_steps 8 × 1 assumed GPU; bf16: true.
    expect(d.training).toMatchObject({
      adapter: { method: 'qlora', rank: 8, modules: ALL },
      seqLen: 2048,
      microBatch: 1,
      globalBatch: 8,
      precision: 'bf16',
      optimizer: 'adam',
      recompute: 'full',
      modelCode: 'transformers',
      framework: 'generic',
    });
    expect(d.parallel).toEqual({ tp: 1, pp: 1, cp: 1, ep: 1, dp: 1, zero: 0 });
    expect(parseDocument(d.document).ok).toBe(true);
  });

  it('train_lora/qwen3_lora_sft_ds3.yaml: deepspeed ds_z3_config.json → DeepSpeed ZeRO-3; the model from its config.json', () => {
    const d = imported('llamafactory_qwen3_lora_sft_ds3.yaml', { gpus: 4, hfConfig: hf });
    expect(d.training).toMatchObject({
      adapter: { method: 'lora', rank: 8, modules: ALL },
      seqLen: 2048,
      microBatch: 1,
      globalBatch: 1 * 2 * 4,
      framework: 'deepspeed',
    });
    expect(d.parallel).toEqual({ tp: 1, pp: 1, cp: 1, ep: 1, dp: 4, zero: 3 });
    expect(parseDocument(d.document).ok).toBe(true);
    const bare = imported('llamafactory_qwen3_lora_sft_ds3.yaml');
    expect(bare.warnings).toContain('model: Qwen/Qwen3-4B-Instruct-2507 read as the catalog entry qwen3-4b (Qwen3 4B)');
  });

  it('lora_target lists map q_proj … down_proj; unknown keys are reported', () => {
    const r = importLaunchFile(
      'model_name_or_path: meta-llama/Meta-Llama-3-8B\nfinetuning_type: lora\nlora_rank: ' +
        '16\nlora_target: q_proj,v_proj\noptim: paged_adamw_8bit\nfancy_knob: 3\n',
      { gpu: 'h100-sxm' },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = (r.document as { training: Record<string, unknown> }).training;
    expect(t['adapter']).toEqual({ method: 'lora', rank: 16, modules: ['q', 'v'] });
    expect(t['optimizer']).toBe('adam8bit');
    expect(r.warnings).toContain('fancy_knob: not used by the planner, ignored');
  });
});

describe('presetForHubId', () => {
  it('names the catalog entries of Llama 2 / 3 / 3.1 and Qwen3 ids, and null otherwise', () => {
    expect(presetForHubId('meta-llama/Meta-Llama-3-8B')).toBe('llama3-8b');
    expect(presetForHubId('meta-llama/Llama-3.1-70B-Instruct')).toBe('llama3.1-70b');
    expect(presetForHubId('meta-llama/Llama-2-7b-hf')).toBe('llama2-7b');
    expect(presetForHubId('Qwen/Qwen3-4B-Instruct-2507')).toBe('qwen3-4b');
    expect(presetForHubId('someone/brand-new-model-3B')).toBeNull();
  });
});

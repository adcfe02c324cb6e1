import { describe, expect, it } from 'vitest';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { findModelPreset } from '../catalog/all.ts';
import { peftExport, torchtuneExport } from './finetune.ts';

function config(raw: unknown): RunConfig {
  const parsed = parseDocument(raw);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

const qlora8b = config({
  version: 1,
  model: findModelPreset('llama3.1-8b')?.model,
  training: {
    seqLen: 2048,
    globalBatch: 16,
    microBatch: 2,
    recompute: 'full',
    masterWeights: false,
    adapter: { method: 'qlora', rank: 8 },
  },
  parallel: { tp: 1, pp: 1, dp: 1, zero: 0 },
  cluster: { gpu: 'rtx-4090', gpus: 1 },
});

describe('torchtune launch file', () => {
  it("writes torchtune's own QLoRA builder, modules, rank, batch and accumulation for Llama 3.1 8B on one GPU", () => {
    const out = torchtuneExport(qlora8b);
    expect(out.text).toContain('# tune run lora_finetune_single_device --config ./finetune.yaml');
    expect(out.text).toContain('_component_: torchtune.models.llama3_1.qlora_llama3_1_8b');
    expect(out.text).toContain("lora_attn_modules: ['q_proj', 'k_proj', 'v_proj', 'output_proj']");
    expect(out.text).toContain('apply_lora_to_mlp: True');
    expect(out.text).toContain('lora_rank: 8');
    // 16 sequences per step ÷ (2 per micro-batch × 1 GPU) = 8 micro-batches.
    expect(out.text).toContain('batch_size: 2\ngradient_accumulation_steps: 8');
    expect(out.text).toContain('enable_activation_checkpointing: True');
    expect(out.notes).toEqual([]);
  });

  it('says what it cannot write: part of the MLP, a model torchtune has no builder for, ZeRO below 3 on many GPUs', () => {
    const c = config({
      version: 1,
      model: { name: 'Custom', layers: 4, hidden: 256, heads: 4, ffnHidden: 512, ffnType: 'swiglu', vocab: 1000 },
      training: { seqLen: 512, globalBatch: 8, microBatch: 1, adapter: { method: 'lora', rank: 4, modules: ['q', 'down'] } },
      parallel: { tp: 1, pp: 1, dp: 8, zero: 1 },
      cluster: { gpu: 'a100-80gb', gpus: 8 },
    });
    const out = torchtuneExport(c);
    expect(out.text).toContain('# tune run --nproc_per_node 8 lora_finetune_distributed');
    expect(out.notes.join('\n')).toMatch(/builder for Custom/);
    expect(out.notes.join('\n')).toMatch(/adapts down only/);
    expect(out.notes.join('\n')).toMatch(/ZeRO 1/);
    for (const note of out.notes) expect(out.text).toContain(`# not expressible: ${note}`);
  });
});

describe('Hugging Face PEFT script', () => {
  it('QLoRA: NF4 with double quantisation, the adapted modules by their transformers names, the batch arithmetic', () => {
    const out = peftExport(qlora8b);
    expect(out.text).toContain('load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True,');
    expect(out.text).toContain('target_modules=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]');
    expect(out.text).toContain('LoraConfig(r=8, lora_alpha=16');
    expect(out.text).toContain('per_device_train_batch_size=2,\n    gradient_accumulation_steps=8,');
    expect(out.text).toContain('prepare_model_for_kbit_training(model, use_gradient_checkpointing=True)');
  });

  it('a full fine-tune on 8 GPUs with ZeRO-3 is a plain Trainer with FSDP', () => {
    const c = config({
      version: 1,
      model: findModelPreset('llama3-8b')?.model,
      training: { seqLen: 4096, globalBatch: 64, microBatch: 1 },
      parallel: { tp: 1, pp: 1, dp: 8, zero: 3 },
      cluster: { gpu: 'h100-sxm', gpus: 8 },
    });
    const out = peftExport(c);
    expect(out.text).not.toContain('peft');
    expect(out.text).toContain('fsdp="full_shard auto_wrap"');
    expect(out.text).toContain('# accelerate launch --num_processes 8 finetune.py');
  });
});

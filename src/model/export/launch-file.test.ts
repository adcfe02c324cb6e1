import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT } from '../../state/defaults.ts';
import { launchFileForDocument } from './launch-args.ts';

// Issue 15, item 3: the launch file builds the same model. Llama-style blocks (RMSNorm,
// RoPE, no linear biases, SwiGLU, untied output, grouped-query attention) must be spelled
// out for Megatron-LM, whose defaults are GPT-2's (megatron/training/arguments.py:
// --normalization default LayerNorm, --position-embedding-type default learned_absolute,
// biases on unless --disable-bias-linear); examples/llama/train_llama3_8b_h100_fp8.sh
// passes the same flags for Llama 3 8B.
const gpt = {
  version: 1,
  model: { name: 'GPT-3 1.3B', layers: 24, hidden: 2048, heads: 16, vocab: 50257, ffnType: 'gelu', tiedEmbeddings: true },
  training: { seqLen: 2048, globalBatch: 512, microBatch: 4, tokens: 3e11 },
  parallel: { tp: 2, pp: 1, dp: 8, zero: 1 },
  cluster: { gpu: 'a100-80gb', gpusPerNode: 8, gpus: 16 },
};

function launch(document: unknown, framework: 'megatron' | 'torchtitan' | 'deepspeed'): string {
  const result = launchFileForDocument(document, framework);
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result.launch.text;
}

describe('the launch file builds the same model', () => {
  it('Llama 3 70B on Megatron-LM: every Llama flag, with the number of query groups', () => {
    const text = launch(DEFAULT_DOCUMENT, 'megatron');
    for (const line of [
      '--normalization RMSNorm',
      '--position-embedding-type rope',
      '--disable-bias-linear',
      '--swiglu',
      '--untie-embeddings-and-output-weights',
      '--group-query-attention',
      '--num-query-groups 8',
      '--num-layers 80',
      '--hidden-size 8192',
      '--ffn-hidden-size 28672',
      '--num-attention-heads 64',
      '--seq-length 8192',
      '--max-position-embeddings 8192',
      '--tokenizer-type NullTokenizer',
    ]) {
      expect(text).toContain(`  ${line} \\`);
    }
    expect(text.trimEnd().endsWith('  --vocab-size 128256')).toBe(true);
    // A torchrun command over 8 nodes of 8 GPUs, each node told its rank.
    expect(text).toMatch(/^torchrun --nnodes 8 --nproc-per-node 8 --node-rank "\$\{NODE_RANK:-0\}" .* pretrain_gpt\.py \\$/m);
  });

  it("a GPT-style model keeps Megatron-LM's GPT-2 defaults: no RMSNorm, RoPE, SwiGLU or untying; no GQA flags", () => {
    const text = launch(gpt, 'megatron');
    for (const flag of [
      '--normalization',
      '--position-embedding-type',
      '--disable-bias-linear',
      '--swiglu',
      '--untie-embeddings',
      '--group-query-attention',
    ]) {
      expect(text).not.toContain(flag);
    }
    expect(text).toContain('  --ffn-hidden-size 8192 \\');
    // 3e11 tokens / 2048 per sequence = 146,484,375 sequences.
    expect(text).toContain('  --train-samples 146484375 \\');
    expect(text).toMatch(/^torchrun --nnodes 2 --nproc-per-node 8 /m);
  });

  it("the document's framework picks the file when none is asked for", () => {
    const torchtitan = {
      ...DEFAULT_DOCUMENT,
      training: { ...(DEFAULT_DOCUMENT as { training: object }).training, framework: 'torchtitan' },
    };
    const result = launchFileForDocument(torchtitan);
    expect(result.ok && result.target).toBe('torchtitan');
    expect(result.ok && result.launch.text).toContain('flavor = "70B"');
  });

  it('DeepSpeed: the config is written by a here-document that parses as JSON, then Megatron-DeepSpeed gets the model', () => {
    const text = launch(DEFAULT_DOCUMENT, 'deepspeed');
    const json = /<<'EOF'\n([\s\S]*?)\nEOF\n/.exec(text)?.[1] ?? '';
    const config = JSON.parse(json) as Record<string, unknown>;
    expect(config['train_batch_size']).toBe(256);
    expect(config['zero_optimization']).toEqual({ stage: 1 });
    for (const line of [
      '--num-key-value-heads 8',
      '--normalization rmsnorm',
      '--use-rotary-position-embeddings',
      '--deepspeed_config ds_config.json',
    ]) {
      expect(text).toContain(`  ${line} \\`);
    }
    expect(text.trimEnd().endsWith('--zero-stage 1')).toBe(true);
  });

  it('an invalid document gives its errors', () => {
    const result = launchFileForDocument({ version: 1, model: {}, training: {}, cluster: { gpu: 'h100-sxm' } }, 'megatron');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.some((e) => e.startsWith('model.layers'))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { parseDocument } from '../input/index.ts';
import { deepspeedExport } from './deepspeed.ts';

// Issue 23, item 5: DeepSpeed's AutoTP (tensor_parallel.autotp_size, deepspeed.ai/tutorials/autotp-training) is
// DeepSpeed's own tensor parallelism for Hugging Face models, applied by deepspeed.initialize when the config has
// the block, with ZeRO stages 0–2 only. Megatron-DeepSpeed shards with --tensor-model-parallel-size: its ds_config
// must not ask DeepSpeed to shard again.
const doc = (zero: number) => ({
  version: 1,
  model: { name: 'Llama-style 8B', layers: 32, hidden: 4096, heads: 32, kvHeads: 8, ffnHidden: 14336, ffnType: 'swiglu', vocab: 128256 },
  training: { seqLen: 8192, globalBatch: 64, microBatch: 1, precision: 'bf16' },
  parallel: { tp: 4, pp: 1, dp: 4, zero },
  cluster: { gpu: 'h100-sxm', gpus: 16 },
});

function deepspeed(zero: number) {
  const parsed = parseDocument(doc(zero));
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return deepspeedExport(parsed.config);
}

describe('the DeepSpeed launch files and tensor parallelism', () => {
  it('ZeRO 1: the ds_config asks for AutoTP 4; the Megatron-DeepSpeed launch passes --tensor-model-parallel-size 4 and no tensor_parallel block', () => {
    const l = deepspeed(1);
    expect(JSON.parse(l.text)).toMatchObject({ tensor_parallel: { autotp_size: 4 } });
    const script = l.launch?.text ?? '';
    expect(script).toContain('--tensor-model-parallel-size 4');
    expect(script).not.toContain('tensor_parallel');
    expect(script).not.toContain('autotp');
  });

  it('ZeRO 3: AutoTP does not train with it, so no tensor_parallel block, and a note says why', () => {
    const l = deepspeed(3);
    expect(JSON.parse(l.text)).not.toHaveProperty('tensor_parallel');
    expect(l.notes.some((n) => n.includes('AutoTP trains with ZeRO stages 0–2 only'))).toBe(true);
  });
});

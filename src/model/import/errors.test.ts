import { describe, expect, it } from 'vitest';
import { importLaunchFile, KINDS_READ } from './index.ts';

// Bad files get clear answers, never a crash (issue 15): a malformed TOML or JSON names the
// line, a flag with a bad value names the flag, a file of an unknown kind says which kinds are read.
function errors(text: string, options = {}): readonly string[] {
  const result = importLaunchFile(text, options);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.errors;
}

describe('bad launch files', () => {
  it('a malformed TOML names its line', () => {
    expect(errors('[model]\nname = "llama3"\nflavor = 8B\n')).toEqual([
      'the TOML file: line 3: "8B" is not a TOML value (strings need quotes)',
    ]);
    expect(errors('[training]\nseq_len = 8192\n[parallelism\n')[0]).toMatch(/^the TOML file: line 3: /);
    expect(errors('[training]\nseq_len = 1\nseq_len = 2\n')).toEqual(['the TOML file: line 3: seq_len is defined twice']);
    expect(errors('[job]\ndescription = "unterminated\n[model]\n')[0]).toMatch(
      /^the TOML file: line 2: a one-line string runs into the next line/,
    );
  });

  it('a malformed JSON names its line and column', () => {
    expect(errors('{\n  "train_batch_size": 8,\n  "zero_optimization": { "stage": }\n}')[0]).toMatch(
      /^the JSON file: line 3, column 35: not valid JSON/,
    );
    expect(errors('{ "train_batch_size": 8, }')[0]).toMatch(/^the JSON file: line 1, column 26: /);
  });

  it("a bad here-document names the script's own line", () => {
    const script = 'cat <<EOT > ds.json\n{\n  "train_batch_size": ,\n}\nEOT\ntorchrun pretrain_gpt.py --deepspeed --num-layers 2\n';
    expect(errors(script)[0]).toMatch(/^here-document: line 3, column 23: not valid JSON/);
  });

  it('a flag with a bad value names the flag', () => {
    expect(errors('torchrun pretrain_gpt.py --num-layers many --hidden-size 4096')).toEqual([
      '--num-layers: needs a whole number from 1 to 1,000,000,000, got "many"',
    ]);
    expect(errors('torchrun pretrain_gpt.py --tensor-model-parallel-size $TP --num-layers 2')).toEqual([
      '--tensor-model-parallel-size: needs a whole number from 1 to 1,000,000,000, got "$TP" (a shell variable the file does not set)',
    ]);
    expect(errors('python pretrain_gpt.py --num-layers 4 --recompute-granularity sometimes')).toEqual([
      '--recompute-granularity: needs one of full, selective, got "sometimes"',
    ]);
    expect(errors('[parallelism]\ntensor_parallel_degree = 0\n')).toEqual([
      '[parallelism] tensor_parallel_degree: needs a whole number from 1 to 1,000,000,000, got 0',
    ]);
    expect(errors('{"train_batch_size": "auto", "zero_optimization": {"stage": 5}}')).toEqual([
      'train_batch_size: needs a whole number from 1 to 1,000,000,000, got "auto"',
      'zero_optimization.stage: needs a whole number from 0 to 3, got 5',
    ]);
  });

  it('a file of an unknown kind says which kinds are read', () => {
    expect(errors('hello world, this is a README')).toEqual([`the file is of no kind the importer reads: it reads ${KINDS_READ}`]);
    expect(errors('')[0]).toMatch(/^the file is empty: paste or choose a Megatron-LM/);
    expect(errors('{"architectures": ["LlamaForCausalLM"], "hidden_size": 8}')[0]).toMatch(/^this is a Hugging Face config\.json/);
    expect(errors('[1, 2]')[0]).toMatch(/it is not a DeepSpeed config/);
  });

  it('a flag it cannot map is a warning naming it, one each', () => {
    const result = importLaunchFile('torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 2 --lr 3e-4 --lr 1e-4 --seed 7', {
      gpu: 'a100-80gb',
    });
    expect(result.ok && result.warnings.filter((w) => w.includes('not used'))).toEqual([
      '--lr: not used by the planner, ignored',
      '--seed: not used by the planner, ignored',
    ]);
  });
});

describe('the mixture-of-experts stack flags (issue 20)', () => {
  const moe = 'torchrun --nproc-per-node 8 pretrain_gpt.py --num-layers 2 --num-experts 8 --moe-router-topk 2';
  it('a bad dispatcher, backend, graph implementation or capacity factor names its flag', () => {
    expect(errors(`${moe} --moe-token-dispatcher-type nccl`)).toEqual([
      '--moe-token-dispatcher-type: needs one of alltoall, allgather, flex, alltoall_seq, got "nccl"',
    ]);
    expect(errors(`${moe} --moe-token-dispatcher-type flex --moe-flex-dispatcher-backend uccl`)).toEqual([
      '--moe-flex-dispatcher-backend: needs one of deepep, hybridep, got "uccl"',
    ]);
    expect(errors(`${moe} --cuda-graph-impl full_iteration`)).toEqual([
      '--cuda-graph-impl: needs one of none, local, transformer_engine, got "full_iteration"',
    ]);
    expect(errors(`${moe} --moe-expert-capacity-factor -1 --moe-pad-expert-input-to-capacity`)).toEqual([
      '--moe-expert-capacity-factor: needs a number above 0 and at most 10000, got "-1"',
    ]);
  });

  it('older spellings: --moe-enable-deepep is flex with DeepEP; --enable-cuda-graph with the full_iteration scope is a whole-iteration graph', () => {
    const result = importLaunchFile(`${moe} --moe-enable-deepep --enable-cuda-graph --cuda-graph-scope full_iteration`, {
      gpu: 'h100-sxm',
    });
    if (!result.ok) throw new Error(result.errors.join('; '));
    expect(result.document['training']).toMatchObject({ moeDispatcher: 'deepep', cudaGraph: 'full' });
    expect(result.warnings.filter((w) => w.includes('not used'))).toEqual([]);
  });

  it('a capacity factor without padding is read with a warning that the planner pads', () => {
    const result = importLaunchFile(`${moe} --moe-expert-capacity-factor 1.5`, { gpu: 'h100-sxm' });
    expect(result.ok && (result.document['model'] as { moe: unknown }).moe).toMatchObject({ capacityFactor: 1.5 });
    expect(result.warnings.some((w) => w.startsWith('--moe-expert-capacity-factor 1.5 without --moe-pad-expert-input-to-capacity'))).toBe(
      true,
    );
  });
});

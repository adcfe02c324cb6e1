import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importLaunchFile, type ImportOptions } from './index.ts';
import { parseYaml } from './yaml.ts';

// Training YAMLs as their authors publish them (scripts/fixtures/import/README.md: source,
// commit, licence). Each expected value is read off the file by hand; the comment says where.
const fixture = (path: string) => readFileSync(new URL(`../../../scripts/fixtures/import/yaml/${path}`, import.meta.url), 'utf8');
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

describe('Megatron-LM functional tests: model_config.yaml (MODEL_ARGS through the Megatron flag reader)', () => {
  it('gpt3_345m …_tp2_pp2_ep2_etp2_te_4experts2parallel: MoE 4 experts top-1, TP 4, PP 2, EP 2, ETP 2 on 8 GPUs (1N8G)', () => {
    const d = imported('megatron_gpt3_345m_tp4_pp2_ep2_etp2_model_config.yaml', { gpus: 8 });
    expect(d.kind).toBe('megatron');
    expect(d.training['framework']).toBe('megatron');
    // --num-layers 12, --hidden-size 512, --num-attention-heads 8; no --swiglu and no --ffn-hidden-size: GeLU at the
    // document's default 4 × hidden; --num-experts 4, --moe-router-topk 1.
    expect(d.model).toMatchObject({ layers: 12, hidden: 512, heads: 8, ffnType: 'gelu', moe: { experts: 4, topK: 1 } });
    expect(d.model['ffnHidden']).toBeUndefined();
    // --seq-length 1024, --micro-batch-size 4, --global-batch-size 32, --train-iters 50 × 32 × 1024 tokens, --bf16.
    expect(d.training).toMatchObject({ seqLen: 1024, microBatch: 4, globalBatch: 32, tokens: 50 * 32 * 1024, precision: 'bf16' });
    // --attention-backend unfused: no flash attention.
    expect(d.training['flashAttention']).toBe(false);
    expect(d.parallel).toMatchObject({ tp: 4, pp: 2, ep: 2, etp: 2, sequenceParallel: true });
    expect(d.cluster).toMatchObject({ gpus: 8 });
    // true is a switch; the logging flags are named as ignored, once each.
    expect(d.warnings).toContain('--log-params-norm: not used by the planner, ignored');
  });

  it('gpt3_7b_tp1_pp4_memory_speed: GQA 8 groups, vocab 131073, PP 4 with one layer per virtual stage (VPP 8), distributed optimizer', () => {
    const d = imported('megatron_gpt3_7b_tp1_pp4_memory_speed_model_config.yaml', { gpus: 8 });
    expect(d.model).toMatchObject({ layers: 32, hidden: 4096, heads: 32, kvHeads: 8, vocab: 131073, tiedEmbeddings: false });
    expect(d.training).toMatchObject({
      seqLen: 8192,
      microBatch: 1,
      globalBatch: 8,
      precision: 'bf16',
      overlap: { dpGrad: true, dpParam: true },
    });
    // 32 layers ÷ (4 stages × 1 layer per virtual stage) = 8 virtual stages per rank.
    expect(d.parallel).toMatchObject({ tp: 1, pp: 4, vpp: 8, zero: 1, schedule: 'interleaved-1f1b' });
  });
});

describe('NeMo-Megatron-Launcher training YAML (model: keys through the Megatron flag reader)', () => {
  it('llama/llama2_7b.yaml: Llama 2 7B on 16 nodes × 8 GPUs, bf16, distributed Adam, no dropout', () => {
    const d = imported('nemo_launcher_llama2_7b.yaml');
    expect(d.kind).toBe('nemo');
    expect(d.training['framework']).toBe('megatron');
    // num_layers 32, hidden_size 4096, ffn_hidden_size 11008, 32 heads, activation fast-swiglu, share_embeddings_and_output_weights false.
    expect(d.model).toMatchObject({ layers: 32, hidden: 4096, ffnHidden: 11008, heads: 32, ffnType: 'swiglu', tiedEmbeddings: false });
    // encoder_seq_length 4096, micro 1, global 2048, max_steps 300000 × 2048 × 4096 tokens; trainer.precision bf16.
    expect(d.training).toMatchObject({
      seqLen: 4096,
      microBatch: 1,
      globalBatch: 2048,
      tokens: 300000 * 2048 * 4096,
      precision: 'bf16',
      dropout: false,
      overlap: { dpGrad: true, dpParam: true },
    });
    // activations_checkpoint_granularity null: no recomputation.
    expect(d.training['recompute']).toBe('none');
    expect(d.parallel).toMatchObject({ tp: 1, pp: 1, zero: 1, sequenceParallel: false });
    // trainer.num_nodes 16 × devices 8.
    expect(d.cluster).toMatchObject({ gpus: 128, gpusPerNode: 8 });
    expect(d.warnings.some((w) => w.startsWith('model.vocab:'))).toBe(true);
  });
});

describe('NeMo AutoModel recipe YAML', () => {
  it('llama3_2/llama3_2_1b_squad.yaml: FSDP2, global 64, local 8, TP 1, CP 1; the model from its config.json', () => {
    const d = imported('automodel_llama3_2_1b_squad.yaml', { hfConfig: hf, gpus: 8 });
    expect(d.kind).toBe('automodel');
    expect(d.training).toMatchObject({ framework: 'fsdp', globalBatch: 64, microBatch: 8 });
    expect(d.parallel).toMatchObject({ tp: 1, cp: 1, zero: 3 });
    expect(d.model['name']).toBe('meta-llama/Llama-3.2-1B');
    // packed_sequence_size 0: batches are padded, no fixed sequence length.
    expect(d.warnings.some((w) => w.startsWith('training.seqLen:'))).toBe(true);
  });

  it('without config.json it reads the model from the catalog and says which entry', () => {
    const d = imported('automodel_llama3_2_1b_squad.yaml');
    expect(d.warnings).toContain('model: meta-llama/Llama-3.2-1B read as the catalog entry llama3.2-1b (Llama 3.2 1B)');
    expect(d.model).toMatchObject({ name: 'meta-llama/Llama-3.2-1B', layers: 16, hidden: 2048, tiedEmbeddings: true });
  });
});

describe('NeMo AutoModel MoE backend', () => {
  // Shaped as examples/llm_benchmark/deepseek/deepseek_v3_sdpa_compile_gb200.yaml @36044ad3 (model.backend block), cut to
  // what the importer reads.
  const recipe = (backend: string) =>
    [
      'step_scheduler:',
      '  global_batch_size: 512',
      '  local_batch_size: 4',
      'distributed:',
      '  ep_size: 8',
      'model:',
      '  pretrained_model_name_or_path: Qwen/Qwen3-30B-A3B',
      '  backend:',
      '    _target_: nemo_automodel.components.models.common.BackendConfig',
      backend,
      'dataset:',
      '  seq_len: 4096',
    ].join('\n');
  const training = (backend: string) => {
    const r = importLaunchFile(recipe(backend), { gpu: 'h100-sxm', gpus: 8 });
    if (!r.ok) throw new Error(r.errors.join('; '));
    return (r.document as { training: Record<string, unknown> }).training;
  };

  it('reads the dispatcher and the fake balanced gate of the benchmark recipes', () => {
    expect(training('    dispatcher: hybridep\n    fake_balanced_gate: true')).toMatchObject({
      moeDispatcher: 'hybridep',
      moeRouter: 'fakeBalanced',
    });
    expect(training('    dispatcher: deepep\n    fake_balanced_gate: false')).toMatchObject({ moeDispatcher: 'deepep' });
    expect(training('    dispatcher: deepep\n    fake_balanced_gate: false')['moeRouter']).toBeUndefined();
  });

  it('"torch" is the DTensor all-gather and reduce-scatter; without a dispatcher the field stays unset', () => {
    expect(training('    dispatcher: torch')['moeDispatcher']).toBe('allgather');
    expect(training('    attn: sdpa')['moeDispatcher']).toBeUndefined();
  });
});

describe('YAML errors', () => {
  it('a malformed YAML names the line', () => {
    const r = importLaunchFile('MODEL_ARGS:\n  --num-layers: 12\n  --hidden-size: [1,\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatch(/^the YAML file: line \d+, column \d+: /);
  });

  it('a YAML that is no recipe says what is read', () => {
    const r = importLaunchFile('name: my-app\nversion: 3\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatch(/no training recipe the importer reads/);
  });

  it('aliases are expanded a bounded number of times', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${'bcdefghi'[i]}: &${'bcdefghi'[i]} [*${'abcdefgh'[i]}, *${'abcdefgh'[i]}, ` +
          `*${'abcdefgh'[i]}, *${'abcdefgh'[i]}, *${'abcdefgh'[i]}, ` +
          `*${'abcdefgh'[i]}, *${'abcdefgh'[i]}, *${'abcdefgh'[i]}, *${'abcdefgh'[i]}]`,
      ),
    ].join('\n');
    expect(parseYaml(bomb).ok).toBe(false);
  });
});

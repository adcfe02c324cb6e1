import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { importHfText } from '../../state/hf-import.ts';
import { createPlannerStore } from '../../state/store.ts';
import {
  FIELD_NAMED,
  FuzzCounter,
  HOSTILE_KEYS,
  ensure,
  fuzzRuns,
  mutate,
  mutation,
  objectFromEntries,
  prototypeIsClean,
  wildJson,
} from '../../testing/fuzz.ts';
import { parseDocument } from './document.ts';
import { SUPPORTED_ARCHITECTURES } from './hf-config.ts';

// Fuzzing the Hugging Face config.json import (issue "Hardening", part 1): real
// configs of every supported family with unknown fields added, fields mutated, the
// architecture swapped, and text that is not a config at all. importHfText() never
// throws; it gives errors that start with "config.json <key>", or a model that the
// document validator accepts, and the page's store takes it in without throwing.

const counter = new FuzzCounter('hf config import');
const [mutatedRuns, extraRuns, textRuns, storeRuns] = fuzzRuns('hf config import', process.env['FUZZ_RUNS'], [5, 2, 2, 1]);
let imported = 0;

const LLAMA3_8B = JSON.parse(readFileSync(new URL('../../../e2e/data/llama3-8b-config.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;

/** One config per family the importer reads, with the keys each family's transformers class uses. */
const CONFIGS: readonly Record<string, unknown>[] = [
  LLAMA3_8B,
  {
    architectures: ['MixtralForCausalLM'],
    hidden_size: 4096,
    intermediate_size: 14336,
    num_attention_heads: 32,
    num_hidden_layers: 32,
    num_key_value_heads: 8,
    num_local_experts: 8,
    num_experts_per_tok: 2,
    vocab_size: 32000,
    router_aux_loss_coef: 0.02,
  },
  {
    architectures: ['Qwen2MoeForCausalLM'],
    hidden_size: 2048,
    intermediate_size: 5632,
    moe_intermediate_size: 1408,
    shared_expert_intermediate_size: 5632,
    num_experts: 60,
    num_experts_per_tok: 4,
    decoder_sparse_step: 1,
    mlp_only_layers: [],
    num_attention_heads: 16,
    num_hidden_layers: 24,
    num_key_value_heads: 16,
    vocab_size: 151936,
  },
  {
    architectures: ['DeepseekV3ForCausalLM'],
    hidden_size: 7168,
    intermediate_size: 18432,
    moe_intermediate_size: 2048,
    n_routed_experts: 256,
    n_shared_experts: 1,
    num_experts_per_tok: 8,
    first_k_dense_replace: 3,
    moe_layer_freq: 1,
    kv_lora_rank: 512,
    q_lora_rank: 1536,
    qk_nope_head_dim: 128,
    qk_rope_head_dim: 64,
    v_head_dim: 128,
    num_attention_heads: 128,
    num_key_value_heads: 128,
    num_hidden_layers: 61,
    num_nextn_predict_layers: 1,
    vocab_size: 129280,
  },
  { architectures: ['GPT2LMHeadModel'], n_embd: 768, n_head: 12, n_layer: 12, n_inner: null, vocab_size: 50257 },
  {
    architectures: ['GPTNeoXForCausalLM'],
    hidden_size: 5120,
    intermediate_size: 20480,
    num_attention_heads: 40,
    num_hidden_layers: 36,
    vocab_size: 50432,
  },
  {
    architectures: ['Gemma2ForCausalLM'],
    hidden_size: 2304,
    intermediate_size: 9216,
    num_attention_heads: 8,
    num_key_value_heads: 4,
    head_dim: 256,
    num_hidden_layers: 26,
    vocab_size: 256000,
    hidden_activation: 'gelu_pytorch_tanh',
  },
];

function check(text: string): void {
  counter.hit();
  const result = importHfText(text);
  if (result.ok) {
    imported += 1;
    const parsed = parseDocument({
      version: 1,
      model: result.model,
      training: { seqLen: 1024, globalBatch: 1 },
      cluster: { gpu: 'h100-sxm' },
    });
    ensure(parsed.ok, () => `an imported model is not a valid interchange model: ${parsed.ok ? '' : parsed.errors.join('; ')}`);
  } else {
    ensure(result.errors.length > 0, () => 'refused without an error');
    for (const error of result.errors)
      ensure(FIELD_NAMED.test(error) && error.startsWith('config.json'), () => `error does not name its config.json key: ${error}`);
  }
}

const config = fc.constantFrom(...CONFIGS);
const architecture = fc.oneof(
  fc.constantFrom(...SUPPORTED_ARCHITECTURES),
  fc.string({ maxLength: 20 }),
  fc.constantFrom('__proto__', 'constructor'),
);
/** Unknown fields as real configs carry them (rope_scaling, quantization_config, …) and hostile ones. */
const extraFields = fc.array(
  fc.tuple(
    fc.oneof(
      fc.constantFrom(...HOSTILE_KEYS),
      fc.string({ maxLength: 16 }),
      fc.constantFrom('rope_scaling', 'quantization_config', 'torch_dtype', 'auto_map', 'model_type', 'head_dim', 'mlp_only_layers'),
    ),
    wildJson(3),
  ),
  { minLength: 1, maxLength: 8 },
);

describe('hf config import fuzz: importHfText() on real, mutated and made-up config.json text', () => {
  afterAll(() => {
    console.log(counter.line(`${imported.toLocaleString('en-US')} imported as models`));
    expect(prototypeIsClean()).toBe(true);
  });

  it('real configs with fields deleted, wrapped or replaced (wrong types, edge numbers, long text, deep nesting)', () => {
    fc.assert(
      fc.property(config, fc.array(mutation(false), { minLength: 1, maxLength: 4 }), (raw, mutations) => {
        check(JSON.stringify(mutate(raw, mutations)) ?? 'null');
      }),
      { numRuns: mutatedRuns },
    );
  });

  it('real configs with unknown and prototype-pollution fields added, and the architecture swapped', () => {
    fc.assert(
      fc.property(config, extraFields, fc.option(architecture, { nil: undefined }), (raw, extra, arch) => {
        const entries = [...Object.entries(raw), ...extra, ...(arch === undefined ? [] : [['architectures', [arch]] as const])];
        check(JSON.stringify(objectFromEntries(entries)));
      }),
      { numRuns: extraRuns },
    );
  });

  it('text that is not a config: arbitrary strings, JSON of any shape, truncated configs', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 200 }),
      wildJson(5).map((v) => JSON.stringify(v) ?? 'null'),
      fc.tuple(config, fc.nat()).map(([raw, cut]) => {
        const t = JSON.stringify(raw);
        return t.slice(0, cut % t.length);
      }),
    );
    fc.assert(
      fc.property(text, (t) => {
        check(t);
      }),
      { numRuns: textRuns },
    );
  });

  it("the page store takes any import in without throwing: a model it shows, or the importer's errors", () => {
    fc.assert(
      fc.property(config, extraFields, fc.array(mutation(false), { maxLength: 2 }), (raw, extra, mutations) => {
        const base = mutate(raw, mutations);
        const fields = base !== null && typeof base === 'object' && !Array.isArray(base) ? Object.entries(base) : [];
        const text = JSON.stringify(objectFromEntries([...fields, ...extra]));
        check(text);
        const store = createPlannerStore();
        store.getState().importHfConfigText(text);
        const { importStatus, document } = store.getState();
        const direct = importHfText(text);
        expect(importStatus?.ok).toBe(direct.ok);
        expect(importStatus?.lines.length).toBeGreaterThan(0);
        if (direct.ok) expect(document['model']).toEqual(direct.model);
      }),
      { numRuns: storeRuns },
    );
  });
});

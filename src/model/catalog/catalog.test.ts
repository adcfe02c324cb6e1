import { describe, expect, it } from 'vitest';
import { parameterCounts } from '../structure/index.ts';
import { CATALOG, findCatalogEntry, MODEL_PRESETS, readCatalogModel, resolveModelByHubId } from './all.ts';
import { hubModelName, readModel, resolveHubId } from './index.ts';

const id = (hubId: string) => resolveModelByHubId(hubId)?.entry.id ?? null;

describe('the model catalog (issue 38 item 2)', () => {
  it('holds at least 60 models, with unique ids, every preset among them', () => {
    expect(CATALOG.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CATALOG.map((e) => e.id)).size).toBe(CATALOG.length);
    for (const preset of MODEL_PRESETS) expect(findCatalogEntry(preset.id)).toBe(preset);
  });

  it('names the families people train', () => {
    const families = [
      'llama3.2-',
      'llama3.3-',
      'llama4-',
      'qwen2.5-',
      'qwen3-',
      'qwen3-30b-a3b',
      'gemma2-',
      'gemma3-',
      'mistral-',
      'mixtral-',
      'phi3',
      'phi4',
      'deepseek-v2',
      'deepseek-v3',
      'gpt-oss-',
      'kimi-k2',
      'olmo2-',
      'nemotron',
    ];
    for (const family of families)
      expect(
        CATALOG.some((e) => e.id.startsWith(family)),
        family,
      ).toBe(true);
  });

  it.each(CATALOG.map((e) => [e.id, e] as const))('%s: names its sources and reads as a model with no warnings', (_id, entry) => {
    expect(entry.source.length).toBeGreaterThan(30);
    expect(entry.params.source.length).toBeGreaterThan(10);
    expect(entry.contextSource.length).toBeGreaterThan(20);
    // Every number from somewhere: a framework's definition at a commit, a config.json on the Hub, or a paper.
    expect(entry.source).toMatch(/commit [0-9a-f]{40}|config\.json|model_config\.yaml|arXiv \d{4}\.\d{5}/);
    const read = readModel(entry.id, CATALOG);
    expect(read.ok && read.warnings, entry.id).toEqual([]);
    if (entry.seqLen !== undefined) expect(entry.seqLen).toBeLessThanOrEqual(entry.longestContext);
  });

  it.each(CATALOG.map((e) => [e.id, e] as const))('%s: the engine counts its published total within 2 %%', (_id, entry) => {
    const read = readCatalogModel(entry.id);
    if (!read.ok) throw new Error(read.errors.join('; '));
    const counted = parameterCounts(read.model).total;
    expect(
      Math.abs(counted / entry.params.total - 1),
      `${entry.id}: engine ${counted.toExponential(4)} vs published ${entry.params.total.toExponential(4)}`,
    ).toBeLessThanOrEqual(0.02);
  });
});

describe('Hugging Face Hub id resolution', () => {
  it('resolves instruct, chat, base, reasoning and dated variants to the shape of their model', () => {
    expect(resolveModelByHubId('Qwen/Qwen3-4B-Instruct-2507')).toMatchObject({ entry: { id: 'qwen3-4b' }, exact: true });
    expect(id('Qwen/Qwen3-30B-A3B-Thinking-2507')).toBe('qwen3-30b-a3b');
    expect(id('Qwen/Qwen2.5-7B-Instruct')).toBe('qwen2.5-7b');
    expect(id('meta-llama/Llama-2-7b-chat-hf')).toBe('llama2-7b');
    expect(id('NousResearch/Meta-Llama-3-8B-Instruct')).toBe('llama3-8b');
    expect(id('casperhansen/llama-3-70b-fp16')).toBe('llama3-70b');
    expect(id('unsloth/Llama-3.2-1B-Instruct-bnb-4bit')).toBe('llama3.2-1b');
    expect(id('google/gemma-3-27b-it')).toBe('gemma3-27b');
    expect(id('deepseek-ai/DeepSeek-R1')).toBe('deepseek-v3');
    expect(id('openai/gpt-oss-20b')).toBe('gpt-oss-20b');
    expect(id('moonshotai/Kimi-K2-Instruct')).toBe('kimi-k2');
  });

  it('says when it matched by name rather than by a listed id, and which id', () => {
    const found = resolveModelByHubId('my-org/Qwen3-8B-Instruct-2507-FP8');
    expect(found).toMatchObject({ entry: { id: 'qwen3-8b' }, exact: false, matched: 'Qwen/Qwen3-8B' });
  });

  it('keeps versions and sizes apart, and answers null for a model it does not hold', () => {
    expect(id('mistralai/Mistral-7B-v0.1')).toBe('mistral-7b-v0.1');
    expect(id('mistralai/Mistral-7B-Instruct-v0.3')).toBe('mistral-7b-v0.3');
    expect(id('meta-llama/Llama-3.1-8B')).toBe('llama3.1-8b');
    expect(id('meta-llama/Meta-Llama-3-8B')).toBe('llama3-8b');
    expect(id('Qwen/Qwen3-4B')).not.toBe(id('Qwen/Qwen3-14B'));
    expect(id('someone/not-a-model-7B')).toBeNull();
    expect(id('')).toBeNull();
    expect(hubModelName('Qwen/Qwen3-4B-Instruct-2507')).toBe('qwen3-4b');
  });

  it('resolves over the presets alone before the whole catalog is loaded', () => {
    expect(resolveHubId('meta-llama/Llama-3.1-70B-Instruct', MODEL_PRESETS)?.entry.id).toBe('llama3.1-70b');
    expect(resolveHubId('Qwen/Qwen3-4B', MODEL_PRESETS)).toBeNull();
  });
});

describe('readModel', () => {
  it('reads a catalog id, a document and a model object alike, and says why it cannot', () => {
    const byId = readCatalogModel('llama3-8b');
    expect(readModel('llama3-8b', MODEL_PRESETS)).toEqual(byId);
    const preset = MODEL_PRESETS.find((p) => p.id === 'llama3-8b');
    const byDocument = readModel({ version: 1, model: preset?.model });
    const byModel = readModel(preset?.model);
    expect(byId.ok && byId.model.headDim).toBe(128); // 4096 / 32, the default filled in
    expect(byDocument).toEqual(byId);
    expect(byModel).toEqual(byId);
    expect(readModel('llama3-8b')).toMatchObject({ ok: false }); // no entries given
    expect(readCatalogModel('no-such-model')).toMatchObject({ ok: false, errors: ['model: no catalog entry is named no-such-model'] });
    const bad = readModel({ name: 'x', layers: 2, hidden: 64, heads: 8, kvHeads: 3, vocab: 10 });
    expect(bad).toMatchObject({ ok: false, errors: ['model.kvHeads: 3 must divide model.heads=8'] });
  });
});

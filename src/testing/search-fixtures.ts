// Runs the search tests, the benchmark and the command line's examples share: a model
// preset on a GPU preset for a global batch, as the base configuration of a search.
// Test support only: nothing in the app imports this file.

import { findModelPreset } from '../model/catalog/all.ts';
import { parseSearchDocument } from '../model/search/index.ts';
import type { ModelJson, RunConfig } from '../model/input/index.ts';

export interface SearchRunSpec {
  readonly model: string | ModelJson;
  readonly gpu: string;
  readonly gpus: number;
  readonly globalBatch: number;
  readonly seqLen: number;
  readonly training?: Readonly<Record<string, unknown>>;
}

/** The interchange document of a search run (no `parallel`: everything is searched). */
export function searchRunDocument(spec: SearchRunSpec): Record<string, unknown> {
  const model = typeof spec.model === 'string' ? findModelPreset(spec.model)?.model : spec.model;
  return {
    version: 1,
    model,
    training: { seqLen: spec.seqLen, globalBatch: spec.globalBatch, tokens: 3e11, ...spec.training },
    cluster: { gpu: spec.gpu, gpus: spec.gpus },
  };
}

/** The base configuration of a search run; throws on a bad spec (fixtures are code, not user input). */
export function searchBase(spec: SearchRunSpec): RunConfig {
  const parsed = parseSearchDocument(searchRunDocument(spec));
  if (!parsed.ok) throw new Error(`search fixture: ${parsed.errors.join('; ')}`);
  return parsed.base;
}

/** The three spaces of the benchmark (issue 5). */
export const BENCHMARK_SPACES: readonly (SearchRunSpec & { readonly label: string })[] = [
  {
    label: 'GPT-3 175B on 1,024 A100-80GB, batch 1,536 × 2,048',
    model: 'gpt3-175b',
    gpu: 'a100-80gb',
    gpus: 1024,
    globalBatch: 1536,
    seqLen: 2048,
  },
  {
    label: 'Llama 3 405B on 16,384 H100, batch 2,048 × 8,192',
    model: 'llama3-405b',
    gpu: 'h100-sxm',
    gpus: 16384,
    globalBatch: 2048,
    seqLen: 8192,
  },
  {
    label: 'Mixtral 8x22B on 256 H100, batch 1,024 × 4,096',
    model: 'mixtral-8x22b',
    gpu: 'h100-sxm',
    gpus: 256,
    globalBatch: 1024,
    seqLen: 4096,
  },
];

/**
 * The first and third spaces as LoRA fine-tunes (r16 on every matrix the model has): the search prices a fine-tune's frozen
 * base apart from its adapters (search/evaluate.ts), and the benchmark holds its rate to full training's on the same space.
 */
export const FINETUNE_BENCHMARK_SPACES: readonly (SearchRunSpec & { readonly label: string })[] = [0, 2].flatMap((i) => {
  const space = BENCHMARK_SPACES[i];
  if (!space) return [];
  const adapter = { method: 'lora', rank: 16, modules: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] };
  return [{ ...space, label: `${space.label}, LoRA r16`, training: { ...space.training, adapter } }];
});

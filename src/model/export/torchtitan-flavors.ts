// torchtitan builds a model from a named flavor, not from shapes: these are its Llama 3
// flavors, from pytorch/torchtitan torchtitan/models/llama3/__init__.py (llama3_configs,
// read at 00f555e). ffnHidden is its compute_ffn_hidden_dim(dim, multiple_of,
// ffn_dim_multiplier): 2/3 × 4 × dim, times the multiplier, rounded up to multiple_of
// (8B: 4096, 1024, 1.3 → 14336; 70B: 8192, 4096, 1.3 → 28672; 405B: 16384, 4096, 1.2 →
// 53248; debugmodel: 256, 256 → 768). The vocabulary is the Llama 3 tokenizer's 128,256
// where the flavor does not set vocab_size (debugmodel sets 2048). The export writes a
// flavor for a plan whose model matches one; the importer reads a flavor back as these shapes.

import { denseShape } from '../catalog/index.ts';
import type { ModelConfig } from '../input/index.ts';

export interface TorchtitanFlavor {
  readonly name: 'llama3';
  readonly flavor: string;
  /** The interchange model the flavor builds (headDim = hidden / heads). */
  readonly model: Omit<ModelConfig, 'headDim'>;
}

const LLAMA3_TOKENIZER_VOCAB = 128_256;

function llama3(
  flavor: string,
  displayName: string,
  layers: number,
  hidden: number,
  heads: number,
  kvHeads: number,
  ffnHidden: number,
  vocab = LLAMA3_TOKENIZER_VOCAB,
): TorchtitanFlavor {
  return {
    name: 'llama3',
    flavor,
    model: denseShape(displayName, layers, hidden, heads, kvHeads, ffnHidden, vocab),
  };
}

export const TORCHTITAN_FLAVORS: readonly TorchtitanFlavor[] = [
  llama3('debugmodel', 'torchtitan llama3 debugmodel', 6, 256, 16, 16, 768, 2048),
  llama3('8B', 'Llama 3 8B', 32, 4096, 32, 8, 14336),
  llama3('70B', 'Llama 3 70B', 80, 8192, 64, 8, 28672),
  llama3('405B', 'Llama 3 405B', 126, 16384, 128, 8, 53248),
];

/** The flavor that builds exactly this model, or undefined. */
export function torchtitanFlavorOf(m: Readonly<ModelConfig>): TorchtitanFlavor | undefined {
  return TORCHTITAN_FLAVORS.find(
    ({ model: f }) =>
      f.layers === m.layers &&
      f.hidden === m.hidden &&
      f.heads === m.heads &&
      f.kvHeads === m.kvHeads &&
      f.ffnHidden === m.ffnHidden &&
      f.ffnType === m.ffnType &&
      f.vocab === m.vocab &&
      f.tiedEmbeddings === m.tiedEmbeddings &&
      !m.moe &&
      !m.mla &&
      m.mtpLayers === 0 &&
      m.headDim * m.heads === m.hidden,
  );
}

/** A flavor by its model name and flavor name as a torchtitan TOML gives them. */
export function torchtitanFlavor(name: string, flavor: string): TorchtitanFlavor | undefined {
  return TORCHTITAN_FLAVORS.find((f) => f.name === name && f.flavor === flavor);
}
